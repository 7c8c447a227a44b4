/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for proto/cose.c, proto/authdata.c, proto/attest.c and the
 * EdDSA / RS256 paths of proto_check_assertion: real replies recorded
 * from keys (libfido2's wiredata and regress vectors), statements made
 * with python3-cryptography (ctap2kat.h, tests/lib/ctap2kat.py), and
 * hand-made malformed cases. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/cred.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2fix.h"
#include "ctap2kat.h"
#include "proto/attest.h"
#include "proto/authdata.h"
#include "proto/cose.h"
#include "proto/proto.h"
#include "test.h"

#define LF_KEY_AT (37 + 16 + 2 + 64) /* the COSE key in LF_CRED_AUTHDATA */

/* ---- cose ---- */

static void
cose_real_keys(void)
{
	struct vec ad = vec_hex(LF_CRED_AUTHDATA),
		   tpm = vec_hex(LF_TPM_RS_AUTHDATA),
		   want = vec_hex(LF_TPM_RS_PK);
	uint8_t pk[COSESIG_PK_MAX];
	struct cbor_rd r;
	size_t n = 0;
	int type = 0;

	cbor_rd_init(&r, ad.p + LF_KEY_AT, ad.n - LF_KEY_AT);
	T_EQ_ERR(cose_key_read(&r, &type, pk, &n), ERR_OK);
	T_EQ_INT(type, COSE_ES256);
	T_EQ_INT(n, 65);
	T_EQ_INT(pk[0], 0x04);
	T_TRUE(cbor_rd_done(&r));
	cbor_rd_init(&r, tpm.p + 37 + 16 + 2 + 32, tpm.n - (37 + 16 + 2 + 32));
	T_EQ_ERR(cose_key_read(&r, &type, pk, &n), ERR_OK);
	T_EQ_INT(type, COSE_RS256);
	T_EQ_INT(n, want.n);
	T_EQ_MEM(pk, want.p, want.n);
	vec_free(&ad);
	vec_free(&tpm);
	vec_free(&want);
}

static void
round_trip_one(int type, const char *hex)
{
	struct vec key = vec_hex(hex);
	uint8_t buf[400], pk[COSESIG_PK_MAX];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len = 0, n = 0;
	int t = 0;

	cbor_wr_init(&w, buf, sizeof(buf));
	T_EQ_ERR(cose_key_write(&w, type, key.p, key.n), ERR_OK);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_ERR(cbor_check(buf, len), ERR_OK); /* canonical */
	cbor_rd_init(&r, buf, len);
	T_EQ_ERR(cose_key_read(&r, &t, pk, &n), ERR_OK);
	T_EQ_INT(t, type);
	T_EQ_INT(n, key.n);
	T_EQ_MEM(pk, key.p, key.n);
	vec_free(&key);
}

static void
cose_round_trip(void)
{
	struct vec x = vec_hex(PIN_AUTH_X), y = vec_hex(PIN_AUTH_Y);
	uint8_t buf[128], rx[32], ry[32], pk[COSESIG_PK_MAX];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len = 0, n;
	int t;

	round_trip_one(COSE_ES256, ES_PK);
	round_trip_one(COSE_EDDSA, ED_PK2);
	round_trip_one(COSE_RS256, RS_PK);
	cbor_wr_init(&w, buf, sizeof(buf));
	cose_ka_write(&w, x.p, y.p);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_ERR(cbor_check(buf, len), ERR_OK);
	cbor_rd_init(&r, buf, len);
	T_EQ_ERR(cose_ka_read(&r, rx, ry), ERR_OK);
	T_EQ_MEM(rx, x.p, 32);
	T_EQ_MEM(ry, y.p, 32);
	/* A key agreement key is no credential key (alg -25). */
	cbor_rd_init(&r, buf, len);
	T_EQ_ERR(cose_key_read(&r, &t, pk, &n), ERR_UNSUPPORTED);
	vec_free(&x);
	vec_free(&y);
}

/* An EC2 map written by hand: kty, alg, crv, x (xlen bytes), y. */
static int
read_ec2(int kty, int alg, int crv, size_t xlen, bool with_kty)
{
	struct vec pk = vec_hex(ES_PK);
	uint8_t buf[160], out[COSESIG_PK_MAX];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len = 0, n;
	int t, rc;

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_map(&w, with_kty ? 5 : 4);
	if (with_kty) {
		cbor_put_int(&w, 1);
		cbor_put_int(&w, kty);
	}
	cbor_put_int(&w, 3);
	cbor_put_int(&w, alg);
	cbor_put_int(&w, -1);
	cbor_put_int(&w, crv);
	cbor_put_int(&w, -2);
	cbor_put_bytes(&w, pk.p + 1, xlen);
	cbor_put_int(&w, -3);
	cbor_put_bytes(&w, pk.p + 33, 32);
	if (cbor_wr_end(&w, &len) != ERR_OK)
		abort();
	cbor_rd_init(&r, buf, len);
	rc = cose_key_read(&r, &t, out, &n);
	vec_free(&pk);
	return rc;
}

static void
cose_malformed(void)
{
	struct vec x = vec_hex(PIN_AUTH_X), y = vec_hex(PIN_AUTH_Y);
	uint8_t buf[128], rx[32], ry[32];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len = 0;

	T_EQ_ERR(read_ec2(2, -7, 1, 32, true), ERR_OK);
	T_EQ_ERR(read_ec2(2, -7, 1, 31, true), ERR_PARSE);        /* short x */
	T_EQ_ERR(read_ec2(2, -7, 1, 32, false), ERR_PARSE);       /* no kty */
	T_EQ_ERR(read_ec2(1, -7, 1, 32, true), ERR_PARSE);        /* kty OKP */
	T_EQ_ERR(read_ec2(2, -7, 2, 32, true), ERR_PARSE);        /* P-384 */
	T_EQ_ERR(read_ec2(2, -35, 2, 32, true), ERR_UNSUPPORTED); /* ES384 */
	/* An ES256 credential key is not a key agreement key. */
	cbor_wr_init(&w, buf, sizeof(buf));
	T_TRUE(x.n == 32 && y.n == 32);
	cbor_put_map(&w, 5);
	cbor_put_int(&w, 1);
	cbor_put_int(&w, 2);
	cbor_put_int(&w, 3);
	cbor_put_int(&w, -7);
	cbor_put_int(&w, -1);
	cbor_put_int(&w, 1);
	cbor_put_int(&w, -2);
	cbor_put_bytes(&w, x.p, 32);
	cbor_put_int(&w, -3);
	cbor_put_bytes(&w, y.p, 32);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	cbor_rd_init(&r, buf, len);
	T_EQ_ERR(cose_ka_read(&r, rx, ry), ERR_PARSE);
	vec_free(&x);
	vec_free(&y);
}

/* ---- authData ---- */

static void
authdata_real(void)
{
	struct vec cred = vec_hex(LF_CRED_AUTHDATA),
		   ga = vec_hex(LF_GA_AUTHDATA),
		   tpm = vec_hex(LF_TPM_RS_AUTHDATA),
		   tpk = vec_hex(LF_TPM_RS_PK);
	static const uint8_t yk5[16] = {0xf8, 0xa0, 0x11, 0xf3, 0x8c, 0x0a,
	    0x4d, 0x15, 0x80, 0x06, 0x17, 0x11, 0x1f, 0x9e, 0xdc, 0x7d};
	struct authdata ad;

	T_EQ_ERR(authdata_parse(cred.p, cred.n, true, &ad), ERR_OK);
	T_TRUE(ad.attested);
	T_EQ_INT(ad.flags, 0x45);
	T_EQ_INT(ad.counter, 0);
	T_EQ_MEM(ad.aaguid, yk5, 16);
	T_EQ_INT(ad.cred_id_len, 64);
	T_EQ_INT(ad.type, COSE_ES256);
	T_EQ_INT(ad.pk_len, 65);
	T_TRUE(ad.ext == NULL);
	T_EQ_ERR(authdata_parse(cred.p, cred.n, false, &ad), ERR_PARSE);
	T_EQ_ERR(authdata_parse(ga.p, ga.n, false, &ad), ERR_OK);
	T_TRUE(!ad.attested);
	T_EQ_INT(ad.flags, 0x04);
	T_EQ_INT(ad.counter, 9);
	T_EQ_ERR(authdata_parse(ga.p, ga.n, true, &ad), ERR_PARSE);
	T_EQ_ERR(authdata_parse(tpm.p, tpm.n, true, &ad), ERR_OK);
	T_EQ_INT(ad.type, COSE_RS256);
	T_EQ_INT(ad.pk_len, tpk.n);
	T_EQ_MEM(ad.pk, tpk.p, tpk.n);
	vec_free(&cred);
	vec_free(&ga);
	vec_free(&tpm);
	vec_free(&tpk);
}

/* p (n bytes) with flags |= add, then tail (m bytes) appended. */
static int
parse_with(const struct vec *v, uint8_t add, const char *tail_hex,
    bool attested, struct authdata *ad)
{
	struct vec tail = vec_hex(tail_hex);
	uint8_t *p = malloc(v->n + tail.n);
	int rc;

	if (p == NULL)
		abort();
	memcpy(p, v->p, v->n);
	memcpy(p + v->n, tail.p, tail.n);
	p[32] |= add;
	rc = authdata_parse(p, v->n + tail.n, attested, ad);
	free(p);
	vec_free(&tail);
	return rc;
}

static void
authdata_malformed(void)
{
	struct vec cred = vec_hex(LF_CRED_AUTHDATA),
		   ga = vec_hex(LF_GA_AUTHDATA);
	struct authdata ad;
	size_t i, bad = 0;

	for (i = 0; i < cred.n; i++) /* every truncation */
		bad += authdata_parse(cred.p, i, true, &ad) == ERR_PARSE;
	T_EQ_INT(bad, cred.n);
	T_EQ_ERR(parse_with(&cred, 0, "00", true, &ad), ERR_PARSE);
	T_EQ_ERR(parse_with(&ga, 0, "00", false, &ad), ERR_PARSE);
	/* AT without attested data; ED without a map. */
	T_EQ_ERR(parse_with(&ga, AUTHDATA_AT, "", true, &ad), ERR_PARSE);
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED, "", false, &ad), ERR_PARSE);
	T_EQ_ERR(parse_with(&cred, AUTHDATA_ED, "", true, &ad), ERR_PARSE);
	/* ED with {"credProtect": 2}; then not a map, not canonical
	 * ({"up": true, "x": true}: the shorter key must come first), and
	 * a byte after the map. */
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED, "a16b6372656450726f7465637402",
		     false, &ad),
	    ERR_OK);
	T_EQ_INT(ad.ext_len, 14);
	T_EQ_ERR(parse_with(&cred, AUTHDATA_ED, "a16b6372656450726f7465637402",
		     true, &ad),
	    ERR_OK);
	T_TRUE(ad.attested && ad.ext != NULL);
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED, "01", false, &ad), ERR_PARSE);
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED, "a2627570f56178f5", false, &ad),
	    ERR_PARSE);
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED,
		     "a1617801"
		     "00",
		     false, &ad),
	    ERR_PARSE);
	T_EQ_ERR(parse_with(&ga, AUTHDATA_ED, "a1617801", false, &ad), ERR_OK);
	vec_free(&cred);
	vec_free(&ga);
}

