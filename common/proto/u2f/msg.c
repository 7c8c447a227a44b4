/* SPDX-License-Identifier: BSD-2-Clause */
/* U2F (CTAP1) messages: APDU building and strict reply parsing. Its own
 * file because the bytes are tested and fuzzed on their own
 * (tests/proto/test_u2f.c, fuzz/fuzz_u2f.c), apart from the exchanges of
 * protocol.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "base/err.h"
#include "base/bytereader.h"
#include "u2f.h"
#include "base/util.h"

#define U2F_SW_LEN 2
#define DER_SEQUENCE 0x30
#define DER_INTEGER 0x02
#define DER_INT_MAX 33 /* 32-byte P-256 scalar plus a sign byte */

int
u2f_apdu(uint8_t ins, uint8_t p1, const uint8_t *data, size_t len, uint8_t *out,
    size_t cap, size_t *outlen)
{
	size_t need, n = 0;

	if (out == NULL || outlen == NULL || (data == NULL && len > 0))
		return ERR_INVAL;
	*outlen = 0;
	if (len > 0xffff)
		return ERR_TOO_BIG;
	need = 4 + 1 + (len > 0 ? 2 + len : 0) + 2;
	if (cap < need)
		return ERR_TOO_BIG;
	out[n++] = 0x00; /* CLA */
	out[n++] = ins;
	out[n++] = p1;
	out[n++] = 0x00; /* P2 */
	out[n++] = 0x00; /* extended length */
	if (len > 0) {
		out[n++] = (uint8_t)(len >> 8);
		out[n++] = (uint8_t)len;
		memcpy(out + n, data, len);
		n += len;
	}
	out[n++] = 0x00; /* Le: as much as the device has */
	out[n++] = 0x00;
	*outlen = n;
	return ERR_OK;
}

static int
sw_to_err(uint16_t sw)
{
	switch (sw) {
	case U2F_SW_NO_ERROR:
		return ERR_OK;
	case U2F_SW_CONDITIONS:
		return ERR_PRESENCE;
	case U2F_SW_WRONG_DATA:
	case U2F_SW_WRONG_DATA_ALT:
		return ERR_WRONG_KH;
	case U2F_SW_WRONG_LENGTH:
		return ERR_WRONG_LENGTH;
	case U2F_SW_INS:
		return ERR_INS_NOT_SUPPORTED;
	default:
		return ERR_SW;
	}
}

int
u2f_status(const uint8_t *reply, size_t len, size_t *body_len, uint16_t *sw)
{
	struct rbuf rb;
	uint16_t v;

	if (body_len == NULL || sw == NULL)
		return ERR_INVAL;
	*body_len = 0;
	*sw = 0;
	rbuf_init(&rb, reply, len);
	if (rbuf_left(&rb) < U2F_SW_LEN)
		return ERR_PROTO;
	if (rbuf_skip(&rb, len - U2F_SW_LEN) != ERR_OK ||
	    rbuf_get_u16be(&rb, &v) != ERR_OK)
		return ERR_PROTO;
	*body_len = len - U2F_SW_LEN;
	*sw = v;
	return sw_to_err(v);
}

/* One DER INTEGER of an ECDSA signature: 02 L (1..33 bytes). */
static int
der_skip_integer(struct rbuf *rb)
{
	uint8_t tag, len;

	if (rbuf_get_u8(rb, &tag) != ERR_OK || tag != DER_INTEGER ||
	    rbuf_get_u8(rb, &len) != ERR_OK || len == 0 || len > DER_INT_MAX ||
	    rbuf_skip(rb, len) != ERR_OK)
		return ERR_PROTO;
	return ERR_OK;
}

/* The rest of rb must be exactly one DER ECDSA signature,
 * SEQUENCE { INTEGER r, INTEGER s }, of U2F_SIG_MIN..U2F_SIG_MAX bytes. */
