/* Unit tests of the software token: token.c and ctaphid_dev.c in memory. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include "err.h"
#include "util.h"
#include "../test.h"
#include "token.h"
#include "ctaphid_dev.h"

#define KHL TOKEN_KH_LEN
#define BCAST 0xffffffffu

static const uint8_t chal[32] = {0xc1, 0xc2, 0xc3, 0x04, 0x05, 0x06};
static const uint8_t app[32] = {0xa1, 0xa2, 0xa3, 0x04, 0x05, 0x06};
static const uint8_t app2[32] = {0xb1, 0xb2, 0xb3};

/* ---- helpers: tokens and APDUs ---- */

static struct token *
mk_token(enum token_presence p, int after_ms, unsigned faults, FILE *log)
{
	struct token_config c;
	struct token *t = NULL;

	memset(&c, 0, sizeof(c));
	c.presence = p;
	c.after_ms = after_ms;
	c.faults = faults;
	c.log = log;
	if (token_new(&t, &c) != ERR_OK)
		abort();
	return t;
}

/* Extended-length APDU with Le 00 00; returns its length. */
static size_t
mk_apdu(uint8_t *out, uint8_t ins, uint8_t p1, const uint8_t *data, size_t len)
{
	out[0] = 0x00;
	out[1] = ins;
	out[2] = p1;
	out[3] = 0x00;
	out[4] = 0x00;
	out[5] = (uint8_t)(len >> 8);
	out[6] = (uint8_t)len;
	if (len > 0)
		memcpy(out + 7, data, len);
	out[7 + len] = 0;
	out[8 + len] = 0;
	return len + 9;
}

static unsigned
sw_of(const uint8_t *rep, size_t n)
{
	return n < 2 ? 0 : (unsigned)rep[n - 2] << 8 | rep[n - 1];
}

/* Send an APDU; the reply goes to rep, the SW is returned. */
static unsigned
xfer(struct token *t, int64_t now, uint8_t ins, uint8_t p1, const uint8_t *data,
    size_t len, uint8_t *rep, size_t *n)
{
	uint8_t apdu[1024];
	size_t alen = mk_apdu(apdu, ins, p1, data, len);

	if (token_apdu(t, now, TOKEN_ANSWER, apdu, alen, rep, n) != ERR_OK)
		return 0;
	return sw_of(rep, *n);
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

	memcpy(data, chal, 32);
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
	memcpy(msg + 33, chal, 32);
	memcpy(msg + 65, r->kh, r->khlen);
	memcpy(msg + 65 + r->khlen, r->point, 65);
	ok = verify(X509_get0_pubkey(cert), msg, 130 + r->khlen, p,
	    (size_t)(rep + n - 2 - p));
	X509_free(cert);
	return ok;
}

/* Authenticate data: chal || app || L || kh. */
static size_t
auth_data(uint8_t *data, const uint8_t *a, const struct reg *r)
{
	memcpy(data, chal, 32);
	memcpy(data + 32, a, 32);
	data[64] = (uint8_t)r->khlen;
	memcpy(data + 65, r->kh, r->khlen);
	return 65 + r->khlen;
}

/* Verify an authentication reply (without SW) for r under app a. */
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
	memcpy(msg + 37, chal, 32);
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
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	static const uint8_t shortform[] = {0x00, 0x03, 0x00, 0x00};
	static const uint8_t shortle[] = {0x00, 0x03, 0x00, 0x00, 0x00};
	static const uint8_t ext7[] = {0, 0x03, 0, 0, 0, 0, 0};
	uint8_t rep[TOKEN_REPLY_MAX];
	size_t n = 0;

	T_EQ_INT(xfer(t, 0, 0x03, 0, NULL, 0, rep, &n), 0x9000);
	T_EQ_INT(n, 8);
	T_EQ_MEM(rep, "U2F_V2", 6);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, shortform, 4, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x9000);
	T_EQ_INT(n, 8);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, shortle, 5, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x9000);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, ext7, 7, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x9000);
	T_EQ_INT(xfer(t, 0, 0x03, 0, chal, 1, rep, &n), 0x6700);
	T_EQ_INT(n, 2);
	token_free(&t);
}

