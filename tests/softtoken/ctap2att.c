/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation statements of the software token's MakeCredential (WebAuthn
 * 8.2 packed, 8.6 fido-u2f, 8.7 none): x5c statements are signed by the
 * token's attestation key (ES256) and carry its certificate; "self" is
 * packed signed by the credential key itself. fido-u2f needs an ES256
 * credential: for the others the token falls back to packed with x5c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509v3.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

#define U2F_MSG_MAX (1 + 32 + 32 + CTAP2_CRED_MAX + 65)

/* x5c: the leaf, then (chain) the intermediates --attest-chain gave. */
static void
put_x5c(const struct token *t, struct cbor_wr *w, int chain)
{
	size_t i, n = chain ? t->nx5c : 0;

	cbor_put_str(w, "x5c");
	cbor_put_array(w, 1 + n);
	cbor_put_bytes(w, t->cert, t->cert_len);
	for (i = 0; i < n; i++)
		cbor_put_bytes(w, t->x5c[i], t->x5c_len[i]);
}

/* packed: {alg, sig[, x5c]} over authData || clientDataHash. */
static int
packed(struct token *t, const struct ctap2_key *k, int self, const uint8_t *ad,
    size_t ad_len, const uint8_t cdh[32], struct cbor_wr *w)
{
	uint8_t *msg = NULL, sig[CTAP2_SIG_MAX];
	size_t siglen = 0;
	int r = ERR_NOMEM, alg = self ? k->alg : COSE_ES256;

	if ((msg = malloc(ad_len + 32)) == NULL)
		return ERR_NOMEM;
	memcpy(msg, ad, ad_len);
	memcpy(msg + ad_len, cdh, 32);
	if ((r = ctap2_sign(self ? k->pkey : t->att, alg, msg, ad_len + 32, sig,
		 &siglen)) != ERR_OK)
		goto fail;
	cbor_put_str(w, "packed");
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, ad, ad_len);
	cbor_put_uint(w, 3);
	cbor_put_map(w, self ? 2 : 3);
	cbor_put_str(w, "alg");
	cbor_put_int(w, alg);
	cbor_put_str(w, "sig");
	cbor_put_bytes(w, sig, siglen);
	if (!self)
		put_x5c(t, w, 1);
fail:
	free(msg);
	return r;
}

/* fido-u2f: {sig, x5c} over 00 || rpIdHash || cdh || credId || point. */
static int
fido_u2f(struct token *t, const struct ctap2_key *k, const uint8_t *ad,
    size_t ad_len, const uint8_t cdh[32], const uint8_t *cred, size_t cred_len,
    struct cbor_wr *w)
{
	uint8_t msg[U2F_MSG_MAX], sig[CTAP2_SIG_MAX];
	size_t n = 0, siglen = 0;
	int r;

	if (cred_len > CTAP2_CRED_MAX)
		return ERR_INVAL;
	msg[0] = 0x00;
	memcpy(msg + 1, ad, 32);
	memcpy(msg + 33, cdh, 32);
	memcpy(msg + 65, cred, cred_len);
	if (EVP_PKEY_get_octet_string_param(k->pkey, OSSL_PKEY_PARAM_PUB_KEY,
		msg + 65 + cred_len, 65, &n) != 1 ||
	    n != 65)
		return ERR_CRYPTO;
	if ((r = ctap2_sign(t->att, COSE_ES256, msg, 65 + cred_len + 65, sig,
		 &siglen)) != ERR_OK)
		return r;
	cbor_put_str(w, "fido-u2f");
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, ad, ad_len);
	cbor_put_uint(w, 3);
	cbor_put_map(w, 2);
	cbor_put_str(w, "sig");
	cbor_put_bytes(w, sig, siglen);
	put_x5c(t, w, 0); /* fido-u2f: exactly one certificate */
	return ERR_OK;
}

int
ctap2_attest(struct token *t, const struct ctap2_key *k, const uint8_t *ad,
    size_t ad_len, const uint8_t cdh[32], const uint8_t *cred, size_t cred_len,
    struct cbor_wr *w)
{
	cbor_put_uint(w, 1);
	switch (t->c2->attest) {
	case TOKEN_ATTEST_NONE:
		cbor_put_str(w, "none");
		cbor_put_uint(w, 2);
		cbor_put_bytes(w, ad, ad_len);
		cbor_put_uint(w, 3);
		cbor_put_map(w, 0);
		return ERR_OK;
	case TOKEN_ATTEST_SELF:
		return packed(t, k, 1, ad, ad_len, cdh, w);
	case TOKEN_ATTEST_U2F:
		if (k->alg == COSE_ES256)
			return fido_u2f(
			    t, k, ad, ad_len, cdh, cred, cred_len, w);
		return packed(t, k, 0, ad, ad_len, cdh, w);
	default:
		return packed(t, k, 0, ad, ad_len, cdh, w);
	}
}

int
ctap2_cert_name(X509_NAME *name, bool bad_ou)
{
	static const char *const rdn[][2] = {{"C", "SE"}, {"O", "pam_u2f"},
	    {"OU", "Authenticator Attestation"}, {"CN", "pam_u2f softtoken"}};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(rdn) / sizeof(rdn[0]); i++) {
		v = bad_ou && i == 2 ? "Authenticators" : rdn[i][1];
		if (X509_NAME_add_entry_by_txt(name, rdn[i][0], MBSTRING_ASC,
			(const unsigned char *)v, -1, -1, 0) != 1)
			return ERR_CRYPTO;
	}
	return ERR_OK;
}

int
ctap2_cert_exts(X509 *x)
{
	X509_EXTENSION *bc = NULL, *ag = NULL;
	ASN1_OBJECT *oid = NULL;
	ASN1_OCTET_STRING *os = NULL;
	uint8_t inner[2 + 16] = {0x04, 0x10}; /* OCTET STRING (aaguid) */
	int r = ERR_CRYPTO;

	memcpy(inner + 2, ctap2_aaguid, 16);
	if ((bc = X509V3_EXT_conf_nid(NULL, NULL, NID_basic_constraints,
		 "critical,CA:FALSE")) == NULL ||
	    (oid = OBJ_txt2obj("1.3.6.1.4.1.45724.1.1.4", 1)) == NULL ||
	    (os = ASN1_OCTET_STRING_new()) == NULL ||
	    ASN1_OCTET_STRING_set(os, inner, sizeof(inner)) != 1 ||
	    (ag = X509_EXTENSION_create_by_OBJ(NULL, oid, 0, os)) == NULL ||
	    X509_add_ext(x, bc, -1) != 1 || X509_add_ext(x, ag, -1) != 1)
		goto fail;
	r = ERR_OK;
fail:
	X509_EXTENSION_free(bc);
	X509_EXTENSION_free(ag);
	ASN1_OBJECT_free(oid);
	ASN1_OCTET_STRING_free(os);
	return r;
}
