/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's U2F side, in memory: token.c and
 * tokstate.c driven by APDUs, with no transport. They cover VERSION,
 * REGISTER and AUTHENTICATE with every reply checked against OpenSSL (key
 * handles bound to the token and the application, the counter, the
 * attestation certificate), the presence policies (now, never, after N ms,
 * check-only, don't-enforce, probe-sign, HOLD and CANCEL), malformed APDUs
 * in short and extended form, the per-APDU log (and its monotonic time
 * stamps), the state file (mode,
 * persistence across runs, corruption) and the faults injected at the APDU
 * level (counter, signatures, presence flag) with their names. The CTAPHID
 * device side is tested in test_tokhid.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include "base/err.h"
#include "base/util.h"
#include "../lib/test.h"
#include "token.h"
#include "tokfix.h"

#define KHL TOKEN_KH_LEN

static const uint8_t app2[32] = {0xb1, 0xb2, 0xb3};

/* ---- helpers: APDUs and their replies ---- */

/* Send an APDU; the reply goes to rep, the SW is returned. */
static unsigned
xfer(struct token *t, int64_t now, uint8_t ins, uint8_t p1, const uint8_t *data,
    size_t len, uint8_t *rep, size_t *n)
{
	uint8_t apdu[1024];
	size_t alen = tokfix_apdu(apdu, ins, p1, data, len);

	if (token_apdu(t, now, TOKEN_ANSWER, apdu, alen, rep, n) != ERR_OK)
		return 0;
	return tokfix_sw(rep, *n);
}

struct reg {
	uint8_t point[65];
	uint8_t kh[255];
	size_t khlen;
};

static int
pkey_from_point(const uint8_t *point, EVP_PKEY **out)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	int ok = 0;

	*out = NULL;
	if (bld != NULL &&
	    OSSL_PARAM_BLD_push_utf8_string(
		bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
	    OSSL_PARAM_BLD_push_octet_string(
		bld, OSSL_PKEY_PARAM_PUB_KEY, point, 65) == 1 &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL &&
	    EVP_PKEY_fromdata_init(ctx) == 1 &&
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) == 1)
		ok = 1;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return ok;
}

static int
verify(EVP_PKEY *pub, const uint8_t *msg, size_t len, const uint8_t *sig,
    size_t siglen)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	ok = ctx != NULL &&
	    EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, pub) == 1 &&
	    EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
	EVP_MD_CTX_free(ctx);
	return ok;
}

/* Register on t for application a; check and verify the whole reply. */
static int
do_register(struct token *t, const uint8_t *a, struct reg *r)
{
	uint8_t data[64], rep[TOKEN_REPLY_MAX], msg[1 + 64 + 255 + 65];
	const unsigned char *p;
	X509 *cert = NULL;
	size_t n = 0, off;
	int ok = 0;

	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, a, 32);
	if (xfer(t, 0, 0x01, 0x03, data, 64, rep, &n) != 0x9000 ||
	    rep[0] != 0x05 || rep[1] != 0x04 || rep[66] != KHL)
		return 0;
	memcpy(r->point, rep + 1, 65);
	r->khlen = rep[66];
	memcpy(r->kh, rep + 67, r->khlen);
	off = 67 + r->khlen;
	p = rep + off;
	if ((cert = d2i_X509(NULL, &p, (long)(n - 2 - off))) == NULL)
		return 0;
	msg[0] = 0x00;
	memcpy(msg + 1, a, 32);
	memcpy(msg + 33, tokfix_chal, 32);
	memcpy(msg + 65, r->kh, r->khlen);
	memcpy(msg + 65 + r->khlen, r->point, 65);
	ok = verify(X509_get0_pubkey(cert), msg, 130 + r->khlen, p,
	    (size_t)(rep + n - 2 - p));
	X509_free(cert);
	return ok;
}

/* Authenticate data: tokfix_chal || tokfix_app || L || kh. */
static size_t
auth_data(uint8_t *data, const uint8_t *a, const struct reg *r)
{
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, a, 32);
	data[64] = (uint8_t)r->khlen;
	memcpy(data + 65, r->kh, r->khlen);
	return 65 + r->khlen;
}

/* Verify an authentication reply (without SW) for r under tokfix_app a. */
static int
auth_verifies(
    const struct reg *r, const uint8_t *a, const uint8_t *rep, size_t n)
{
	uint8_t msg[69];
	EVP_PKEY *pub = NULL;
	int ok;

	if (n < 5 + 8 || !pkey_from_point(r->point, &pub))
		return 0;
	memcpy(msg, a, 32);
	memcpy(msg + 32, rep, 5);
	memcpy(msg + 37, tokfix_chal, 32);
	ok = verify(pub, msg, sizeof(msg), rep + 5, n - 5);
	EVP_PKEY_free(pub);
	return ok;
}