static void
test_register_authenticate(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, app, &r));
	T_EQ_INT(r.khlen, 92);
	dl = auth_data(data, app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x01);
	T_EQ_INT(ctr_of(rep), 1);
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(ctr_of(rep), 2);
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	/* the same reply does not verify for another application */
	T_TRUE(!auth_verifies(&r, app2, rep, n - 2));
	/* don't-enforce: flags 00, still signed and counted */
	T_EQ_INT(xfer(t, 0, 0x02, 0x08, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_EQ_INT(ctr_of(rep), 3);
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(token_counter(t), 3);
	token_free(&t);
}

static void
test_wrong_key_handle(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	struct token *o = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r, ro;
	size_t n = 0, dl;

	T_TRUE(do_register(t, app, &r));
	T_TRUE(do_register(o, app, &ro));
	dl = auth_data(data, app, &ro); /* other token's KH */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(n, 2);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6A80);
	dl = auth_data(data, app2, &r); /* other application */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6A80);
	dl = auth_data(data, app, &r);
	data[65 + 20] ^= 0x01; /* tampered ciphertext */
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	r.khlen = 64; /* wrong length */
	dl = auth_data(data, app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x6A80);
	T_EQ_INT(token_counter(t), 0);
	token_free(&t);
	token_free(&o);
}

static void
test_check_only(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, app, &r));
	dl = auth_data(data, app, &r);
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
	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	T_EQ_INT(xfer(t, 0, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	c.presence = TOKEN_PRESENCE_NOW;
	token_free(&t);
	T_EQ_ERR(token_new(&t, &c), ERR_OK);
	T_TRUE(do_register(t, app, &r));
	dl = auth_data(data, app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	token_free(&t);
}

static void
test_presence_never(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	struct token *tn = NULL;
	struct token_config c;
	uint8_t data[65 + 255], apdu[128], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	T_TRUE(do_register(t, app, &r));
	token_free(&t);
	memset(&c, 0, sizeof(c));
	c.presence = TOKEN_PRESENCE_NEVER;
	T_EQ_ERR(token_new(&tn, &c), ERR_OK);
	if (tn == NULL)
		return;
	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	T_EQ_INT(xfer(tn, 0, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(tn, 0, 0x01, 0x00, data, 64, rep, &n), 0x6985);
	T_EQ_INT(n, 2);
	/* HOLD: pending, no reply */
	dl = mk_apdu(apdu, 0x01, 0x03, data, 64);
	n = 99;
	T_EQ_ERR(token_apdu(tn, 0, TOKEN_HOLD, apdu, dl, rep, &n), ERR_PENDING);
	T_EQ_INT(n, 0);
	T_EQ_ERR(token_apdu(tn, 0, TOKEN_CANCEL, apdu, dl, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x6985);
	token_free(&tn);
}

static void
test_presence_after(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_AFTER, 100, 0, NULL);
	uint8_t data[65 + 255], rep[TOKEN_REPLY_MAX];
	struct reg r;
	size_t n = 0, dl;

	/* the first registration: 6985 until 100 ms passed */
	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	T_EQ_INT(xfer(t, 1000, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1099, 0x01, 0x03, data, 64, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1100, 0x01, 0x03, data, 64, rep, &n), 0x9000);
	memcpy(r.point, rep + 1, 65);
	r.khlen = rep[66];
	memcpy(r.kh, rep + 67, r.khlen);
	dl = auth_data(data, app, &r);
	/* the touch was consumed: a new timer starts at 1101 */
	T_EQ_INT(xfer(t, 1101, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	/* check-only and don't-enforce do not need or consume a touch */
	T_EQ_INT(xfer(t, 1150, 0x02, 0x07, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1150, 0x02, 0x08, data, dl, rep, &n), 0x9000);
	T_EQ_INT(xfer(t, 1200, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 1201, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x01);
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(xfer(t, 1202, 0x02, 0x03, data, dl, rep, &n), 0x6985);
	token_free(&t);
}

static void
test_apdu_errors(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t apdu[300], rep[TOKEN_REPLY_MAX];
	size_t n = 0, len;

	len = mk_apdu(apdu, 0x03, 0, NULL, 0);
	apdu[0] = 0x80;
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, len, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x6E00);
	T_EQ_INT(xfer(t, 0, 0x10, 0, NULL, 0, rep, &n), 0x6D00);
	memset(apdu, 0, sizeof(apdu));
	T_EQ_INT(xfer(t, 0, 0x01, 0x03, apdu, 63, rep, &n), 0x6700);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, app2, 32, rep, &n), 0x6700);
	/* Lc larger than the data */
	len = mk_apdu(apdu, 0x01, 0x03, chal, 32);
	apdu[6] = 64;
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, len, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x6700);
	/* trailing garbage after Le */
	len = mk_apdu(apdu, 0x03, 0, NULL, 0);
	T_EQ_ERR(
	    token_apdu(t, 0, TOKEN_ANSWER, apdu, len + 1, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x6700);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 3, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x6700);
	/* authenticate: L says more than there is */
	memset(apdu, 0, sizeof(apdu));
	apdu[64] = 92;
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, apdu, 65 + 91, rep, &n), 0x6700);
	token_free(&t);
}

