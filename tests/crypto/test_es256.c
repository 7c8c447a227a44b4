/* SPDX-License-Identifier: BSD-2-Clause */
/* The two implementations of SHA-256, P-256 point checks and ES256
 * verification (common/crypto/crypto.c through EVP,
 * common/crypto/crypto_direct.c without it; crypto_int.h) held against an
 * independent peer and against each other:
 *  - NIST's CAVP FIPS 186-3 ECDSA SigVer vectors for P-256 (with SHA-1,
 *    -224, -256, -384 and -512), as Debian's python3-cryptography-vectors
 *    ships them (PU_SIGVER overrides the path);
 *  - signatures that must fail whatever else holds: r or s zero (Java's
 *    CVE-2022-21449), not below the order n, negative, non-minimal or BER
 *    encodings, trailing or missing bytes;
 *  - keys chosen so that the sum point R has x(R) >= n (valid) or is the
 *    point at infinity (invalid): tests/crypto/es256_edge.h;
 *  - fresh keys and signatures made with OpenSSL's EVP API, then every
 *    kind of single-bit damage: both implementations give the same
 *    answer, and only the undamaged signature verifies. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "crypto/crypto.h"
#include "crypto/crypto_int.h"
#include "base/cred.h"
#include "base/err.h"
#include "es256_edge.h"
#include "test.h"
#include "u2fkat.h"

#define SIGVER_DEFAULT                                                         \
	"/usr/lib/python3/dist-packages/cryptography_vectors/asymmetric/"      \
	"ECDSA/FIPS_186-3/SigVer.rsp"
#define P256_N                                                                 \
	"FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"

/* ---- both implementations ------------------------------------------ */

/* The EVP answer, and the direct one when it is built; a mismatch fails
 * the current case. */
static int
both_verify(const uint8_t point[65], const uint8_t *msg, size_t msg_len,
    const uint8_t *sig, size_t sig_len)
{
	int evp = crypto_es256_verify_evp(point, msg, msg_len, sig, sig_len);
#if DIRECT_VERIFY
	int direct =
	    crypto_es256_verify_direct(point, msg, msg_len, sig, sig_len);

	T_EQ_ERR(direct, evp);
	/* nothing left in OpenSSL's error queue, success or not */
	T_EQ_INT(ERR_peek_error(), 0);
#endif
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, point, 65, msg, msg_len, sig, sig_len),
	    evp);
	return evp;
}

static int
both_point(const uint8_t *raw, size_t len, uint8_t out[65])
{
	uint8_t a[65], b[65];
	int ra, rb;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ra = crypto_p256_point_evp(raw, len, a);
#if DIRECT_VERIFY
	rb = crypto_p256_point_direct(raw, len, b);
#else
	rb = crypto_p256_point(raw, len, b);
#endif
	T_EQ_ERR(rb, ra);
	T_EQ_MEM(a, b, sizeof(a));
	memcpy(out, a, sizeof(a));
	return ra;
}

/* ---- NIST CAVP SigVer ----------------------------------------------- */

struct sigver {
	char hash[16]; /* "SHA-256" ... */
	char msg[1024], qx[80], qy[80], r[80], s[80];
	int pass;
};

/* One DER INTEGER for x in hex (negative with "-"), by OpenSSL's ASN.1
 * encoder, which writes negative values in two's complement (the ECDSA
 * signature encoder refuses them). */
static size_t
der_int(const char *hex, uint8_t *out, size_t cap)
{
	BIGNUM *x = NULL;
	ASN1_INTEGER *ai;
	unsigned char *der = NULL;
	int n;

	if (BN_hex2bn(&x, hex) == 0 ||
	    (ai = BN_to_ASN1_INTEGER(x, NULL)) == NULL ||
	    (n = i2d_ASN1_INTEGER(ai, &der)) <= 0 || (size_t)n > cap)
		abort();
	memcpy(out, der, (size_t)n);
	OPENSSL_free(der);
	ASN1_INTEGER_free(ai);
	BN_free(x);
	return (size_t)n;
}