static uint32_t
ctr_of(const uint8_t *rep)
{
	return (uint32_t)rep[1] << 24 | (uint32_t)rep[2] << 16 |
	    (uint32_t)rep[3] << 8 | rep[4];
}

/* ---- token.c ---- */

static void
test_version(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	static const uint8_t shortform[] = {0x00, 0x03, 0x00, 0x00};
	static const uint8_t shortle[] = {0x00, 0x03, 0x00, 0x00, 0x00};
	static const uint8_t ext7[] = {0, 0x03, 0, 0, 0, 0, 0};
	uint8_t rep[TOKEN_REPLY_MAX];
	size_t n = 0;

	T_EQ_INT(xfer(t, 0, 0x03, 0, NULL, 0, rep, &n), 0x9000);
	T_EQ_INT(n, 8);
	T_EQ_MEM(rep, "U2F_V2", 6);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, shortform, 4, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	T_EQ_INT(n, 8);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, shortle, 5, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, ext7, 7, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	T_EQ_INT(xfer(t, 0, 0x03, 0, tokfix_chal, 1, rep, &n), 0x6700);
	T_EQ_INT(n, 2);
	token_free(&t);
}

static void
test_register_authenticate(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, tokfix_app, &r));
	T_EQ_INT(r.khlen, 92);
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x01);
	T_EQ_INT(ctr_of(rep), 1);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(ctr_of(rep), 2);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	/* the same reply does not verify for another application */
	T_TRUE(!auth_verifies(&r, app2, rep, n - 2));
	/* don't-enforce: flags 00, still signed and counted */
	T_EQ_INT(xfer(t, 0, 0x02, 0x08, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_EQ_INT(ctr_of(rep), 3);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(token_counter(t), 3);
	token_free(&t);
}

static void
test_wrong_key_handle(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	struct token *o = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r, ro;
	size_t n = 0, dl;

	T_TRUE(do_register(t, tokfix_app, &r));
	T_TRUE(do_register(o, tokfix_app, &ro));
	dl = auth_data(data, tokfix_app, &ro); /* other token's KH */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(n, 2);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6A80);
	dl = auth_data(data, app2, &r); /* other application */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6A80);
	dl = auth_data(data, tokfix_app, &r);
	data[65 + 20] ^= 0x01; /* tampered ciphertext */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	r.khlen = 64; /* wrong length */
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(token_counter(t), 0);
	token_free(&t);
	token_free(&o);
}

static void
test_check_only(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, tokfix_app, &r));
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6985);
	T_EQ_INT(n, 2);
	T_EQ_INT(token_counter(t), 0);
	T_EQ_INT(xfer(t, 0, 0x02, 0x05, data, dl, rep, &n), 0x6A86);
	token_free(&t);
}