static void
test_short_apdu_register(void)
{
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, NULL);
	uint8_t apdu[80], rep[TOKEN_REPLY_MAX];
	size_t n = 0;

	apdu[0] = 0;
	apdu[1] = 0x01;
	apdu[2] = 0x03;
	apdu[3] = 0;
	apdu[4] = 64;
	memcpy(apdu + 5, chal, 32);
	memcpy(apdu + 37, app, 32);
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 69, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x9000);
	T_EQ_INT(rep[0], 0x05);
	apdu[69] = 0; /* with Le */
	T_EQ_ERR(token_apdu(t, 0, TOKEN_ANSWER, apdu, 70, rep, &n), ERR_OK);
	T_EQ_INT(sw_of(rep, n), 0x9000);
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
	t = mk_token(TOKEN_PRESENCE_NOW, 0, 0, log);
	T_TRUE(do_register(t, app, &r));
	dl = auth_data(data, app, &r);
	T_EQ_INT(xfer(t, 0, 0x02, 0x07, data, dl, rep, &n), 0x6985);
	T_EQ_INT(xfer(t, 0, 0x02, 0x03, data, dl, rep, &n), 0x9000);
	T_EQ_INT(xfer(t, 0, 0x10, 0x00, NULL, 0, rep, &n), 0x6D00);
	token_log_line(t, "keepalive");
	rewind(log);
	got = fread(text, 1, sizeof(text) - 1, log);
	text[got] = '\0';
	T_EQ_STR(text,
	    "ins=01 p1=03 sw=9000\nins=02 p1=07 sw=6985\n"
	    "ins=02 p1=03 sw=9000\nins=10 p1=00 sw=6d00\nkeepalive\n");
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
	T_TRUE(do_register(t, app, &r));
	dl = auth_data(data, app, &r);
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
		T_TRUE(auth_verifies(&r, app, rep, n - 2));
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
	struct token *t = mk_token(TOKEN_PRESENCE_NOW, 0, faults, NULL);
	uint8_t data[65 + 255], reg[TOKEN_REPLY_MAX];
	size_t dl, rn = 0;
	unsigned sw;

	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	(void)xfer(t, 0, 0x01, 0x03, data, 64, reg, &rn);
	memcpy(r->point, reg + 1, 65);
	r->khlen = KHL;
	memcpy(r->kh, reg + 67, KHL);
	dl = auth_data(data, app, r);
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
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_COUNTER_BACK, &r, rep, &n), 0x9000);
	T_EQ_INT(ctr_of(rep), 1000000u - 2); /* went down from 999999 */
	T_TRUE(auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_NO_PRESENCE_FLAG, &r, rep, &n), 0x9000);
	T_EQ_INT(rep[0], 0x00);
	T_EQ_INT(faulty_auth(FAULT_WRONG_SIG, &r, rep, &n), 0x9000);
	T_TRUE(!auth_verifies(&r, app, rep, n - 2));
	T_EQ_INT(faulty_auth(FAULT_BAD_SIG, &r, rep, &n), 0x9000);
	T_TRUE(!auth_verifies(&r, app, rep, n - 2));
	t = mk_token(TOKEN_PRESENCE_NOW, 0, FAULT_WRONG_SIG, NULL);
	T_TRUE(!do_register(t, app, &r));
	token_free(&t);
	T_EQ_ERR(token_fault_parse("counter-backwards", &bit), ERR_OK);
	T_EQ_INT(bit, FAULT_COUNTER_BACK);
	T_EQ_ERR(token_fault_parse("vanish", &bit), ERR_OK);
	T_EQ_INT(bit, FAULT_VANISH);
	T_EQ_ERR(token_fault_parse("nonsense", &bit), ERR_INVAL);
}

