/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for common/crypto/crypto.c: known answers from the FIDO U2F raw
 * message format examples, and single-byte tampering of every input. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "base/cred.h"
#include "base/err.h"
#include "test.h"
#include "u2fkat.h"

/* A self-signed certificate with a P-384 key, and that key's valid
 * ECDSA-SHA-256 signature over the registration vector's signed bytes
 * (made once with the openssl command line tool). */
#define P384_CERT                                                              \
	"308201b130820138a00302010202145d1a4d17345f25cf6d8c7607540cf7d169"     \
	"1fa892300a06082a8648ce3d040302300f310d300b06035504030c0470333834"     \
	"3020170d3236313230333035333635305a180f32313236313130393035333635"     \
	"305a300f310d300b06035504030c04703338343076301006072a8648ce3d0201"     \
	"06052b8104002203620004182d083b49ca4f32132ad5f3ca0377107062285ab5"     \
	"29aa3bed6ad46607a309c95454972261047b498aab15016174a05ed248d9ef67"     \
	"83dc2f643af554fca7cd9a2e2a422317e403eca1c619e1e2472a6ba273c42b21"     \
	"941e593c28f2c9e8588bffa3533051301d0603551d0e0416041410430867f4ec"     \
	"7ce0be76461285c25716fb7eb0c8301f0603551d2304183016801410430867f4"     \
	"ec7ce0be76461285c25716fb7eb0c8300f0603551d130101ff040530030101ff"     \
	"300a06082a8648ce3d040302036700306402304b81bb408e16a6af4dded14c47"     \
	"c2300a3be3ebf5739a61aa46e82e7e0c30fd891e63cc5b1f57e69a5b709f322c"     \
	"7bfcc802302952c45d7d97912413efd225626733d88ae7864ca467289f08fe18"     \
	"d3287c202ec5e403e11ef80356954bb7b79c2619a9"
#define P384_SIG                                                               \
	"30640230208ea4fac80d5f84fc5e93e6305534be2722f208c0a841d52d46ce38"     \
	"5fde8ff6023f7ae10538b8fc1aa4a89150c591bc02305e6748fef51470eda521"     \
	"4d60888b15bc9aa30ca352847a1aa52c4076863309fb001b392eea6317a33576"     \
	"1f2f2ff15dcc"

/* Decoded vectors, filled once by each case that needs them. */
struct kat {
	uint8_t *reg, *reg_app, *reg_chal;
	size_t reg_len;
	uint8_t *auth_app, *auth_chal, *auth_key, *auth_sig;
	size_t auth_sig_len;
};

static uint8_t *
unhex_n(const char *hex, size_t want)
{
	size_t n;
	uint8_t *p = test_unhex(hex, &n);

	if (want != 0 && n != want)
		abort();
	return p;
}

static void
kat_load(struct kat *k)
{
	k->reg = test_unhex(REG_REPLY, &k->reg_len);
	k->reg_app = unhex_n(REG_APP, 32);
	k->reg_chal = unhex_n(REG_CHAL, 32);
	k->auth_app = unhex_n(AUTH_APP, 32);
	k->auth_chal = unhex_n(AUTH_CHAL, 32);
	k->auth_key = unhex_n(AUTH_KEY, 65);
	k->auth_sig = test_unhex(AUTH_SIG, &k->auth_sig_len);
}

static void
kat_free(struct kat *k)
{
	free(k->reg);
	free(k->reg_app);
	free(k->reg_chal);
	free(k->auth_app);
	free(k->auth_chal);
	free(k->auth_key);
	free(k->auth_sig);
}

static int
reg_verify(const uint8_t *reg, const uint8_t *app, const uint8_t *chal)
{
	return crypto_verify_u2f_register(reg + REG_CERT_OFF, REG_CERT_LEN, app,
	    chal, reg + REG_KH_OFF, REG_KH_LEN, reg + REG_POINT_OFF,
	    reg + REG_SIG_OFF, REG_SIG_LEN);
}