static void
test_probe_sign(void)
{
	struct token_config c;
	struct token *t = NULL;
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	memset(&c, 0, sizeof(c));
	c.presence = TOKEN_PRESENCE_NEVER;
	c.probe_sign = 1;
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	if (t == NULL)
		return;
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	T_EQ_INT(xfer(t, 0, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	c.presence = TOKEN_PRESENCE_NOW;
	token_free(&t);
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	T_TRUE(do_register(t, tokfix_app, &r));
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	token_free(&t);
}

static void
test_presence_never(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	struct token *tn = NULL;
	struct token_config c;
	uint8_t data[65 + 255], apdu[128], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, tokfix_app, &r));
	token_free(&t);
	memset(&c, 0, sizeof(c));
	c.presence = TOKEN_PRESENCE_NEVER;
	T_EQ_ERR(token_new(&tn, &c), ERR_OK);
	if (tn == NULL)
		return;
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	T_EQ_INT(xfer(tn, 0, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(tn, 0, 0x01, 0x00, data, 64, rep, &n), 0x6985);
	T_EQ_INT(n, 2);
	/* HOLD: pending, no reply */
	dl = tokfix_apdu(apdu, 0x01, 0x03, data, 64);
	n = 99;
	T_EQ_ERR(token_apdu(tn, 0, TOKEN_HOLD, apdu, dl, rep, &n), ERR_PENDING);
	T_EQ_INT(n, 0);
	T_EQ_ERR(token_apdu(tn, 0, TOKEN_CANCEL, apdu, dl, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x6985);
	token_free(&tn);
}

static void
test_presence_after(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_AFTER, 100, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	/* the first registration: 6985 until 100 ms passed */
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	T_EQ_INT(xfer(t, 1000, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1099, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1100, 0x01, 0x03, data, 64, rep, &n), 0x9000);
	memcpy(r.point, rep + 1, 65);
	r.khlen = rep[66];
	memcpy(r.kh, rep + 67, r.khlen);
	dl = auth_data(data, tokfix_app, &r);
	/* the touch was consumed: a new timer starts at 1101 */
	T_EQ_INT(xfer(t, 1101, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	/* check-only and don't-enforce do not need or consume a touch */
	T_EQ_INT(xfer(t, 1150, 0x02, 0x07, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1150, 0x02, 0x08, data, dl, rep, &n), 0x9000);
	T_EQ_INT(xfer(t, 1200, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1201, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x01);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(xfer(t, 1202, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	token_free(&t);
}

static void
test_apdu_errors(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t apdu[300], rep[TOKEN_REPLY_MAX];
	size_t n = 0, len;

	len = tokfix_apdu(apdu, 0x03, 0, NULL, 0);
	apdu[0] = 0x80;
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, len, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x6E00);
	T_EQ_INT(xfer(t, 0, 0x10, 0, NULL, 0, rep, &n), 0x6D00);
	memset(apdu, 0, sizeof(apdu));
	T_EQ_INT(xfer(t, 0, 0x01, 0x03, apdu, 63, rep, &n), 0x6700);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, app2, 32, rep, &n), 0x6700);
	/* Lc larger than the data */
	len = tokfix_apdu(apdu, 0x01, 0x03, tokfix_chal, 32);
	apdu[6] = 64;
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, len, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x6700);
	/* trailing garbage after Le */
	len = tokfix_apdu(apdu, 0x03, 0, NULL, 0);
	T_EQ_ERR(
	    token_apdu(t, 0, TOKEN_ANSWER, apdu, len + 1, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x6700);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 3, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x6700);
	/* authenticate: L says more than there is */
	memset(apdu, 0, sizeof(apdu));
	apdu[64] = 92;
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, apdu, 65 + 91, rep, &n), 0x6700);
	token_free(&t);
}

static void
test_short_apdu_register(void)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t apdu[80], rep[TOKEN_REPLY_MAX];
	size_t n = 0;

	apdu[0] = 0;
	apdu[1] = 0x01;
	apdu[2] = 0x03;
	apdu[3] = 0;
	apdu[4] = 64;
	memcpy(apdu + 5, tokfix_chal, 32);
	memcpy(apdu + 37, tokfix_app, 32);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 69, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	T_EQ_INT(rep[0], 0x05);
	apdu[69] = 0; /* with Le */
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 70, rep, &n), ERR_OK);
	T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	token_free(&t);
}

static void
test_log(void)
{
	FILE *log = tmpfile();
	struct token *t;
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	char text[512];
	struct reg r;
	size_t n = 0, dl, got;

	if (log == NULL)
		abort();
	t = tokfix_token(TOKEN_PRESENCE_NOW, 0, 0, log);
	T_TRUE(do_register(t, tokfix_app, &r));
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(xfer(t, 0, 0x10, 0x00, NULL, 0, rep, &n), 0x6D00);
	token_log_line(t, "keepalive");
	rewind(log);
	got = fread(text, 1, sizeof(text) - 1, log);
	text[got] = '\0';
	T_EQ_STR(text,
	    "touch\nins=01 p1=03 sw=9000\nins=02 p1=07 sw=6985\n"
	    "touch\nins=02 p1=03 sw=9000\nins=10 p1=00 sw=6d00\n"
	    "keepalive\n");
	token_free(&t);
	fclose(log);
}

static int64_t
mono_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		abort();
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* log_time: every line starts with CLOCK_MONOTONIC "SEC.NNNNNNNNN ",
 * taken while the line is written (between the readings around it). */
static void
test_log_time(void)
{
	FILE *log = tmpfile();
	struct token_config c;
	struct token *t = NULL;
	uint8_t rep[TOKEN_REPLY_MAX];
	char line[128], rest[64];
	const char *want[] = {"ins=03 p1=00 sw=9000", "keepalive"};
	long long sec, nsec;
	int64_t before, after, stamp, prev = 0;
	size_t n = 0, i = 0;

	if (log == NULL)
		abort();
	memset(&c, 0, sizeof(c));
	c.log = log;
	c.log_time = 1;
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	before = mono_ns();
	T_EQ_INT(xfer(t, 0, 0x03, 0x00, NULL, 0, rep, &n), 0x9000);
	token_log_line(t, "keepalive");
	after = mono_ns();
	rewind(log);
	while (fgets(line, sizeof(line), log) != NULL && i < 2) {
		T_EQ_INT(
		    sscanf(line, "%lld.%9lld %63[^\n]", &sec, &nsec, rest), 3);
		T_EQ_INT(line[strcspn(line, ".") + 10], ' '); /* 9 digits */
		T_EQ_STR(rest, want[i]);
		stamp = (int64_t)sec * 1000000000 + (int64_t)nsec;
		T_TRUE(stamp >= before && stamp <= after && stamp >= prev);
		prev = stamp;
		i++;
	}
	T_EQ_INT(i, 2);
	token_free(&t);
	fclose(log);
}

