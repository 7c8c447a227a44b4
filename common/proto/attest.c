/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation statements (WebAuthn 8.2 packed, 8.6 fido-u2f, 8.7 none):
 * is the statement internally valid? No trust anchors (attest.h). A
 * WebAuthn data format, not a CTAP2 exchange, so it sits in proto/
 * beside authdata.c and cose.c (the software token's host checks use it
 * too); ctap2/register.c is its caller. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest.h"
#include "base/cbor.h"
#include "base/cred.h"
#include "base/err.h"
#include "crypto/cosesig.h"
#include "crypto/crypto.h"

#define FMT_SHOW_MAX 32 /* bytes of an unknown format name that we log */
#define CDH_LEN 32

/* The attStmt fields of the formats we know. */
struct stmt {
	bool has_alg;
	int64_t alg;
	const uint8_t *sig;
	size_t sig_len;
	const uint8_t *x5c_raw; /* the x5c array's encoding, or NULL */
	size_t x5c_raw_len;
	size_t npairs;
};

static bool
fmt_is(const char *fmt, size_t len, const char *name)
{
	return len == strlen(name) && memcmp(fmt, name, len) == 0;
}

/* Log an unknown format's name: printable ASCII as is, the rest as \xHH,
 * at most FMT_SHOW_MAX bytes (it comes from the device). */
static void
log_unknown_fmt(const struct log *lg, const char *fmt, size_t len)
{
	char shown[FMT_SHOW_MAX * 4 + 4];
	size_t i, n = 0;
	unsigned char c;

	for (i = 0; i < len && i < FMT_SHOW_MAX; i++) {
		c = (unsigned char)fmt[i];
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
			shown[n++] = (char)c;
		else
			n += (size_t)snprintf(
			    shown + n, sizeof(shown) - n, "\\x%02x", c);
	}
	if (len > FMT_SHOW_MAX)
		shown[n++] = '.', shown[n++] = '.', shown[n++] = '.';
	shown[n] = '\0';
	log_msg(lg, "attest_verify: attestation format \"%s\" not supported",
	    shown);
}

/* One attStmt entry; unknown keys are skipped. */
static int
read_entry(struct cbor_rd *r, struct stmt *s)
{
	if (cbor_take_text_key(r, "alg")) {
		s->has_alg = true;
		return cbor_get_int(r, &s->alg);
	}
	if (cbor_take_text_key(r, "sig"))
		return cbor_get_bytes(r, &s->sig, &s->sig_len);
	if (cbor_take_text_key(r, "x5c"))
		return cbor_get_raw(r, &s->x5c_raw, &s->x5c_raw_len);
	if (cbor_skip(r) != ERR_OK)
		return ERR_PARSE;
	return cbor_skip(r);
}

static int
read_stmt(const uint8_t *p, size_t len, struct stmt *s)
{
	struct cbor_rd r;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (cbor_check(p, len) != ERR_OK)
		return ERR_PARSE;
	cbor_rd_init(&r, p, len);
	if (cbor_get_map(&r, &s->npairs) != ERR_OK)
		return ERR_PARSE;
	for (i = 0; i < s->npairs; i++)
		if (read_entry(&r, s) != ERR_OK)
			return ERR_PARSE;
	return cbor_rd_done(&r) ? ERR_OK : ERR_PARSE;
}

/* The x5c array: at least one certificate, each a byte string;
 * *leaf = the first. (cbor_check bounded the count.) */
static int
x5c_leaf(
    const struct stmt *s, size_t *count, const uint8_t **leaf, size_t *leaf_len)
{
	const uint8_t *c;
	struct cbor_rd r;
	size_t n, i, cl;

	cbor_rd_init(&r, s->x5c_raw, s->x5c_raw_len);
	if (cbor_get_array(&r, &n) != ERR_OK || n == 0)
		return ERR_PARSE;
	for (i = 0; i < n; i++) {
		if (cbor_get_bytes(&r, &c, &cl) != ERR_OK || cl == 0)
			return ERR_PARSE;
		if (i == 0) {
			*leaf = c;
			*leaf_len = cl;
		}
	}
	*count = n;
	return ERR_OK;
}