static void
sha256_app_params(void)
{
	static const char *empty =
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	const char *o1 = "http://example.com";
	const char *o2 = "https://gstatic.com/securitykey/a/example.com";
	uint8_t out[CRYPTO_SHA256_LEN], *want;

	want = unhex_n(REG_APP, 32);
	T_EQ_ERR(crypto_sha256(o1, strlen(o1), out), ERR_OK);
	T_EQ_MEM(out, want, 32);
	free(want);
	want = unhex_n(AUTH_APP, 32);
	T_EQ_ERR(crypto_sha256(o2, strlen(o2), out), ERR_OK);
	T_EQ_MEM(out, want, 32);
	free(want);
	want = unhex_n(empty, 32);
	T_EQ_ERR(crypto_sha256("", 0, out), ERR_OK);
	T_EQ_MEM(out, want, 32);
	T_EQ_ERR(crypto_sha256(NULL, 0, out), ERR_OK);
	T_EQ_MEM(out, want, 32);
	free(want);
	T_EQ_ERR(crypto_sha256(NULL, 1, out), ERR_INVAL);
}

static void
cert_len_measures(void)
{
	struct kat k;
	size_t n = 99;

	kat_load(&k);
	/* The certificate followed by the signature: only the cert counts. */
	T_EQ_ERR(
	    crypto_cert_len(k.reg + REG_CERT_OFF, k.reg_len - REG_CERT_OFF, &n),
	    ERR_OK);
	T_EQ_INT(n, REG_CERT_LEN);
	T_EQ_ERR(
	    crypto_cert_len(k.reg + REG_CERT_OFF, REG_CERT_LEN, &n), ERR_OK);
	T_EQ_INT(n, REG_CERT_LEN);
	/* One byte short, the signature alone, the key handle, nothing. */
	T_EQ_ERR(crypto_cert_len(k.reg + REG_CERT_OFF, REG_CERT_LEN - 1, &n),
	    ERR_PROTO);
	T_EQ_INT(n, 0);
	T_EQ_ERR(
	    crypto_cert_len(k.reg + REG_SIG_OFF, REG_SIG_LEN, &n), ERR_PROTO);
	T_EQ_ERR(
	    crypto_cert_len(k.reg + REG_KH_OFF, k.reg_len - REG_KH_OFF, &n),
	    ERR_PROTO);
	T_EQ_ERR(crypto_cert_len(k.reg + REG_CERT_OFF, 0, &n), ERR_PROTO);
	T_EQ_ERR(crypto_cert_len(NULL, 10, &n), ERR_PROTO);
	kat_free(&k);
}

static void
cert_len_every_truncation(void)
{
	struct kat k;
	size_t i, n;
	int bad = 0;

	kat_load(&k);
	for (i = 0; i < REG_CERT_LEN; i++) {
		if (crypto_cert_len(k.reg + REG_CERT_OFF, i, &n) != ERR_PROTO)
			bad++;
	}
	T_EQ_INT(bad, 0);
	kat_free(&k);
}

static void
cert_subject_one_line(void)
{
	struct kat k;
	char *s = NULL;

	kat_load(&k);
	T_EQ_ERR(crypto_cert_subject(k.reg + REG_CERT_OFF, REG_CERT_LEN, &s),
	    ERR_OK);
	T_EQ_STR(s, "CN=PilotGnubby-0.4.1-47901280001155957352");
	free(s);
	s = NULL;
	/* The subject needs exactly one certificate: no trailing bytes. */
	T_EQ_ERR(
	    crypto_cert_subject(k.reg + REG_CERT_OFF, REG_CERT_LEN + 1, &s),
	    ERR_PROTO);
	T_TRUE(s == NULL);
	T_EQ_ERR(crypto_cert_subject(k.reg, 40, &s), ERR_PROTO);
	T_TRUE(s == NULL);
	kat_free(&k);
}