/* ---- ctaphid_dev.c ---- */

#define MAXREP 512

struct cap {
	uint8_t r[MAXREP][64];
	size_t n;
};

static void
cap_send(void *arg, const uint8_t *report)
{
	struct cap *c = arg;

	if (c->n < MAXREP)
		memcpy(c->r[c->n], report, 64);
	c->n++;
}

struct rig {
	struct token *tok;
	struct ctaphid_dev *dev;
	struct cap cap;
};

static struct rig *
mk_rig(enum token_presence p, int after_ms, int keepalive, unsigned faults,
    FILE *log)
{
	struct rig *g = calloc(1, sizeof(*g));

	if (g == NULL)
		abort();
	g->tok = mk_token(p, after_ms, faults, log);
	if (ctaphid_dev_new(&g->dev, g->tok, keepalive, cap_send, &g->cap) !=
	    ERR_OK)
		abort();
	return g;
}

static void
rig_free(struct rig *g)
{
	ctaphid_dev_free(&g->dev);
	token_free(&g->tok);
	free(g);
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* Send the init frame of a message (bcnt may lie) with its first bytes. */
static void
send_init(struct rig *g, uint32_t cid, uint8_t cmd, size_t bcnt,
    const uint8_t *data, size_t len, int64_t now)
{
	uint8_t r[64];

	memset(r, 0, sizeof(r));
	put32(r, cid);
	r[4] = (uint8_t)(0x80 | cmd);
	r[5] = (uint8_t)(bcnt >> 8);
	r[6] = (uint8_t)bcnt;
	if (len > 0)
		memcpy(r + 7, data, len < 57 ? len : 57);
	ctaphid_dev_input(g->dev, r, 64, now);
}

static void
send_cont(struct rig *g, uint32_t cid, uint8_t seq, const uint8_t *data,
    size_t len, int64_t now)
{
	uint8_t r[64];

	memset(r, 0, sizeof(r));
	put32(r, cid);
	r[4] = seq;
	memcpy(r + 5, data, len < 59 ? len : 59);
	ctaphid_dev_input(g->dev, r, 64, now);
}

/* A whole message, framed correctly. */
static void
send_msg(struct rig *g, uint32_t cid, uint8_t cmd, const uint8_t *data,
    size_t len, int64_t now)
{
	size_t off = len < 57 ? len : 57;
	uint8_t seq = 0;

	send_init(g, cid, cmd, len, data, len, now);
	for (; off < len; off += 59)
		send_cont(g, cid, seq++, data + off, len - off, now);
}

/* Reassemble the reply starting at report *i; returns its length, or
 * (size_t)-1 if the frames are wrong. */
static size_t
recv_msg(struct rig *g, size_t *i, uint32_t cid, uint8_t *cmd, uint8_t *buf)
{
	const uint8_t *r;
	size_t len, off, n;
	uint8_t seq = 0;

	if (*i >= g->cap.n)
		return (size_t)-1;
	r = g->cap.r[(*i)++];
	if (get32(r) != cid || !(r[4] & 0x80))
		return (size_t)-1;
	*cmd = r[4] & 0x7f;
	len = (size_t)r[5] << 8 | r[6];
	off = len < 57 ? len : 57;
	memcpy(buf, r + 7, off);
	while (off < len) {
		if (*i >= g->cap.n)
			return (size_t)-1;
		r = g->cap.r[(*i)++];
		if (get32(r) != cid || r[4] != seq++)
			return (size_t)-1;
		n = len - off < 59 ? len - off : 59;
		memcpy(buf + off, r + 5, n);
		off += n;
	}
	return len;
}

/* INIT on the broadcast channel; returns the new CID (0 on failure). */
static uint32_t
do_init(struct rig *g, int64_t now)
{
	static const uint8_t nonce[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t buf[8000], cmd = 0;
	size_t i = g->cap.n, len;

	send_msg(g, BCAST, 0x06, nonce, 8, now);
	len = recv_msg(g, &i, BCAST, &cmd, buf);
	if (len != 17 || cmd != 0x06 || memcmp(buf, nonce, 8) != 0)
		return 0;
	return get32(buf + 8);
}

/* The one-byte ERROR code in report i, or -1. */
static int
error_at(const struct rig *g, size_t i, uint32_t cid)
{
	const uint8_t *r = g->cap.r[i];

	if (i >= g->cap.n || get32(r) != cid || r[4] != 0xbf || r[5] != 0 ||
	    r[6] != 1)
		return -1;
	return r[7];
}

static void
test_hid_init(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, 0, NULL);
	static const uint8_t nonce[8] = {9, 8, 7, 6, 5, 4, 3, 2};
	uint8_t buf[100], cmd = 0;
	uint32_t c1, c2;
	size_t i;

	c1 = do_init(g, 0);
	c2 = do_init(g, 0);
	T_TRUE(c1 != 0 && c1 != BCAST);
	T_TRUE(c2 != 0 && c2 != BCAST && c2 != c1);
	T_EQ_INT(g->cap.n, 2);
	/* the whole reply: bcnt 17, protocol 2, version 1.0.0, WINK only */
	T_EQ_INT(g->cap.r[0][5], 0);
	T_EQ_INT(g->cap.r[0][6], 17);
	T_EQ_INT(g->cap.r[0][7 + 12], 2);
	T_EQ_INT(g->cap.r[0][7 + 13], 1);
	T_EQ_INT(g->cap.r[0][7 + 16], 0x01);
	/* INIT on an allocated channel resyncs it and keeps the CID */
	i = g->cap.n;
	send_msg(g, c1, 0x06, nonce, 8, 0);
	T_EQ_INT(recv_msg(g, &i, c1, &cmd, buf), 17);
	T_EQ_MEM(buf, nonce, 8);
	T_EQ_INT(get32(buf + 8), c1);
	/* INIT with a wrong length */
	i = g->cap.n;
	send_msg(g, BCAST, 0x06, nonce, 7, 0);
	T_EQ_INT(error_at(g, i, BCAST), 0x03);
	rig_free(g);
}

static void
test_hid_channels(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, 0, NULL);
	static const uint8_t v[9] = {0, 3, 0, 0, 0, 0, 0, 0, 0};
	uint32_t cid = do_init(g, 0);
	size_t i = g->cap.n;

	send_msg(g, 0, 0x06, v, 8, 0);
	T_EQ_INT(error_at(g, i++, 0), 0x0b);
	send_msg(g, cid + 1, 0x03, v, 9, 0); /* never allocated */
	T_EQ_INT(error_at(g, i++, cid + 1), 0x0b);
	send_msg(g, BCAST, 0x03, v, 9, 0); /* MSG on broadcast */
	T_EQ_INT(error_at(g, i++, BCAST), 0x0b);
	send_msg(g, cid, 0x04, v, 1, 0); /* LOCK */
	T_EQ_INT(error_at(g, i++, cid), 0x01);
	send_msg(g, cid, 0x55, v, 1, 0); /* unknown */
	T_EQ_INT(error_at(g, i++, cid), 0x01);
	send_msg(g, cid, 0x08, NULL, 0, 0); /* WINK */
	T_EQ_INT(g->cap.n, i + 1);
	T_EQ_INT(g->cap.r[i][4], 0x88);
	T_EQ_INT(g->cap.r[i][6], 0);
	i++;
	send_msg(g, cid, 0x11, NULL, 0, 0); /* CANCEL: no reply */
	T_EQ_INT(g->cap.n, i);
	/* a report of the wrong size is dropped */
	ctaphid_dev_input(g->dev, g->cap.r[0], 63, 0);
	T_EQ_INT(g->cap.n, i);
	rig_free(g);
}

