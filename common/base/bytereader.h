/* SPDX-License-Identifier: BSD-2-Clause */
/* A bounded reader over (ptr, len). Every getter checks what is left first
 * and returns ERR_PROTO without moving when the input is too short. */
#ifndef PU_BYTEREADER_H
#define PU_BYTEREADER_H

#include <stddef.h>
#include <stdint.h>

struct rbuf {
	const uint8_t *p;
	size_t len;
};

void rbuf_init(struct rbuf *rb, const void *p, size_t len);
size_t rbuf_left(const struct rbuf *rb);
int rbuf_get_u8(struct rbuf *rb, uint8_t *v);
int rbuf_get_u16be(struct rbuf *rb, uint16_t *v);
int rbuf_get_u32be(struct rbuf *rb, uint32_t *v);
/* Copy n bytes out. */
int rbuf_get_bytes(struct rbuf *rb, void *out, size_t n);
/* Point at the next n bytes without copying. */
int rbuf_get_ref(struct rbuf *rb, const uint8_t **out, size_t n);
int rbuf_skip(struct rbuf *rb, size_t n);
/* ERR_OK when nothing is left, ERR_PROTO otherwise. */
int rbuf_expect_end(const struct rbuf *rb);

#endif
