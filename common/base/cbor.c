/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2's CBOR: a bounded canonical writer and a strict reader (cbor.h). */
#include "cbor.h"

#include <string.h>

#include "err.h"

/* ---- writer ---- */

void
cbor_wr_init(struct cbor_wr *w, uint8_t *buf, size_t cap)
{
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->err = ERR_OK;
}

static void
put_raw(struct cbor_wr *w, const void *p, size_t n)
{
	if (w->err != ERR_OK)
		return;
	if (n > w->cap - w->len) {
		w->err = ERR_TOO_BIG;
		return;
	}
	if (n > 0)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

/* A head with the shortest argument encoding. */
static void
put_head(struct cbor_wr *w, unsigned major, uint64_t v)
{
	uint8_t h[9];
	size_t n, i;

	if (v < 24) {
		h[0] = (uint8_t)(major << 5 | v);
		n = 1;
	} else {
		unsigned ai = v <= 0xff ? 24
		    : v <= 0xffff       ? 25
		    : v <= 0xffffffffu  ? 26
					: 27;
		n = (size_t)1 << (ai - 24);
		h[0] = (uint8_t)(major << 5 | ai);
		for (i = 0; i < n; i++)
			h[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
		n++;
	}
	put_raw(w, h, n);
}

void
cbor_put_uint(struct cbor_wr *w, uint64_t v)
{
	put_head(w, CBOR_UINT, v);
}

void
cbor_put_int(struct cbor_wr *w, int64_t v)
{
	if (v >= 0)
		put_head(w, CBOR_UINT, (uint64_t)v);
	else
		put_head(w, CBOR_NINT, (uint64_t)(-(v + 1)));
}

void
cbor_put_bytes(struct cbor_wr *w, const void *p, size_t n)
{
	put_head(w, CBOR_BYTES, n);
	put_raw(w, p, n);
}

void
cbor_put_text(struct cbor_wr *w, const char *s, size_t n)
{
	put_head(w, CBOR_TEXT, n);
	put_raw(w, s, n);
}

void
cbor_put_str(struct cbor_wr *w, const char *s)
{
	cbor_put_text(w, s, strlen(s));
}

void
cbor_put_bool(struct cbor_wr *w, bool v)
{
	put_head(w, CBOR_SIMPLE, v ? 21 : 20);
}

void
cbor_put_array(struct cbor_wr *w, size_t n)
{
	put_head(w, CBOR_ARRAY, n);
}

void
cbor_put_map(struct cbor_wr *w, size_t n)
{
	put_head(w, CBOR_MAP, n);
}

int
cbor_wr_end(const struct cbor_wr *w, size_t *len)
{
	if (w->err != ERR_OK)
		return w->err;
	*len = w->len;
	return ERR_OK;
}

/* ---- heads ---- */

struct head {
	unsigned major;
	uint64_t arg;
	size_t hlen;   /* bytes of the head */
	bool shortest; /* the argument used its shortest encoding */
};

/* Read the head at p[0..len). ERR_PARSE for a truncated head, an
 * indefinite length or a reserved additional-information value. */
static int
read_head(const uint8_t *p, size_t len, struct head *h)
{
	unsigned ai;
	size_t n, i;

	if (len < 1)
		return ERR_PARSE;
	h->major = p[0] >> 5;
	ai = p[0] & 0x1f;
	if (ai < 24) {
		h->arg = ai;
		h->hlen = 1;
		h->shortest = true;
		return ERR_OK;
	}
	if (ai > 27)
		return ERR_PARSE; /* reserved, or indefinite (31) */
	n = (size_t)1 << (ai - 24);
	if (len < 1 + n)
		return ERR_PARSE;
	h->arg = 0;
	for (i = 0; i < n; i++)
		h->arg = h->arg << 8 | p[1 + i];
	h->hlen = 1 + n;
	h->shortest = ai == 24 ? h->arg >= 24 : h->arg >> (4 * n) != 0;
	return ERR_OK;
}

/* ---- validation ---- */

struct chk {
	const uint8_t *p;
	size_t len;
	size_t pos;
};

static int check_item(struct chk *c, int depth);

/* RFC 3629 UTF-8: no overlongs, no surrogates, nothing above U+10FFFF. */
static bool
utf8_ok(const uint8_t *s, size_t n)
{
	size_t i = 0, k, need;
	uint32_t cp, min;

	while (i < n) {
		uint8_t b = s[i++];
		if (b < 0x80)
			continue;
		if (b >= 0xc2 && b <= 0xdf) {
			need = 1, cp = b & 0x1f, min = 0x80;
		} else if (b >= 0xe0 && b <= 0xef) {
			need = 2, cp = b & 0x0f, min = 0x800;
		} else if (b >= 0xf0 && b <= 0xf4) {
			need = 3, cp = b & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i < need)
			return false;
		for (k = 0; k < need; k++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i++] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
	}
	return true;
}

/* CTAP2's canonical key order: major type, then encoded length, then
 * bytes. <0, 0, >0 like memcmp. */
static int
key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if ((a[0] >> 5) != (b[0] >> 5))
		return (a[0] >> 5) < (b[0] >> 5) ? -1 : 1;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

static int
check_map(struct chk *c, uint64_t n, int depth)
{
	const uint8_t *prev = NULL;
	size_t prev_len = 0, start;
	uint64_t i;
	int r;

	for (i = 0; i < n; i++) {
		start = c->pos;
		if (c->pos >= c->len)
			return ERR_PARSE;
		if ((c->p[c->pos] >> 5) > CBOR_TEXT)
			return ERR_PARSE; /* keys: integers and strings */
		if ((r = check_item(c, depth + 1)) != ERR_OK)
			return r;
		if (prev != NULL &&
		    key_cmp(prev, prev_len, c->p + start, c->pos - start) >= 0)
			return ERR_PARSE; /* out of order or duplicate */
		prev = c->p + start;
		prev_len = c->pos - start;
		if ((r = check_item(c, depth + 1)) != ERR_OK)
			return r;
	}
	return ERR_OK;
}

static int
check_string(struct chk *c, const struct head *h)
{
	if (h->arg > c->len - c->pos)
		return ERR_PARSE;
	if (h->major == CBOR_TEXT && !utf8_ok(c->p + c->pos, (size_t)h->arg))
		return ERR_PARSE;
	c->pos += (size_t)h->arg;
	return ERR_OK;
}

static int
check_item(struct chk *c, int depth)
{
	struct head h;
	uint64_t i;
	int r;

	if ((r = read_head(c->p + c->pos, c->len - c->pos, &h)) != ERR_OK)
		return r;
	if ((h.major == CBOR_ARRAY || h.major == CBOR_MAP) &&
	    depth > CBOR_MAX_DEPTH)
		return ERR_TOO_BIG;
	if (!h.shortest)
		return ERR_PARSE;
	c->pos += h.hlen;
	switch (h.major) {
	case CBOR_UINT:
	case CBOR_NINT:
		return ERR_OK;
	case CBOR_BYTES:
	case CBOR_TEXT:
		return check_string(c, &h);
	case CBOR_ARRAY:
	case CBOR_MAP:
		if (h.arg > CBOR_MAX_COUNT)
			return ERR_TOO_BIG;
		/* each entry takes at least one byte (a pair two) */
		if (h.arg * (h.major == CBOR_MAP ? 2 : 1) > c->len - c->pos)
			return ERR_PARSE;
		if (h.major == CBOR_MAP)
			return check_map(c, h.arg, depth);
		for (i = 0; i < h.arg; i++)
			if ((r = check_item(c, depth + 1)) != ERR_OK)
				return r;
		return ERR_OK;
	case CBOR_SIMPLE:
		return h.hlen == 1 && (h.arg == 20 || h.arg == 21) ? ERR_OK
								   : ERR_PARSE;
	default:
		return ERR_PARSE; /* tags */
	}
}

int
cbor_check(const uint8_t *p, size_t len)
{
	struct chk c = {p, len, 0};
	int r;

	if (p == NULL || len == 0)
		return ERR_PARSE;
	if ((r = check_item(&c, 1)) != ERR_OK)
		return r;
	return c.pos == len ? ERR_OK : ERR_PARSE;
}

/* ---- reader ---- */

void
cbor_rd_init(struct cbor_rd *r, const uint8_t *p, size_t len)
{
	r->p = p;
	r->len = p == NULL ? 0 : len;
	r->pos = 0;
}

bool
cbor_rd_done(const struct cbor_rd *r)
{
	return r->pos >= r->len;
}

static int
peek_head(const struct cbor_rd *r, struct head *h)
{
	if (r->pos >= r->len)
		return ERR_PARSE;
	return read_head(r->p + r->pos, r->len - r->pos, h);
}

int
cbor_peek(const struct cbor_rd *r, enum cbor_type *t)
{
	if (r->pos >= r->len)
		return ERR_PARSE;
	*t = (enum cbor_type)(r->p[r->pos] >> 5);
	return ERR_OK;
}

int
cbor_get_uint(struct cbor_rd *r, uint64_t *v)
{
	struct head h;

	if (peek_head(r, &h) != ERR_OK || h.major != CBOR_UINT)
		return ERR_PARSE;
	*v = h.arg;
	r->pos += h.hlen;
	return ERR_OK;
}

int
cbor_get_int(struct cbor_rd *r, int64_t *v)
{
	struct head h;

	if (peek_head(r, &h) != ERR_OK || h.major > CBOR_NINT ||
	    h.arg > INT64_MAX)
		return ERR_PARSE;
	*v = h.major == CBOR_UINT ? (int64_t)h.arg : -1 - (int64_t)h.arg;
	r->pos += h.hlen;
	return ERR_OK;
}

static int
get_string(struct cbor_rd *r, unsigned major, const uint8_t **p, size_t *n)
{
	struct head h;

	if (peek_head(r, &h) != ERR_OK || h.major != major ||
	    h.arg > r->len - r->pos - h.hlen)
		return ERR_PARSE;
	*p = r->p + r->pos + h.hlen;
	*n = (size_t)h.arg;
	r->pos += h.hlen + (size_t)h.arg;
	return ERR_OK;
}

int
cbor_get_bytes(struct cbor_rd *r, const uint8_t **p, size_t *n)
{
	return get_string(r, CBOR_BYTES, p, n);
}

int
cbor_get_text(struct cbor_rd *r, const char **s, size_t *n)
{
	const uint8_t *p;
	int rc;

	if ((rc = get_string(r, CBOR_TEXT, &p, n)) == ERR_OK)
		*s = (const char *)p;
	return rc;
}

int
cbor_get_bool(struct cbor_rd *r, bool *v)
{
	struct head h;

	if (peek_head(r, &h) != ERR_OK || h.major != CBOR_SIMPLE ||
	    h.hlen != 1 || (h.arg != 20 && h.arg != 21))
		return ERR_PARSE;
	*v = h.arg == 21;
	r->pos += 1;
	return ERR_OK;
}

static int
get_container(struct cbor_rd *r, unsigned major, size_t *n)
{
	struct head h;

	if (peek_head(r, &h) != ERR_OK || h.major != major ||
	    h.arg > CBOR_MAX_COUNT)
		return ERR_PARSE;
	*n = (size_t)h.arg;
	r->pos += h.hlen;
	return ERR_OK;
}

int
cbor_get_array(struct cbor_rd *r, size_t *n)
{
	return get_container(r, CBOR_ARRAY, n);
}

int
cbor_get_map(struct cbor_rd *r, size_t *n)
{
	return get_container(r, CBOR_MAP, n);
}

static int
skip_item(struct cbor_rd *r, int depth)
{
	struct head h;
	uint64_t i, n;

	if (peek_head(r, &h) != ERR_OK)
		return ERR_PARSE;
	if (h.major == CBOR_BYTES || h.major == CBOR_TEXT) {
		const uint8_t *p;
		size_t len;
		return get_string(r, h.major, &p, &len);
	}
	if (h.major == CBOR_TAG)
		return ERR_PARSE;
	if (h.major == CBOR_SIMPLE && h.hlen != 1)
		return ERR_PARSE;
	if ((h.major == CBOR_ARRAY || h.major == CBOR_MAP) &&
	    (h.arg > CBOR_MAX_COUNT || depth > CBOR_MAX_DEPTH))
		return ERR_PARSE;
	r->pos += h.hlen;
	if (h.major != CBOR_ARRAY && h.major != CBOR_MAP)
		return ERR_OK;
	n = h.major == CBOR_MAP ? 2 * h.arg : h.arg;
	for (i = 0; i < n; i++)
		if (skip_item(r, depth + 1) != ERR_OK)
			return ERR_PARSE;
	return ERR_OK;
}

int
cbor_skip(struct cbor_rd *r)
{
	size_t start = r->pos;

	if (skip_item(r, 1) != ERR_OK) {
		r->pos = start;
		return ERR_PARSE;
	}
	return ERR_OK;
}

int
cbor_get_raw(struct cbor_rd *r, const uint8_t **p, size_t *n)
{
	size_t start = r->pos;
	int rc;

	if ((rc = cbor_skip(r)) != ERR_OK)
		return rc;
	*p = r->p + start;
	*n = r->pos - start;
	return ERR_OK;
}

bool
cbor_take_text_key(struct cbor_rd *r, const char *s)
{
	struct cbor_rd t = *r;
	const char *k;
	size_t n;

	if (cbor_get_text(&t, &k, &n) != ERR_OK || n != strlen(s) ||
	    memcmp(k, s, n) != 0)
		return false;
	*r = t;
	return true;
}
