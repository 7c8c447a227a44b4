/* SPDX-License-Identifier: BSD-2-Clause */
/* Keys by COSE algorithm (ES256, EdDSA, RS256: checked, normalised, as
 * SubjectPublicKeyInfo), the EdDSA and RS256 signature checks that
 * crypto_verify (verify.c) dispatches to, and the checks of attestation
 * certificates, through OpenSSL 3's EVP in the default library context,
 * so that the host's OpenSSL policy applies. ES256 signatures are
 * verify.c's, through the implementation crypto_select.c chooses. Apart
 * from crypto.c because these are what CTAP2 credentials and attestation
 * statements need, and U2F does not. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "base/cred.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "cosesig.h"
#include "crypto.h"
#include "crypto_int.h"
#include "crypto_ossl.h"

#define ED25519_PK_LEN 32
#define ED25519_SIG_LEN 64
#define RSA_SIG_LEN COSESIG_RSA_N
#define AAGUID_LEN 16

/* An Ed25519 EVP_PKEY from its 32 raw bytes; ERR_PARSE if refused. The
 * point is checked first (edpoint_check): OpenSSL takes any 32 bytes. */
static int
pkey_ed25519(const uint8_t *raw, size_t len, EVP_PKEY **out)
{
	*out = NULL;
	if (raw == NULL || len != ED25519_PK_LEN ||
	    edpoint_check(raw) != ERR_OK)
		return ERR_PARSE;
	*out = EVP_PKEY_new_raw_public_key_ex(
	    NULL, "ED25519", NULL, raw, ED25519_PK_LEN);
	ERR_clear_error();
	return *out != NULL ? ERR_OK : ERR_PARSE;
}

/* The RSA key of pam-u2f's raw rs256 form, n (256 bytes) || e (3 bytes):
 * n a 2048-bit odd modulus, e odd and at least 3. */
static int
rsa_raw_ok(const uint8_t *raw, size_t len)
{
	const uint8_t *e;

	if (raw == NULL || len != COSESIG_RSA_N + COSESIG_RSA_E)
		return ERR_PARSE;
	e = raw + COSESIG_RSA_N;
	if (raw[0] == 0 || (raw[COSESIG_RSA_N - 1] & 1) == 0)
		return ERR_PARSE;
	if ((e[2] & 1) == 0 || (e[0] == 0 && e[1] == 0 && e[2] < 3))
		return ERR_PARSE;
	return ERR_OK;
}

static int
pkey_rsa(const uint8_t *raw, size_t len, EVP_PKEY **out)
{
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BIGNUM *n = NULL, *e = NULL;
	int r;

	*out = NULL;
	if ((r = rsa_raw_ok(raw, len)) != ERR_OK)
		return r;
	r = ERR_CRYPTO;
	if ((n = BN_bin2bn(raw, COSESIG_RSA_N, NULL)) == NULL ||
	    (e = BN_bin2bn(raw + COSESIG_RSA_N, COSESIG_RSA_E, NULL)) == NULL ||
	    (bld = OSSL_PARAM_BLD_new()) == NULL ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) != 1 ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) != 1 ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) != 1)
		goto fail;
	r = EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) == 1
	    ? ERR_OK
	    : ERR_PARSE;
fail:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	ERR_clear_error();
	return r;
}

int
crypto_pk_normal(int type, const uint8_t *raw, size_t len,
    uint8_t out[COSESIG_PK_MAX], size_t *out_len)
{
	EVP_PKEY *pkey = NULL;
	int r;

	if (out == NULL || out_len == NULL)
		return ERR_INVAL;
	*out_len = 0;
	switch (type) {
	case COSE_ES256:
		if ((r = crypto_p256_point(raw, len, out)) == ERR_OK)
			*out_len = 65;
		return r;
	case COSE_EDDSA:
		r = pkey_ed25519(raw, len, &pkey);
		break;
	case COSE_RS256:
		r = pkey_rsa(raw, len, &pkey);
		break;
	default:
		return ERR_UNSUPPORTED;
	}
	EVP_PKEY_free(pkey);
	if (r != ERR_OK)
		return r;
	memcpy(out, raw, len);
	*out_len = len;
	return ERR_OK;
}

