/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 credential keys of the software token: ES256, EdDSA and RS256
 * (2048 bits, e = 65537) key pairs, stateless credential ids (the private
 * key wrapped with AES-256-GCM under the master key, bound to the rpIdHash
 * and the algorithm), COSE_Key encoding and signatures. An RS256 key is
 * wrapped as its primes p || q (256 bytes) and rebuilt from them, so its
 * credential id is 285 bytes, within WebAuthn's 1023. */
#include "config.h"

#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

#define RSA_BITS 2048
#define RSA_PRIME 128 /* bytes of p and of q */
#define PRIV_MAX (2 * RSA_PRIME)

static uint8_t
alg_tag(int alg)
{
	switch (alg) {
	case COSE_ES256:
		return 1;
	case COSE_EDDSA:
		return 2;
	case COSE_RS256:
		return 3;
	default:
		return 0;
	}
}

static size_t
priv_len(int alg)
{
	return alg == COSE_RS256 ? PRIV_MAX : 32;
}

int
ctap2_key_gen(int alg, struct ctap2_key *k)
{
	EVP_PKEY_CTX *ctx = NULL;

	k->alg = alg;
	k->pkey = NULL;
	k->prot = 1;
	k->rk = 0;
	if (alg == COSE_ES256)
		k->pkey = EVP_EC_gen("P-256");
	else if (alg == COSE_EDDSA)
		k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	else if (alg == COSE_RS256) {
		if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) ==
			NULL ||
		    EVP_PKEY_keygen_init(ctx) != 1 ||
		    EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, RSA_BITS) != 1 ||
		    EVP_PKEY_generate(ctx, &k->pkey) != 1)
			k->pkey = NULL;
		EVP_PKEY_CTX_free(ctx);
	} else
		return ERR_UNSUPPORTED;
	return k->pkey != NULL ? ERR_OK : ERR_CRYPTO;
}

void
ctap2_key_clear(struct ctap2_key *k)
{
	EVP_PKEY_free(k->pkey);
	k->pkey = NULL;
}

static int
bn_param(EVP_PKEY *pk, const char *name, uint8_t *out, size_t n)
{
	BIGNUM *bn = NULL;
	int r = ERR_CRYPTO;

	if (EVP_PKEY_get_bn_param(pk, name, &bn) == 1 &&
	    BN_bn2binpad(bn, out, (int)n) == (int)n)
		r = ERR_OK;
	BN_clear_free(bn);
	return r;
}

/* The private part to wrap. */
static int
priv_get(const struct ctap2_key *k, uint8_t priv[PRIV_MAX])
{
	size_t n = 32;

	switch (k->alg) {
	case COSE_ES256:
		return bn_param(k->pkey, OSSL_PKEY_PARAM_PRIV_KEY, priv, 32);
	case COSE_EDDSA:
		return EVP_PKEY_get_raw_private_key(k->pkey, priv, &n) == 1 &&
			n == 32
		    ? ERR_OK
		    : ERR_CRYPTO;
	default:
		if (bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_FACTOR1, priv,
			RSA_PRIME) != ERR_OK)
			return ERR_CRYPTO;
		return bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_FACTOR2,
		    priv + RSA_PRIME, RSA_PRIME);
	}
}

/* The numbers of an RSA key, in the order of names[] below. */
enum { RN, RE, RP, RQ, RD, RDP, RDQ, RQI, RCOUNT };

/* d, dp, dq, qinv from p, q and e. */
static int
rsa_crt(BIGNUM **v, BN_CTX *bc)
{
	BIGNUM *p1 = BN_secure_new(), *q1 = BN_secure_new();
	BIGNUM *phi = BN_secure_new();
	int r = ERR_CRYPTO;

	if (p1 == NULL || q1 == NULL || phi == NULL ||
	    BN_copy(p1, v[RP]) == NULL || BN_sub_word(p1, 1) != 1 ||
	    BN_copy(q1, v[RQ]) == NULL || BN_sub_word(q1, 1) != 1 ||
	    BN_mul(phi, p1, q1, bc) != 1 ||
	    BN_mod_inverse(v[RD], v[RE], phi, bc) == NULL ||
	    BN_mod(v[RDP], v[RD], p1, bc) != 1 ||
	    BN_mod(v[RDQ], v[RD], q1, bc) != 1 ||
	    BN_mod_inverse(v[RQI], v[RQ], v[RP], bc) == NULL ||
	    BN_mul(v[RN], v[RP], v[RQ], bc) != 1)
		goto fail;
	r = ERR_OK;
fail:
	BN_clear_free(p1);
	BN_clear_free(q1);
	BN_clear_free(phi);
	return r;
}