static void
register_kat_verifies(void)
{
	struct kat k;

	kat_load(&k);
	T_EQ_INT(k.reg_len, REG_SIG_OFF + REG_SIG_LEN);
	T_EQ_ERR(reg_verify(k.reg, k.reg_app, k.reg_chal), ERR_OK);
	/* app and challenge swapped */
	T_EQ_ERR(reg_verify(k.reg, k.reg_chal, k.reg_app), ERR_VERIFY);
	kat_free(&k);
}

/* Flip (xor) every byte of [off, off + len) of the registration reply in
 * turn; count the flips that still verify. */
static int
reg_flips_accepted(
    const struct kat *k, size_t off, size_t len, uint8_t x, int want)
{
	uint8_t *copy = malloc(k->reg_len);
	size_t i;
	int bad = 0, r;

	if (copy == NULL)
		abort();
	memcpy(copy, k->reg, k->reg_len);
	for (i = off; i < off + len; i++) {
		copy[i] ^= x;
		r = reg_verify(copy, k->reg_app, k->reg_chal);
		if (r != want)
			bad++;
		copy[i] ^= x;
	}
	free(copy);
	return bad;
}

static void
register_flip_every_byte(void)
{
	struct kat k;
	uint8_t app[32], chal[32];
	size_t i;
	int bad = 0;

	kat_load(&k);
	/* signature, key handle and user key: all part of what is signed */
	T_EQ_INT(
	    reg_flips_accepted(&k, REG_SIG_OFF, REG_SIG_LEN, 0x01, ERR_VERIFY),
	    0);
	T_EQ_INT(
	    reg_flips_accepted(&k, REG_SIG_OFF, REG_SIG_LEN, 0xff, ERR_VERIFY),
	    0);
	T_EQ_INT(
	    reg_flips_accepted(&k, REG_KH_OFF, REG_KH_LEN, 0x01, ERR_VERIFY),
	    0);
	T_EQ_INT(
	    reg_flips_accepted(&k, REG_POINT_OFF, 65, 0x01, ERR_VERIFY), 0);
	for (i = 0; i < 32; i++) {
		memcpy(app, k.reg_app, 32);
		memcpy(chal, k.reg_chal, 32);
		app[i] ^= 0x01;
		if (reg_verify(k.reg, app, k.reg_chal) != ERR_VERIFY)
			bad++;
		chal[i] ^= 0x80;
		if (reg_verify(k.reg, k.reg_app, chal) != ERR_VERIFY)
			bad++;
	}
	T_EQ_INT(bad, 0);
	/* still fine after all that: nothing was left modified */
	T_EQ_ERR(reg_verify(k.reg, k.reg_app, k.reg_chal), ERR_OK);
	kat_free(&k);
}

static void
register_bad_inputs(void)
{
	struct kat k;
	const uint8_t *r = NULL;

	kat_load(&k);
	r = k.reg;
	/* certificate with a trailing byte, or cut short */
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN + 1,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, r + REG_SIG_OFF, REG_SIG_LEN),
	    ERR_PROTO);
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN - 1,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, r + REG_SIG_OFF, REG_SIG_LEN),
	    ERR_PROTO);
	/* signature cut short, with a trailing byte, or absent */
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, r + REG_SIG_OFF, REG_SIG_LEN - 1),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, r + REG_SIG_OFF - 1, REG_SIG_LEN + 1),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, NULL, 0),
	    ERR_VERIFY);
	/* the key handle one byte shorter */
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN - 1,
		     r + REG_POINT_OFF, r + REG_SIG_OFF, REG_SIG_LEN),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, 256,
		     r + REG_POINT_OFF, r + REG_SIG_OFF, REG_SIG_LEN),
	    ERR_INVAL);
	/* the authentication signature is not the attestation's */
	T_EQ_ERR(crypto_verify_u2f_register(r + REG_CERT_OFF, REG_CERT_LEN,
		     k.reg_app, k.reg_chal, r + REG_KH_OFF, REG_KH_LEN,
		     r + REG_POINT_OFF, k.auth_sig, k.auth_sig_len),
	    ERR_VERIFY);
	kat_free(&k);
}

