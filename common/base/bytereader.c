/* SPDX-License-Identifier: BSD-2-Clause */
/* The bounded byte reader (bytereader.h; its API is struct rbuf, the
 * "read buffer", and rbuf_*): big-endian integers and byte runs taken
 * from (ptr, len) with the length checked before every step. Its own
 * file because every parser of untrusted bytes (U2F replies, HID report
 * descriptors, OpenSSH keys, passkey values, manual-mode answers) uses
 * it instead of indexing buffers by hand. */
#include "config.h"

#include <string.h>

#include "err.h"
#include "bytereader.h"

void
rbuf_init(struct rbuf *rb, const void *p, size_t len)
{
	rb->p = p;
	rb->len = p != NULL ? len : 0;
}

size_t
rbuf_left(const struct rbuf *rb)
{
	return rb->len;
}

int
rbuf_get_ref(struct rbuf *rb, const uint8_t **out, size_t n)
{
	if (rb->len < n)
		return ERR_PROTO;
	*out = rb->p;
	rb->p += n;
	rb->len -= n;
	return ERR_OK;
}

int
rbuf_get_bytes(struct rbuf *rb, void *out, size_t n)
{
	const uint8_t *p;
	int r;

	if ((r = rbuf_get_ref(rb, &p, n)) != ERR_OK)
		return r;
	if (n > 0)
		memcpy(out, p, n);
	return ERR_OK;
}

int
rbuf_skip(struct rbuf *rb, size_t n)
{
	const uint8_t *p;

	return rbuf_get_ref(rb, &p, n);
}

int
rbuf_get_u8(struct rbuf *rb, uint8_t *v)
{
	return rbuf_get_bytes(rb, v, 1);
}

int
rbuf_get_u16be(struct rbuf *rb, uint16_t *v)
{
	const uint8_t *p;
	int r;

	if ((r = rbuf_get_ref(rb, &p, 2)) != ERR_OK)
		return r;
	*v = (uint16_t)((p[0] << 8) | p[1]);
	return ERR_OK;
}

int
rbuf_get_u32be(struct rbuf *rb, uint32_t *v)
{
	const uint8_t *p;
	int r;

	if ((r = rbuf_get_ref(rb, &p, 4)) != ERR_OK)
		return r;
	*v = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
	return ERR_OK;
}

int
rbuf_expect_end(const struct rbuf *rb)
{
	return rb->len == 0 ? ERR_OK : ERR_PROTO;
}
