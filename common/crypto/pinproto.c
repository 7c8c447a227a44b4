/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2's PIN/UV auth protocols 1 and 2, the platform's side (CTAP 2.1
 * 6.5.6, 6.5.7): ECDH on P-256 with an ephemeral key, the two KDFs,
 * AES-256-CBC without padding, HMAC-SHA-256. Through OpenSSL 3's EVP in
 * the default library context. Every secret (the private key lives in
 * OpenSSL, which clears it on free; Z, derived keys, MACs) is wiped. Its
 * own file: only the CTAP2 client's PIN steps (and the software token)
 * use it, and it holds the layer's only secrets. */
#include "config.h"

#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>

#include "base/err.h"
#include "base/util.h"
#include "crypto.h"
#include "crypto_ossl.h"
#include "pinproto.h"
#include "pinproto_int.h"

#define COORD 32
#define POINT_LEN (1 + 2 * COORD)
#define AES_BLOCK 16
#define AES_KEY_LEN 32
#define HMAC_LEN 32
#define P1_AUTH_LEN 16
#define TOKEN_MAX 64

/* Our public key as 04 || x || y. */
static int
pub_of(EVP_PKEY *k, uint8_t pub[POINT_LEN])
{
	size_t n = 0;

	if (EVP_PKEY_get_octet_string_param(
		k, OSSL_PKEY_PARAM_PUB_KEY, pub, POINT_LEN, &n) != 1 ||
	    n != POINT_LEN || pub[0] != 0x04) {
		ERR_clear_error();
		return ERR_CRYPTO;
	}
	return ERR_OK;
}

/* Z = the x coordinate of ours * peer (ECDH), 32 bytes. The peer comes
 * from crypto_pkey_p256(), which checked it (on the curve, not the point
 * at infinity; P-256 has cofactor 1, so that is the whole check): OpenSSL
 * is not asked to validate it again, which would add EVP_PKEY_public_check
 * and its scalar multiplication n*Q to every PIN agreement. */
static int
ecdh_z(EVP_PKEY *ours, EVP_PKEY *peer, uint8_t z[COORD])
{
	EVP_PKEY_CTX *ctx = NULL;
	size_t n = COORD;
	int r = ERR_CRYPTO;

	if ((ctx = EVP_PKEY_CTX_new_from_pkey(NULL, ours, NULL)) == NULL ||
	    EVP_PKEY_derive_init(ctx) != 1)
		goto fail;
	if (EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) != 1) {
		r = ERR_PARSE;
		goto fail;
	}
	if (EVP_PKEY_derive(ctx, z, &n) == 1 && n == COORD)
		r = ERR_OK;
fail:
	if (r != ERR_OK)
		util_wipe(z, COORD);
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return r;
}

/* HKDF-SHA-256(salt = 32 zero bytes, ikm = z, info), 32 bytes. */
static int
hkdf32(const uint8_t z[COORD], const char *info, uint8_t out[32])
{
	uint8_t salt[32] = {0};
	OSSL_PARAM params[5];
	EVP_KDF *kdf = NULL;
	EVP_KDF_CTX *kctx = NULL;
	int r = ERR_CRYPTO;

	params[0] = OSSL_PARAM_construct_utf8_string(
	    OSSL_KDF_PARAM_DIGEST, (char *)(uintptr_t) "SHA256", 0);
	params[1] = OSSL_PARAM_construct_octet_string(
	    OSSL_KDF_PARAM_KEY, (void *)(uintptr_t)z, COORD);
	params[2] = OSSL_PARAM_construct_octet_string(
	    OSSL_KDF_PARAM_SALT, salt, sizeof(salt));
	params[3] = OSSL_PARAM_construct_octet_string(
	    OSSL_KDF_PARAM_INFO, (void *)(uintptr_t)info, strlen(info));
	params[4] = OSSL_PARAM_construct_end();
	if ((kdf = EVP_KDF_fetch(NULL, "HKDF", NULL)) == NULL ||
	    (kctx = EVP_KDF_CTX_new(kdf)) == NULL)
		goto fail;
	if (EVP_KDF_derive(kctx, out, 32, params) == 1)
		r = ERR_OK;
fail:
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
	ERR_clear_error();
	return r;
}

/* The shared secret of protocol proto from Z. */
static int
kdf(int proto, const uint8_t z[COORD], struct pin_shared *s)
{
	int r;

	s->proto = proto;
	if (proto == 1) {
		s->len = 32;
		return crypto_sha256(z, COORD, s->key);
	}
	s->len = 64;
	if ((r = hkdf32(z, "CTAP2 HMAC key", s->key)) != ERR_OK)
		return r;
	return hkdf32(z, "CTAP2 AES key", s->key + 32);
}

/* The agreement with our key pair ours, for either entry point. */
static int
agree_key(int proto, EVP_PKEY *ours, const uint8_t peer_x[32],
    const uint8_t peer_y[32], uint8_t our_x[32], uint8_t our_y[32],
    struct pin_shared *s)
{
	uint8_t point[POINT_LEN], z[COORD];
	EVP_PKEY *peer = NULL;
	int r;