/* DER ECDSA-Sig-Value for (r, s) given in hex. */
static size_t
der_sig(const char *rhex, const char *shex, uint8_t *out, size_t cap)
{
	size_t n = 2;

	if (cap < 2 + 2 * 35) /* two INTEGERs of up to 33 bytes */
		abort();
	n += der_int(rhex, out + n, cap - n);
	n += der_int(shex, out + n, cap - n);
	out[0] = 0x30;
	out[1] = (uint8_t)(n - 2);
	return n;
}

/* e for a 256-bit order: the hash's leftmost 256 bits, a shorter hash
 * left-padded with zeros. */
static void
digest_e(const char *hash, const uint8_t *msg, size_t len, uint8_t e[32])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	EVP_MD *alg = EVP_MD_fetch(NULL, hash, NULL);

	if (alg == NULL || EVP_Digest(msg, len, md, &n, alg, NULL) != 1)
		abort();
	EVP_MD_free(alg);
	memset(e, 0, 32);
	if (n >= 32)
		memcpy(e, md, 32);
	else
		memcpy(e + 32 - n, md, n);
}

/* One vector: 1 when every implementation gives NIST's answer. */
static int
sigver_case(const struct sigver *v, int *checked_full)
{
	uint8_t point[65], sig[80], e[32], *msg, *qx, *qy;
	size_t msg_len, xl, yl, sig_len;
	int want = v->pass ? ERR_OK : -1, ok = 1, r;

	msg = test_unhex(v->msg, &msg_len);
	qx = test_unhex(v->qx, &xl);
	qy = test_unhex(v->qy, &yl);
	if (xl != 32 || yl != 32)
		abort();
	point[0] = 0x04;
	memcpy(point + 1, qx, 32);
	memcpy(point + 33, qy, 32);
	sig_len = der_sig(v->r, v->s, sig, sizeof(sig));
	digest_e(v->hash, msg, msg_len, e);
#if DIRECT_VERIFY
	r = crypto_es256_verify_digest_direct(point, e, sig, sig_len);
	ok &= v->pass ? r == want : r != ERR_OK;
#else
	(void)r;
#endif
	if (strcmp(v->hash, "SHA-256") == 0) {
		r = both_verify(point, msg, msg_len, sig, sig_len);
		ok &= v->pass ? r == want : r != ERR_OK;
		(*checked_full)++;
	}
	free(msg);
	free(qx);
	free(qy);
	return ok;
}

/* "Key = value" into v; 1 when the line was a Result (the case is
 * complete). */
static int
sigver_line(const char *line, struct sigver *v)
{
	char val[1100];

	if (sscanf(line, "Msg = %1023s", v->msg) == 1 ||
	    sscanf(line, "Qx = %79s", v->qx) == 1 ||
	    sscanf(line, "Qy = %79s", v->qy) == 1 ||
	    sscanf(line, "R = %79s", v->r) == 1 ||
	    sscanf(line, "S = %79s", v->s) == 1)
		return 0;
	if (sscanf(line, "Result = %1099s", val) == 1) {
		v->pass = val[0] == 'P';
		return 1;
	}
	return 0;
}

