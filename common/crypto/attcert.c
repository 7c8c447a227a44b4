/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation certificates as evidence (attcert.h): trusted roots read
 * from PEM files into an X509_STORE, a statement's chain verified to
 * them at a given time, the AAGUID extension and the key identifier.
 * Its own file because it is the one place that trusts certificates:
 * cosesig.c checks statements internally, with no anchor; both share
 * the extension readers below (crypto_ossl.h). */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "attcert.h"
#include "cosesig.h"
#include "crypto_ossl.h"
#include "base/cred.h"
#include "base/err.h"
#include "base/safefile.h"

#define OID_FIDO_AAGUID "1.3.6.1.4.1.45724.1.1.4"

struct attcert_roots {
	X509_STORE *store;
	size_t n;
};

int
crypto_x509_not_ca(X509 *x)
{
	BASIC_CONSTRAINTS *bc;
	int crit = 0, r;

	bc = X509_get_ext_d2i(x, NID_basic_constraints, &crit, NULL);
	if (bc == NULL)
		return crit == -1 ? ERR_OK : ERR_VERIFY; /* -1: absent */
	r = bc->ca ? ERR_VERIFY : ERR_OK;
	BASIC_CONSTRAINTS_free(bc);
	return r;
}

/* The extension's value: an OCTET STRING of 16 bytes, nothing after. */
static int
aaguid_value(X509_EXTENSION *ext, uint8_t out[ATTCERT_AAGUID_LEN])
{
	const ASN1_OCTET_STRING *data = X509_EXTENSION_get_data(ext);
	ASN1_OCTET_STRING *os = NULL;
	const unsigned char *p;
	int r = ERR_VERIFY;

	if (data == NULL)
		return ERR_VERIFY;
	p = ASN1_STRING_get0_data(data);
	os = d2i_ASN1_OCTET_STRING(NULL, &p, ASN1_STRING_length(data));
	if (os != NULL &&
	    p == ASN1_STRING_get0_data(data) + ASN1_STRING_length(data) &&
	    ASN1_STRING_length(os) == ATTCERT_AAGUID_LEN) {
		memcpy(out, ASN1_STRING_get0_data(os), ATTCERT_AAGUID_LEN);
		r = ERR_OK;
	}
	ASN1_OCTET_STRING_free(os);
	return r;
}

int
crypto_x509_aaguid(X509 *x, uint8_t out[16], bool *present)
{
	ASN1_OBJECT *oid = NULL;
	X509_EXTENSION *ext;
	int i, r = ERR_VERIFY;

	*present = false;
	if ((oid = OBJ_txt2obj(OID_FIDO_AAGUID, 1)) == NULL)
		goto fail;
	if ((i = X509_get_ext_by_OBJ(x, oid, -1)) < 0) {
		r = ERR_OK;
		goto fail;
	}
	if (X509_get_ext_by_OBJ(x, oid, i) >= 0 ||
	    (ext = X509_get_ext(x, i)) == NULL ||
	    X509_EXTENSION_get_critical(ext))
		goto fail;
	if ((r = aaguid_value(ext, out)) == ERR_OK)
		*present = true;
fail:
	ASN1_OBJECT_free(oid);
	ERR_clear_error();
	return r;
}

int
attcert_aaguid(const uint8_t *cert, size_t len,
    uint8_t aaguid[ATTCERT_AAGUID_LEN], bool *present)
{
	X509 *x = NULL;
	int r;

	if (cert == NULL || aaguid == NULL || present == NULL)
		return ERR_INVAL;
	*present = false;
	if (crypto_x509_parse(cert, len, &x) != ERR_OK)
		return ERR_PARSE;
	r = crypto_x509_aaguid(x, aaguid, present);
	X509_free(x);
	return r;
}

int
attcert_keyid(const uint8_t *cert, size_t len, uint8_t id[ATTCERT_KEYID_LEN])
{
	const ASN1_BIT_STRING *bits;
	X509 *x = NULL;
	int r = ERR_PARSE;

	if (cert == NULL || id == NULL)
		return ERR_INVAL;
	if (crypto_x509_parse(cert, len, &x) != ERR_OK)
		return ERR_PARSE;
	if ((bits = X509_get0_pubkey_bitstr(x)) != NULL &&
	    SHA1(ASN1_STRING_get0_data(bits), (size_t)ASN1_STRING_length(bits),
		id) != NULL)
		r = ERR_OK;
	X509_free(x);
	ERR_clear_error();
	return r;
}

/* Every certificate of a PEM buffer into the store; ERR_PARSE when there
 * is none or one is bad. */