/* authData | clientDataHash, the signed message of every format but
 * fido-u2f. Caller frees. */
static uint8_t *
signed_msg(const uint8_t *authdata, size_t authdata_len,
    const uint8_t cdh[CDH_LEN], size_t *len)
{
	uint8_t *m;

	if (authdata_len > SIZE_MAX - CDH_LEN ||
	    (m = malloc(authdata_len + CDH_LEN)) == NULL)
		return NULL;
	memcpy(m, authdata, authdata_len);
	memcpy(m + authdata_len, cdh, CDH_LEN);
	*len = authdata_len + CDH_LEN;
	return m;
}

/* An error from crypto/ about a certificate or key that the device sent:
 * a bad statement, not a malformed one. */
static int
as_verify(int rc)
{
	return rc == ERR_PARSE || rc == ERR_PROTO || rc == ERR_INVAL
	    ? ERR_VERIFY
	    : rc;
}

/* packed (WebAuthn 8.2): with x5c, the leaf's key signed and the leaf
 * meets 8.2.1; without, self attestation by the credential key. */
static int
verify_packed(const struct stmt *s, const uint8_t *msg, size_t msg_len,
    const struct authdata *ad, const struct log *lg, const uint8_t **leaf,
    size_t *leaf_len)
{
	const char *why;
	size_t n;
	int rc;

	if (!s->has_alg || s->sig == NULL || s->alg < -65536 || s->alg > 65535)
		return ERR_PARSE;
	if (s->x5c_raw == NULL) {
		if (s->alg != ad->type) {
			log_msg(lg,
			    "attest_verify: packed self attestation "
			    "with algorithm %lld, the key is %d",
			    (long long)s->alg, ad->type);
			return ERR_VERIFY;
		}
		return as_verify(crypto_verify(ad->type, ad->pk, ad->pk_len,
		    msg, msg_len, s->sig, s->sig_len));
	}
	if ((rc = x5c_leaf(s, &n, leaf, leaf_len)) != ERR_OK)
		return rc;
	rc = as_verify(crypto_verify_cert_sig(
	    *leaf, *leaf_len, (int)s->alg, msg, msg_len, s->sig, s->sig_len));
	if (rc != ERR_OK)
		return rc;
	if (crypto_packed_cert_ok(*leaf, *leaf_len, ad->aaguid, &why) !=
	    ERR_OK) {
		log_msg(lg,
		    "attest_verify: the packed attestation certificate "
		    "fails the FIDO requirements (WebAuthn 8.2.1): %s",
		    why);
		return ERR_VERIFY;
	}
	return ERR_OK;
}

/* fido-u2f (WebAuthn 8.6): one P-256 certificate whose key signed
 * 00 | rpIdHash | clientDataHash | credentialId | 04 x y. */
static int
verify_fido_u2f(const struct stmt *s, const struct authdata *ad,
    const uint8_t cdh[CDH_LEN], const uint8_t **leaf, size_t *leaf_len)
{
	size_t n;
	int rc;

	if (s->has_alg || s->sig == NULL || s->x5c_raw == NULL)
		return ERR_PARSE;
	if ((rc = x5c_leaf(s, &n, leaf, leaf_len)) != ERR_OK)
		return rc;
	if (n != 1)
		return ERR_PARSE;
	if (ad->type != COSE_ES256 || ad->pk_len != 65)
		return ERR_VERIFY;
	return as_verify(
	    crypto_verify_u2f_register(*leaf, *leaf_len, ad->rpid_hash, cdh,
		ad->cred_id, ad->cred_id_len, ad->pk, s->sig, s->sig_len));
}