static void
nist_sigver_p256(void)
{
	const char *path =
	    getenv("PU_SIGVER") ? getenv("PU_SIGVER") : SIGVER_DEFAULT;
	char line[1200];
	struct sigver v;
	int in_p256 = 0, total = 0, passes = 0, wrong = 0, full = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		T_FAIL_AT("cannot open %s (Debian package "
			  "python3-cryptography-vectors; tools/deps.sh test)",
		    path);
		return;
	}
	memset(&v, 0, sizeof(v));
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '[') {
			in_p256 = sscanf(line, "[P-256,%15[^]]]", v.hash) == 1;
			continue;
		}
		if (!in_p256 || !sigver_line(line, &v))
			continue;
		total++;
		passes += v.pass;
		if (!sigver_case(&v, &full)) {
			wrong++;
			printf("# %s Qx=%s R=%s: wrong answer\n", v.hash, v.qx,
			    v.r);
		}
	}
	fclose(f);
	/* 5 hashes x 15 vectors, 3 valid each: the file was really read */
	T_EQ_INT(total, 75);
	T_EQ_INT(passes, 15);
	T_EQ_INT(full, 15);
	T_EQ_INT(wrong, 0);
}

/* ---- signatures that must fail --------------------------------------- */

struct kat_msg {
	uint8_t point[65], msg[69];
	uint8_t *sig;
	size_t sig_len;
	char r[80], s[80]; /* the valid signature's r and s, hex */
};

static void
kat_msg_load(struct kat_msg *k)
{
	const unsigned char *p;
	const BIGNUM *r, *s;
	uint8_t *app, *chal, *key;
	char *rh, *sh;
	size_t n;
	ECDSA_SIG *es;

	app = test_unhex(AUTH_APP, &n);
	chal = test_unhex(AUTH_CHAL, &n);
	key = test_unhex(AUTH_KEY, &n);
	k->sig = test_unhex(AUTH_SIG, &k->sig_len);
	memcpy(k->point, key, 65);
	memcpy(k->msg, app, 32);
	memcpy(k->msg + 32, "\x01\x00\x00\x00\x01", 5);
	memcpy(k->msg + 37, chal, 32);
	p = k->sig;
	if ((es = d2i_ECDSA_SIG(NULL, &p, (long)k->sig_len)) == NULL)
		abort();
	ECDSA_SIG_get0(es, &r, &s);
	rh = BN_bn2hex(r);
	sh = BN_bn2hex(s);
	snprintf(k->r, sizeof(k->r), "%s", rh);
	snprintf(k->s, sizeof(k->s), "%s", sh);
	OPENSSL_free(rh);
	OPENSSL_free(sh);
	ECDSA_SIG_free(es);
	free(app);
	free(chal);
	free(key);
}

/* hex(sign * x + times_n * n) for x in hex. */
static void
lin(const char *hex, int sign, int times_n, char *out, size_t cap)
{
	BIGNUM *x = NULL, *n = NULL;
	char *h;
	int i;

	if (BN_hex2bn(&x, hex) == 0 || BN_hex2bn(&n, P256_N) == 0)
		abort();
	BN_set_negative(x, sign < 0);
	for (i = 0; i < (times_n < 0 ? -times_n : times_n); i++)
		if ((times_n < 0 ? BN_sub(x, x, n) : BN_add(x, x, n)) != 1)
			abort();
	if ((h = BN_bn2hex(x)) == NULL)
		abort();
	snprintf(out, cap, "%s", h);
	OPENSSL_free(h);
	BN_free(n);
	BN_free(x);
}

/* (r, s) given in hex: the answer, the same from both. */
static int
try_rs(const struct kat_msg *k, const char *r, const char *s)
{
	uint8_t sig[80];
	size_t n = der_sig(r, s, sig, sizeof(sig));

	return both_verify(k->point, k->msg, sizeof(k->msg), sig, n);
}

