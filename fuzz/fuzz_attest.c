/* SPDX-License-Identifier: BSD-2-Clause */
/* proto/authdata and proto/attest on hostile bytes: authdata_parse, then
 * (for attested data) attest_verify of the statement, as a MakeCredential
 * reply reaches them. Input: flags (bit 0: MakeCredential, else
 * GetAssertion; bits 1-2: format packed, fido-u2f, none, tpm) | authData
 * length (2 bytes, big endian) | authData | clientDataHash (32) |
 * attStmt. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/cred.h"
#include "base/err.h"
#include "failmalloc.h"
#include "fuzz.h"
#include "proto/attest.h"
#include "proto/authdata.h"
#include "proto/cose.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static const char *const formats[] = {"packed", "fido-u2f", "none", "tpm"};

static bool
inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
	return p >= base && n <= len && (size_t)(p - base) <= len - n;
}

/* What a successful parse promises (authdata.h). */
static void
check_parsed(const struct authdata *ad, const uint8_t *p, size_t len, bool want)
{
	FUZZ_CHECK(ad->rpid_hash == p && ad->flags == p[32]);
	FUZZ_CHECK(ad->attested == want);
	FUZZ_CHECK(((ad->flags & AUTHDATA_AT) != 0) == want);
	FUZZ_CHECK(((ad->flags & AUTHDATA_ED) != 0) == (ad->ext != NULL));
	if (ad->ext != NULL) {
		FUZZ_CHECK(inside(ad->ext, ad->ext_len, p, len));
		FUZZ_CHECK(ad->ext + ad->ext_len == p + len);
		FUZZ_CHECK(cbor_check(ad->ext, ad->ext_len) == ERR_OK);
	}
	if (!want)
		return;
	FUZZ_CHECK(inside(ad->aaguid, 16, p, len));
	FUZZ_CHECK(
	    ad->cred_id_len > 0 && ad->cred_id_len <= AUTHDATA_CRED_ID_MAX);
	FUZZ_CHECK(inside(ad->cred_id, ad->cred_id_len, p, len));
	FUZZ_CHECK((ad->type == COSE_ES256 && ad->pk_len == 65) ||
	    (ad->type == COSE_EDDSA && ad->pk_len == 32) ||
	    (ad->type == COSE_RS256 && ad->pk_len == 259));
}

/* The credential key written back as a COSE_Key reads the same. */
static void
key_round_trip(const struct authdata *ad)
{
	uint8_t buf[400], pk[COSESIG_PK_MAX];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t n = 0, pk_len = 0;
	int type = 0;

	cbor_wr_init(&w, buf, sizeof(buf));
	FUZZ_CHECK(cose_key_write(&w, ad->type, ad->pk, ad->pk_len) == ERR_OK);
	FUZZ_CHECK(cbor_wr_end(&w, &n) == ERR_OK);
	FUZZ_CHECK(cbor_check(buf, n) == ERR_OK);
	cbor_rd_init(&r, buf, n);
	if (cose_key_read(&r, &type, pk, &pk_len) != ERR_OK) {
		/* only an allocation made to fail inside OpenSSL */
		FUZZ_CHECK(failmalloc_injected() == FAILMALLOC_CRYPTO);
		return;
	}
	FUZZ_CHECK(type == ad->type && pk_len == ad->pk_len);
	FUZZ_CHECK(memcmp(pk, ad->pk, pk_len) == 0);
}

/* Nothing left over, nothing missing: the same bytes with one more, or
 * one fewer, are refused. */
static void
check_exact(const uint8_t *p, size_t len, bool want)
{
	struct authdata ad;
	uint8_t *q = malloc(len + 1);
	int rc;

	if (q == NULL)
		return;
	memcpy(q, p, len);
	q[len] = 0;
	rc = authdata_parse(q, len + 1, want, &ad);
	FUZZ_CHECK(rc != ERR_OK);
	rc = authdata_parse(q, len - 1, want, &ad);
	FUZZ_CHECK(rc != ERR_OK);
	free(q);
}

static void
check_attest(const char *fmt, const struct input *stmt, const uint8_t *raw,
    size_t raw_len, const struct authdata *ad, const uint8_t cdh[32])
{
	uint8_t *cert = NULL;
	size_t cert_len = 0;
	int rc;

	FUZZ_CALL(rc,
	    attest_verify(fmt, strlen(fmt), stmt->data, stmt->len, raw, raw_len,
		ad, cdh, NULL, &cert, &cert_len));
	FUZZ_CHECK(rc == ERR_OK || rc == ERR_VERIFY || rc == ERR_PARSE ||
	    rc == ERR_UNSUPPORTED || rc == ERR_NOMEM || rc == ERR_CRYPTO);
	if (rc != ERR_OK || strcmp(fmt, "none") == 0)
		FUZZ_CHECK(cert == NULL && cert_len == 0);
	if (strcmp(fmt, "tpm") == 0)
		FUZZ_CHECK(rc == ERR_UNSUPPORTED);
	if (cert != NULL)
		FUZZ_CHECK(cert_len > 0);
	free(cert);
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	struct input stmt;
	struct authdata ad;
	uint8_t cdh[32] = {0};
	size_t ad_len, rest;
	bool want;
	int rc;

	if (in->len < 3)
		return;
	want = in->data[0] & 1;
	ad_len = (size_t)in->data[1] << 8 | in->data[2];
	rest = in->len - 3;
	if (ad_len > rest)
		ad_len = rest;
	FUZZ_CALL(rc, authdata_parse(in->data + 3, ad_len, want, &ad));
	FUZZ_CHECK(rc == ERR_OK || rc == ERR_PARSE || rc == ERR_UNSUPPORTED ||
	    rc == ERR_CRYPTO);
	if (rc != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&ad, sizeof(ad)));
		return;
	}
	check_parsed(&ad, in->data + 3, ad_len, want);
	check_exact(in->data + 3, ad_len, want);
	if (!want)
		return;
	key_round_trip(&ad);
	rest -= ad_len;
	memcpy(cdh, in->data + 3 + ad_len, rest < 32 ? rest : 32);
	stmt.data = in->data + 3 + ad_len + (rest < 32 ? rest : 32);
	stmt.len = rest < 32 ? 0 : rest - 32;
	check_attest(formats[(in->data[0] >> 1) & 3], &stmt, in->data + 3,
	    ad_len, &ad, cdh);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