/* Verify sig (exactly want bytes, else ERR_VERIFY) over msg with the
 * EVP_PKEY that make builds from the raw key pk, digest md (NULL: pure
 * Ed25519). */
static int
raw_verify(int (*make)(const uint8_t *, size_t, EVP_PKEY **), const char *md,
    size_t want, const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	EVP_PKEY *pkey = NULL;
	int r;

	if ((r = make(pk, pk_len, &pkey)) != ERR_OK)
		return r;
	r = sig_len == want
	    ? crypto_pkey_verify(pkey, md, msg, msg_len, sig, sig_len)
	    : ERR_VERIFY;
	EVP_PKEY_free(pkey);
	return r;
}

int
crypto_eddsa_verify(const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	return raw_verify(pkey_ed25519, NULL, ED25519_SIG_LEN, pk, pk_len, msg,
	    msg_len, sig, sig_len);
}

int
crypto_rs256_verify(const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	return raw_verify(pkey_rsa, "SHA256", RSA_SIG_LEN, pk, pk_len, msg,
	    msg_len, sig, sig_len);
}

/* An EVP_PKEY of a raw key of COSE type. */
static int
pkey_of(int type, const uint8_t *raw, size_t len, EVP_PKEY **out)
{
	uint8_t point[65];
	int r;

	*out = NULL;
	switch (type) {
	case COSE_ES256:
		if ((r = crypto_p256_point(raw, len, point)) != ERR_OK)
			return r;
		return crypto_pkey_p256(point, out);
	case COSE_EDDSA:
		return pkey_ed25519(raw, len, out);
	case COSE_RS256:
		return pkey_rsa(raw, len, out);
	default:
		return ERR_UNSUPPORTED;
	}
}

int
crypto_pk_spki(
    int type, const uint8_t *raw, size_t len, uint8_t **der, size_t *der_len)
{
	EVP_PKEY *pkey = NULL;
	unsigned char *p = NULL;
	int n, r;

	if (der == NULL || der_len == NULL || raw == NULL)
		return ERR_INVAL;
	*der = NULL;
	*der_len = 0;
	if ((r = pkey_of(type, raw, len, &pkey)) != ERR_OK)
		return r;
	n = i2d_PUBKEY(pkey, &p);
	EVP_PKEY_free(pkey);
	ERR_clear_error();
	if (n <= 0 || p == NULL)
		return ERR_NOMEM;
	if ((*der = malloc((size_t)n)) == NULL) {
		OPENSSL_free(p);
		return ERR_NOMEM;
	}
	memcpy(*der, p, (size_t)n);
	*der_len = (size_t)n;
	OPENSSL_free(p);
	return ERR_OK;
}

/* ERR_OK when the certificate key pkey is one of COSE algorithm alg:
 * P-256 for ES256, Ed25519 for EdDSA, RSA of at least 2048 bits for
 * RS256; *md = the digest to verify with. */
static int
cert_key_alg(EVP_PKEY *pkey, int alg, const char **md)
{
	*md = "SHA256";
	switch (alg) {
	case COSE_ES256:
		return crypto_pkey_is_p256(pkey);
	case COSE_EDDSA:
		*md = NULL;
		return EVP_PKEY_is_a(pkey, "ED25519") ? ERR_OK : ERR_VERIFY;
	case COSE_RS256:
		if (!EVP_PKEY_is_a(pkey, "RSA") ||
		    EVP_PKEY_get_bits(pkey) < 2048)
			return ERR_VERIFY;
		return ERR_OK;
	default:
		return ERR_UNSUPPORTED;
	}
}