static void
scalars_out_of_range(void)
{
	struct kat_msg k;
	char a[100], b[100];

	kat_msg_load(&k);
	T_EQ_ERR(try_rs(&k, k.r, k.s), ERR_OK);
	/* zero: r = s = 0 verifies anything in an unchecked equation */
	T_EQ_ERR(try_rs(&k, "0", "0"), ERR_VERIFY);
	T_EQ_ERR(try_rs(&k, "0", k.s), ERR_VERIFY);
	T_EQ_ERR(try_rs(&k, k.r, "0"), ERR_VERIFY);
	/* n itself, and the valid values plus n: same residues mod n */
	T_EQ_ERR(try_rs(&k, P256_N, k.s), ERR_VERIFY);
	T_EQ_ERR(try_rs(&k, k.r, P256_N), ERR_VERIFY);
	lin(k.r, 1, 1, a, sizeof(a));
	T_EQ_ERR(try_rs(&k, a, k.s), ERR_VERIFY);
	lin(k.s, 1, 1, b, sizeof(b));
	T_EQ_ERR(try_rs(&k, k.r, b), ERR_VERIFY);
	/* negative: r - n and s - n */
	lin(k.r, 1, -1, a, sizeof(a));
	T_EQ_ERR(try_rs(&k, a, k.s), ERR_VERIFY);
	lin(k.s, 1, -1, b, sizeof(b));
	T_EQ_ERR(try_rs(&k, k.r, b), ERR_VERIFY);
	/* r and s swapped */
	T_EQ_ERR(try_rs(&k, k.s, k.r), ERR_VERIFY);
	/* n - s solves the equation too: ECDSA signatures are malleable,
	 * and U2F does not ask for low s; both accept it */
	lin(k.s, -1, 1, b, sizeof(b));
	T_EQ_ERR(try_rs(&k, k.r, b), ERR_OK);
	free(k.sig);
}

/* The valid signature's DER, rebuilt by hand with one encoding fault. */
static void
der_not_strict(void)
{
	struct kat_msg k;
	uint8_t sig[90], *r, *s;
	size_t rl, sl, n;
	int i;

	kat_msg_load(&k);
	r = test_unhex(k.r, &rl);
	s = test_unhex(k.s, &sl);
	/* r and s of the example have their top bit clear: 32 bytes each */
	T_TRUE(rl == 32 && sl == 32 && r[0] < 0x80 && s[0] < 0x80);
	for (i = 0; i <= 6; i++) {
		n = 0;
		sig[n++] = 0x30;
		if (i == 0) /* long-form length where short form fits */
			sig[n++] = 0x81;
		sig[n++] = (uint8_t)(2 + rl + (i == 1) + 2 + sl);
		sig[n++] = 0x02;
		sig[n++] = (uint8_t)(rl + (i == 1));
		if (i == 1) /* a leading zero r does not need */
			sig[n++] = 0x00;
		memcpy(sig + n, r, rl);
		n += rl;
		sig[n++] = i == 2 ? 0x03 : 0x02; /* not an INTEGER */
		sig[n++] = (uint8_t)sl;
		memcpy(sig + n, s, sl);
		n += sl;
		if (i == 3) /* indefinite length */
			sig[1] = 0x80;
		if (i == 4) /* r's top bit set without 00: negative */
			sig[4] |= 0x80;
		if (i == 5) /* one trailing byte */
			sig[n++] = 0x00;
		/* i == 6: no fault, the control */
		T_EQ_INT(both_verify(k.point, k.msg, sizeof(k.msg), sig, n) ==
			ERR_OK,
		    i == 6);
	}
	/* every prefix, and the valid signature padded to the limit */
	for (n = 0; n < k.sig_len; n++)
		T_TRUE(both_verify(k.point, k.msg, sizeof(k.msg), k.sig, n) !=
		    ERR_OK);
	memset(sig, 0, sizeof(sig));
	memcpy(sig, k.sig, k.sig_len);
	for (n = k.sig_len + 1; n <= CRYPTO_ES256_SIG_MAX + 2; n++)
		T_TRUE(both_verify(k.point, k.msg, sizeof(k.msg), sig, n) !=
		    ERR_OK);
	free(r);
	free(s);
	free(k.sig);
}

/* ---- the last two steps of the equation ------------------------------ */