static void
test_hid_multi_report(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, 0, NULL);
	static uint8_t data[7609], buf[7609];
	uint32_t cid = do_init(g, 0);
	size_t i, len;
	uint8_t cmd = 0;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	i = g->cap.n;
	send_msg(g, cid, 0x01, data, 200, 0);
	T_EQ_INT(g->cap.n - i, 4); /* 57 + 59 + 59 + 25 */
	len = recv_msg(g, &i, cid, &cmd, buf);
	T_EQ_INT(len, 200);
	T_EQ_INT(cmd, 0x01);
	T_EQ_MEM(buf, data, 200);
	/* the largest message, 1 + 128 reports each way */
	i = g->cap.n;
	send_msg(g, cid, 0x01, data, sizeof(data), 0);
	T_EQ_INT(g->cap.n - i, 129);
	len = recv_msg(g, &i, cid, &cmd, buf);
	T_EQ_INT(len, sizeof(data));
	T_EQ_MEM(buf, data, sizeof(data));
	/* one byte more is refused */
	i = g->cap.n;
	send_init(g, cid, 0x01, sizeof(data) + 1, data, 57, 0);
	T_EQ_INT(error_at(g, i, cid), 0x03);
	T_EQ_INT(g->cap.n, i + 1);
	rig_free(g);
}

