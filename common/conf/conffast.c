/* SPDX-License-Identifier: BSD-2-Clause */
/* conf_fast: the usual configuration file, parsed without libconfuse
 * (see conffast.h). Its own file because it is a second reader of the
 * file's syntax, kept to the small subset it can read exactly as
 * libconfuse 3.3 does, and it must stay apart from conf.c's libconfuse
 * callbacks: it never includes <confuse.h>.
 *
 * Why: libconfuse builds and copies its schema of every option at each
 * cfg_init, checks it for duplicate names, and looks each option up by
 * name; for a four-line file that is about 0.12 M instructions per
 * authentication, as much as everything else in the module but the
 * signature check (bench/analysis.md, issue 27).
 *
 * The subset, on conf_scan's copy (comments already blanked, bare flags
 * already "= true", NUL bytes and "${" already refused): lines that are
 * blank or exactly one assignment
 *	[ \t]* KEY [ \t]* '=' [ \t]* VALUE [ \t]* '\n'
 * where KEY is a scalar key of the file (not a list, not the ldap
 * section), set once in the file, and VALUE is either an unquoted token
 * of letters, digits and _ . : @ % ~ - / (no two slashes, no slash and
 * star), or a
 * double-quoted string of printable characters without '\\', '"' or
 * '$' (no escape, no substitution, no newline), and conf_opt_parse
 * accepts it. libconfuse's lexer reads such a line as the three tokens
 * KEY, '=', VALUE with VALUE's text unchanged, and conf.c's callbacks
 * then store exactly what conf_fast stores. Anything else (a list, a
 * section, an escape, a duplicate, an unknown key, a bad value, a line
 * break inside an assignment) is declined, and libconfuse parses the
 * file and writes the message: conf_fast never writes an error. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "conffast.h"
#include "base/err.h"

#define FAST_INT_TEXT 24 /* a long in decimal */

/* Each key's value: where it is in the text and how long. */
struct fast_vals {
	size_t off[CONF_NKEYS], len[CONF_NKEYS];
	bool set[CONF_NKEYS];
};

static bool
fast_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
fast_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static bool
fast_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' && strchr("_.:@%~-/", c));
}

/* A printable character of a double-quoted value that libconfuse copies
 * as it is: not '"' or '\\' (the end, an escape), not '$' ("${"). */
static bool
fast_quoted_char(char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '$';
}

/* The value starting at p (the line ends at e): its text in *val, *len;
 * returns where it ends, or NULL when it is outside the subset. */
static const char *
fast_value(const char *p, const char *e, const char **val, size_t *len)
{
	const char *q = p;

	if (q < e && *q == '"') {
		for (q++; q < e && fast_quoted_char(*q); q++)
			;
		if (q >= e || *q != '"')
			return NULL;
		*val = p + 1;
		*len = (size_t)(q - p) - 1;
		return q + 1;
	}
	for (; q < e && fast_token_char(*q); q++)
		if (*q == '/' && q + 1 < e && (q[1] == '/' || q[1] == '*'))
			return NULL;
	if (q == p)
		return NULL;
	*val = p;
	*len = (size_t)(q - p);
	return q;
}

/* One line [p, e) of text: blank, or an assignment recorded into v.
 * false when the line is outside the subset. */
static bool
fast_line(const char *text, const char *p, const char *e, struct fast_vals *v)
{
	const char *key, *val = NULL;
	enum conf_key k;
	size_t len = 0;

	while (p < e && fast_blank(*p))
		p++;
	if (p == e)
		return true;
	for (key = p; p < e && fast_key_char(*p); p++)
		;
	if (p == key)
		return false;
	k = conf_opt_find(key, (size_t)(p - key));
	if ((unsigned int)k >= CONF_NKEYS || v->set[k] ||
	    conf_opt(k)->type == CONF_T_LIST)
		return false;
	while (p < e && fast_blank(*p))
		p++;
	if (p == e || *p++ != '=')
		return false;
	while (p < e && fast_blank(*p))
		p++;
	if ((p = fast_value(p, e, &val, &len)) == NULL || len > CONF_STRING_MAX)
		return false;
	while (p < e && fast_blank(*p))
		p++;
	if (p != e)
		return false;
	v->set[k] = true;
	v->off[k] = (size_t)(val - text);
	v->len[k] = len;
	return true;
}

/* Key k's value as NUL-terminated text in buf (CONF_STRING_MAX + 1). */
static const char *
fast_text(
    const char *text, const struct fast_vals *v, enum conf_key k, char *buf)
{
	memcpy(buf, text + v->off[k], v->len[k]);
	buf[v->len[k]] = '\0';
	return buf;
}

/* What conf.c's conf_take passes to conf_opt_set for a value libconfuse
 * stored through conf_cb_value: a boolean as "true" or "false" (cfg_true
 * is 1), a number in decimal, an enum's name, a string as it is. */
static const char *
fast_stored(enum conf_key k, const char *value, long num, char *tmp)
{
	switch (conf_opt(k)->type) {
	case CONF_T_BOOL:
		return (int)num == 1 ? "true" : "false";
	case CONF_T_INT:
		snprintf(tmp, FAST_INT_TEXT, "%ld", num);
		return tmp;
	case CONF_T_ENUM:
		return conf_opt_value(k, (int)num);
	case CONF_T_STR:
	case CONF_T_LIST:
		break;
	}
	return value;
}

int
conf_fast(const char *text, struct conf *out)
{
	char buf[CONF_STRING_MAX + 1], num_text[FAST_INT_TEXT];
	struct fast_vals v;
	const char *p = text, *e, *value;
	long num[CONF_NKEYS];
	size_t k;
	int r;

	memset(&v, 0, sizeof(v));
	for (; *p != '\0'; p = *e == '\n' ? e + 1 : e) {
		if ((e = strchr(p, '\n')) == NULL)
			e = p + strlen(p);
		if (!fast_line(text, p, e, &v))
			return CONF_FAST_DECLINED;
	}
	/* Every value as conf_cb_value checks it, before anything is set. */
	for (k = 0; k < CONF_NKEYS; k++) {
		num[k] = 0;
		if (v.set[k] &&
		    conf_opt_parse((enum conf_key)k, CONF_SRC_FILE,
			fast_text(text, &v, (enum conf_key)k, buf), &num[k],
			NULL, 0) != ERR_OK)
			return CONF_FAST_DECLINED;
	}
	/* Then stored in conf_extract's order, with its results. */
	for (k = 0; k < CONF_NKEYS; k++) {
		if (!v.set[k])
			continue;
		value = fast_stored((enum conf_key)k,
		    fast_text(text, &v, (enum conf_key)k, buf), num[k],
		    num_text);
		if ((r = conf_opt_set(out, (enum conf_key)k, CONF_SRC_FILE,
			 value, NULL, 0)) != ERR_OK)
			return r == ERR_NOMEM ? r : ERR_CONFIG;
	}
	return ERR_OK;
}