/* authData with a credential id of id_len bytes and LF_CRED's key. */
static int
parse_id_len(size_t id_len)
{
	struct vec cred = vec_hex(LF_CRED_AUTHDATA);
	size_t key_len = cred.n - LF_KEY_AT, n = 55 + id_len + key_len;
	uint8_t *p = calloc(1, n);
	struct authdata ad;
	int rc;

	if (p == NULL)
		abort();
	memcpy(p, cred.p, 53);
	p[53] = (uint8_t)(id_len >> 8);
	p[54] = (uint8_t)id_len;
	memcpy(p + 55 + id_len, cred.p + LF_KEY_AT, key_len);
	rc = authdata_parse(p, n, true, &ad);
	free(p);
	vec_free(&cred);
	return rc;
}

static void
authdata_cred_id_bounds(void)
{
	T_EQ_ERR(parse_id_len(1), ERR_OK);
	T_EQ_ERR(parse_id_len(AUTHDATA_CRED_ID_MAX), ERR_OK);
	T_EQ_ERR(parse_id_len(AUTHDATA_CRED_ID_MAX + 1), ERR_PARSE);
	T_EQ_ERR(parse_id_len(0), ERR_PARSE);
}

/* The credential key must be canonical CBOR too: LF_CRED's key with kty
 * written as 18 02 (not the shortest form). */
