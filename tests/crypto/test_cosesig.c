/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for crypto/cosesig.c (signatures by COSE algorithm,
 * attestation certificates) and crypto/pinproto.c (PIN/UV auth protocols
 * 1 and 2), against the known answers of ctap2kat.h (sources named there
 * and in tests/lib/ctap2kat.py). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "base/cred.h"
#include "base/err.h"
#include "crypto/cosesig.h"
#include "crypto/crypto.h"
#include "crypto/pinproto.h"
#include "crypto/pinproto_int.h"
#include "ctap2fix.h"
#include "ctap2kat.h"
#include "test.h"

static void
one_ed25519(const char *pk_hex, const char *msg_hex, const char *sig_hex)
{
	struct vec pk = vec_hex(pk_hex), msg = vec_hex(msg_hex),
		   sig = vec_hex(sig_hex), bad;

	T_EQ_ERR(
	    crypto_verify(COSE_EDDSA, pk.p, pk.n, msg.p, msg.n, sig.p, sig.n),
	    ERR_OK);
	bad = vec_flip(sig, 40, 0x01);
	T_EQ_ERR(
	    crypto_verify(COSE_EDDSA, pk.p, pk.n, msg.p, msg.n, bad.p, bad.n),
	    ERR_VERIFY);
	vec_free(&bad);
	bad = vec_flip(pk, 3, 0x10);
	T_TRUE(crypto_verify(COSE_EDDSA, bad.p, bad.n, msg.p, msg.n, sig.p,
		   sig.n) != ERR_OK);
	vec_free(&bad);
	if (msg.n > 0) {
		bad = vec_flip(msg, 0, 0x80);
		T_EQ_ERR(crypto_verify(COSE_EDDSA, pk.p, pk.n, bad.p, bad.n,
			     sig.p, sig.n),
		    ERR_VERIFY);
		vec_free(&bad);
	}
	T_EQ_ERR(crypto_verify(
		     COSE_EDDSA, pk.p, pk.n, msg.p, msg.n, sig.p, sig.n - 1),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify(
		     COSE_EDDSA, pk.p, pk.n - 1, msg.p, msg.n, sig.p, sig.n),
	    ERR_PARSE);
	vec_free(&pk);
	vec_free(&msg);
	vec_free(&sig);
}

/* RFC 8032 7.1 TEST 1, 2, 3. */
static void
ed25519_rfc8032(void)
{
	one_ed25519(ED_PK1, ED_MSG1, ED_SIG1);
	one_ed25519(ED_PK2, ED_MSG2, ED_SIG2);
	one_ed25519(ED_PK3, ED_MSG3, ED_SIG3);
}

static int
rs_verify(const struct vec *pk, const struct vec *sig)
{
	struct vec msg = vec_hex(RS_MSG);
	int r = crypto_verify(
	    COSE_RS256, pk->p, pk->n, msg.p, msg.n, sig->p, sig->n);

	vec_free(&msg);
	return r;
}

static void
rs256_vector(void)
{
	struct vec pk = vec_hex(RS_PK), sig = vec_hex(RS_SIG), bad;

	T_EQ_INT(pk.n, COSESIG_RSA_N + COSESIG_RSA_E);
	T_EQ_ERR(rs_verify(&pk, &sig), ERR_OK);
	bad = vec_flip(sig, 100, 0x04);
	T_EQ_ERR(rs_verify(&pk, &bad), ERR_VERIFY);
	vec_free(&bad);
	sig.n--;
	T_EQ_ERR(rs_verify(&pk, &sig), ERR_VERIFY); /* short signature */
	sig.n++;
	bad = vec_flip(pk, 258, 0x06); /* e = 65537 -> 65543: odd, wrong */
	T_EQ_ERR(rs_verify(&bad, &sig), ERR_VERIFY);
	vec_free(&bad);
	bad = vec_flip(pk, 258, 0x01); /* e even */
	T_EQ_ERR(rs_verify(&bad, &sig), ERR_PARSE);
	vec_free(&bad);
	bad = vec_flip(pk, 256, 0x01); /* e = 0x000001 */
	bad.p[258] = 0x01;
	T_EQ_ERR(rs_verify(&bad, &sig), ERR_PARSE);
	vec_free(&bad);
	bad = vec_flip(pk, 0, 0);
	bad.p[0] = 0; /* a modulus under 2048 bits */
	T_EQ_ERR(rs_verify(&bad, &sig), ERR_PARSE);
	bad.n = 258; /* short n */
	T_EQ_ERR(rs_verify(&bad, &sig), ERR_PARSE);
	vec_free(&bad);
	vec_free(&pk);
	vec_free(&sig);
}