static int
copy_cert(
    const uint8_t *leaf, size_t leaf_len, uint8_t **cert, size_t *cert_len)
{
	if (leaf == NULL)
		return ERR_OK;
	if ((*cert = malloc(leaf_len)) == NULL)
		return ERR_NOMEM;
	memcpy(*cert, leaf, leaf_len);
	*cert_len = leaf_len;
	return ERR_OK;
}

/* The statement of a known format fmt_name, checked. */
static int
verify_known(const char *fmt_name, const struct stmt *s,
    const uint8_t *authdata, size_t authdata_len, const struct authdata *ad,
    const uint8_t cdh[CDH_LEN], const struct log *lg, const uint8_t **leaf,
    size_t *leaf_len)
{
	uint8_t *msg = NULL;
	size_t msg_len = 0;
	int rc;

	if (strcmp(fmt_name, "none") == 0)
		return s->npairs == 0 ? ERR_OK : ERR_PARSE;
	if (strcmp(fmt_name, "fido-u2f") == 0)
		return verify_fido_u2f(s, ad, cdh, leaf, leaf_len);
	if ((msg = signed_msg(authdata, authdata_len, cdh, &msg_len)) == NULL)
		return ERR_NOMEM;
	rc = verify_packed(s, msg, msg_len, ad, lg, leaf, leaf_len);
	free(msg);
	return rc;
}

int
attest_verify(const char *fmt, size_t fmt_len, const uint8_t *attstmt,
    size_t attstmt_len, const uint8_t *authdata, size_t authdata_len,
    const struct authdata *ad, const uint8_t cdh[32], const struct log *lg,
    uint8_t **cert, size_t *cert_len)
{
	static const char *const known[] = {"packed", "fido-u2f", "none"};
	const uint8_t *leaf = NULL;
	const char *name = NULL;
	size_t leaf_len = 0, i;
	struct stmt s;
	int rc;

	if (cert == NULL || cert_len == NULL)
		return ERR_INVAL;
	*cert = NULL;
	*cert_len = 0;
	if ((fmt == NULL && fmt_len > 0) || attstmt == NULL ||
	    authdata == NULL || ad == NULL || !ad->attested || cdh == NULL)
		return ERR_INVAL;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (fmt_is(fmt, fmt_len, known[i]))
			name = known[i];
	if (name == NULL) {
		log_unknown_fmt(lg, fmt, fmt_len);
		return ERR_UNSUPPORTED;
	}
	if ((rc = read_stmt(attstmt, attstmt_len, &s)) == ERR_OK)
		rc = verify_known(name, &s, authdata, authdata_len, ad, cdh, lg,
		    &leaf, &leaf_len);
	if (rc == ERR_OK)
		rc = copy_cert(leaf, leaf_len, cert, cert_len);
	else
		log_msg(lg, "attest_verify: %s attestation statement: %s", name,
		    err_str(rc));
	return rc;
}

int
attest_x5c(const uint8_t *attstmt, size_t attstmt_len, const uint8_t **certs,
    size_t *lens, size_t max, size_t *n)
{
	struct cbor_rd r;
	struct stmt s;
	size_t i, count;

	if (attstmt == NULL || certs == NULL || lens == NULL || n == NULL)
		return ERR_INVAL;
	*n = 0;
	if (read_stmt(attstmt, attstmt_len, &s) != ERR_OK)
		return ERR_PARSE;
	if (s.x5c_raw == NULL)
		return ERR_NOT_FOUND;
	cbor_rd_init(&r, s.x5c_raw, s.x5c_raw_len);
	if (cbor_get_array(&r, &count) != ERR_OK || count == 0)
		return ERR_PARSE;
	if (count > max)
		return ERR_TOO_BIG;
	for (i = 0; i < count; i++)
		if (cbor_get_bytes(&r, &certs[i], &lens[i]) != ERR_OK ||
		    lens[i] == 0)
			return ERR_PARSE;
	*n = count;
	return ERR_OK;
}