int
crypto_verify_cert_sig(const uint8_t *cert, size_t cert_len, int alg,
    const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	X509 *x = NULL;
	EVP_PKEY *pkey;
	const char *md;
	int r;

	if ((msg == NULL && msg_len > 0) || (sig == NULL && sig_len > 0))
		return ERR_INVAL;
	if (crypto_x509_parse(cert, cert_len, &x) != ERR_OK)
		return ERR_PARSE;
	if ((pkey = X509_get0_pubkey(x)) == NULL)
		r = ERR_PARSE;
	else if ((r = cert_key_alg(pkey, alg, &md)) == ERR_OK)
		r = crypto_pkey_verify(pkey, md, msg, msg_len, sig, sig_len);
	X509_free(x);
	ERR_clear_error();
	return r;
}

/* The id-fido-gen-ce-aaguid extension, if present, equals aaguid. */
static int
cert_aaguid(X509 *x, const uint8_t aaguid[AAGUID_LEN])
{
	uint8_t got[AAGUID_LEN];
	bool present = false;

	if (crypto_x509_aaguid(x, got, &present) != ERR_OK)
		return ERR_VERIFY;
	return !present || memcmp(got, aaguid, AAGUID_LEN) == 0 ? ERR_OK
								: ERR_VERIFY;
}

/* The subject's one entry of nid as UTF-8 (*out, OPENSSL_free), or NULL
 * when absent, repeated or empty. */
static void
cert_subject_entry(X509 *x, int nid, unsigned char **out)
{
	const X509_NAME *name = X509_get_subject_name(x);
	X509_NAME_ENTRY *e;
	int i, n;

	*out = NULL;
	if (name == NULL ||
	    (i = X509_NAME_get_index_by_NID(name, nid, -1)) < 0 ||
	    X509_NAME_get_index_by_NID(name, nid, i) >= 0 ||
	    (e = X509_NAME_get_entry(name, i)) == NULL)
		return;
	n = ASN1_STRING_to_UTF8(out, X509_NAME_ENTRY_get_data(e));
	if (n <= 0 || memchr(*out, '\0', (size_t)n) != NULL) {
		OPENSSL_free(*out);
		*out = NULL;
	}
}

/* Subject-C, -O, -OU ("Authenticator Attestation") and -CN present. */
static const char *
cert_subject(X509 *x)
{
	static const struct {
		int nid;
		const char *why;
	} need[] = {
	    {NID_countryName, "subject has no country (C)"},
	    {NID_organizationName, "subject has no organization (O)"},
	    {NID_commonName, "subject has no common name (CN)"},
	    {NID_organizationalUnitName,
		"subject OU is not \"Authenticator Attestation\""},
	};
	unsigned char *v;
	const char *why = NULL;
	size_t i;

	for (i = 0; i < sizeof(need) / sizeof(need[0]) && why == NULL; i++) {
		cert_subject_entry(x, need[i].nid, &v);
		if (v == NULL ||
		    (need[i].nid == NID_organizationalUnitName &&
			strcmp((char *)v, "Authenticator Attestation") != 0))
			why = need[i].why;
		OPENSSL_free(v);
	}
	return why;
}

int
crypto_packed_cert_ok(const uint8_t *cert, size_t cert_len,
    const uint8_t aaguid[16], const char **why)
{
	X509 *x = NULL;

	if (aaguid == NULL || why == NULL)
		return ERR_INVAL;
	*why = NULL;
	if (crypto_x509_parse(cert, cert_len, &x) != ERR_OK)
		*why = "not a DER X.509 certificate";
	else if (X509_get_version(x) != X509_VERSION_3)
		*why = "not an X.509 version 3 certificate";
	else if ((*why = cert_subject(x)) != NULL)
		;
	else if (crypto_x509_not_ca(x) != ERR_OK)
		*why = "basic constraints say CA (or are malformed)";
	else if (cert_aaguid(x, aaguid) != ERR_OK)
		*why = "its AAGUID extension is critical, malformed or not the "
		       "key's AAGUID";
	X509_free(x);
	ERR_clear_error();
	return *why == NULL ? ERR_OK : ERR_VERIFY;
}