static void
test_hid_busy_seq_timeout(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, 0, NULL);
	static uint8_t data[200], buf[200];
	uint32_t a = do_init(g, 0), b = do_init(g, 0);
	size_t i = g->cap.n;
	uint8_t cmd = 0;

	memset(data, 0x5a, sizeof(data));
	/* busy: B talks while A's message is being assembled */
	send_init(g, a, 0x01, 100, data, 57, 1000);
	send_init(g, b, 0x01, 5, data, 5, 1000);
	T_EQ_INT(error_at(g, i++, b), 0x06);
	send_cont(g, a, 0, data + 57, 43, 1000);
	T_EQ_INT(recv_msg(g, &i, a, &cmd, buf), 100);
	/* continuation out of order */
	send_init(g, a, 0x01, 200, data, 57, 2000);
	send_cont(g, a, 1, data, 59, 2000);
	T_EQ_INT(error_at(g, i++, a), 0x04);
	send_cont(g, a, 0, data, 59, 2000); /* dropped: nothing pending */
	T_EQ_INT(g->cap.n, i);
	/* missing continuation: ERROR 05 after 500 ms */
	send_init(g, a, 0x01, 200, data, 57, 3000);
	T_EQ_INT(ctaphid_dev_next_ms(g->dev, 3000), 500);
	send_cont(g, a, 0, data + 57, 59, 3200); /* restarts the timer */
	ctaphid_dev_tick(g->dev, 3699);
	T_EQ_INT(g->cap.n, i);
	ctaphid_dev_tick(g->dev, 3700);
	T_EQ_INT(error_at(g, i++, a), 0x05);
	T_EQ_INT(ctaphid_dev_next_ms(g->dev, 3700), -1);
	/* the channel works again afterwards */
	send_msg(g, a, 0x01, data, 10, 4000);
	T_EQ_INT(recv_msg(g, &i, a, &cmd, buf), 10);
	rig_free(g);
}

/* A MSG through the device; returns the APDU reply length. */
static size_t
hid_apdu(struct rig *g, uint32_t cid, uint8_t ins, uint8_t p1,
    const uint8_t *data, size_t len, uint8_t *rep, int64_t now)
{
	uint8_t apdu[400], cmd = 0;
	size_t alen = mk_apdu(apdu, ins, p1, data, len), i = g->cap.n, n;

	send_msg(g, cid, 0x03, apdu, alen, now);
	n = recv_msg(g, &i, cid, &cmd, rep);
	return cmd == 0x03 ? n : (size_t)-1;
}