static void
authdata_key_not_canonical(void)
{
	struct vec cred = vec_hex(LF_CRED_AUTHDATA);
	uint8_t *p = malloc(cred.n + 1);
	struct authdata ad;
	size_t k = LF_KEY_AT;

	if (p == NULL)
		abort();
	T_EQ_INT(cred.p[k], 0xa5);
	T_EQ_INT(cred.p[k + 1], 0x01);
	T_EQ_INT(cred.p[k + 2], 0x02);
	memcpy(p, cred.p, k + 2);
	p[k + 2] = 0x18;
	memcpy(p + k + 3, cred.p + k + 2, cred.n - k - 2);
	T_EQ_ERR(authdata_parse(p, cred.n + 1, true, &ad), ERR_PARSE);
	free(p);
	vec_free(&cred);
}

/* ---- attestation statements ---- */

struct logbuf {
	char text[2048];
	int lines;
};

static void
log_collect(void *arg, const char *line)
{
	struct logbuf *b = arg;
	size_t n = strlen(b->text);

	snprintf(b->text + n, sizeof(b->text) - n, "%s\n", line);
	b->lines++;
}

/* attest_verify of fmt with a statement and authData given in hex. */
static int
attest_hex(const char *fmt, const char *stmt_hex, const char *ad_hex,
    const char *cdh_hex, struct logbuf *lb)
{
	struct vec stmt = vec_hex(stmt_hex), raw = vec_hex(ad_hex),
		   cdh = vec_hex(cdh_hex);
	struct log lg = {log_collect, lb};
	struct authdata ad;
	uint8_t *cert = NULL;
	size_t cert_len = 0;
	int rc;

	memset(lb, 0, sizeof(*lb));
	if (authdata_parse(raw.p, raw.n, true, &ad) != ERR_OK)
		abort();
	rc = attest_verify(fmt, strlen(fmt), stmt.p, stmt.n, raw.p, raw.n, &ad,
	    cdh.p, &lg, &cert, &cert_len);
	if (rc != ERR_OK && cert != NULL)
		T_FAIL_AT("a certificate with %s", err_name(rc));
	free(cert);
	vec_free(&stmt);
	vec_free(&raw);
	vec_free(&cdh);
	return rc;
}