/* tests/crypto/es256_edge.h (made by tests/crypto/es256_edge.py, checked there
 * with python3-cryptography): keys chosen so that R = u1 G + u2 Q has x(R) >= n
 * (valid: x(R) mod n = r; a verifier that skips the reduction refuses it) or is
 * the point at infinity (invalid: a verifier must refuse it, however it goes
 * on). Each through both implementations; with another message, each must fail.
 */
static void
equation_edges(void)
{
	size_t i, xl, yl, n, nv = sizeof(es256_edges) / sizeof(es256_edges[0]);
	uint8_t point[65], sig[80], *qx, *qy;
	int large = 0, inf = 0;

	for (i = 0; i < nv; i++) {
		const struct es256_edge *v = &es256_edges[i];
		const uint8_t *m = (const uint8_t *)v->msg;

		qx = test_unhex(v->qx, &xl);
		qy = test_unhex(v->qy, &yl);
		T_TRUE(xl == 32 && yl == 32);
		point[0] = 0x04;
		memcpy(point + 1, qx, 32);
		memcpy(point + 33, qy, 32);
		n = der_sig(v->r, v->s, sig, sizeof(sig));
		T_EQ_ERR(both_verify(point, m, strlen(v->msg), sig, n),
		    v->valid ? ERR_OK : ERR_VERIFY);
		T_EQ_ERR(both_verify(point, m, strlen(v->msg) - 1, sig, n),
		    ERR_VERIFY);
		large += strcmp(v->kind, "large-x") == 0 && v->valid;
		inf += strcmp(v->kind, "infinity") == 0 && !v->valid;
		free(qx);
		free(qy);
	}
	T_EQ_INT(large, 4);
	T_EQ_INT(inf, 3);
}

/* ---- fresh keys, every kind of damage -------------------------------- */

struct fresh {
	uint8_t point[65], msg[100], sig[80];
	size_t msg_len, sig_len;
};

static void
fresh_make(struct fresh *f, size_t msg_len)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	size_t pl = 0;

	f->msg_len = msg_len;
	f->sig_len = sizeof(f->sig);
	if (k == NULL || md == NULL ||
	    EVP_PKEY_get_octet_string_param(k,
		OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, f->point, sizeof(f->point),
		&pl) != 1 ||
	    pl != 65 || RAND_bytes(f->msg, (int)msg_len) != 1 ||
	    EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, k, NULL) !=
		1 ||
	    EVP_DigestSign(md, f->sig, &f->sig_len, f->msg, msg_len) != 1)
		abort();
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(k);
}

static void
fresh_keys_every_bit(void)
{
	struct fresh f, g;
	size_t i, bit, lens[3];
	uint8_t *parts[3], out[65];
	int key, part, ok = 0, damaged_ok = 0, parse = 0;

	for (key = 0; key < 24; key++) {
		fresh_make(&f, (size_t)key * 4 % sizeof(f.msg));
		ok += both_verify(f.point, f.msg, f.msg_len, f.sig,
			  f.sig_len) == ERR_OK;
		T_EQ_ERR(both_point(f.point, 65, out), ERR_OK);
		T_EQ_MEM(out, f.point, 65);
		g = f;
		parts[0] = g.sig;
		parts[1] = g.point;
		parts[2] = g.msg;
		lens[0] = g.sig_len;
		lens[1] = 65;
		lens[2] = g.msg_len;
		for (part = 0; part < 3; part++) {
			for (i = 0; i < lens[part]; i++) {
				/* two bits per byte, rotating by key */
				for (bit = 0; bit < 8; bit += 4) {
					uint8_t x = (uint8_t)(1u
					    << ((bit + (size_t)key) % 8));
					int r;

					parts[part][i] ^= x;
					r = both_verify(g.point, g.msg,
					    g.msg_len, g.sig, g.sig_len);
					damaged_ok += r == ERR_OK;
					parse += r == ERR_PARSE;
					if (part == 1)
						both_point(g.point, 65, out);
					parts[part][i] ^= x;
				}
			}
		}
	}
	T_EQ_INT(ok, 24);
	T_EQ_INT(damaged_ok, 0);
	T_TRUE(parse > 0); /* damaged keys do leave the curve */
}