static int
roots_add_pem(struct attcert_roots *r, const char *buf, size_t len)
{
	BIO *bio = NULL;
	X509 *x = NULL;
	size_t n = 0;
	int rc = ERR_PARSE;

	if (len > ATTCERT_FILE_MAX ||
	    (bio = BIO_new_mem_buf(buf, (int)len)) == NULL)
		return ERR_NOMEM;
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (X509_STORE_add_cert(r->store, x) != 1) {
			X509_free(x);
			goto fail;
		}
		X509_free(x);
		n++;
	}
	/* The loop ends at the end of the text, or at a bad block. */
	if (n > 0 &&
	    ERR_GET_REASON(ERR_peek_last_error()) == PEM_R_NO_START_LINE)
		rc = ERR_OK;
	r->n += n;
fail:
	BIO_free(bio);
	ERR_clear_error();
	return rc;
}

static int
roots_add_file(struct attcert_roots *r, const char *path, uid_t owner,
    char why[ATTCERT_WHY_MAX])
{
	const struct safefile_policy pol = {
	    .owner = owner, .max_size = ATTCERT_FILE_MAX};
	const char *unsafe = NULL;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	rc = safefile_read(path, &pol, &buf, &len, &unsafe);
	if (rc == ERR_OK && (rc = roots_add_pem(r, buf, len)) == ERR_PARSE)
		snprintf(why, ATTCERT_WHY_MAX,
		    "%s: no certificate, or a bad PEM block", path);
	else if (rc != ERR_OK && rc != ERR_NOMEM)
		snprintf(why, ATTCERT_WHY_MAX, "%s: %s", path,
		    unsafe != NULL ? unsafe : err_str(rc));
	free(buf);
	return rc;
}

static bool
pem_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 &&
	    (strcmp(name + n - 4, ".pem") == 0 ||
		strcmp(name + n - 4, ".crt") == 0);
}

/* Each .pem or .crt file of a folder. */
static int
roots_add_dir(struct attcert_roots *r, DIR *d, const char *path, uid_t owner,
    char why[ATTCERT_WHY_MAX])
{
	struct dirent *e;
	char file[4096];
	size_t seen = 0;
	int rc = ERR_OK;

	while (rc == ERR_OK && (e = readdir(d)) != NULL) {
		if (!pem_name(e->d_name))
			continue;
		if (++seen > ATTCERT_DIR_MAX) {
			snprintf(why, ATTCERT_WHY_MAX,
			    "%s: more than %d certificate files", path,
			    ATTCERT_DIR_MAX);
			return ERR_TOO_BIG;
		}
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path,
			e->d_name) >= sizeof(file))
			return ERR_TOO_BIG;
		rc = roots_add_file(r, file, owner, why);
	}
	if (rc == ERR_OK && r->n == 0) {
		snprintf(
		    why, ATTCERT_WHY_MAX, "%s: no .pem or .crt file", path);
		rc = ERR_PARSE;
	}
	return rc;
}

int
attcert_roots_load(const char *path, uid_t owner, struct attcert_roots **out,
    char why[ATTCERT_WHY_MAX])
{
	struct attcert_roots *r = NULL;
	DIR *d = NULL;
	int rc;

	if (path == NULL || out == NULL || why == NULL)
		return ERR_INVAL;
	*out = NULL;
	why[0] = '\0';
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->store = X509_STORE_new()) == NULL) {
		rc = ERR_NOMEM;
		goto fail;
	}
	/* A folder (not through a link), or else a file. */
	if ((d = opendir(path)) != NULL)
		rc = roots_add_dir(r, d, path, owner, why);
	else
		rc = roots_add_file(r, path, owner, why);
	if (rc == ERR_OK) {
		*out = r;
		r = NULL;
	}
fail:
	if (d != NULL)
		closedir(d);
	attcert_roots_free(r);
	return rc;
}

void
attcert_roots_free(struct attcert_roots *r)
{
	if (r == NULL)
		return;
	X509_STORE_free(r->store);
	free(r);
}

/* The untrusted certificates (all but the leaf) as a stack. */
static int
chain_stack(const uint8_t *const *certs, const size_t *lens, size_t n,
    STACK_OF(X509) * *out)
{
	STACK_OF(X509) *sk = sk_X509_new_null();
	X509 *x = NULL;
	size_t i;

	if (sk == NULL)
		return ERR_NOMEM;
	for (i = 1; i < n; i++) {
		if (crypto_x509_parse(certs[i], lens[i], &x) != ERR_OK) {
			sk_X509_pop_free(sk, X509_free);
			return ERR_PARSE;
		}
		if (sk_X509_push(sk, x) <= 0) {
			X509_free(x);
			sk_X509_pop_free(sk, X509_free);
			return ERR_NOMEM;
		}
	}
	*out = sk;
	return ERR_OK;
}