static void
es256_vector(void)
{
	struct vec pk = vec_hex(ES_PK), msg = vec_hex(ES_MSG),
		   sig = vec_hex(ES_SIG), bad;

	T_EQ_ERR(
	    crypto_verify(COSE_ES256, pk.p, pk.n, msg.p, msg.n, sig.p, sig.n),
	    ERR_OK);
	/* 64-byte x || y form. */
	T_EQ_ERR(crypto_verify(COSE_ES256, pk.p + 1, pk.n - 1, msg.p, msg.n,
		     sig.p, sig.n),
	    ERR_OK);
	bad = vec_flip(msg, 3, 0x20);
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, pk.p, pk.n, bad.p, bad.n, sig.p, sig.n),
	    ERR_VERIFY);
	vec_free(&bad);
	bad = vec_flip(pk, 64, 0x01); /* off the curve */
	T_EQ_ERR(
	    crypto_verify(COSE_ES256, bad.p, bad.n, msg.p, msg.n, sig.p, sig.n),
	    ERR_PARSE);
	vec_free(&bad);
	T_EQ_ERR(crypto_verify(-35, pk.p, pk.n, msg.p, msg.n, sig.p, sig.n),
	    ERR_UNSUPPORTED);
	vec_free(&pk);
	vec_free(&msg);
	vec_free(&sig);
}

/* A real key's assertion (libfido2 regress/assert.c). */
static void
es256_libfido2_assertion(void)
{
	struct vec pk = vec_hex(LF_ASSERT_PK), cdh = vec_hex(LF_ASSERT_CDH),
		   ad = vec_hex(LF_ASSERT_AUTHDATA),
		   sig = vec_hex(LF_ASSERT_SIG);
	uint8_t msg[37 + 32];

	T_EQ_INT(ad.n, 37);
	memcpy(msg, ad.p, 37);
	memcpy(msg + 37, cdh.p, 32);
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, pk.p, pk.n, msg, sizeof(msg), sig.p, sig.n),
	    ERR_OK);
	msg[32] ^= 0x04; /* the UV flag */
	T_EQ_ERR(crypto_verify(
		     COSE_ES256, pk.p, pk.n, msg, sizeof(msg), sig.p, sig.n),
	    ERR_VERIFY);
	vec_free(&pk);
	vec_free(&cdh);
	vec_free(&ad);
	vec_free(&sig);
}

static void
pk_normal(void)
{
	struct vec es = vec_hex(ES_PK), ed = vec_hex(ED_PK1),
		   rs = vec_hex(RS_PK);
	uint8_t out[COSESIG_PK_MAX];
	size_t n = 0;

	T_EQ_ERR(crypto_pk_normal(COSE_ES256, es.p + 1, 64, out, &n), ERR_OK);
	T_EQ_INT(n, 65);
	T_EQ_MEM(out, es.p, 65);
	T_EQ_ERR(crypto_pk_normal(COSE_EDDSA, ed.p, ed.n, out, &n), ERR_OK);
	T_EQ_INT(n, 32);
	T_EQ_MEM(out, ed.p, 32);
	T_EQ_ERR(crypto_pk_normal(COSE_RS256, rs.p, rs.n, out, &n), ERR_OK);
	T_EQ_INT(n, 259);
	T_EQ_MEM(out, rs.p, 259);
	T_EQ_ERR(crypto_pk_normal(COSE_RS256, rs.p, 258, out, &n), ERR_PARSE);
	T_EQ_INT(n, 0);
	T_EQ_ERR(crypto_pk_normal(COSE_EDDSA, ed.p, 33, out, &n), ERR_PARSE);
	T_EQ_ERR(crypto_pk_normal(-47, ed.p, 32, out, &n), ERR_UNSUPPORTED);
	vec_free(&es);
	vec_free(&ed);
	vec_free(&rs);
}

