/* SPDX-License-Identifier: BSD-2-Clause */
/* SSSD passkey values: "passkey:" base64(credential id) "," base64(SPKI).
 * A small strict DER reader for the three SubjectPublicKeyInfo forms a
 * FIDO2 credential can have (passkey.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "base/bytereader.h"
#include "base/util.h"
#include "passkey.h"

#define PK_FIELD_MAX 4096   /* base64 characters in one field */
#define PK_KH_MAX_ES256 255 /* as U2F key handles in mapping lines */
#define PK_KH_MAX 1023      /* WebAuthn credential ID limit */
#define PK_POINT_LEN 65
#define PK_ED25519_LEN 32
#define PK_RSA_N 256 /* 2048-bit modulus: what rs256 lines hold */
#define PK_RSA_E 3

#define DER_INT 0x02
#define DER_BITS 0x03
#define DER_NULL 0x05
#define DER_OID 0x06
#define DER_SEQ 0x30

/* 1.2.840.10045.2.1, 1.2.840.10045.3.1.7, 1.3.101.112,
 * 1.2.840.113549.1.1.1 (contents only). */
static const uint8_t oid_ec[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
static const uint8_t oid_p256[] = {
    0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t oid_ed25519[] = {0x2b, 0x65, 0x70};
static const uint8_t oid_rsa[] = {
    0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};

int
passkey_is(const char *s, size_t len)
{
	size_t n = strlen(PASSKEY_PREFIX);

	return s != NULL && len >= n && memcmp(s, PASSKEY_PREFIX, n) == 0;
}

/* One DER TLV of the given tag, definite length in minimal form (short
 * below 128, then 0x81 or 0x82 with no leading zero); inner points at
 * its contents. */
static int
der_get(struct rbuf *rb, uint8_t tag, struct rbuf *inner)
{
	uint8_t t, l, b;
	size_t len;
	const uint8_t *p;

	if (rbuf_get_u8(rb, &t) != ERR_OK || t != tag ||
	    rbuf_get_u8(rb, &l) != ERR_OK)
		return ERR_PARSE;
	if (l < 0x80)
		len = l;
	else if (l == 0x81) {
		if (rbuf_get_u8(rb, &b) != ERR_OK || b < 0x80)
			return ERR_PARSE;
		len = b;
	} else if (l == 0x82) {
		uint16_t v;

		if (rbuf_get_u16be(rb, &v) != ERR_OK || v < 0x100)
			return ERR_PARSE;
		len = v;
	} else
		return ERR_PARSE;
	if (rbuf_get_ref(rb, &p, len) != ERR_OK)
		return ERR_PARSE;
	rbuf_init(inner, p, len);
	return ERR_OK;
}

static int
der_is(const struct rbuf *rb, const uint8_t *v, size_t n)
{
	return rb->len == n && memcmp(rb->p, v, n) == 0;
}

/* A BIT STRING with no unused bits; bits points at the bytes. */
static int
der_bits(struct rbuf *rb, struct rbuf *bits)
{
	uint8_t unused;

	if (der_get(rb, DER_BITS, bits) != ERR_OK ||
	    rbuf_get_u8(bits, &unused) != ERR_OK || unused != 0)
		return ERR_PARSE;
	return ERR_OK;
}

/* A positive INTEGER in minimal form, without its sign byte. */
static int
der_uint(struct rbuf *rb, struct rbuf *v)
{
	if (der_get(rb, DER_INT, v) != ERR_OK || v->len == 0 ||
	    (v->p[0] & 0x80) != 0)
		return ERR_PARSE;
	if (v->p[0] == 0) {
		if (v->len < 2 || (v->p[1] & 0x80) == 0)
			return ERR_PARSE;
		rbuf_init(v, v->p + 1, v->len - 1);
	}
	return ERR_OK;
}

static int
set_pk(struct cred *c, int type, const uint8_t *p, size_t n)
{
	if ((c->pk = malloc(n)) == NULL)
		return ERR_NOMEM;
	memcpy(c->pk, p, n);
	c->pk_len = n;
	c->type = type;
	return ERR_OK;
}

/* params: namedCurve prime256v1; key: an uncompressed point. */
static int
spki_ec(struct rbuf *params, struct rbuf *key, struct cred *c)
{
	struct rbuf curve;

	if (der_get(params, DER_OID, &curve) != ERR_OK ||
	    !der_is(&curve, oid_p256, sizeof(oid_p256)) ||
	    rbuf_expect_end(params) != ERR_OK || key->len != PK_POINT_LEN ||
	    key->p[0] != 0x04)
		return ERR_PARSE;
	return set_pk(c, COSE_ES256, key->p, key->len);
}

static int
spki_ed25519(struct rbuf *params, struct rbuf *key, struct cred *c)
{
	if (rbuf_expect_end(params) != ERR_OK || key->len != PK_ED25519_LEN ||
	    edpoint_check(key->p) != ERR_OK)
		return ERR_PARSE;
	return set_pk(c, COSE_EDDSA, key->p, key->len);
}

/* params: NULL; key: RSAPublicKey { n 2048 bits, e odd, 3..2^24-1 }. */
static int
spki_rsa(struct rbuf *params, struct rbuf *key, struct cred *c)
{
	struct rbuf null, seq, n, e;
	uint8_t raw[PK_RSA_N + PK_RSA_E];

	if (der_get(params, DER_NULL, &null) != ERR_OK || null.len != 0 ||
	    rbuf_expect_end(params) != ERR_OK ||
	    der_get(key, DER_SEQ, &seq) != ERR_OK ||
	    rbuf_expect_end(key) != ERR_OK || der_uint(&seq, &n) != ERR_OK ||
	    der_uint(&seq, &e) != ERR_OK || rbuf_expect_end(&seq) != ERR_OK)
		return ERR_PARSE;
	if (n.len != PK_RSA_N || (n.p[0] & 0x80) == 0 ||
	    (n.p[PK_RSA_N - 1] & 1) == 0 || e.len > PK_RSA_E ||
	    (e.p[e.len - 1] & 1) == 0 || (e.len == 1 && e.p[0] < 3))
		return ERR_PARSE;
	memset(raw, 0, sizeof(raw));
	memcpy(raw, n.p, PK_RSA_N);
	memcpy(raw + PK_RSA_N + PK_RSA_E - e.len, e.p, e.len);
	return set_pk(c, COSE_RS256, raw, sizeof(raw));
}

/* SEQUENCE { SEQUENCE { OID, params }, BIT STRING }, nothing after. */
static int
spki_parse(const uint8_t *der, size_t len, struct cred *c)
{
	struct rbuf all, spki, alg, oid, key;

	rbuf_init(&all, der, len);
	if (der_get(&all, DER_SEQ, &spki) != ERR_OK ||
	    rbuf_expect_end(&all) != ERR_OK ||
	    der_get(&spki, DER_SEQ, &alg) != ERR_OK ||
	    der_bits(&spki, &key) != ERR_OK ||
	    rbuf_expect_end(&spki) != ERR_OK ||
	    der_get(&alg, DER_OID, &oid) != ERR_OK)
		return ERR_PARSE;
	if (der_is(&oid, oid_ec, sizeof(oid_ec)))
		return spki_ec(&alg, &key, c);
	if (der_is(&oid, oid_ed25519, sizeof(oid_ed25519)))
		return spki_ed25519(&alg, &key, c);
	if (der_is(&oid, oid_rsa, sizeof(oid_rsa)))
		return spki_rsa(&alg, &key, c);
	return ERR_PARSE;
}

/* A non-empty bounded base64 field; anything but ERR_NOMEM is ERR_PARSE. */
static int
field_decode(const char *s, size_t n, uint8_t **out, size_t *outlen)
{
	int r;

	*out = NULL;
	*outlen = 0;
	if (n == 0 || n > PK_FIELD_MAX)
		return ERR_PARSE;
	if ((r = b64_decode(s, n, out, outlen)) != ERR_OK)
		return r == ERR_NOMEM ? r : ERR_PARSE;
	return *outlen > 0 ? ERR_OK : ERR_PARSE;
}

static int
passkey_fields(const char *s, size_t len, struct cred *c)
{
	const char *comma;
	uint8_t *der = NULL;
	size_t derlen = 0, khmax;
	int r;

	if (!passkey_is(s, len))
		return ERR_PARSE;
	s += strlen(PASSKEY_PREFIX);
	len -= strlen(PASSKEY_PREFIX);
	if ((comma = memchr(s, ',', len)) == NULL)
		return ERR_PARSE;
	if ((r = field_decode(s, (size_t)(comma - s), &c->kh, &c->kh_len)) !=
	    ERR_OK)
		return r;
	len -= (size_t)(comma - s) + 1;
	if ((r = field_decode(comma + 1, len, &der, &derlen)) != ERR_OK)
		return r;
	if ((r = spki_parse(der, derlen, c)) == ERR_OK) {
		khmax = c->type == COSE_ES256 ? PK_KH_MAX_ES256 : PK_KH_MAX;
		r = c->kh_len <= khmax ? ERR_OK : ERR_PARSE;
	}
	free(der);
	return r;
}

int
passkey_parse(const char *s, size_t len, struct cred *out)
{
	int r;

	if (out == NULL || (s == NULL && len > 0))
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	if ((r = passkey_fields(s, len, out)) != ERR_OK) {
		cred_clear(out);
		memset(out, 0, sizeof(*out));
		return r;
	}
	out->flags = CRED_PRESENCE | CRED_PIN;
	return ERR_OK;
}
