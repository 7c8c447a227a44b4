/* SPDX-License-Identifier: BSD-2-Clause */
/* SSH wire encoding (RFC 4251 section 5) for the ssh layer: a growing,
 * bounded writer and string getters over the bounded reader. */
#ifndef PU_SSH_WIRE_H
#define PU_SSH_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "base/bytereader.h"

/* A writer that grows up to max bytes. The first failure (ERR_NOMEM, or
 * ERR_TOO_BIG past max) sticks in err and makes later puts no-ops, so a
 * caller checks once at the end. */
struct wire {
	uint8_t *p;
	size_t len, cap, max;
	int err;
};

void wire_init(struct wire *w, size_t max);
/* Wipe and free the buffer; w is then empty. */
void wire_clear(struct wire *w);
void wire_put_u8(struct wire *w, uint8_t v);
void wire_put_u32(struct wire *w, uint32_t v);
void wire_put_u64(struct wire *w, uint64_t v);
/* Extend by n zero bytes and return where they start (to read into);
 * NULL after a failure. */
uint8_t *wire_grow(struct wire *w, size_t n);
void wire_put_raw(struct wire *w, const void *p, size_t len);
/* uint32 length, then the bytes. */
void wire_put_string(struct wire *w, const void *p, size_t len);
void wire_put_cstring(struct wire *w, const char *s);

/* An SSH string out of rb, pointing into it; ERR_PARSE when short. */
int wire_get_string(struct rbuf *rb, const uint8_t **p, size_t *len);
/* An SSH string that must equal want; ERR_PARSE otherwise. */
int wire_get_string_is(struct rbuf *rb, const char *want);
/* Does (p, len) equal the C string want? */
int wire_bytes_are(const uint8_t *p, size_t len, const char *want);

#endif