/* The signed message of libfido2's recorded MakeCredential reply. */
static uint8_t *
lf_cred_msg(size_t *len)
{
	struct vec ad = vec_hex(LF_CRED_AUTHDATA), cdh = vec_hex(LF_CRED_CDH);
	uint8_t *m = malloc(ad.n + 32);

	if (m == NULL)
		abort();
	memcpy(m, ad.p, ad.n);
	memcpy(m + ad.n, cdh.p, 32);
	*len = ad.n + 32;
	vec_free(&ad);
	vec_free(&cdh);
	return m;
}

/* The sig of an attStmt whose "sig" is its second key (alg, sig, x5c). */
static int
stmt_sig(struct vec stmt, const uint8_t **sig, size_t *len)
{
	struct cbor_rd r;
	size_t n;

	cbor_rd_init(&r, stmt.p, stmt.n);
	if (cbor_get_map(&r, &n) != ERR_OK || cbor_skip(&r) != ERR_OK ||
	    cbor_skip(&r) != ERR_OK || !cbor_take_text_key(&r, "sig"))
		return ERR_PARSE;
	return cbor_get_bytes(&r, sig, len);
}

static void
cert_sig_real_key(void)
{
	struct vec stmt = vec_hex(LF_CRED_ATTSTMT);
	const uint8_t *cert = NULL, *sig = NULL;
	size_t cert_len = 0, sig_len = 0, msg_len;
	uint8_t *msg = lf_cred_msg(&msg_len);

	T_EQ_ERR(stmt_leaf(stmt, &cert, &cert_len), ERR_OK);
	T_EQ_ERR(stmt_sig(stmt, &sig, &sig_len), ERR_OK);
	T_EQ_ERR(crypto_verify_cert_sig(
		     cert, cert_len, COSE_ES256, msg, msg_len, sig, sig_len),
	    ERR_OK);
	/* The certificate's key is P-256: another algorithm is refused. */
	T_EQ_ERR(crypto_verify_cert_sig(
		     cert, cert_len, COSE_RS256, msg, msg_len, sig, sig_len),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_cert_sig(
		     cert, cert_len, COSE_EDDSA, msg, msg_len, sig, sig_len),
	    ERR_VERIFY);
	T_EQ_ERR(crypto_verify_cert_sig(cert, cert_len - 1, COSE_ES256, msg,
		     msg_len, sig, sig_len),
	    ERR_PARSE);
	msg[msg_len - 1] ^= 1; /* another clientDataHash */
	T_EQ_ERR(crypto_verify_cert_sig(
		     cert, cert_len, COSE_ES256, msg, msg_len, sig, sig_len),
	    ERR_VERIFY);
	free(msg);
	vec_free(&stmt);
}

static void
packed_cert_rules(void)
{
	struct vec stmt = vec_hex(LF_CRED_ATTSTMT),
		   ad = vec_hex(LF_CRED_AUTHDATA),
		   v1 = vec_hex(LF_CRED_X509_V1), ca = vec_hex(PK_ATTSTMT_CA);
	const uint8_t *cert = NULL, *aaguid = ad.p + 37;
	uint8_t other[16];
	size_t cert_len = 0;
	const char *why = NULL;

	T_EQ_ERR(stmt_leaf(stmt, &cert, &cert_len), ERR_OK);
	/* The real certificate: v3, CA false, aaguid extension = authData's. */
	T_EQ_ERR(crypto_packed_cert_ok(cert, cert_len, aaguid, &why), ERR_OK);
	memcpy(other, aaguid, 16);
	other[15] ^= 1;
	T_EQ_ERR(
	    crypto_packed_cert_ok(cert, cert_len, other, &why), ERR_VERIFY);
	T_EQ_ERR(crypto_packed_cert_ok(v1.p, v1.n, aaguid, &why), ERR_VERIFY);
	T_EQ_ERR(stmt_leaf(ca, &cert, &cert_len), ERR_OK);
	T_EQ_ERR(
	    crypto_packed_cert_ok(cert, cert_len, aaguid, &why), ERR_VERIFY);
	T_EQ_ERR(crypto_packed_cert_ok(ad.p, ad.n, aaguid, &why), ERR_VERIFY);
	vec_free(&stmt);
	vec_free(&ad);
	vec_free(&v1);
	vec_free(&ca);
}