static void
attest_real_packed(void)
{
	struct vec stmt = vec_hex(LF_CRED_ATTSTMT),
		   raw = vec_hex(LF_CRED_AUTHDATA), cdh = vec_hex(LF_CRED_CDH);
	const uint8_t *leaf = NULL;
	struct logbuf lb;
	struct authdata ad;
	uint8_t *cert = NULL;
	size_t leaf_len = 0, cert_len = 0;

	T_EQ_ERR(authdata_parse(raw.p, raw.n, true, &ad), ERR_OK);
	T_EQ_ERR(attest_verify("packed", 6, stmt.p, stmt.n, raw.p, raw.n, &ad,
		     cdh.p, NULL, &cert, &cert_len),
	    ERR_OK);
	T_EQ_ERR(stmt_leaf(stmt, &leaf, &leaf_len), ERR_OK);
	T_EQ_INT(cert_len, leaf_len);
	T_TRUE(cert != NULL && memcmp(cert, leaf, leaf_len) == 0);
	free(cert);
	T_EQ_ERR(attest_hex(
		     "packed", LF_CRED_ATTSTMT, LF_CRED_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY); /* another clientDataHash */
	T_EQ_INT(lb.lines, 1);
	T_EQ_ERR(attest_hex("fido-u2f", LF_CRED_ATTSTMT, LF_CRED_AUTHDATA,
		     LF_CRED_CDH, &lb),
	    ERR_PARSE); /* fido-u2f has no alg */
	vec_free(&stmt);
	vec_free(&raw);
	vec_free(&cdh);
}

static void
attest_formats(void)
{
	struct logbuf lb;

	T_EQ_ERR(attest_hex("fido-u2f", U2F_ATTSTMT, U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_OK);
	T_EQ_ERR(
	    attest_hex("fido-u2f", U2F_ATTSTMT, U2F_AUTHDATA, LF_CRED_CDH, &lb),
	    ERR_VERIFY);
	/* fido-u2f needs an ES256 credential. */
	T_EQ_ERR(
	    attest_hex("fido-u2f", U2F_ATTSTMT, SELF_ED_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY);
	T_EQ_ERR(attest_hex(
		     "packed", SELF_ED_ATTSTMT, SELF_ED_AUTHDATA, AT_CDH, &lb),
	    ERR_OK);
	T_EQ_ERR(attest_hex(
		     "packed", SELF_RS_ATTSTMT, SELF_RS_AUTHDATA, AT_CDH, &lb),
	    ERR_OK);
	/* Self attestation whose alg is not the credential's. */
	T_EQ_ERR(attest_hex(
		     "packed", SELF_RS_ATTSTMT, SELF_ED_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY);
	T_TRUE(strstr(lb.text, "algorithm -257, the key is -8") != NULL);
	/* PK_ATTSTMT_OK's certificate (ctap2kat.py's cert_for) is v3, not a
	 * CA, with the right AAGUID, but its subject is only CN=packed: its
	 * signature verifies, and WebAuthn 8.2.1's subject rules refuse it,
	 * by name. (attest_real_packed: a real key's certificate meets
	 * them; test_cosesig.c: packed_cert_named, each rule alone.) */
	T_EQ_ERR(attest_hex("packed", PK_ATTSTMT_OK, PK_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY);
	T_TRUE(strstr(lb.text, "8.2.1): subject has no country (C)") != NULL);
	T_EQ_ERR(attest_hex("packed", PK_ATTSTMT_CA, PK_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY);
	T_EQ_ERR(
	    attest_hex("packed", PK_ATTSTMT_AAGUID, PK_AUTHDATA, AT_CDH, &lb),
	    ERR_VERIFY);
	T_TRUE(strstr(lb.text, "8.2.1") != NULL);
}

static void
attest_malformed(void)
{
	struct logbuf lb;
	char long_name[101];

	T_EQ_ERR(attest_hex("none", "a0", U2F_AUTHDATA, AT_CDH, &lb), ERR_OK);
	T_EQ_ERR(attest_hex("none", "a1617801", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_PARSE);
	T_EQ_ERR(attest_hex("none", "a000", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_PARSE); /* trailing byte */
	T_EQ_ERR(attest_hex("packed", LF_CRED_ATTSTMT "00", LF_CRED_AUTHDATA,
		     LF_CRED_CDH, &lb),
	    ERR_PARSE);
	T_EQ_ERR(
	    attest_hex("packed", "a163616c6726", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_PARSE); /* {"alg": -7}: no sig */
	/* {"alg": -7, "sig": h'00', "x5c": []} */
	T_EQ_ERR(attest_hex("packed", "a363616c67266373696741006378356380",
		     U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_PARSE);
	T_EQ_ERR(attest_hex("tpm", "a0", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_UNSUPPORTED);
	T_TRUE(strstr(lb.text, "format \"tpm\" not supported") != NULL);
	T_EQ_ERR(attest_hex("a\nb\"", "a0", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_UNSUPPORTED);
	T_TRUE(strstr(lb.text, "\"a\\x0ab\\x22\"") != NULL);
	T_EQ_INT(lb.lines, 1);
	memset(long_name, 'x', 100);
	long_name[100] = '\0';
	T_EQ_ERR(attest_hex(long_name, "a0", U2F_AUTHDATA, AT_CDH, &lb),
	    ERR_UNSUPPORTED);
	T_TRUE(strstr(lb.text, "xxx...\"") != NULL);
	T_TRUE(strlen(lb.text) < 120);
}

/* ---- proto_check_assertion by algorithm ---- */

static int
check_assert(int type, const uint8_t *pk, size_t pk_len, const char *ad_hex,
    const char *cdh_hex, const char *sig_hex, size_t flip)
{
	struct vec raw = vec_hex(ad_hex), cdh = vec_hex(cdh_hex),
		   sig = vec_hex(sig_hex);
	struct cred c;
	uint8_t flags = 0;
	uint32_t counter = 0;
	int rc;

	memset(&c, 0, sizeof(c));
	c.type = type;
	c.pk = (uint8_t *)(uintptr_t)pk;
	c.pk_len = pk_len;
	if (flip < sig.n)
		sig.p[flip] ^= 0x01;
	rc = proto_check_assertion(&c, raw.p, cdh.p, false, raw.p, raw.n, sig.p,
	    sig.n, &flags, &counter);
	if (rc == ERR_OK) {
		T_EQ_INT(flags, raw.p[32]);
		T_TRUE(counter != 0);
	}
	vec_free(&raw);
	vec_free(&cdh);
	vec_free(&sig);
	return rc;
}

static void
assertion_by_algorithm(void)
{
	struct vec es = vec_hex(LF_ASSERT_PK), ed = vec_hex(SELF_ED_AUTHDATA),
		   rs = vec_hex(SELF_RS_AUTHDATA);
	struct authdata a, b;
	uint8_t point[65];

	point[0] = 0x04;
	memcpy(point + 1, es.p, 64);
	T_EQ_ERR(check_assert(COSE_ES256, point, 65, LF_ASSERT_AUTHDATA,
		     LF_ASSERT_CDH, LF_ASSERT_SIG, SIZE_MAX),
	    ERR_OK);
	T_EQ_ERR(check_assert(COSE_ES256, point, 65, LF_ASSERT_AUTHDATA,
		     LF_ASSERT_CDH, LF_ASSERT_SIG, 10),
	    ERR_VERIFY);
	T_EQ_ERR(authdata_parse(ed.p, ed.n, true, &a), ERR_OK);
	T_EQ_ERR(authdata_parse(rs.p, rs.n, true, &b), ERR_OK);
	T_EQ_ERR(check_assert(COSE_EDDSA, a.pk, a.pk_len, GA_ED_AUTHDATA,
		     AT_CDH, GA_ED_SIG, SIZE_MAX),
	    ERR_OK);
	T_EQ_ERR(check_assert(COSE_EDDSA, a.pk, a.pk_len, GA_ED_AUTHDATA,
		     AT_CDH, GA_ED_SIG, 5),
	    ERR_VERIFY);
	T_EQ_ERR(check_assert(COSE_RS256, b.pk, b.pk_len, GA_ED_AUTHDATA,
		     AT_CDH, GA_RS_SIG, SIZE_MAX),
	    ERR_OK);
	T_EQ_ERR(check_assert(COSE_RS256, b.pk, b.pk_len, GA_ED_AUTHDATA,
		     AT_CDH, GA_RS_SIG, 200),
	    ERR_VERIFY);
	/* The EdDSA signature under the RS256 key. */
	T_EQ_ERR(check_assert(COSE_RS256, b.pk, b.pk_len, GA_ED_AUTHDATA,
		     AT_CDH, GA_ED_SIG, SIZE_MAX),
	    ERR_VERIFY);
	vec_free(&es);
	vec_free(&ed);
	vec_free(&rs);
}

TEST_MAIN(TEST(cose_real_keys), TEST(cose_round_trip), TEST(cose_malformed),
    TEST(authdata_real), TEST(authdata_malformed),
    TEST(authdata_cred_id_bounds), TEST(authdata_key_not_canonical),
    TEST(attest_real_packed), TEST(attest_formats), TEST(attest_malformed),
    TEST(assertion_by_algorithm))