/* An RSA key pair from p || q and e = 65537. The builder only keeps
 * pointers to the numbers: they live until OSSL_PARAM_BLD_to_param. */
static int
rsa_from_primes(const uint8_t *pq, EVP_PKEY **out)
{
	static const char *const names[RCOUNT] = {OSSL_PKEY_PARAM_RSA_N,
	    OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_FACTOR1,
	    OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_D,
	    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
	    OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BN_CTX *bc = BN_CTX_secure_new();
	BIGNUM *v[RCOUNT];
	int i, r = ERR_CRYPTO;

	for (i = 0; i < RCOUNT; i++)
		v[i] = BN_secure_new();
	for (i = 0; i < RCOUNT; i++)
		if (v[i] == NULL)
			goto fail;
	if (bld == NULL || bc == NULL ||
	    BN_bin2bn(pq, RSA_PRIME, v[RP]) == NULL ||
	    BN_bin2bn(pq + RSA_PRIME, RSA_PRIME, v[RQ]) == NULL ||
	    BN_set_word(v[RE], 65537) != 1 || rsa_crt(v, bc) != ERR_OK)
		goto fail;
	for (i = 0; i < RCOUNT; i++)
		if (OSSL_PARAM_BLD_push_BN(bld, names[i], v[i]) != 1)
			goto fail;
	if ((params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_KEYPAIR, params) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	for (i = 0; i < RCOUNT; i++)
		BN_clear_free(v[i]);
	BN_CTX_free(bc);
	return r;
}

static int
key_from_priv(int alg, const uint8_t *priv, struct ctap2_key *k)
{
	k->alg = alg;
	k->pkey = NULL;
	if (alg == COSE_ES256)
		return token_ec_from_priv(priv, &k->pkey);
	if (alg == COSE_EDDSA) {
		k->pkey = EVP_PKEY_new_raw_private_key(
		    EVP_PKEY_ED25519, NULL, priv, 32);
		return k->pkey != NULL ? ERR_OK : ERR_CRYPTO;
	}
	return rsa_from_primes(priv, &k->pkey);
}

/* AES-256-GCM under the master key; aad = rpIdHash || alg tag. */
static int
gcm(const struct token *t, int enc, const uint8_t *nonce, const uint8_t *aad,
    const uint8_t *in, size_t n, uint8_t *out, uint8_t *tag)
{
	EVP_CIPHER_CTX *ctx = NULL;
	int m = 0, r = ERR_CRYPTO;

	if ((ctx = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_CipherInit_ex(
		ctx, EVP_aes_256_gcm(), NULL, t->master, nonce, enc) != 1 ||
	    EVP_CipherUpdate(ctx, NULL, &m, aad, 33) != 1 ||
	    EVP_CipherUpdate(ctx, out, &m, in, (int)n) != 1 || (size_t)m != n)
		goto fail;
	if (!enc &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, TAG_LEN, tag) != 1)
		goto fail;
	if (EVP_CipherFinal_ex(ctx, out + n, &m) != 1)
		goto fail;
	if (enc &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, tag) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_CIPHER_CTX_free(ctx);
	return r;
}

int
ctap2_cred_wrap(const struct token *t, const struct ctap2_key *k,
    const uint8_t rph[32], uint8_t *id, size_t *id_len)
{
	uint8_t priv[PRIV_MAX + 16], aad[33];
	size_t n = priv_len(k->alg);
	int r;

	if (k->prot < 1 || k->prot > 3)
		return ERR_INVAL;
	id[0] = (uint8_t)(alg_tag(k->alg) | (k->rk ? 0x08 : 0) |
	    (k->prot - 1) << 4 | (k->hmac ? 0x40 : 0));
	memcpy(aad, rph, 32);
	aad[32] = id[0];
	if ((r = priv_get(k, priv)) != ERR_OK ||
	    (r = util_random(id + 1, NONCE_LEN)) != ERR_OK ||
	    (r = gcm(t, 1, id + 1, aad, priv, n, id + 1 + NONCE_LEN,
		 id + 1 + NONCE_LEN + n)) != ERR_OK)
		goto fail;
	*id_len = 1 + NONCE_LEN + n + TAG_LEN;
fail:
	util_wipe(priv, sizeof(priv));
	return r;
}

int
ctap2_cred_unwrap(const struct token *t, const uint8_t *id, size_t len,
    const uint8_t rph[32], struct ctap2_key *k)
{
	static const int algs[] = {0, COSE_ES256, COSE_EDDSA, COSE_RS256};
	uint8_t priv[PRIV_MAX + 16], aad[33], tag[TAG_LEN];
	size_t n;
	int r = ERR_WRONG_KH;

	k->pkey = NULL;
	if (len < 1 || (id[0] & 0x07) < 1 || (id[0] & 0x07) > 3 ||
	    (id[0] & 0x80) != 0 || ((id[0] >> 4) & 3) > 2)
		return ERR_WRONG_KH;
	n = priv_len(algs[id[0] & 0x07]);
	if (len != 1 + NONCE_LEN + n + TAG_LEN)
		return ERR_WRONG_KH;
	memcpy(aad, rph, 32);
	aad[32] = id[0];
	memcpy(tag, id + 1 + NONCE_LEN + n, TAG_LEN);
	if (gcm(t, 0, id + 1, aad, id + 1 + NONCE_LEN, n, priv, tag) != ERR_OK)
		goto fail;
	r = key_from_priv(algs[id[0] & 0x07], priv, k) == ERR_OK ? ERR_OK
								 : ERR_CRYPTO;
	k->rk = (id[0] & 0x08) != 0;
	k->prot = 1 + ((id[0] >> 4) & 3);
	k->hmac = (id[0] & 0x40) != 0;
fail:
	util_wipe(priv, sizeof(priv));
	return r;
}

static int
cose_ec2(EVP_PKEY *pk, struct cbor_wr *w)
{
	uint8_t pt[65];
	size_t n = 0;

	if (EVP_PKEY_get_octet_string_param(
		pk, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof(pt), &n) != 1 ||
	    n != 65 || pt[0] != 0x04)
		return ERR_CRYPTO;
	cbor_put_map(w, 5);
	cbor_put_int(w, 1);
	cbor_put_int(w, 2); /* kty EC2 */
	cbor_put_int(w, 3);
	cbor_put_int(w, COSE_ES256);
	cbor_put_int(w, -1);
	cbor_put_int(w, 1); /* crv P-256 */
	cbor_put_int(w, -2);
	cbor_put_bytes(w, pt + 1, 32);
	cbor_put_int(w, -3);
	cbor_put_bytes(w, pt + 33, 32);
	return ERR_OK;
}

static int
cose_okp(EVP_PKEY *pk, struct cbor_wr *w)
{
	uint8_t x[32];
	size_t n = sizeof(x);

	if (EVP_PKEY_get_raw_public_key(pk, x, &n) != 1 || n != 32)
		return ERR_CRYPTO;
	cbor_put_map(w, 4);
	cbor_put_int(w, 1);
	cbor_put_int(w, 1); /* kty OKP */
	cbor_put_int(w, 3);
	cbor_put_int(w, COSE_EDDSA);
	cbor_put_int(w, -1);
	cbor_put_int(w, 6); /* crv Ed25519 */
	cbor_put_int(w, -2);
	cbor_put_bytes(w, x, 32);
	return ERR_OK;
}

static int
cose_rsa(EVP_PKEY *pk, struct cbor_wr *w)
{
	uint8_t nb[RSA_BITS / 8], eb[3];

	if (bn_param(pk, OSSL_PKEY_PARAM_RSA_N, nb, sizeof(nb)) != ERR_OK ||
	    bn_param(pk, OSSL_PKEY_PARAM_RSA_E, eb, sizeof(eb)) != ERR_OK)
		return ERR_CRYPTO;
	cbor_put_map(w, 4);
	cbor_put_int(w, 1);
	cbor_put_int(w, 3); /* kty RSA */
	cbor_put_int(w, 3);
	cbor_put_int(w, COSE_RS256);
	cbor_put_int(w, -1);
	cbor_put_bytes(w, nb, sizeof(nb));
	cbor_put_int(w, -2);
	cbor_put_bytes(w, eb, sizeof(eb));
	return ERR_OK;
}

int
ctap2_cose_write(
    const struct ctap2_key *k, uint8_t *out, size_t cap, size_t *len)
{
	struct cbor_wr w;
	int r;

	cbor_wr_init(&w, out, cap);
	if (k->alg == COSE_ES256)
		r = cose_ec2(k->pkey, &w);
	else if (k->alg == COSE_EDDSA)
		r = cose_okp(k->pkey, &w);
	else
		r = cose_rsa(k->pkey, &w);
	if (r != ERR_OK)
		return r;
	return cbor_wr_end(&w, len);
}

int
ctap2_sign(EVP_PKEY *pkey, int alg, const uint8_t *msg, size_t len,
    uint8_t *sig, size_t *siglen)
{
	EVP_MD_CTX *ctx = NULL;
	int r = ERR_CRYPTO;

	*siglen = CTAP2_SIG_MAX;
	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestSignInit(ctx, NULL,
		alg == COSE_EDDSA ? NULL : EVP_sha256(), NULL, pkey) != 1 ||
	    EVP_DigestSign(ctx, sig, siglen, msg, len) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_MD_CTX_free(ctx);
	return r;
}
