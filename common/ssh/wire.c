/* SPDX-License-Identifier: BSD-2-Clause */
/* SSH wire encoding (wire.h): the writer every agent message, key blob
 * and SSHSIG blob is built with, and the string getters every parse of
 * the layer uses. Its own file so that the three users share one
 * bounded implementation. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "base/err.h"
#include "base/util.h"

void
wire_init(struct wire *w, size_t max)
{
	memset(w, 0, sizeof(*w));
	w->max = max;
}

void
wire_clear(struct wire *w)
{
	size_t max = w->max;

	util_freezero(w->p, w->cap);
	wire_init(w, max);
}

/* Make room for n more bytes (growing by doubling, never past max);
 * the old buffer is wiped when it moves. */
static int
reserve(struct wire *w, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (w->err != ERR_OK)
		return w->err;
	if (n > w->max || w->len > w->max - n)
		return w->err = ERR_TOO_BIG;
	if (w->len + n <= w->cap)
		return ERR_OK;
	cap = w->cap != 0 ? w->cap : 64;
	while (cap < w->len + n)
		cap *= 2;
	if (cap > w->max)
		cap = w->max;
	if ((p = malloc(cap)) == NULL)
		return w->err = ERR_NOMEM;
	if (w->len > 0)
		memcpy(p, w->p, w->len);
	util_freezero(w->p, w->cap);
	w->p = p;
	w->cap = cap;
	return ERR_OK;
}

uint8_t *
wire_grow(struct wire *w, size_t n)
{
	uint8_t *p;

	if (reserve(w, n) != ERR_OK)
		return NULL;
	p = w->p + w->len;
	memset(p, 0, n);
	w->len += n;
	return p;
}

void
wire_put_raw(struct wire *w, const void *p, size_t len)
{
	if (len == 0 || reserve(w, len) != ERR_OK)
		return;
	memcpy(w->p + w->len, p, len);
	w->len += len;
}

void
wire_put_u8(struct wire *w, uint8_t v)
{
	wire_put_raw(w, &v, 1);
}

void
wire_put_u32(struct wire *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 8), (uint8_t)v};

	wire_put_raw(w, b, sizeof(b));
}

void
wire_put_u64(struct wire *w, uint64_t v)
{
	wire_put_u32(w, (uint32_t)(v >> 32));
	wire_put_u32(w, (uint32_t)v);
}

void
wire_put_string(struct wire *w, const void *p, size_t len)
{
	if (len > UINT32_MAX) {
		if (w->err == ERR_OK)
			w->err = ERR_TOO_BIG;
		return;
	}
	wire_put_u32(w, (uint32_t)len);
	wire_put_raw(w, p, len);
}

void
wire_put_cstring(struct wire *w, const char *s)
{
	wire_put_string(w, s, strlen(s));
}

int
wire_get_string(struct rbuf *rb, const uint8_t **p, size_t *len)
{
	struct rbuf save = *rb;
	uint32_t n;

	if (rbuf_get_u32be(rb, &n) != ERR_OK ||
	    rbuf_get_ref(rb, p, n) != ERR_OK) {
		*rb = save;
		return ERR_PARSE;
	}
	*len = n;
	return ERR_OK;
}

int
wire_bytes_are(const uint8_t *p, size_t len, const char *want)
{
	return len == strlen(want) && memcmp(p, want, len) == 0;
}

int
wire_get_string_is(struct rbuf *rb, const char *want)
{
	const uint8_t *p;
	size_t len;

	if (wire_get_string(rb, &p, &len) != ERR_OK ||
	    !wire_bytes_are(p, len, want))
		return ERR_PARSE;
	return ERR_OK;
}