	point[0] = 0x04;
	memcpy(point + 1, peer_x, COORD);
	memcpy(point + 1 + COORD, peer_y, COORD);
	if ((r = crypto_pkey_p256(point, &peer)) != ERR_OK)
		goto fail;
	if ((r = ecdh_z(ours, peer, z)) != ERR_OK)
		goto fail;
	if ((r = kdf(proto, z, s)) != ERR_OK)
		goto fail;
	if ((r = pub_of(ours, point)) != ERR_OK)
		goto fail;
	memcpy(our_x, point + 1, COORD);
	memcpy(our_y, point + 1 + COORD, COORD);
fail:
	if (r != ERR_OK)
		pin_shared_clear(s);
	util_wipe(z, sizeof(z));
	EVP_PKEY_free(peer);
	return r;
}

static int
agree_args_ok(int proto, const uint8_t *peer_x, const uint8_t *peer_y,
    const uint8_t *our_x, const uint8_t *our_y, struct pin_shared *s)
{
	if (s == NULL)
		return ERR_INVAL;
	memset(s, 0, sizeof(*s));
	if (proto != 1 && proto != 2)
		return ERR_INVAL;
	if (peer_x == NULL || peer_y == NULL || our_x == NULL || our_y == NULL)
		return ERR_INVAL;
	return ERR_OK;
}

int
pin_agree(int proto, const uint8_t peer_x[32], const uint8_t peer_y[32],
    uint8_t our_x[32], uint8_t our_y[32], struct pin_shared *s)
{
	EVP_PKEY *ours = NULL;
	int r;

	if ((r = agree_args_ok(proto, peer_x, peer_y, our_x, our_y, s)) !=
	    ERR_OK)
		return r;
	if ((ours = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256")) == NULL) {
		ERR_clear_error();
		return ERR_CRYPTO;
	}
	r = agree_key(proto, ours, peer_x, peer_y, our_x, our_y, s);
	EVP_PKEY_free(ours);
	return r;
}

/* priv * G as an uncompressed point (EC_POINT arithmetic: OpenSSL 3.0's
 * EVP_PKEY_fromdata does not derive the public key). */
static int
p256_pub(const BIGNUM *d, uint8_t pub[POINT_LEN])
{
	EC_GROUP *g = NULL;
	EC_POINT *q = NULL;
	int r = ERR_CRYPTO;

	if ((g = EC_GROUP_new_by_curve_name_ex(
		 NULL, NULL, NID_X9_62_prime256v1)) == NULL ||
	    (q = EC_POINT_new(g)) == NULL)
		goto fail;
	if (BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(g)) >= 0) {
		r = ERR_PARSE;
		goto fail;
	}
	if (EC_POINT_mul(g, q, d, NULL, NULL, NULL) == 1 &&
	    EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED, pub,
		POINT_LEN, NULL) == POINT_LEN)
		r = ERR_OK;
fail:
	EC_POINT_free(q);
	EC_GROUP_free(g);
	ERR_clear_error();
	return r;
}

/* A P-256 key pair from the private scalar priv. */
static int
p256_from_priv(const uint8_t priv[32], EVP_PKEY **out)
{
	uint8_t pub[POINT_LEN];
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BIGNUM *d = NULL;
	int r = ERR_CRYPTO;

	if ((d = BN_secure_new()) == NULL || BN_bin2bn(priv, 32, d) == NULL)
		goto fail;
	if ((r = p256_pub(d, pub)) != ERR_OK)
		goto fail;
	r = ERR_CRYPTO;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL ||
	    OSSL_PARAM_BLD_push_utf8_string(
		bld, OSSL_PKEY_PARAM_GROUP_NAME, SN_X9_62_prime256v1, 0) != 1 ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) != 1 ||
	    OSSL_PARAM_BLD_push_octet_string(
		bld, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub)) != 1 ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_KEYPAIR, params) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params); /* d is secure: its copy is in secure heap */
	OSSL_PARAM_BLD_free(bld);
	BN_clear_free(d);
	ERR_clear_error();
	return r;
}

int
pin_agree_with(int proto, const uint8_t priv[32], const uint8_t peer_x[32],
    const uint8_t peer_y[32], uint8_t our_x[32], uint8_t our_y[32],
    struct pin_shared *s)
{
	EVP_PKEY *ours = NULL;
	int r;

	if ((r = agree_args_ok(proto, peer_x, peer_y, our_x, our_y, s)) !=
	    ERR_OK)
		return r;
	if (priv == NULL)
		return ERR_INVAL;
	if ((r = p256_from_priv(priv, &ours)) != ERR_OK)
		return r;
	r = agree_key(proto, ours, peer_x, peer_y, our_x, our_y, s);
	EVP_PKEY_free(ours);
	return r;
}

/* The AES key of a shared secret: all of it (1), the second half (2). */
static const uint8_t *
aes_key(const struct pin_shared *s)
{
	if (s->proto == 1 && s->len == 32)
		return s->key;
	if (s->proto == 2 && s->len == 64)
		return s->key + 32;
	return NULL;
}

