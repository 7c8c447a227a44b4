/* SPDX-License-Identifier: BSD-2-Clause */
/* The authenticator side of CTAP2's PIN/UV auth protocols 1 and 2 in the
 * software token (CTAP 2.1 6.5.6, 6.5.7), with OpenSSL directly: ECDH
 * with the platform's key agreement key, the shared secret (1: SHA-256 of
 * Z; 2: HKDF-SHA-256 "CTAP2 HMAC key" || "CTAP2 AES key"), AES-256-CBC
 * (1: IV 0; 2: random IV in front), HMAC-SHA-256 (1: 16 bytes; 2: 32). */
#include "config.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"

static int
hmac(const uint8_t key[32], const uint8_t *a, size_t an, const uint8_t *b,
    size_t bn, uint8_t out[32])
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = NULL;
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
	    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
	    OSSL_PARAM_construct_end()};
	size_t n = 0;
	int r = ERR_CRYPTO;

	if (mac == NULL || (ctx = EVP_MAC_CTX_new(mac)) == NULL ||
	    EVP_MAC_init(ctx, key, 32, params) != 1 ||
	    EVP_MAC_update(ctx, a, an) != 1 ||
	    (bn > 0 && EVP_MAC_update(ctx, b, bn) != 1) ||
	    EVP_MAC_final(ctx, out, &n, 32) != 1 || n != 32)
		goto fail;
	r = ERR_OK;
fail:
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return r;
}

int
ctap2_pin_verify(int proto, const uint8_t key[32], const uint8_t *a, size_t an,
    const uint8_t *b, size_t bn, const uint8_t *param, size_t pn)
{
	uint8_t mac[32];
	size_t want = proto == 1 ? 16 : 32;
	int ok;

	if (pn != want || hmac(key, a, an, b, bn, mac) != ERR_OK)
		return 0;
	ok = CRYPTO_memcmp(mac, param, want) == 0;
	util_wipe(mac, sizeof(mac));
	return ok;
}

static int
aes_cbc(int enc, const uint8_t key[32], const uint8_t iv[16], const uint8_t *in,
    size_t n, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = NULL;
	int m = 0, r = ERR_CRYPTO;

	if (n == 0 || n % 16 != 0)
		return ERR_PARSE;
	if ((ctx = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_CipherInit_ex(ctx, EVP_aes_256_cbc(), NULL, key, iv, enc) !=
		1 ||
	    EVP_CIPHER_CTX_set_padding(ctx, 0) != 1 ||
	    EVP_CipherUpdate(ctx, out, &m, in, (int)n) != 1 || (size_t)m != n ||
	    EVP_CipherFinal_ex(ctx, out + n, &m) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_CIPHER_CTX_free(ctx);
	return r;
}

int
ctap2_pin_decrypt(const struct ctap2_shared *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t *out_len)
{
	static const uint8_t zero[16];

	if (s->proto == 2) {
		if (n < 16)
			return ERR_PARSE;
		*out_len = n - 16;
		return aes_cbc(0, s->aes, in, in + 16, n - 16, out);
	}
	*out_len = n;
	return aes_cbc(0, s->aes, zero, in, n, out);
}

int
ctap2_pin_encrypt(const struct ctap2_shared *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t *out_len)
{
	static const uint8_t zero[16];

	if (s->proto == 2) {
		if (util_random(out, 16) != ERR_OK)
			return ERR_RANDOM;
		*out_len = 16 + n;
		return aes_cbc(1, s->aes, out, in, n, out + 16);
	}
	*out_len = n;
	return aes_cbc(1, s->aes, zero, in, n, out);
}

static int
hkdf(const uint8_t z[32], const char *info, uint8_t out[32])
{
	static const uint8_t salt[32];
	EVP_PKEY_CTX *ctx = NULL;
	size_t n = 32;
	int r = ERR_CRYPTO;

	if ((ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL)) != NULL &&
	    EVP_PKEY_derive_init(ctx) == 1 &&
	    EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1 &&
	    EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt, sizeof(salt)) == 1 &&
	    EVP_PKEY_CTX_set1_hkdf_key(ctx, z, 32) == 1 &&
	    EVP_PKEY_CTX_add1_hkdf_info(
		ctx, (const unsigned char *)info, (int)strlen(info)) == 1 &&
	    EVP_PKEY_derive(ctx, out, &n) == 1 && n == 32)
		r = ERR_OK;
	EVP_PKEY_CTX_free(ctx);
	return r;
}

