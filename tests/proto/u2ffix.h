/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the unit tests of common/proto/u2f/msg.c
 * (tests/proto/test_u2f.c and tests/proto/test_u2fop.c): the FIDO U2F example
 * vectors for registration and authentication (application and challenge
 * parameters, public key, key handle, reply bodies), the offsets of the
 * registration reply's fields, and two small byte-buffer helpers. */
#ifndef PU_U2FFIX_H
#define PU_U2FFIX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#include "u2fkat.h"

static inline uint8_t *
unhex(const char *hex, size_t *len)
{
	size_t n;
	uint8_t *p = test_unhex(hex, &n);

	if (len != NULL)
		*len = n;
	return p;
}

/* Concatenate a and b (b may be NULL) into a new buffer. */
static inline uint8_t *
cat(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	uint8_t *p = malloc(alen + blen + 1);

	if (p == NULL)
		abort();
	memcpy(p, a, alen);
	if (blen > 0)
		memcpy(p + alen, b, blen);
	return p;
}

#endif /* PU_U2FFIX_H */