static void
sha256_agrees(void)
{
	uint8_t data[300], a[32], b[32], *abc;
	size_t len, n;

	if (RAND_bytes(data, sizeof(data)) != 1)
		abort();
	for (len = 0; len <= sizeof(data); len += 7) {
		T_EQ_ERR(crypto_sha256_evp(data, len, a), ERR_OK);
		T_EQ_ERR(crypto_sha256(data, len, b), ERR_OK);
		T_EQ_MEM(a, b, 32);
	}
	/* FIPS 180-2 appendix B.1 */
	abc = test_unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
			 "b410ff61f20015ad",
	    &n);
	T_EQ_ERR(crypto_sha256("abc", 3, b), ERR_OK);
	T_EQ_MEM(abc, b, 32);
	T_EQ_ERR(crypto_sha256(NULL, 1, b), ERR_INVAL);
	free(abc);
}

static void
sha512_agrees(void)
{
	uint8_t data[300], a[64], b[64], *abc;
	size_t len, n;

	if (RAND_bytes(data, sizeof(data)) != 1)
		abort();
	for (len = 0; len <= sizeof(data); len += 7) {
		T_EQ_ERR(crypto_sha512_evp(data, len, a), ERR_OK);
		T_EQ_ERR(crypto_sha512(data, len, b), ERR_OK);
		T_EQ_MEM(a, b, 64);
	}
	/* FIPS 180-2 appendix C.1 */
	abc = test_unhex("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea2"
			 "0a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
			 "454d4423643ce80e2a9ac94fa54ca49f",
	    &n);
	T_EQ_ERR(crypto_sha512("abc", 3, b), ERR_OK);
	T_EQ_MEM(abc, b, 64);
	T_EQ_ERR(crypto_sha512(NULL, 1, b), ERR_INVAL);
	free(abc);
}

static void
points_agree(void)
{
	uint8_t pt[65], out[65];
	int i, valid = 0;

	for (i = 0; i < 2000; i++) {
		if (RAND_bytes(pt, sizeof(pt)) != 1)
			abort();
		pt[0] = i % 3 == 0 ? pt[0] : 0x04;
		valid += both_point(pt, 65, out) == ERR_OK;
		both_point(pt + 1, 64, out);
	}
	T_EQ_INT(valid, 0); /* random coordinates are not on the curve */
	T_EQ_ERR(both_point(NULL, 65, out), ERR_PARSE);
}

/* A coordinate not below the field prime p is refused even when it is
 * a curve point's coordinate plus p (the same point, if it were reduced
 * mod p): (5, y) is on P-256, (5 + p, y) fits in 32 bytes. The import
 * alone must refuse it (crypto.c's crypto_pkey_p256 no longer asks
 * OpenSSL for a separate public-key check). */
static void
coordinate_not_reduced(void)
{
	static const char *const on =
	    "04"
	    "0000000000000000000000000000000000000000000000000000000000000005"
	    "459243b9aa581806fe913bce99817ade11ca503c64d9a3c533415c083248fbcc";
	static const char *const plus_p =
	    "04"
	    "ffffffff00000001000000000000000000000001000000000000000000000004"
	    "459243b9aa581806fe913bce99817ade11ca503c64d9a3c533415c083248fbcc";
	uint8_t *a, *b, out[65],
	    sig[8] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
	size_t n;

	a = test_unhex(on, &n);
	T_EQ_INT(n, 65);
	b = test_unhex(plus_p, &n);
	T_EQ_INT(n, 65);
	T_EQ_ERR(both_point(a, 65, out), ERR_OK);
	T_EQ_ERR(both_point(b, 65, out), ERR_PARSE);
	T_EQ_ERR(both_point(b + 1, 64, out), ERR_PARSE);
	/* a signature check with it is a parse error, before any signature
	 * (r = s = 1) is looked at */
	T_EQ_ERR(crypto_es256_verify_evp(b, sig, sizeof(sig), sig, sizeof(sig)),
	    ERR_PARSE);
	T_EQ_ERR(both_verify(b, sig, sizeof(sig), sig, sizeof(sig)), ERR_PARSE);
	T_EQ_ERR(
	    both_verify(a, sig, sizeof(sig), sig, sizeof(sig)), ERR_VERIFY);
	free(a);
	free(b);
}