static void
register_refuses_other_curves(void)
{
	uint8_t *cert, *sig;
	size_t cert_len, sig_len;
	struct kat k;

	kat_load(&k);
	cert = test_unhex(P384_CERT, &cert_len);
	sig = test_unhex(P384_SIG, &sig_len);
	T_EQ_ERR(crypto_verify_u2f_register(cert, cert_len, k.reg_app,
		     k.reg_chal, k.reg + REG_KH_OFF, REG_KH_LEN,
		     k.reg + REG_POINT_OFF, sig, sig_len),
	    ERR_VERIFY);
	free(cert);
	free(sig);
	kat_free(&k);
}

static void
auth_kat_verifies(void)
{
	struct kat k;

	kat_load(&k);
	T_EQ_ERR(crypto_verify_u2f_auth(k.auth_key, k.auth_app, 0x01, 1,
		     k.auth_chal, k.auth_sig, k.auth_sig_len),
	    ERR_OK);
	/* the vector is signed with flags 01: a flags 00 copy must fail */
	T_EQ_ERR(crypto_verify_u2f_auth(k.auth_key, k.auth_app, 0x00, 1,
		     k.auth_chal, k.auth_sig, k.auth_sig_len),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_u2f_auth(k.auth_key, k.auth_app, 0x01, 0,
		     k.auth_chal, k.auth_sig, k.auth_sig_len),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_u2f_auth(k.auth_key, k.auth_app, 0x01, 2,
		     k.auth_chal, k.auth_sig, k.auth_sig_len),
	    ERR_VERIFY);
	/* the other vector's key */
	T_EQ_ERR(crypto_verify_u2f_auth(k.reg + REG_POINT_OFF, k.auth_app, 0x01,
		     1, k.auth_chal, k.auth_sig, k.auth_sig_len),
	    ERR_VERIFY);
	kat_free(&k);
}

/* One flip of one auth input; ERR_OK means the tampering went unseen. */
static int
auth_flip(const struct kat *k, int what, size_t i, uint8_t x)
{
	uint8_t key[65], app[32], chal[32], sig[80], flags = 0x01;
	uint32_t counter = 1;

	memcpy(key, k->auth_key, 65);
	memcpy(app, k->auth_app, 32);
	memcpy(chal, k->auth_chal, 32);
	memcpy(sig, k->auth_sig, k->auth_sig_len);
	switch (what) {
	case 0:
		sig[i] ^= x;
		break;
	case 1:
		key[i] ^= x;
		break;
	case 2:
		app[i] ^= x;
		break;
	case 3:
		chal[i] ^= x;
		break;
	case 4:
		counter ^= (uint32_t)x << (8 * i);
		break;
	default:
		flags ^= x;
		break;
	}
	return crypto_verify_u2f_auth(
	    key, app, flags, counter, chal, sig, k->auth_sig_len);
}

static void
auth_flip_every_byte(void)
{
	static const uint8_t xs[] = {0x01, 0x80, 0xff};
	struct kat k;
	size_t lens[6], i, j;
	int what, r, bad = 0, parse = 0;

	kat_load(&k);
	lens[0] = k.auth_sig_len;
	lens[1] = 65;
	lens[2] = 32;
	lens[3] = 32;
	lens[4] = 4;
	lens[5] = 1;
	for (what = 0; what < 6; what++) {
		for (i = 0; i < lens[what]; i++) {
			for (j = 0; j < sizeof(xs); j++) {
				r = auth_flip(&k, what, i, xs[j]);
				/* a changed key may leave the curve */
				if (what == 1 && r == ERR_PARSE)
					parse++;
				else if (r != ERR_VERIFY)
					bad++;
			}
		}
	}
	T_EQ_INT(bad, 0);
	T_TRUE(parse > 0);
	kat_free(&k);
}

