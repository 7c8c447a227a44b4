/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256, P-256 point checks and ES256 verification without EVP: the
 * second implementation of what crypto.c does through EVP. Like every
 * file of common/crypto/ (crypto.c, cosesig.c, pinproto.c, this one), it
 * may include OpenSSL; no other layer does. Its own file because it is
 * built only on request (below) and written below OpenSSL's providers.
 *
 * Why: OpenSSL 3.0's first EVP fetch in a process sets up its providers
 * (reads openssl.cnf, copies every legacy algorithm name into the
 * provider name map): about 6M instructions, more than everything else
 * one authentication costs (bench/analysis.md). sudo and su start a new
 * process for every authentication and would pay it every time.
 *
 * How: still OpenSSL's code, below its provider layer. SHA-256 is
 * SHA256_Init/Update/Final (deprecated in 3.0, not removed). The point is
 * decoded and checked by EC_POINT_oct2point and EC_POINT_is_on_curve. The
 * verification is SEC 1 (version 2) section 4.1.4 written out over
 * OpenSSL's BN and EC_POINT arithmetic, with every check of OpenSSL's own
 * ECDSA verification (ecdsa_ossl.c in its crypto/ec/): the signature is strict
 * DER with nothing after it, r and s lie in [1, n-1], and the sum point
 * is not at infinity. ECDSA_do_verify itself cannot be used: its EC_KEY
 * brings in the ENGINE set-up, which reads openssl.cnf too.
 *
 * Checked against the EVP implementation (crypto.c) and NIST's P-256
 * signature vectors by tests/crypto/test_es256.c, and against EVP on every
 * input by fuzz/fuzz_es256.c.
 *
 * Opt-in: built only with configure --enable-direct-verify (otherwise
 * this file is empty and crypto.h's functions use EVP throughout), since
 * these checks run outside OpenSSL's providers and so outside any policy
 * openssl.cnf sets (a FIPS provider, default_properties = fips=yes). Even
 * then the process uses EVP when /proc/sys/crypto/fips_enabled is 1 at
 * its first check (crypto_select.c, crypto_fips.c). */
#include "config.h"

#if DIRECT_VERIFY

#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_Init, SHA256_Update ... */

#include <limits.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>

#include "crypto.h"
#include "crypto_int.h"
#include "base/err.h"
#include "base/util.h"

#define POINT_LEN 65
#define ORDER_BITS 256 /* P-256's order n: e is the whole SHA-256 */

/* SHA-512 the same way: the SSHSIG message's hash (sshsig.c), which
 * would otherwise make an agent login pay OpenSSL 3's first EVP fetch. */
int
crypto_sha512_direct(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN])
{
	SHA512_CTX c;
	int ok;

	if ((data == NULL && len > 0) || out == NULL)
		return ERR_INVAL;
	ok = SHA512_Init(&c) == 1 && SHA512_Update(&c, data, len) == 1 &&
	    SHA512_Final(out, &c) == 1;
	util_wipe(&c, sizeof(c));
	if (!ok) {
		util_wipe(out, CRYPTO_SHA512_LEN);
		return ERR_CRYPTO;
	}
	return ERR_OK;
}

int
crypto_sha256_direct(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN])
{
	SHA256_CTX c;
	int ok;

	if ((data == NULL && len > 0) || out == NULL)
		return ERR_INVAL;
	ok = SHA256_Init(&c) == 1 && SHA256_Update(&c, data, len) == 1 &&
	    SHA256_Final(out, &c) == 1;
	util_wipe(&c, sizeof(c));
	if (!ok) {
		util_wipe(out, CRYPTO_SHA256_LEN);
		return ERR_CRYPTO;
	}
	return ERR_OK;
}

/* Everything one verification works with; freed by ctx_free. */
struct vctx {
	BN_CTX *bn;
	EC_GROUP *g;
	EC_POINT *q;
	ECDSA_SIG *sig;
};

/* Frees v; after a failure, also clears what OpenSSL queued. Not after a
 * success: the first use of OpenSSL's error queue in a thread loads every
 * error string (about 0.9M instructions), and a success queued nothing. */
static void
ctx_free(struct vctx *v, int r)
{
	ECDSA_SIG_free(v->sig);
	EC_POINT_free(v->q);
	EC_GROUP_free(v->g);
	BN_CTX_free(v->bn);
	if (r != ERR_OK)
		ERR_clear_error();
}

static int
ctx_init(struct vctx *v)
{
	memset(v, 0, sizeof(*v));
	if ((v->bn = BN_CTX_new()) == NULL ||
	    (v->g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)) == NULL ||
	    BN_num_bits(EC_GROUP_get0_order(v->g)) != ORDER_BITS)
		return ERR_CRYPTO;
	return ERR_OK;
}

/* v->q = the 65-byte uncompressed point: coordinates below the field
 * prime (EC_POINT_oct2point refuses others), on the curve, not the point
 * at infinity. P-256's cofactor is 1, so every such point lies in the
 * group of prime order n. ERR_PARSE for any other point. */
static int
point_decode(struct vctx *v, const uint8_t point[POINT_LEN])
{
	if (point[0] != 0x04)
		return ERR_PARSE;
	if ((v->q = EC_POINT_new(v->g)) == NULL)
		return ERR_CRYPTO;
	if (EC_POINT_oct2point(v->g, v->q, point, POINT_LEN, v->bn) != 1 ||
	    EC_POINT_is_at_infinity(v->g, v->q) ||
	    EC_POINT_is_on_curve(v->g, v->q, v->bn) != 1)
		return ERR_PARSE;
	return ERR_OK;
}

