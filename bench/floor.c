/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/floor.c: the least a PAM module that verifies a U2F signature
 * with OpenSSL 3's EVP API must cost, for bench/run.sh. Not a real
 * module: no device, no mapping file; it checks the FIDO U2F raw message
 * format's authentication example (the known answer tests/crypto/test_crypto.c
 * uses) and nothing else.
 *
 *   auth required /path/floor.so load     libcrypto linked, not called
 *   auth required /path/floor.so verify   one SHA-256 (the client data
 *                                         hash) and one ECDSA P-256
 *                                         verification, through EVP
 *   auth required /path/floor.so lowlevel the same without EVP: SHA-256
 *                                         with the deprecated SHA256_*
 *                                         functions, the ECDSA equation
 *                                         written out over EC_POINT_mul
 *
 * PAM_SUCCESS only when the signature verifies; "load" always answers
 * PAM_AUTH_ERR. "lowlevel" measures what bypassing EVP (and its one-time
 * initialisation) saves; pam_u2f does the same by default
 * (common/crypto/crypto_direct.c, with more checks: bench/analysis.md). Built
 * by bench/run.sh with cc -shared -fPIC -o floor.so floor.c -Wl,--no-as-needed
 * -lcrypto -lpam
 */
#define PAM_SM_AUTH
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_Init, for "lowlevel" */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>
#include <openssl/sha.h>
#include <security/pam_modules.h>
#include <string.h>

/* FIDO U2F Raw Message Formats, authentication example. */
static const unsigned char app[32] = {0x4b, 0x0b, 0xe9, 0x34, 0xba, 0xeb, 0xb5,
    0xd1, 0x2d, 0x26, 0x01, 0x1b, 0x69, 0x22, 0x7f, 0xa5, 0xe8, 0x6d, 0xf9,
    0x4e, 0x7d, 0x94, 0xaa, 0x29, 0x49, 0xa8, 0x9f, 0x2d, 0x49, 0x39, 0x92,
    0xca};
static const unsigned char chal[32] = {0xcc, 0xd6, 0xee, 0x2e, 0x47, 0xba, 0xef,
    0x24, 0x4d, 0x49, 0xa2, 0x22, 0xdb, 0x49, 0x6b, 0xad, 0x0e, 0xf5, 0xb6,
    0xf9, 0x3a, 0xa7, 0xcc, 0x4d, 0x30, 0xc4, 0x82, 0x1b, 0x3b, 0x9d, 0xbc,
    0x57};
static const unsigned char key[65] = {0x04, 0xd3, 0x68, 0xf1, 0xb6, 0x65, 0xba,
    0xde, 0x3c, 0x33, 0xa2, 0x0f, 0x1e, 0x42, 0x9c, 0x77, 0x50, 0xd5, 0x03,
    0x36, 0x60, 0xc0, 0x19, 0x11, 0x9d, 0x29, 0xaa, 0x4b, 0xa7, 0xab, 0xc0,
    0x4a, 0xa7, 0xc8, 0x0a, 0x46, 0xbb, 0xe1, 0x1c, 0xa8, 0xcb, 0x56, 0x74,
    0xd7, 0x4f, 0x31, 0xf8, 0xa9, 0x03, 0xf6, 0xba, 0xd1, 0x05, 0xfb, 0x6a,
    0xb7, 0x4a, 0xef, 0xef, 0x4d, 0xb8, 0xb0, 0x02, 0x5e, 0x1d};
static const unsigned char sig[70] = {0x30, 0x44, 0x02, 0x20, 0x4b, 0x5f, 0x0c,
    0xd1, 0x75, 0x34, 0xce, 0xdd, 0x8c, 0x34, 0xee, 0x09, 0x57, 0x0e, 0xf5,
    0x42, 0xa3, 0x53, 0xdf, 0x44, 0x36, 0x03, 0x0c, 0xe4, 0x3d, 0x40, 0x6d,
    0xe8, 0x70, 0xb8, 0x47, 0x78, 0x02, 0x20, 0x26, 0x7b, 0xb9, 0x98, 0xfa,
    0xc9, 0xb7, 0x26, 0x6e, 0xb6, 0x0e, 0x7c, 0xb0, 0xb5, 0xea, 0xbd, 0xfd,
    0x5b, 0xa9, 0x61, 0x4f, 0x53, 0xc7, 0xb2, 0x22, 0x72, 0xec, 0x10, 0x04,
    0x7a, 0x92, 0x3f};

/* The signed bytes: app || flags 01 || counter 1 || chal. */
static void
signed_bytes(unsigned char msg[32 + 1 + 4 + 32])
{
	memcpy(msg, app, 32);
	msg[32] = 0x01;
	memcpy(msg + 33, "\x00\x00\x00\x01", 4);
	memcpy(msg + 37, chal, 32);
}