/* X509_verify_cert with the time and flags of attcert_chain_verify. */
static int
chain_run(X509_STORE *store, X509 *leaf, STACK_OF(X509) * sk, int64_t at,
    char why[ATTCERT_WHY_MAX])
{
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	int rc = ERR_NOMEM, e;

	if (ctx == NULL || X509_STORE_CTX_init(ctx, store, leaf, sk) != 1)
		goto fail;
	X509_STORE_CTX_set_time(ctx, 0, (time_t)at);
	/* A configured intermediate is an anchor too (MDS lists some). */
	X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_PARTIAL_CHAIN);
	if (X509_verify_cert(ctx) == 1)
		rc = ERR_OK;
	else {
		e = X509_STORE_CTX_get_error(ctx);
		snprintf(why, ATTCERT_WHY_MAX,
		    "%s (certificate %d of the chain)",
		    X509_verify_cert_error_string(e),
		    X509_STORE_CTX_get_error_depth(ctx) + 1);
		rc = ERR_VERIFY;
	}
fail:
	X509_STORE_CTX_free(ctx);
	ERR_clear_error();
	return rc;
}

int
attcert_chain_verify(const struct attcert_roots *roots,
    const uint8_t *const *certs, const size_t *lens, size_t n, int64_t at,
    char why[ATTCERT_WHY_MAX])
{
	STACK_OF(X509) *sk = NULL;
	X509 *leaf = NULL;
	int rc;

	if (roots == NULL || certs == NULL || lens == NULL || n == 0 ||
	    n > ATTCERT_CHAIN_MAX || why == NULL)
		return ERR_INVAL;
	why[0] = '\0';
	if (crypto_x509_parse(certs[0], lens[0], &leaf) != ERR_OK ||
	    (rc = chain_stack(certs, lens, n, &sk)) == ERR_PARSE) {
		snprintf(why, ATTCERT_WHY_MAX, "a certificate is not DER");
		rc = ERR_PARSE;
		goto fail;
	}
	if (rc != ERR_OK)
		goto fail;
	if (crypto_x509_not_ca(leaf) != ERR_OK) {
		snprintf(why, ATTCERT_WHY_MAX,
		    "the attestation certificate is a CA (basic constraints)");
		rc = ERR_VERIFY;
		goto fail;
	}
	rc = chain_run(roots->store, leaf, sk, at, why);
fail:
	sk_X509_pop_free(sk, X509_free);
	X509_free(leaf);
	ERR_clear_error();
	return rc;
}

/* ES256 in JWS: r || s (32 bytes each) as the DER ECDSA-Sig-Value. */
static int
es256_der(const uint8_t *raw, uint8_t **der, size_t *der_len)
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(raw, 32, NULL),
	       *s = BN_bin2bn(raw + 32, 32, NULL);
	unsigned char *buf = NULL;
	int n, rc = ERR_NOMEM;

	if (es == NULL || r == NULL || s == NULL ||
	    ECDSA_SIG_set0(es, r, s) != 1)
		goto fail;
	r = s = NULL; /* es owns them */
	if ((n = i2d_ECDSA_SIG(es, &buf)) <= 0)
		goto fail;
	*der = buf;
	*der_len = (size_t)n;
	rc = ERR_OK;
fail:
	BN_free(r);
	BN_free(s);
	ECDSA_SIG_free(es);
	return rc;
}

int
attcert_jws_verify(const uint8_t *cert, size_t cert_len, const char *alg,
    const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t *der = NULL;
	size_t der_len = 0;
	int r;

	if (cert == NULL || alg == NULL || msg == NULL || sig == NULL)
		return ERR_INVAL;
	if (strcmp(alg, "RS256") == 0)
		return crypto_verify_cert_sig(
		    cert, cert_len, COSE_RS256, msg, msg_len, sig, sig_len);
	if (strcmp(alg, "ES256") != 0)
		return ERR_UNSUPPORTED;
	if (sig_len != 64)
		return ERR_VERIFY;
	if ((r = es256_der(sig, &der, &der_len)) != ERR_OK)
		return r;
	r = crypto_verify_cert_sig(
	    cert, cert_len, COSE_ES256, msg, msg_len, der, der_len);
	OPENSSL_free(der);
	ERR_clear_error();
	return r;
}
