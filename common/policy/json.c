/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON reader of json.h. Its own file because the MDS BLOB is the
 * only JSON the project reads, and a parser of hostile text should be
 * small enough to read whole. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "json.h"

void
json_rd_init(struct json_rd *r, const char *p, size_t len)
{
	r->p = p;
	r->end = p + len;
}

static void
ws(struct json_rd *r)
{
	while (r->p < r->end &&
	    (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

bool
json_rd_done(struct json_rd *r)
{
	ws(r);
	return r->p == r->end;
}

static int
expect(struct json_rd *r, char c)
{
	ws(r);
	if (r->p >= r->end || *r->p != c)
		return ERR_PARSE;
	r->p++;
	return ERR_OK;
}

int
json_obj_begin(struct json_rd *r)
{
	return expect(r, '{');
}

int
json_arr_begin(struct json_rd *r)
{
	return expect(r, '[');
}

int
json_next(struct json_rd *r, char close, bool first, bool *more)
{
	ws(r);
	if (r->p >= r->end)
		return ERR_PARSE;
	if (*r->p == close) {
		r->p++;
		*more = false;
		return ERR_OK;
	}
	if (!first && expect(r, ',') != ERR_OK)
		return ERR_PARSE;
	*more = true;
	return ERR_OK;
}

static int
hex4(const char *p, unsigned *v)
{
	unsigned i, d;
	char c;

	*v = 0;
	for (i = 0; i < 4; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return ERR_PARSE;
		*v = *v << 4 | d;
	}
	return ERR_OK;
}

/* One escape after '\\': its character into *c. */
static int
unescape(struct json_rd *r, char *c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned v;

	if (r->p >= r->end)
		return ERR_PARSE;
	if (*r->p == 'u') {
		if (r->end - r->p < 5 || hex4(r->p + 1, &v) != ERR_OK)
			return ERR_PARSE;
		r->p += 5;
		*c = v >= 0x20 && v < 0x7f ? (char)v : '?';
		return ERR_OK;
	}
	if ((k = strchr(from, *r->p)) == NULL || *r->p == '\0')
		return ERR_PARSE;
	*c = to[k - from];
	r->p++;
	return ERR_OK;
}

int
json_string(struct json_rd *r, char *out, size_t cap, size_t *len)
{
	size_t n = 0;
	char c;

	if (expect(r, '"') != ERR_OK)
		return ERR_PARSE;
	for (;;) {
		if (r->p >= r->end || (unsigned char)*r->p < 0x20)
			return ERR_PARSE;
		c = *r->p++;
		if (c == '"')
			break;
		if (c == '\\' && unescape(r, &c) != ERR_OK)
			return ERR_PARSE;
		if (out != NULL) {
			if (n + 1 >= cap)
				return ERR_TOO_BIG;
			out[n] = c;
		}
		n++;
	}
	if (out != NULL)
		out[n] = '\0';
	if (len != NULL)
		*len = n;
	return ERR_OK;
}

int
json_key(struct json_rd *r, char *key, size_t cap)
{
	if (json_string(r, key, cap, NULL) != ERR_OK)
		return ERR_PARSE;
	return expect(r, ':');
}

int
json_int(struct json_rd *r, int64_t *v)
{
	bool neg = false;
	int64_t x = 0;
	int d, n = 0;

	ws(r);
	if (r->p < r->end && *r->p == '-') {
		neg = true;
		r->p++;
	}
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		d = *r->p++ - '0';
		if (x > (INT64_MAX - d) / 10)
			return ERR_PARSE;
		x = x * 10 + d;
		n++;
	}
	if (n == 0 ||
	    (r->p < r->end && strchr(".eE", *r->p) != NULL && *r->p != '\0'))
		return ERR_PARSE;
	*v = neg ? -x : x;
	return ERR_OK;
}

static int skip_depth(struct json_rd *r, int depth);

/* The rest of an object or array after its opening bracket. */
static int
skip_members(struct json_rd *r, char close, int depth)
{
	bool more = true, first = true;

	for (;;) {
		if (json_next(r, close, first, &more) != ERR_OK)
			return ERR_PARSE;
		if (!more)
			return ERR_OK;
		first = false;
		if (close == '}' && json_key(r, NULL, 0) != ERR_OK)
			return ERR_PARSE;
		if (skip_depth(r, depth + 1) != ERR_OK)
			return ERR_PARSE;
	}
}

/* A literal or a number: the characters they may hold. */
static int
skip_scalar(struct json_rd *r)
{
	const char *start = r->p;
	size_t n;

	while (r->p < r->end && strchr("0123456789+-.eEtruefalsn", *r->p) &&
	    *r->p != '\0')
		r->p++;
	n = (size_t)(r->p - start);
	if (n == 0)
		return ERR_PARSE;
	if ((n == 4 &&
		(memcmp(start, "true", 4) == 0 ||
		    memcmp(start, "null", 4) == 0)) ||
	    (n == 5 && memcmp(start, "false", 5) == 0))
		return ERR_OK;
	return (start[0] == '-' || (start[0] >= '0' && start[0] <= '9'))
	    ? ERR_OK
	    : ERR_PARSE;
}

static int
skip_depth(struct json_rd *r, int depth)
{
	if (depth > JSON_DEPTH_MAX)
		return ERR_PARSE;
	ws(r);
	if (r->p >= r->end)
		return ERR_PARSE;
	switch (*r->p) {
	case '{':
		r->p++;
		return skip_members(r, '}', depth);
	case '[':
		r->p++;
		return skip_members(r, ']', depth);
	case '"':
		return json_string(r, NULL, 0, NULL);
	default:
		return skip_scalar(r);
	}
}

int
json_skip(struct json_rd *r)
{
	return skip_depth(r, 0);
}

int
json_each_member(struct json_rd *r,
    int (*fn)(struct json_rd *r, const char *key, void *arg), void *arg)
{
	char key[JSON_KEY_MAX];
	bool more = true, first = true;
	int rc;

	if (json_obj_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, '}', first, &more) == ERR_OK && more) {
		first = false;
		if (json_key(r, key, sizeof(key)) != ERR_OK)
			return ERR_PARSE;
		if ((rc = fn(r, key, arg)) != ERR_OK)
			return rc;
	}
	return more ? ERR_PARSE : ERR_OK;
}

int
json_each_element(
    struct json_rd *r, int (*fn)(struct json_rd *r, void *arg), void *arg)
{
	bool more = true, first = true;
	int rc;

	if (json_arr_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, ']', first, &more) == ERR_OK && more) {
		first = false;
		if ((rc = fn(r, arg)) != ERR_OK)
			return rc;
	}
	return more ? ERR_PARSE : ERR_OK;
}