/* A P-256 certificate made here: version v (0 = v1, 2 = v3), subject
 * from the "/C=../O=.." string subj, basicConstraints bc (NULL: none),
 * self-signed; *der malloc'd. */
static int
make_cert(int v, const char *subj, const char *bc, uint8_t **der, size_t *n)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	X509 *x = X509_new();
	X509_NAME *name = NULL;
	X509_EXTENSION *ext = NULL;
	unsigned char *p = NULL;
	int len = -1;

	if (k == NULL || x == NULL || X509_set_version(x, v) != 1 ||
	    (name = X509_NAME_new()) == NULL)
		goto fail;
	for (const char *s = subj; s != NULL && *s == '/';) {
		char f[64], val[64];
		if (sscanf(s, "/%63[^=]=%63[^/]", f, val) != 2 ||
		    X509_NAME_add_entry_by_txt(name, f, MBSTRING_ASC,
			(const unsigned char *)val, -1, -1, 0) != 1)
			goto fail;
		s = strchr(s + 1, '/');
	}
	if (X509_set_subject_name(x, name) != 1 ||
	    X509_set_issuer_name(x, name) != 1 ||
	    ASN1_INTEGER_set(X509_get_serialNumber(x), 1) != 1 ||
	    X509_gmtime_adj(X509_getm_notBefore(x), 0) == NULL ||
	    X509_gmtime_adj(X509_getm_notAfter(x), 3600) == NULL ||
	    X509_set_pubkey(x, k) != 1)
		goto fail;
	if (bc != NULL &&
	    ((ext = X509V3_EXT_conf_nid(
		  NULL, NULL, NID_basic_constraints, bc)) == NULL ||
		X509_add_ext(x, ext, -1) != 1))
		goto fail;
	if (X509_sign(x, k, EVP_sha256()) <= 0 || (len = i2d_X509(x, &p)) <= 0)
		goto fail;
	*der = malloc((size_t)len);
	memcpy(*der, p, (size_t)len);
	*n = (size_t)len;
fail:
	OPENSSL_free(p);
	X509_EXTENSION_free(ext);
	X509_NAME_free(name);
	X509_free(x);
	EVP_PKEY_free(k);
	return len > 0 ? 0 : -1;
}

/* Each WebAuthn 8.2.1 requirement, missed alone, is named. */
static void
packed_cert_named(void)
{
#define GOOD "/C=SE/O=Vendor/OU=Authenticator Attestation/CN=Model"
	static const struct {
		int v;
		const char *subj, *bc, *why;
	} cases[] = {
	    {2, GOOD, "CA:FALSE", NULL},
	    {2, GOOD, NULL, NULL}, /* no basicConstraints: no CA */
	    {0, GOOD, NULL, "version 3"},
	    {2, "/O=Vendor/OU=Authenticator Attestation/CN=Model", NULL,
		"country (C)"},
	    {2, "/C=SE/OU=Authenticator Attestation/CN=Model", NULL,
		"organization (O)"},
	    {2, "/C=SE/O=Vendor/OU=Authenticator Attestation", NULL,
		"common name (CN)"},
	    {2, "/C=SE/O=Vendor/CN=Model", NULL, "Authenticator Attestation"},
	    {2, "/C=SE/O=Vendor/OU=Authenticator/CN=Model", NULL,
		"Authenticator Attestation"},
	    {2, GOOD, "critical,CA:TRUE", "CA"},
	};
	uint8_t aaguid[16] = {0}, *der = NULL;
	const char *why;
	size_t i, n = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		T_EQ_INT(
		    make_cert(cases[i].v, cases[i].subj, cases[i].bc, &der, &n),
		    0);
		why = NULL;
		T_EQ_ERR(crypto_packed_cert_ok(der, n, aaguid, &why),
		    cases[i].why == NULL ? ERR_OK : ERR_VERIFY);
		if (cases[i].why == NULL)
			T_TRUE(why == NULL);
		else
			T_TRUE(
			    why != NULL && strstr(why, cases[i].why) != NULL);
		free(der);
		der = NULL;
	}
#undef GOOD
}

TEST_MAIN(TEST(ed25519_rfc8032), TEST(rs256_vector), TEST(es256_vector),
    TEST(es256_libfido2_assertion), TEST(pk_normal), TEST(cert_sig_real_key),
    TEST(packed_cert_rules), TEST(packed_cert_named))