/* AES-256-CBC without padding, len a multiple of the block. */
static int
cbc(int enc, const uint8_t key[AES_KEY_LEN], const uint8_t iv[AES_BLOCK],
    const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER *c = NULL;
	EVP_CIPHER_CTX *ctx = NULL;
	int n1 = 0, n2 = 0, r = ERR_CRYPTO;

	if (len > INT32_MAX)
		return ERR_TOO_BIG;
	if ((c = EVP_CIPHER_fetch(NULL, "AES-256-CBC", NULL)) == NULL ||
	    (ctx = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) != 1 ||
	    EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
		goto fail;
	if (EVP_CipherUpdate(ctx, out, &n1, in, (int)len) != 1 ||
	    EVP_CipherFinal_ex(ctx, out + n1, &n2) != 1 ||
	    (size_t)n1 + (size_t)n2 != len)
		goto fail;
	r = ERR_OK;
fail:
	EVP_CIPHER_CTX_free(ctx); /* clears the key schedule */
	EVP_CIPHER_free(c);
	ERR_clear_error();
	return r;
}

int
pin_encrypt(const struct pin_shared *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap, size_t *out_len)
{
	uint8_t iv[AES_BLOCK] = {0};
	const uint8_t *key;
	size_t ivlen;
	int r;

	if (s == NULL || out == NULL || out_len == NULL ||
	    (in == NULL && len > 0) || (key = aes_key(s)) == NULL)
		return ERR_INVAL;
	*out_len = 0;
	if (len % AES_BLOCK != 0)
		return ERR_INVAL;
	ivlen = s->proto == 2 ? AES_BLOCK : 0;
	if (cap < ivlen || cap - ivlen < len)
		return ERR_TOO_BIG;
	if (ivlen > 0 && (r = util_random(iv, sizeof(iv))) != ERR_OK)
		return r;
	if ((r = cbc(1, key, iv, in, len, out + ivlen)) != ERR_OK) {
		util_wipe(out, ivlen + len);
		return r;
	}
	memcpy(out, iv, ivlen);
	*out_len = ivlen + len;
	return ERR_OK;
}

int
pin_decrypt(const struct pin_shared *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap, size_t *out_len)
{
	static const uint8_t zero_iv[AES_BLOCK];
	const uint8_t *key, *iv = zero_iv;
	int r;

	if (s == NULL || out == NULL || out_len == NULL ||
	    (in == NULL && len > 0) || (key = aes_key(s)) == NULL)
		return ERR_INVAL;
	*out_len = 0;
	if (s->proto == 2) {
		if (len < AES_BLOCK)
			return ERR_PARSE;
		iv = in;
		in += AES_BLOCK;
		len -= AES_BLOCK;
	}
	if (len % AES_BLOCK != 0)
		return ERR_PARSE;
	if (cap < len)
		return ERR_TOO_BIG;
	if ((r = cbc(0, key, iv, in, len, out)) != ERR_OK) {
		util_wipe(out, len);
		return r;
	}
	*out_len = len;
	return ERR_OK;
}

/* HMAC-SHA-256(key, msg), the first 16 bytes (1) or all 32 (2). */
static int
hmac(int proto, const uint8_t *key, size_t key_len, const uint8_t *msg,
    size_t len, uint8_t out[PIN_AUTH_MAX], size_t *out_len)
{
	uint8_t mac[HMAC_LEN];
	size_t n = 0;

	if (out == NULL || out_len == NULL || (msg == NULL && len > 0))
		return ERR_INVAL;
	*out_len = 0;
	if (EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key, key_len, msg,
		len, mac, sizeof(mac), &n) == NULL ||
	    n != HMAC_LEN) {
		ERR_clear_error();
		util_wipe(mac, sizeof(mac));
		return ERR_CRYPTO;
	}
	*out_len = proto == 1 ? P1_AUTH_LEN : HMAC_LEN;
	memcpy(out, mac, *out_len);
	util_wipe(mac, sizeof(mac));
	return ERR_OK;
}

int
pin_auth_shared(const struct pin_shared *s, const uint8_t *msg, size_t len,
    uint8_t out[PIN_AUTH_MAX], size_t *out_len)
{
	if (s == NULL || aes_key(s) == NULL)
		return ERR_INVAL;
	/* Protocol 1: the whole secret; protocol 2: its HMAC half. */
	return hmac(s->proto, s->key, 32, msg, len, out, out_len);
}

int
pin_auth_token(int proto, const uint8_t *token, size_t token_len,
    const uint8_t *msg, size_t len, uint8_t out[PIN_AUTH_MAX], size_t *out_len)
{
	if (token == NULL)
		return ERR_INVAL;
	/* Protocol 1 tokens: a multiple of 16 bytes (CTAP 2.0 keys give 16
	 * or 32); protocol 2: 32 bytes. */
	if (proto == 1) {
		if (token_len == 0 || token_len % 16 != 0 ||
		    token_len > TOKEN_MAX)
			return ERR_INVAL;
	} else if (proto != 2 || token_len != 32)
		return ERR_INVAL;
	return hmac(proto, token, token_len, msg, len, out, out_len);
}

void
pin_shared_clear(struct pin_shared *s)
{
	if (s != NULL)
		util_wipe(s, sizeof(*s));
}
