/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by test_cosesig.c and test_attest.c: decoded vectors of
 * ctap2kat.h that free themselves at the end of a case, the leaf
 * certificate of an attStmt. */
#ifndef PU_CTAP2FIX_H
#define PU_CTAP2FIX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "test.h"

/* A decoded hex vector. */
struct vec {
	uint8_t *p;
	size_t n;
};

static inline struct vec
vec_hex(const char *hex)
{
	struct vec v;

	v.p = test_unhex(hex, &v.n);
	return v;
}

static inline void
vec_free(struct vec *v)
{
	free(v->p);
	v->p = NULL;
	v->n = 0;
}

/* A copy of v with byte i xored with x (i < v.n). */
static inline struct vec
vec_flip(struct vec v, size_t i, uint8_t x)
{
	struct vec c;

	c.n = v.n;
	if ((c.p = malloc(v.n ? v.n : 1)) == NULL)
		abort();
	memcpy(c.p, v.p, v.n);
	if (i < v.n)
		c.p[i] ^= x;
	return c;
}

/* The first certificate of an attStmt map's "x5c" (points into stmt). */
static inline int
stmt_leaf(struct vec stmt, const uint8_t **cert, size_t *len)
{
	struct cbor_rd r;
	size_t n, i, m;

	cbor_rd_init(&r, stmt.p, stmt.n);
	if (cbor_get_map(&r, &n) != ERR_OK)
		return ERR_PARSE;
	for (i = 0; i < n; i++) {
		if (cbor_take_text_key(&r, "x5c")) {
			if (cbor_get_array(&r, &m) != ERR_OK || m == 0)
				return ERR_PARSE;
			return cbor_get_bytes(&r, cert, len);
		}
		if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK)
			return ERR_PARSE;
	}
	return ERR_NOT_FOUND;
}

#endif