static int
parse_sig(struct rbuf *rb, uint8_t sig[U2F_SIG_MAX], size_t *sig_len)
{
	struct rbuf der, seq;
	size_t n = rbuf_left(rb);
	const uint8_t *body;
	uint8_t tag, len;

	if (n < U2F_SIG_MIN || n > U2F_SIG_MAX)
		return ERR_PROTO;
	der = *rb;
	/* Short-form length only: the body is at most 70 bytes. */
	if (rbuf_get_u8(&der, &tag) != ERR_OK || tag != DER_SEQUENCE ||
	    rbuf_get_u8(&der, &len) != ERR_OK || len >= 0x80 ||
	    rbuf_get_ref(&der, &body, len) != ERR_OK ||
	    rbuf_expect_end(&der) != ERR_OK)
		return ERR_PROTO;
	rbuf_init(&seq, body, len);
	if (der_skip_integer(&seq) != ERR_OK ||
	    der_skip_integer(&seq) != ERR_OK || rbuf_expect_end(&seq) != ERR_OK)
		return ERR_PROTO;
	if (rbuf_get_bytes(rb, sig, n) != ERR_OK)
		return ERR_PROTO;
	*sig_len = n;
	return ERR_OK;
}

/* Key handle and certificate of a REGISTER reply. */
static int
parse_kh_cert(struct rbuf *rb, struct u2f_reg *reg)
{
	const uint8_t *cert;
	size_t cert_len;
	uint8_t kh_len;

	if (rbuf_get_u8(rb, &kh_len) != ERR_OK || kh_len == 0 ||
	    rbuf_get_bytes(rb, reg->kh, kh_len) != ERR_OK)
		return ERR_PROTO;
	reg->kh_len = kh_len;
	if (crypto_cert_len(rb->p, rbuf_left(rb), &cert_len) != ERR_OK ||
	    rbuf_get_ref(rb, &cert, cert_len) != ERR_OK)
		return ERR_PROTO;
	if ((reg->cert = malloc(cert_len)) == NULL)
		return ERR_NOMEM;
	memcpy(reg->cert, cert, cert_len);
	reg->cert_len = cert_len;
	return ERR_OK;
}

int
u2f_parse_register(const uint8_t *body, size_t len, struct u2f_reg *out)
{
	struct u2f_reg reg;
	uint8_t point[U2F_POINT_LEN];
	struct rbuf rb;
	uint8_t reserved;
	int r = ERR_PROTO;

	if (out == NULL)
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	memset(&reg, 0, sizeof(reg));
	rbuf_init(&rb, body, len);
	if (rbuf_get_u8(&rb, &reserved) != ERR_OK || reserved != 0x05)
		goto fail;
	if (rbuf_get_bytes(&rb, reg.pubkey, U2F_POINT_LEN) != ERR_OK ||
	    reg.pubkey[0] != 0x04 ||
	    crypto_p256_point(reg.pubkey, U2F_POINT_LEN, point) != ERR_OK)
		goto fail;
	if ((r = parse_kh_cert(&rb, &reg)) != ERR_OK)
		goto fail;
	if ((r = parse_sig(&rb, reg.sig, &reg.sig_len)) != ERR_OK)
		goto fail;
	*out = reg;
	memset(&reg, 0, sizeof(reg));
	r = ERR_OK;
fail:
	u2f_reg_clear(&reg);
	return r;
}

int
u2f_parse_authenticate(const uint8_t *body, size_t len, struct u2f_auth *out)
{
	struct u2f_auth auth;
	struct rbuf rb;
	int r = ERR_PROTO;

	if (out == NULL)
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	memset(&auth, 0, sizeof(auth));
	rbuf_init(&rb, body, len);
	if (rbuf_get_u8(&rb, &auth.flags) != ERR_OK ||
	    rbuf_get_u32be(&rb, &auth.counter) != ERR_OK)
		goto fail;
	if ((r = parse_sig(&rb, auth.sig, &auth.sig_len)) != ERR_OK)
		goto fail;
	*out = auth;
	r = ERR_OK;
fail:
	util_wipe(&auth, sizeof(auth));
	return r;
}

void
u2f_reg_clear(struct u2f_reg *reg)
{
	if (reg == NULL)
		return;
	util_freezero(reg->cert, reg->cert_len);
	util_wipe(reg, sizeof(*reg));
}