static void
es256_malformed_signatures(void)
{
	static const uint8_t junk[] = {
	    0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
	struct kat k;
	uint8_t msg[69], sig[80];
	size_t n;

	kat_load(&k);
	memcpy(msg, k.auth_app, 32);
	msg[32] = 0x01;
	msg[33] = msg[34] = msg[35] = 0;
	msg[36] = 1;
	memcpy(msg + 37, k.auth_chal, 32);
	n = k.auth_sig_len;
	memcpy(sig, k.auth_sig, n);
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, n),
	    ERR_OK);
	/* the same with a trailing byte, cut short, or longer DER length */
	sig[n] = 0x00;
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, n + 1),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, n - 1),
	    ERR_VERIFY);
	sig[1]++;
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, n + 1),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify(COSE_ES256, k.auth_key, 65, msg, sizeof(msg),
		     junk, sizeof(junk)),
	    ERR_VERIFY);
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, 0),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, k.auth_key, 65, msg, sizeof(msg), NULL, 0),
	    ERR_VERIFY);
	/* a key off the curve is a parse error, not a verify error */
	memcpy(sig, k.auth_sig, n);
	k.auth_key[64] ^= 0x01;
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, k.auth_key, 65, msg, sizeof(msg), sig, n),
	    ERR_PARSE);
	kat_free(&k);
}

static void
p256_point_forms(void)
{
	struct kat k;
	uint8_t a[65], b[65];

	kat_load(&k);
	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	T_EQ_ERR(crypto_p256_point(k.auth_key, 65, a), ERR_OK);
	T_EQ_ERR(crypto_p256_point(k.auth_key + 1, 64, b), ERR_OK);
	T_EQ_MEM(a, k.auth_key, 65);
	T_EQ_MEM(b, k.auth_key, 65);
	T_EQ_ERR(crypto_p256_point(k.reg + REG_POINT_OFF, 65, a), ERR_OK);
	T_EQ_MEM(a, k.reg + REG_POINT_OFF, 65);
	kat_free(&k);
}

static void
p256_point_refused(void)
{
	struct kat k;
	uint8_t pt[66], out[65], zero[65];
	size_t len;
	int bad = 0;

	kat_load(&k);
	memset(zero, 0, sizeof(zero));
	/* wrong lengths, including the 33-byte compressed form */
	for (len = 0; len <= sizeof(pt); len++) {
		if (len == 64 || len == 65)
			continue;
		memcpy(pt, k.auth_key, 65);
		pt[65] = 0;
		if (len == 33)
			pt[0] = 0x02;
		memset(out, 0, sizeof(out));
		if (crypto_p256_point(pt, len, out) != ERR_PARSE ||
		    memcmp(out, zero, sizeof(out)) != 0)
			bad++;
	}
	T_EQ_INT(bad, 0);
	/* 65 bytes not starting 04 */
	memcpy(pt, k.auth_key, 65);
	pt[0] = 0x05;
	T_EQ_ERR(crypto_p256_point(pt, 65, out), ERR_PARSE);
	/* off the curve: y changed */
	memcpy(pt, k.auth_key, 65);
	pt[64] ^= 0x01;
	T_EQ_ERR(crypto_p256_point(pt, 65, out), ERR_PARSE);
	T_EQ_ERR(crypto_p256_point(pt + 1, 64, out), ERR_PARSE);
	/* all zero (the point at infinity has no affine form) */
	T_EQ_ERR(crypto_p256_point(zero + 1, 64, out), ERR_PARSE);
	/* coordinates not below the field prime */
	memset(pt, 0xff, sizeof(pt));
	pt[0] = 0x04;
	T_EQ_ERR(crypto_p256_point(pt, 65, out), ERR_PARSE);
	T_EQ_ERR(crypto_p256_point(NULL, 64, out), ERR_PARSE);
	kat_free(&k);
}

TEST_MAIN(TEST(sha256_app_params), TEST(cert_len_measures),
    TEST(cert_len_every_truncation), TEST(cert_subject_one_line),
    TEST(register_kat_verifies), TEST(register_flip_every_byte),
    TEST(register_bad_inputs), TEST(register_refuses_other_curves),
    TEST(auth_kat_verifies), TEST(auth_flip_every_byte),
    TEST(es256_malformed_signatures), TEST(p256_point_forms),
    TEST(p256_point_refused))
