/* SPDX-License-Identifier: BSD-2-Clause */
/* conf_scan: the configuration file's text checked and copied for
 * libconfuse (see confscan.h). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "confscan.h"
#include "base/err.h"

enum scan_state { SC_TEXT, SC_DQ, SC_SQ, SC_COMMENT };

struct scan {
	enum scan_state st;
	int line;
	int depth;       /* open braces */
	const char *why; /* the problem found, or NULL */
	char *out;       /* the copy for libconfuse */
	size_t olen;
	size_t bol; /* where the current line starts in out */
	bool (*is_flag)(const char *name, size_t n);
};

#define SCAN_YES " = true" /* what a bare flag line gets */

/* Does byte i start a token ("//" there opens a comment)? Asked only
 * for a '/': a strchr for every byte was half of conf_scan's cost. */
static bool
scan_start(const char *p, size_t i)
{
	return i == 0 || strchr(" \t\n={}(),", p[i - 1]) != NULL;
}

/* One byte in plain text. */
static void
scan_text(struct scan *sc, const char *p, size_t i, size_t len)
{
	char c = p[i], next = i + 1 < len ? p[i + 1] : '\0';

	if (c == '"')
		sc->st = SC_DQ;
	else if (c == '\'')
		sc->st = SC_SQ;
	else if (c == '#' || (c == '/' && next == '/' && scan_start(p, i)))
		sc->st = SC_COMMENT;
	else if (c == '{' || c == '}')
		sc->depth += c == '{' ? 1 : -1;
	else if (c == '/' && next == '*')
		sc->why = "block comments are not supported (use #)";
	else if (c == '*')
		sc->why = "stray '*'";
	else if (c == '+' && next != '=')
		sc->why = "stray '+'";
	else if (c == '\r' && next != '\n')
		sc->why = "stray carriage return";
	else if (c == '$' && next == '{')
		sc->why = "\"${\" is not allowed (no environment variable "
			  "substitution)";
}

/* Returns how many extra bytes belong to this one (an escape). */
static size_t
scan_byte(struct scan *sc, const char *p, size_t i, size_t len)
{
	char c = p[i], next = i + 1 < len ? p[i + 1] : '\0';

	if (c == '\0') {
		sc->why = "NUL byte";
		return 0;
	}
	switch (sc->st) {
	case SC_TEXT:
		scan_text(sc, p, i, len);
		return 0;
	case SC_COMMENT:
		if (c == '\n')
			sc->st = SC_TEXT;
		return 0;
	case SC_DQ:
		if (c == '$' && next == '{')
			scan_text(sc, p, i, len);
		else if (c == '"')
			sc->st = SC_TEXT;
		return c == '\\' && next != '\0' && next != '\n' ? 1 : 0;
	case SC_SQ:
		if (c == '\'')
			sc->st = SC_TEXT;
		return c == '\\' && (next == '\\' || next == '\'') ? 1 : 0;
	}
	return 0;
}

/* At the end of a line in plain text: a bare boolean key gets "= true". */
static void
scan_eol(struct scan *sc)
{
	static const char yes[] = SCAN_YES;
	const char *p = sc->out + sc->bol, *end = sc->out + sc->olen;
	size_t n;

	if ((sc->st != SC_TEXT && sc->st != SC_COMMENT) || sc->depth != 0)
		return;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (
	    end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	n = (size_t)(end - p);
	if (n > 0 && sc->is_flag(p, n)) {
		memcpy(sc->out + sc->olen, yes, sizeof(yes) - 1);
		sc->olen += sizeof(yes) - 1;
	}
}

/* The most the copy can need: every line (the last may lack its '\n')
 * could be a bare flag and gain SCAN_YES, whatever the flags' names. */
static size_t
scan_room(const char *buf, size_t len)
{
	size_t i, lines = 1;

	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	return len + lines * (sizeof(SCAN_YES) - 1) + 1;
}

int
conf_scan(const char *buf, size_t len,
    bool (*is_flag)(const char *name, size_t n), char **out, int *line,
    const char **why)
{
	struct scan sc = {SC_TEXT, 1, 0, NULL, NULL, 0, 0, is_flag};
	size_t i, j, extra;

	*out = NULL;
	*line = 0;
	*why = NULL;
	if (len > CONF_MAX_SIZE)
		sc.why = "the file is too large";
	else if ((sc.out = malloc(scan_room(buf, len))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < len && sc.why == NULL; i += 1 + extra) {
		if (buf[i] == '\n') {
			scan_eol(&sc);
			sc.line++;
		}
		extra = scan_byte(&sc, buf, i, len);
		for (j = 0; j <= extra; j++)
			sc.out[sc.olen++] =
			    sc.st == SC_COMMENT && buf[i + j] != '\n'
			    ? ' '
			    : buf[i + j];
		if (buf[i] == '\n')
			sc.bol = sc.olen;
	}
	if (sc.why == NULL && (sc.st == SC_DQ || sc.st == SC_SQ))
		sc.why = "unterminated string";
	if (sc.why != NULL) {
		*line = sc.line;
		*why = sc.why;
		free(sc.out);
		return ERR_CONFIG;
	}
	scan_eol(&sc);
	sc.out[sc.olen] = '\0';
	*out = sc.out;
	return ERR_OK;
}