static void
test_hid_msg(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, 0, NULL);
	uint8_t data[64], rep[8000];
	uint32_t cid = do_init(g, 0);
	size_t n;

	n = hid_apdu(g, cid, 0x03, 0, NULL, 0, rep, 0);
	T_EQ_INT(n, 8);
	T_EQ_MEM(rep, "U2F_V2\x90\x00", 8);
	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	n = hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0);
	T_TRUE(n > 300 && n != (size_t)-1);
	if (n > 300 && n != (size_t)-1) {
		T_EQ_INT(rep[0], 0x05);
		T_EQ_INT(sw_of(rep, n), 0x9000);
	}
	rig_free(g);
}

/* 1 if report i is a KEEPALIVE "user presence needed" on cid. */
static int
keepalive_at(const struct rig *g, size_t i, uint32_t cid)
{
	const uint8_t *r = g->cap.r[i];

	return i < g->cap.n && get32(r) == cid && r[4] == 0xbb && r[5] == 0 &&
	    r[6] == 1 && r[7] == 0x02;
}

static void
test_hid_keepalive(void)
{
	FILE *log = tmpfile();
	struct rig *g;
	uint8_t data[64], apdu[100], rep[1024], cmd = 0;
	char text[256];
	uint32_t cid;
	size_t i, n, alen;

	if (log == NULL)
		abort();
	g = mk_rig(TOKEN_PRESENCE_AFTER, 250, 1, 0, log);
	cid = do_init(g, 0);
	i = g->cap.n;
	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	alen = mk_apdu(apdu, 0x01, 0x03, data, 64);
	send_msg(g, cid, 0x03, apdu, alen, 1000);
	T_TRUE(keepalive_at(g, i++, cid));
	T_EQ_INT(g->cap.n, i);
	T_EQ_INT(ctaphid_dev_next_ms(g->dev, 1000), 100);
	ctaphid_dev_tick(g->dev, 1100);
	T_TRUE(keepalive_at(g, i++, cid));
	ctaphid_dev_tick(g->dev, 1150); /* not yet time */
	T_EQ_INT(g->cap.n, i);
	ctaphid_dev_tick(g->dev, 1200);
	T_TRUE(keepalive_at(g, i++, cid));
	/* another channel is busy meanwhile */
	send_msg(g, BCAST, 0x06, data, 8, 1210);
	T_EQ_INT(error_at(g, i++, BCAST), 0x06);
	ctaphid_dev_tick(g->dev, 1300); /* 300 >= 250: granted */
	n = recv_msg(g, &i, cid, &cmd, rep);
	T_EQ_INT(cmd, 0x03);
	T_TRUE(n > 300 && n != (size_t)-1);
	if (n > 300 && n != (size_t)-1)
		T_EQ_INT(sw_of(rep, n), 0x9000);
	T_EQ_INT(ctaphid_dev_next_ms(g->dev, 1300), -1);
	rewind(log);
	n = fread(text, 1, sizeof(text) - 1, log);
	text[n] = '\0';
	T_EQ_STR(text, "keepalive\nins=01 p1=03 sw=9000\n");
	rig_free(g);
	fclose(log);
}

static void
test_hid_cancel(void)
{
	struct rig *g = mk_rig(TOKEN_PRESENCE_NEVER, 0, 1, 0, NULL);
	uint8_t data[64], apdu[100], rep[1024], cmd = 0;
	uint32_t cid = do_init(g, 0);
	size_t i = g->cap.n, alen;

	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	alen = mk_apdu(apdu, 0x01, 0x03, data, 64);
	send_msg(g, cid, 0x03, apdu, alen, 0);
	T_TRUE(keepalive_at(g, i++, cid));
	ctaphid_dev_tick(g->dev, 100);
	T_TRUE(keepalive_at(g, i++, cid));
	send_msg(g, cid, 0x11, NULL, 0, 150);
	T_EQ_INT(recv_msg(g, &i, cid, &cmd, rep), 2);
	T_EQ_INT(cmd, 0x03);
	T_EQ_INT(sw_of(rep, 2), 0x6985);
	ctaphid_dev_tick(g->dev, 1000); /* nothing more */
	T_EQ_INT(g->cap.n, i);
	/* without --keepalive the answer is 6985 at once */
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NEVER, 0, 0, 0, NULL);
	cid = do_init(g, 0);
	T_EQ_INT(hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0), 2);
	T_EQ_INT(sw_of(rep, 2), 0x6985);
	rig_free(g);
}