static void
test_state_file(void)
{
	char dir[] = "/tmp/softtoken-test.XXXXXX", path[64];
	struct token_config c;
	struct token *t = NULL;
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	struct stat st;
	size_t n = 0, dl, cl1 = 0, cl2 = 0;
	const uint8_t *c1;
	uint8_t cert1[1024];

	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/state", dir);
	memset(&c, 0, sizeof(c));
	c.state_path = path;
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	T_EQ_INT(stat(path, &st), 0);
	T_EQ_INT(st.st_mode & 07777, 0600);
	T_TRUE(do_register(t, tokfix_app, &r));
	dl = auth_data(data, tokfix_app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	c1 = token_attest_cert(t, &cl1);
	memcpy(cert1, c1, cl1);
	token_free(&t);
	/* a second run: same master key, certificate and counter */
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	if (t != NULL) {
		T_EQ_INT(token_counter(t), 1);
		c1 = token_attest_cert(t, &cl2);
		T_EQ_INT(cl2, cl1);
		T_EQ_MEM(c1, cert1, cl1);
		T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
		T_EQ_INT(ctr_of(rep), 2);
		T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
		token_free(&t);
	}
	/* a corrupt state file is an error, not a fresh token */
	T_EQ_INT(truncate(path, 20), 0);
	T_EQ_ERR(token_new(&t, &c), ERR_PARSE);
	unlink(path);
	rmdir(dir);
}

/* Register and authenticate once on a token with the given faults. */
static unsigned
faulty_auth(unsigned faults, struct reg *r, uint8_t *rep, size_t *n)
{
	struct token *t = tokfix_token(TOKEN_PRESENCE_NOW, 0, faults, NULL);
	uint8_t data[65 + 255], reg[TOKEN_REPLY_MAX];
	size_t dl, rn = 0;
	unsigned sw;

	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	(void)xfer(t, 0, 0x01, 0x03, data, 64, reg, &rn);
	memcpy(r->point, reg + 1, 65);
	r->khlen = KHL;
	memcpy(r->kh, reg + 67, KHL);
	dl = auth_data(data, tokfix_app, r);
	(void)xfer(t, 0, 0x02, 0x03, data, dl, rep, n);
	sw = xfer(t, 0, 0x02, 0x03, data, dl, rep, n);
	token_free(&t);
	return sw;
}

static void
test_token_faults(void)
{
	uint8_t rep[TOKEN_REPLY_MAX];
	struct reg r;
	struct token *t;
	size_t n = 0;
	unsigned bit = 0;

	T_EQ_INT(faulty_auth(0, &r, rep, &n), 0x9000);
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_COUNTER_BACK, &r, rep, &n), 0x9000);
	T_EQ_INT(ctr_of(rep), 1000000u - 2); /* went down from 999999 */
	T_TRUE(auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_NO_PRESENCE_FLAG, &r, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_EQ_INT(faulty_auth(FAULT_WRONG_SIG, &r, rep, &n), 0x9000);
	T_TRUE(!auth_verifies(&r, tokfix_app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_BAD_SIG, &r, rep, &n), 0x9000);
	T_TRUE(!auth_verifies(&r, tokfix_app, rep, n - 2));
	t = tokfix_token(TOKEN_PRESENCE_NOW, 0, FAULT_WRONG_SIG, NULL);
	T_TRUE(!do_register(t, tokfix_app, &r));
	token_free(&t);
	T_EQ_ERR(token_fault_parse("counter-backwards", &bit), ERR_OK);
	T_EQ_INT(bit, FAULT_COUNTER_BACK);
	T_EQ_ERR(token_fault_parse("vanish", &bit), ERR_OK);
	T_EQ_INT(bit, FAULT_VANISH);
	T_EQ_ERR(token_fault_parse("nonsense", &bit), ERR_INVAL);
}

TEST_MAIN(TEST(test_version), TEST(test_register_authenticate),
    TEST(test_wrong_key_handle), TEST(test_check_only), TEST(test_probe_sign),
    TEST(test_presence_never), TEST(test_presence_after),
    TEST(test_apdu_errors), TEST(test_short_apdu_register), TEST(test_log),
    TEST(test_log_time), TEST(test_state_file), TEST(test_token_faults))