/* The platform's key agreement key (COSE EC2 P-256) as an EVP_PKEY. */
static int
peer_key(struct cbor_rd *r, EVP_PKEY **out)
{
	uint8_t pt[65];
	const uint8_t *p;
	size_t cnt, i, n, got = 0;
	int64_t key;
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	int st = ST_INVALID_PARAMETER;

	*out = NULL;
	if (cbor_get_map(r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	pt[0] = 0x04;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_int(r, &key) != ERR_OK)
			return ST_CBOR_UNEXPECTED_TYPE;
		if ((key == -2 || key == -3) &&
		    cbor_get_bytes(r, &p, &n) == ERR_OK && n == 32) {
			memcpy(pt + (key == -2 ? 1 : 33), p, 32);
			got |= key == -2 ? 1u : 2u;
		} else if (key == -2 || key == -3 || cbor_skip(r) != ERR_OK)
			return ST_INVALID_PARAMETER;
	}
	if (got != 3)
		return ST_MISSING_PARAMETER;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL ||
	    OSSL_PARAM_BLD_push_utf8_string(
		bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1 ||
	    OSSL_PARAM_BLD_push_octet_string(
		bld, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof(pt)) != 1 ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) != 1)
		goto fail;
	st = ST_OK;
fail:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return st;
}

/* Z = the x coordinate of ECDH(ka, peer); the point is checked. */
static int
ecdh(EVP_PKEY *ka, EVP_PKEY *peer, uint8_t z[32])
{
	EVP_PKEY_CTX *ctx = NULL, *chk = NULL;
	size_t n = 32;
	int st = ST_INVALID_PARAMETER;

	if ((chk = EVP_PKEY_CTX_new(peer, NULL)) == NULL ||
	    EVP_PKEY_public_check(chk) != 1)
		goto fail;
	st = ST_OTHER;
	if ((ctx = EVP_PKEY_CTX_new(ka, NULL)) == NULL ||
	    EVP_PKEY_derive_init(ctx) != 1 ||
	    EVP_PKEY_derive_set_peer(ctx, peer) != 1 ||
	    EVP_PKEY_derive(ctx, z, &n) != 1 || n != 32)
		goto fail;
	st = ST_OK;
fail:
	EVP_PKEY_CTX_free(chk);
	EVP_PKEY_CTX_free(ctx);
	return st;
}

int
ctap2_pin_shared(const struct ctap2 *c, const struct ctap2_req *q, unsigned key,
    int proto, struct ctap2_shared *s)
{
	struct cbor_rd r;

	memset(s, 0, sizeof(*s));
	s->proto = proto;
	if (!ctap2_req_has(q, key))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, key, &r);
	return ctap2_pin_shared_rd(c, &r, proto, s);
}

int
ctap2_pin_shared_rd(
    const struct ctap2 *c, struct cbor_rd *r, int proto, struct ctap2_shared *s)
{
	EVP_PKEY *peer = NULL;
	uint8_t z[32];
	int st;

	memset(s, 0, sizeof(*s));
	s->proto = proto;
	if ((st = peer_key(r, &peer)) != ST_OK ||
	    (st = ecdh(c->ka, peer, z)) != ST_OK)
		goto fail;
	st = ST_OTHER;
	if (proto == 1) {
		if (EVP_Digest(z, 32, s->hmac, NULL, EVP_sha256(), NULL) != 1)
			goto fail;
		memcpy(s->aes, s->hmac, 32);
	} else if (hkdf(z, "CTAP2 HMAC key", s->hmac) != ERR_OK ||
	    hkdf(z, "CTAP2 AES key", s->aes) != ERR_OK)
		goto fail;
	st = ST_OK;
fail:
	util_wipe(z, sizeof(z));
	EVP_PKEY_free(peer);
	return st;
}