static void
test_hid_faults(void)
{
	static const uint8_t ver[9] = {0, 3, 0, 0, 0, 0, 0, 0, 0};
	uint8_t data[64], rep[1024], cmd = 0;
	struct rig *g;
	uint32_t cid;
	size_t i;

	memcpy(data, chal, 32);
	memcpy(data + 32, app, 32);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_SHORT_INIT, NULL);
	T_EQ_INT(do_init(g, 0), 0);
	T_EQ_INT(g->cap.r[0][6], 16);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_WRONG_CID, NULL);
	cid = do_init(g, 0);
	T_TRUE(cid != 0);
	i = g->cap.n;
	send_msg(g, cid, 0x03, ver, 9, 0);
	T_TRUE(get32(g->cap.r[i]) != cid);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_MISSING_CONT, NULL);
	cid = do_init(g, 0);
	i = g->cap.n;
	T_EQ_INT(hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0), (size_t)-1);
	T_EQ_INT(g->cap.n, i + 1);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_BAD_SEQ, NULL);
	cid = do_init(g, 0);
	T_EQ_INT(hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0), (size_t)-1);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_BCNT_LARGE, NULL);
	cid = do_init(g, 0);
	i = g->cap.n;
	send_msg(g, cid, 0x03, ver, 9, 0);
	T_EQ_INT((size_t)g->cap.r[i][5] << 8 | g->cap.r[i][6], 7610);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_ERROR_FRAMES, NULL);
	cid = do_init(g, 0);
	i = g->cap.n;
	send_msg(g, cid, 0x03, ver, 9, 0);
	T_EQ_INT(error_at(g, i, cid), 0x7f);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_BURST, NULL);
	cid = do_init(g, 0);
	i = g->cap.n;
	send_msg(g, cid, 0x03, ver, 9, 0);
	T_EQ_INT(g->cap.n - i, 101);
	i += 100;
	T_EQ_INT(recv_msg(g, &i, cid, &cmd, rep), 8);
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 0, FAULT_VANISH, NULL);
	cid = do_init(g, 0);
	T_TRUE(!ctaphid_dev_gone(g->dev));
	(void)hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0);
	T_TRUE(ctaphid_dev_gone(g->dev));
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NOW, 0, 1, FAULT_ENDLESS_KEEPALIVE, NULL);
	cid = do_init(g, 0);
	i = g->cap.n;
	send_msg(g, cid, 0x03, ver, 9, 0);
	send_msg(g, cid, 0x11, NULL, 0, 50);
	ctaphid_dev_tick(g->dev, 100);
	ctaphid_dev_tick(g->dev, 200);
	T_TRUE(keepalive_at(g, i, cid) && keepalive_at(g, i + 1, cid) &&
	    keepalive_at(g, i + 2, cid));
	T_EQ_INT(g->cap.n, i + 3);
	rig_free(g);
}

TEST_MAIN(TEST(test_version), TEST(test_register_authenticate),
    TEST(test_wrong_key_handle), TEST(test_check_only), TEST(test_probe_sign),
    TEST(test_presence_never), TEST(test_presence_after),
    TEST(test_apdu_errors), TEST(test_short_apdu_register), TEST(test_log),
    TEST(test_state_file), TEST(test_token_faults), TEST(test_hid_init),
    TEST(test_hid_channels), TEST(test_hid_multi_report),
    TEST(test_hid_busy_seq_timeout), TEST(test_hid_msg),
    TEST(test_hid_keepalive), TEST(test_hid_cancel), TEST(test_hid_faults))