static void
impl_is_reported(void)
{
	const char *want = "evp";

	if (DIRECT_VERIFY)
		want = crypto_fips_mode(CRYPTO_FIPS_PATH)
		    ? "evp (kernel FIPS mode)"
		    : "direct";
	T_EQ_STR(crypto_verify_impl(), want);
}

/* path/name holding text (NULL: a directory), for the FIPS switch. */
static void
fips_file(
    char *out, size_t cap, const char *dir, const char *name, const char *text)
{
	FILE *f;

	snprintf(out, cap, "%s/%s", dir, name);
	if (text == NULL) {
		if (mkdir(out, 0700) != 0)
			abort();
		return;
	}
	if ((f = fopen(out, "w")) == NULL || fputs(text, f) < 0 ||
	    fclose(f) != 0)
		abort();
}

/* The kernel's FIPS switch, read from files standing in for
 * /proc/sys/crypto/fips_enabled: only "0" or a missing file lets a
 * direct build use the direct checks. */
static void
fips_switch(void)
{
	char dir[] = "/tmp/pu_fipsXXXXXX", on[256], off[256], odd[256],
	     empty[256], sub[256], none[256];
	const char *direct = DIRECT_VERIFY ? "direct" : "evp";

	if (mkdtemp(dir) == NULL)
		abort();
	fips_file(on, sizeof(on), dir, "on", "1\n");
	fips_file(off, sizeof(off), dir, "off", "0\n");
	fips_file(odd, sizeof(odd), dir, "odd", "x\n");
	fips_file(empty, sizeof(empty), dir, "empty", "");
	fips_file(sub, sizeof(sub), dir, "sub", NULL);
	snprintf(none, sizeof(none), "%s/none", dir);
	T_EQ_INT(crypto_fips_mode(on), 1);
	T_EQ_INT(crypto_fips_mode(off), 0);
	T_EQ_INT(crypto_fips_mode(none), 0);
	T_EQ_INT(crypto_fips_mode(odd), 1);
	T_EQ_INT(crypto_fips_mode(empty), 1);
	T_EQ_INT(crypto_fips_mode(sub), 1);
	T_EQ_INT(crypto_fips_mode(NULL), 1);
	T_EQ_INT(crypto_use_direct(on), 0);
	T_EQ_INT(crypto_use_direct(off), DIRECT_VERIFY);
	T_EQ_INT(crypto_use_direct(none), DIRECT_VERIFY);
	T_EQ_INT(crypto_use_direct(odd), 0);
	T_EQ_STR(crypto_verify_impl_at(off), direct);
	T_EQ_STR(crypto_verify_impl_at(none), direct);
	T_EQ_STR(crypto_verify_impl_at(on),
	    DIRECT_VERIFY ? "evp (kernel FIPS mode)" : "evp");
	unlink(on);
	unlink(off);
	unlink(odd);
	unlink(empty);
	rmdir(sub);
	rmdir(dir);
}

TEST_MAIN(TEST(nist_sigver_p256), TEST(scalars_out_of_range),
    TEST(der_not_strict), TEST(equation_edges), TEST(fresh_keys_every_bit),
    TEST(sha256_agrees), TEST(sha512_agrees), TEST(points_agree),
    TEST(coordinate_not_reduced), TEST(impl_is_reported), TEST(fips_switch))