/* In [1, n-1]. */
static int
scalar_ok(const BIGNUM *x, const BIGNUM *n)
{
	return !BN_is_zero(x) && !BN_is_negative(x) && BN_ucmp(x, n) < 0;
}

/* v->sig = (r, s) from exactly sig_len bytes of DER: decoding consumes
 * all of them and encoding the result gives them back (no BER, no
 * leading zeros, no trailing bytes), and r, s in [1, n-1]. Anything else
 * is ERR_VERIFY, as a failed check of a well-formed signature. */
static int
sig_decode(struct vctx *v, const uint8_t *sig, size_t sig_len)
{
	const unsigned char *p = sig;
	unsigned char *der = NULL;
	const BIGNUM *r, *s, *n = EC_GROUP_get0_order(v->g);
	int dl, ret = ERR_VERIFY;

	if (sig == NULL || sig_len == 0 || sig_len > CRYPTO_ES256_SIG_MAX)
		return ERR_VERIFY;
	if ((v->sig = d2i_ECDSA_SIG(NULL, &p, (long)sig_len)) == NULL ||
	    p != sig + sig_len)
		return ERR_VERIFY;
	if ((dl = i2d_ECDSA_SIG(v->sig, &der)) < 0 || (size_t)dl != sig_len ||
	    memcmp(der, sig, sig_len) != 0)
		goto out;
	ECDSA_SIG_get0(v->sig, &r, &s);
	if (r == NULL || s == NULL || !scalar_ok(r, n) || !scalar_ok(s, n))
		goto out;
	ret = ERR_OK;
out:
	OPENSSL_free(der);
	return ret;
}

/* SEC 1 4.1.4 steps 4 to 8, with r, s and Q checked: w = s^-1 mod n,
 * u1 = e*w mod n, u2 = r*w mod n, R = u1*G + u2*Q, R not at infinity,
 * and x(R) mod n == r. ERR_OK only for that last equality. */
static int
equation(struct vctx *v, const uint8_t e32[CRYPTO_SHA256_LEN])
{
	const BIGNUM *r, *s, *n = EC_GROUP_get0_order(v->g);
	BIGNUM *e, *w, *u1, *u2, *x;
	EC_POINT *rp = NULL;
	int ret = ERR_CRYPTO;

	ECDSA_SIG_get0(v->sig, &r, &s);
	BN_CTX_start(v->bn);
	e = BN_CTX_get(v->bn);
	w = BN_CTX_get(v->bn);
	u1 = BN_CTX_get(v->bn);
	u2 = BN_CTX_get(v->bn);
	if ((x = BN_CTX_get(v->bn)) == NULL ||
	    BN_bin2bn(e32, CRYPTO_SHA256_LEN, e) == NULL ||
	    BN_mod_inverse(w, s, n, v->bn) == NULL ||
	    BN_mod_mul(u1, e, w, n, v->bn) != 1 ||
	    BN_mod_mul(u2, r, w, n, v->bn) != 1 ||
	    (rp = EC_POINT_new(v->g)) == NULL ||
	    EC_POINT_mul(v->g, rp, u1, v->q, u2, v->bn) != 1)
		goto out;
	if (EC_POINT_is_at_infinity(v->g, rp)) {
		ret = ERR_VERIFY;
		goto out;
	}
	if (EC_POINT_get_affine_coordinates(v->g, rp, x, NULL, v->bn) != 1 ||
	    BN_nnmod(x, x, n, v->bn) != 1)
		goto out;
	ret = BN_cmp(x, r) == 0 ? ERR_OK : ERR_VERIFY;
out:
	EC_POINT_free(rp);
	BN_CTX_end(v->bn);
	return ret;
}

int
crypto_es256_verify_digest_direct(const uint8_t point[POINT_LEN],
    const uint8_t e[CRYPTO_SHA256_LEN], const uint8_t *sig, size_t sig_len)
{
	struct vctx v;
	int r;

	if (point == NULL || e == NULL)
		return ERR_INVAL;
	if ((r = ctx_init(&v)) == ERR_OK &&
	    (r = point_decode(&v, point)) == ERR_OK &&
	    (r = sig_decode(&v, sig, sig_len)) == ERR_OK)
		r = equation(&v, e);
	ctx_free(&v, r);
	return r;
}

int
crypto_es256_verify_direct(const uint8_t point[POINT_LEN], const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t e[CRYPTO_SHA256_LEN];
	int r;

	if (point == NULL || (msg == NULL && msg_len > 0))
		return ERR_INVAL;
	if ((r = crypto_sha256_direct(msg, msg_len, e)) != ERR_OK)
		return r;
	r = crypto_es256_verify_digest_direct(point, e, sig, sig_len);
	util_wipe(e, sizeof(e));
	return r;
}

int
crypto_p256_point_direct(const uint8_t *raw, size_t len, uint8_t point[65])
{
	uint8_t tmp[POINT_LEN];
	struct vctx v;
	int r;

	if (point == NULL)
		return ERR_INVAL;
	if ((r = crypto_point_form(raw, len, tmp)) != ERR_OK)
		return r;
	if ((r = ctx_init(&v)) == ERR_OK)
		r = point_decode(&v, tmp);
	ctx_free(&v, r);
	if (r == ERR_OK)
		memcpy(point, tmp, sizeof(tmp));
	return r;
}

#else
/* ISO C wants a translation unit to declare something. */
typedef int crypto_direct_not_built;
#endif