static int
verify(void)
{
	char group[] = "prime256v1";
	unsigned char pub[sizeof(key)], msg[32 + 1 + 4 + 32], hash[32];
	unsigned int hlen = 0;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *kctx = NULL;
	EVP_PKEY *pkey = NULL;
	EVP_MD_CTX *md = NULL;
	int ok = 0;

	/* the client data hash a module computes for every request */
	if (EVP_Digest(app, sizeof(app), hash, &hlen, EVP_sha256(), NULL) != 1)
		return 0;
	memcpy(pub, key, sizeof(key));
	signed_bytes(msg);
	params[0] = OSSL_PARAM_construct_utf8_string(
	    OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(
	    OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub));
	params[2] = OSSL_PARAM_construct_end();
	if ((kctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL &&
	    EVP_PKEY_fromdata_init(kctx) == 1 &&
	    EVP_PKEY_fromdata(kctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1 &&
	    (md = EVP_MD_CTX_new()) != NULL &&
	    EVP_DigestVerifyInit_ex(
		md, NULL, "SHA256", NULL, NULL, pkey, NULL) == 1)
		ok = EVP_DigestVerify(md, sig, sizeof(sig), msg, sizeof(msg)) ==
		    1;
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(pkey);
	EVP_PKEY_CTX_free(kctx);
	return ok;
}

/* ECDSA verification (SEC 1, 4.1.4) over OpenSSL's EC and BN arithmetic:
 * r and s in [1, n-1], R = (e/s)G + (r/s)Q not at infinity, R.x mod n
 * == r. The DER decoding is strict (re-encoded and compared). */
static int
lowlevel_equation(const unsigned char hash[32])
{
	const unsigned char *p = sig;
	unsigned char *der = NULL;
	const BIGNUM *r, *s, *n;
	ECDSA_SIG *es = NULL;
	EC_GROUP *g = NULL;
	EC_POINT *q = NULL, *rp = NULL;
	BN_CTX *bc = NULL;
	BIGNUM *w, *u1, *u2, *e, *x;
	int ok = 0, dl;

	if ((bc = BN_CTX_new()) == NULL ||
	    (g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)) == NULL ||
	    (q = EC_POINT_new(g)) == NULL || (rp = EC_POINT_new(g)) == NULL ||
	    EC_POINT_oct2point(g, q, key, sizeof(key), bc) != 1 ||
	    (es = d2i_ECDSA_SIG(NULL, &p, (long)sizeof(sig))) == NULL ||
	    p != sig + sizeof(sig) || (dl = i2d_ECDSA_SIG(es, &der)) < 0 ||
	    (size_t)dl != sizeof(sig) || memcmp(der, sig, sizeof(sig)) != 0)
		goto out;
	BN_CTX_start(bc);
	w = BN_CTX_get(bc);
	u1 = BN_CTX_get(bc);
	u2 = BN_CTX_get(bc);
	e = BN_CTX_get(bc);
	x = BN_CTX_get(bc);
	ECDSA_SIG_get0(es, &r, &s);
	n = EC_GROUP_get0_order(g);
	if (x == NULL || BN_is_zero(r) || BN_is_negative(r) ||
	    BN_ucmp(r, n) >= 0 || BN_is_zero(s) || BN_is_negative(s) ||
	    BN_ucmp(s, n) >= 0 || BN_bin2bn(hash, 32, e) == NULL ||
	    BN_mod_inverse(w, s, n, bc) == NULL ||
	    BN_mod_mul(u1, e, w, n, bc) != 1 ||
	    BN_mod_mul(u2, r, w, n, bc) != 1 ||
	    EC_POINT_mul(g, rp, u1, q, u2, bc) != 1 ||
	    EC_POINT_is_at_infinity(g, rp) ||
	    EC_POINT_get_affine_coordinates(g, rp, x, NULL, bc) != 1 ||
	    BN_nnmod(x, x, n, bc) != 1)
		goto end;
	ok = BN_cmp(x, r) == 0;
end:
	BN_CTX_end(bc);
out:
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	EC_POINT_free(rp);
	EC_POINT_free(q);
	EC_GROUP_free(g);
	BN_CTX_free(bc);
	return ok;
}

static int
lowlevel(void)
{
	unsigned char msg[32 + 1 + 4 + 32], hash[32];
	SHA256_CTX c;

	/* the client data hash, then the hash of the signed bytes */
	if (SHA256_Init(&c) != 1 || SHA256_Update(&c, app, sizeof(app)) != 1 ||
	    SHA256_Final(hash, &c) != 1)
		return 0;
	signed_bytes(msg);
	if (SHA256_Init(&c) != 1 || SHA256_Update(&c, msg, sizeof(msg)) != 1 ||
	    SHA256_Final(hash, &c) != 1)
		return 0;
	return lowlevel_equation(hash);
}

PAM_EXTERN int
pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	if (argc == 1 && strcmp(argv[0], "verify") == 0 && verify())
		return PAM_SUCCESS;
	if (argc == 1 && strcmp(argv[0], "lowlevel") == 0 && lowlevel())
		return PAM_SUCCESS;
	return PAM_AUTH_ERR;
}

PAM_EXTERN int
pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
