/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH FIDO public keys from a mapping file's @ssh-sk lines and from
 * authorized_keys lines (sshline.h). Its own file because these lines
 * are a format of their own beside the mapping lines (authfile.c); each
 * key is parsed by the ssh layer (sshpub_parse). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"
#include "sshline.h"

#define SSHLINE_MAX 16384 /* bytes of one line, far above any sk key */

struct sshline_list {
	struct sshpub *keys;
	size_t n;
};

static bool
sl_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Skip leading blanks of s (len bytes). */
static const char *
sl_skip(const char *s, size_t *len)
{
	while (*len > 0 && sl_blank(*s)) {
		s++;
		(*len)--;
	}
	return s;
}

bool
sshline_is_mark(const char *s, size_t len)
{
	size_t m = strlen(SSHLINE_MARK);

	s = sl_skip(s, &len);
	return len > m && memcmp(s, SSHLINE_MARK, m) == 0 && sl_blank(s[m]);
}

/* Parse the line s (len bytes) with sshpub_parse and add it to l. */
static int
sl_add(struct sshline_list *l, const char *s, size_t len)
{
	struct sshpub *k;
	char *line;
	int r;

	if (l->n >= SSHLINE_KEYS_MAX)
		return ERR_TOO_BIG;
	if (len > SSHLINE_MAX)
		return ERR_PARSE;
	if ((line = malloc(len + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(line, s, len);
	line[len] = '\0';
	if ((k = realloc(l->keys, (l->n + 1) * sizeof(*k))) == NULL) {
		free(line);
		return ERR_NOMEM;
	}
	l->keys = k;
	memset(&k[l->n], 0, sizeof(*k));
	r = sshpub_parse(line, &k[l->n]);
	free(line);
	if (r == ERR_OK)
		l->n++;
	return r;
}

/* The next line of buf at *at: its start and length (no '\n', no
 * trailing '\r'). False at the end. */
static bool
sl_next(const char *buf, size_t len, size_t *at, const char **s, size_t *sl)
{
	const char *nl;

	if (*at >= len)
		return false;
	*s = buf + *at;
	nl = memchr(*s, '\n', len - *at);
	*sl = nl != NULL ? (size_t)(nl - *s) : len - *at;
	*at += *sl + 1;
	if (*sl > 0 && (*s)[*sl - 1] == '\r')
		(*sl)--;
	return true;
}

/* After the mark: is the line user's? Then *rest, *rlen the key part. */
static bool
sl_users(const char *s, size_t len, const char *user, const char **rest,
    size_t *rlen)
{
	size_t ulen = strlen(user), m = strlen(SSHLINE_MARK);

	s = sl_skip(s, &len) + m;
	len -= m;
	s = sl_skip(s, &len);
	if (len <= ulen || memcmp(s, user, ulen) != 0 || !sl_blank(s[ulen]))
		return false;
	*rest = s + ulen;
	*rlen = len - ulen;
	return true;
}

/* End of a search: the list out, or freed on error. */
static int
sl_end(struct sshline_list *l, int r, struct sshpub **keys, size_t *n)
{
	if (r == ERR_OK && l->n == 0)
		r = ERR_NOT_FOUND;
	if (r != ERR_OK) {
		sshpub_free_list(l->keys, l->n);
		return r;
	}
	*keys = l->keys;
	*n = l->n;
	return ERR_OK;
}

int
sshline_find(const char *buf, size_t len, const char *user,
    struct sshpub **keys, size_t *n, size_t *bad_line)
{
	struct sshline_list l = {NULL, 0};
	const char *s, *rest;
	size_t at = 0, sl, rlen, lineno = 0;
	int r = ERR_OK;

	*keys = NULL;
	*n = 0;
	*bad_line = 0;
	if (user == NULL || user[0] == '\0')
		return ERR_INVAL;
	if (memchr(buf, '\0', len) != NULL)
		return ERR_PARSE;
	while (r == ERR_OK && sl_next(buf, len, &at, &s, &sl)) {
		lineno++;
		if (!sshline_is_mark(s, sl) ||
		    !sl_users(s, sl, user, &rest, &rlen))
			continue;
		if ((r = sl_add(&l, rest, rlen)) != ERR_OK) {
			*bad_line = lineno;
			if (r != ERR_NOMEM && r != ERR_TOO_BIG)
				r = ERR_PARSE;
		}
	}
	return sl_end(&l, r, keys, n);
}

int
sshline_authorized(const char *buf, size_t len, struct sshpub **keys, size_t *n,
    size_t *nother, size_t *bad_line)
{
	struct sshline_list l = {NULL, 0};
	const char *s;
	size_t at = 0, sl, lineno = 0;
	int r = ERR_OK;

	*keys = NULL;
	*n = 0;
	*nother = 0;
	*bad_line = 0;
	if (memchr(buf, '\0', len) != NULL)
		return ERR_PARSE;
	while (r == ERR_OK && sl_next(buf, len, &at, &s, &sl)) {
		lineno++;
		s = sl_skip(s, &sl);
		if (sl == 0 || s[0] == '#')
			continue;
		r = sl_add(&l, s, sl);
		if (r == ERR_UNSUPPORTED) {
			(*nother)++;
			r = ERR_OK;
		} else if (r != ERR_OK) {
			*bad_line = lineno;
			if (r != ERR_NOMEM && r != ERR_TOO_BIG)
				r = ERR_PARSE;
		}
	}
	return sl_end(&l, r, keys, n);
}
