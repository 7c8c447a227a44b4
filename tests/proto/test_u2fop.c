/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for the U2F protocol (common/proto/u2f/protocol.c) through the
 * device layer: VERSION (detect), REGISTER and AUTHENTICATE over an allow
 * list, run through the real CTAPHID framing against a small scripted
 * device behind the hid_io seam that answers INIT and replies to each MSG
 * with a canned APDU reply. The cases check the request bytes the device
 * receives, that good replies (the FIDO U2F example vectors of
 * tests/lib/u2fkat.h, under their appIds) parse and verify in the authData |
 * cdh shape, and that status words, trailing bytes, oversized replies,
 * bad signatures, silence and bad key handle lengths end in the right
 * error; and that waiting for a touch re-sends at the poll interval
 * instead of spinning. The APDU builder and the reply parsers on their
 * own are tested in tests/proto/test_u2f.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "device/dev.h"
#include "proto/u2f/u2f.h"
#include "test.h"
#include "transport/ctaphid.h"
#include "transport/hid.h"
#include "u2ffix.h"

#define REG_APPID "http://example.com"
#define AUTH_APPID "https://gstatic.com/securitykey/a/example.com"

#define FAKE_REPORT 64
#define FAKE_FRAMES 160

/* A device that answers INIT and replies to each MSG with a script. */
struct fake {
	uint8_t cid[4];
	uint8_t req[CTAPHID_MAX_MSG];
	size_t req_len, req_need;
	uint8_t req_cmd;
	uint8_t msg[CTAPHID_MAX_MSG]; /* the last MSG request */
	size_t msg_len;
	int msgs;
	const uint8_t *reply; /* scripted MSG reply */
	size_t reply_len;
	uint8_t out[FAKE_FRAMES][FAKE_REPORT];
	size_t nout, rpos;
};

/* The device the next open returns (tests only). */
static struct fake *fake_next;

static void *
fake_open(const char *path, int *err)
{
	(void)path;
	if (fake_next == NULL)
		*err = ERR_NODEV;
	return fake_next;
}

static void
fake_close(void *h)
{
	(void)h;
}

static void
fake_queue(struct fake *f, const uint8_t *cid, uint8_t cmd, const uint8_t *data,
    size_t len)
{
	size_t off = 0, n;
	uint8_t *fr, seq = 0;

	if (f->nout >= FAKE_FRAMES)
		abort();
	fr = f->out[f->nout++];
	memset(fr, 0, FAKE_REPORT);
	memcpy(fr, cid, 4);
	fr[4] = cmd;
	fr[5] = (uint8_t)(len >> 8);
	fr[6] = (uint8_t)len;
	n = len < FAKE_REPORT - 7 ? len : FAKE_REPORT - 7;
	memcpy(fr + 7, data, n);
	for (off = n; off < len; off += n) {
		if (f->nout >= FAKE_FRAMES)
			abort();
		fr = f->out[f->nout++];
		memset(fr, 0, FAKE_REPORT);
		memcpy(fr, cid, 4);
		fr[4] = seq++;
		n = len - off < FAKE_REPORT - 5 ? len - off : FAKE_REPORT - 5;
		memcpy(fr + 5, data + off, n);
	}
}

static void
fake_handle(struct fake *f)
{
	static const uint8_t bcast[4] = {0xff, 0xff, 0xff, 0xff};
	uint8_t init[17];

	if (f->req_cmd == CTAPHID_INIT && f->req_len == 8) {
		memcpy(init, f->req, 8);
		memcpy(init + 8, f->cid, 4);
		memcpy(init + 12, "\x02\x01\x02\x03\x01", 5);
		fake_queue(f, bcast, CTAPHID_INIT, init, sizeof(init));
	} else if (f->req_cmd == CTAPHID_MSG) {
		memcpy(f->msg, f->req, f->req_len);
		f->msg_len = f->req_len;
		f->msgs++;
		if (f->reply != NULL)
			fake_queue(
			    f, f->cid, CTAPHID_MSG, f->reply, f->reply_len);
	}
}

static int
fake_write(void *h, const uint8_t *buf, size_t len, int ms)
{
	struct fake *f = h;
	size_t n;

	(void)ms;
	if (len != FAKE_REPORT)
		return ERR_IO;
	if (buf[4] & 0x80) {
		f->req_cmd = buf[4];
		f->req_need = (size_t)buf[5] << 8 | buf[6];
		f->req_len = 0;
		if (f->req_need > sizeof(f->req))
			return ERR_IO;
		n = f->req_need < len - 7 ? f->req_need : len - 7;
		memcpy(f->req, buf + 7, n);
	} else {
		n = f->req_need - f->req_len;
		n = n < len - 5 ? n : len - 5;
		memcpy(f->req + f->req_len, buf + 5, n);
	}
	f->req_len += n;
	if (f->req_len == f->req_need)
		fake_handle(f);
	return ERR_OK;
}

static int
fake_read(void *h, uint8_t *buf, size_t cap, int ms)
{
	struct fake *f = h;

	(void)ms;
	if (f->rpos == f->nout)
		return ERR_TIMEOUT;
	if (cap < FAKE_REPORT)
		return ERR_IO;
	memcpy(buf, f->out[f->rpos++], FAKE_REPORT);
	return FAKE_REPORT;
}

static const struct hid_io fake_io = {
    fake_open, fake_close, fake_read, fake_write, NULL};

static void
fake_script(struct fake *f, const uint8_t *reply, size_t len)
{
	f->reply = reply;
	f->reply_len = len;
}

/* A fresh fake device that answers VERSION with version (len bytes), and
 * a device over it (NULL if it was refused: the error in *r). */
static struct dev *
fake_dev(struct fake **fp, const char *version, size_t len, int *r)
{
	struct xport *x = NULL;
	struct dev *d = NULL;
	struct fake *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		abort();
	memcpy(f->cid, "\x11\x22\x33\x44", 4);
	fake_script(f, (const uint8_t *)version, len);
	fake_next = f;
	if ((*r = xport_open_io(&fake_io, "fake", 0, 0, NULL, 1000, &x)) !=
	    ERR_OK)
		T_FAIL_AT("xport_open_io on the fake device failed");
	else
		*r = dev_open_xport(x, NULL, 1000, &d);
	fake_next = NULL;
	*fp = f;
	return d;
}

static int
version_with(const char *reply, size_t len)
{
	struct fake *f = NULL;
	struct dev *d;
	int r;

	d = fake_dev(&f, reply, len, &r);
	dev_close(&d);
	free(f);
	return r;
}

static void
exchange_version(void)
{
	struct fake *f = NULL;
	struct dev *d;
	int r;

	d = fake_dev(&f, "U2F_V2\x90\x00", 8, &r);
	T_EQ_ERR(r, ERR_OK);
	T_EQ_INT(f->msg_len, 7);
	T_EQ_MEM(f->msg, "\x00\x03\x00\x00\x00\x00\x00", 7);
	if (d != NULL)
		T_EQ_STR(d->proto->name, "u2f");
	dev_close(&d);
	free(f);
	T_EQ_ERR(version_with("U2F_V3\x90\x00", 8), ERR_PROTO);
	T_EQ_ERR(version_with("U2F_V2x\x90\x00", 9), ERR_PROTO);
	T_EQ_ERR(version_with("U2F_V\x90\x00", 7), ERR_PROTO);
	T_EQ_ERR(version_with("\x90\x00", 2), ERR_PROTO);
	T_EQ_ERR(version_with("\x6d\x00", 2), ERR_INS_NOT_SUPPORTED);
	T_EQ_ERR(version_with("U2F_V2\x6a\x82", 8), ERR_SW);
	T_EQ_ERR(version_with("\x90", 1), ERR_PROTO);
	T_EQ_ERR(version_with(NULL, 0), ERR_TIMEOUT); /* no answer */
}

static void
reg_req_init(struct reg_req *req, const uint8_t *chal)
{
	memset(req, 0, sizeof(*req));
	req->rp_id = REG_APPID;
	memcpy(req->cdh, chal, 32);
	req->type = COSE_ES256;
	req->presence = true;
}

static void
exchange_register(void)
{
	uint8_t *body, *reply, *app, *chal, want[73];
	struct reg_result res;
	struct reg_req req;
	struct fake *f = NULL;
	struct dev *d;
	size_t len;
	int r;

	memset(&res, 0, sizeof(res));
	body = unhex(REG_REPLY, &len);
	app = unhex(REG_APP, NULL);
	chal = unhex(REG_CHAL, NULL);
	reg_req_init(&req, chal);
	if ((d = fake_dev(&f, "U2F_V2\x90\x00", 8, &r)) == NULL)
		goto out;
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	fake_script(f, reply, len + 2);
	T_EQ_ERR(dev_register(d, &req, &res, 1000), ERR_OK);
	memcpy(want, "\x00\x01\x00\x00\x00\x00\x40", 7);
	memcpy(want + 7, chal, 32); /* challenge first, then app */
	memcpy(want + 39, app, 32);
	want[71] = want[72] = 0;
	T_EQ_INT(f->msg_len, 73);
	T_EQ_MEM(f->msg, want, 73);
	T_EQ_INT(res.cred.kh_len, 64);
	T_EQ_INT(res.cred.pk_len, 65);
	T_EQ_INT(res.cert_len, REG_CERT_LEN);
	reg_result_clear(&res);
	/* the attestation signature covers the challenge: another one is
	 * refused */
	req.cdh[0] ^= 1;
	T_EQ_ERR(dev_register(d, &req, &res, 1000), ERR_VERIFY);
	T_TRUE(res.cert == NULL && res.cred.kh == NULL);
	req.cdh[0] ^= 1;
	free(reply);
	/* a trailing byte before the status word */
	reply = cat(body, len, (const uint8_t *)"\x00\x90\x00", 3);
	fake_script(f, reply, len + 3);
	T_EQ_ERR(dev_register(d, &req, &res, 1000), ERR_PROTO);
	T_TRUE(res.cert == NULL);
	free(reply);
out:
	dev_close(&d);
	free(f);
	free(body);
	free(app);
	free(chal);
}

/* "Touch needed" for a whole second: the request goes out again every
 * poll interval (100 ms), not in a loop, and the wait ends in a timeout
 * with nothing parsed. */
static void
register_waits_without_spinning(void)
{
	struct reg_result res;
	struct reg_req req;
	struct fake *f = NULL;
	struct dev *d;
	uint8_t *chal;
	int r;

	memset(&res, 0, sizeof(res));
	chal = unhex(REG_CHAL, NULL);
	reg_req_init(&req, chal);
	if ((d = fake_dev(&f, "U2F_V2\x90\x00", 8, &r)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	f->msgs = 0;
	T_EQ_ERR(dev_register(d, &req, &res, 1000), ERR_TIMEOUT);
	T_TRUE(res.cert == NULL && res.cred.kh_len == 0);
	/* at most one request per 100 ms (and the first): a spinning wait
	 * sends thousands (a loaded machine sends fewer, never more) */
	T_TRUE(f->msgs >= 1);
	T_TRUE(f->msgs <= 1 + 1000 / 100 + 1);
	printf("# %d requests in a 1000 ms wait\n", f->msgs);
out:
	dev_close(&d);
	free(f);
	free(chal);
}

/* The authentication example's credential: its key, any key handle. */
static void
auth_cred(struct cred *c, uint8_t *kh, size_t kh_len, uint8_t *pk)
{
	memset(c, 0, sizeof(*c));
	c->kh = kh;
	c->kh_len = kh_len;
	c->pk = pk;
	c->pk_len = 65;
	c->type = COSE_ES256;
	c->flags = CRED_PRESENCE;
}

static void
auth_req_init(struct assert_req *req, const struct cred *c, size_t n,
    const uint8_t *chal, bool probe)
{
	memset(req, 0, sizeof(*req));
	req->rp_id = AUTH_APPID;
	memcpy(req->cdh, chal, 32);
	req->allow = c;
	req->nallow = n;
	req->presence = true;
	req->probe = probe;
}

static int
assert_with(struct dev *d, const struct assert_req *req, struct assertion *a)
{
	int r;

	if ((r = dev_assert_begin(d, req, util_now_ms() + 1000)) != ERR_OK)
		return r;
	return dev_assert_wait(d, a, 1000);
}

static void
exchange_authenticate(void)
{
	uint8_t *body, *reply, *app, *chal, *kh, *pk, want[7 + 129 + 2];
	struct assertion a;
	struct assert_req req;
	struct cred c[2];
	struct fake *f = NULL;
	struct dev *d;
	size_t len;
	int r;

	memset(&a, 0, sizeof(a));
	body = unhex(AUTH_REPLY, &len);
	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	pk = unhex(AUTH_KEY, NULL);
	auth_cred(&c[0], kh, 64, pk);
	auth_cred(&c[1], kh, 64, pk);
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	if ((d = fake_dev(&f, "U2F_V2\x90\x00", 8, &r)) == NULL)
		goto out;
	fake_script(f, reply, len + 2);
	auth_req_init(&req, c, 1, chal, false);
	T_EQ_ERR(assert_with(d, &req, &a), ERR_OK);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.counter, 1);
	T_EQ_INT(a.cred_index, 0);
	T_EQ_INT(a.sig_len, AUTH_SIG_LEN);
	T_EQ_INT(a.cred_id_len, 64);
	/* the authData shape: rpIdHash | flags | counter */
	T_EQ_INT(a.authdata_len, 37);
	if (a.authdata != NULL)
		T_EQ_MEM(a.authdata, app, 32);
	memcpy(want, "\x00\x02\x03\x00\x00\x00\x81", 7);
	memcpy(want + 7, chal, 32);
	memcpy(want + 39, app, 32);
	want[71] = 64;
	memcpy(want + 72, kh, 64);
	want[136] = want[137] = 0;
	T_EQ_INT(f->msg_len, sizeof(want));
	T_EQ_MEM(f->msg, want, sizeof(want));
	assertion_clear(&a);
	/* with a probe, each entry is checked first (a key that signs a
	 * check-only request holds it), then the first is asked for */
	f->msgs = 0;
	auth_req_init(&req, c, 2, chal, true);
	T_EQ_ERR(assert_with(d, &req, &a), ERR_OK);
	T_EQ_INT(f->msgs, 3);
	T_EQ_INT(a.cred_index, 0);
	assertion_clear(&a);
	/* under another rp id the same signature does not verify */
	req.rp_id = REG_APPID;
	T_EQ_ERR(assert_with(d, &req, &a), ERR_VERIFY);
	T_TRUE(a.sig == NULL);
out:
	dev_close(&d);
	free(f);
	free(reply);
	free(body);
	free(app);
	free(chal);
	free(kh);
	free(pk);
}

static void
exchange_authenticate_errors(void)
{
	uint8_t *chal, *kh, *pk, *body, *reply, big[100];
	struct assertion a;
	struct assert_req req;
	struct cred c;
	struct fake *f = NULL;
	struct dev *d;
	size_t len;
	int r;

	memset(&a, 0, sizeof(a));
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	pk = unhex(AUTH_KEY, NULL);
	body = unhex(AUTH_REPLY, &len);
	auth_cred(&c, kh, 64, pk);
	auth_req_init(&req, &c, 1, chal, false);
	if ((d = fake_dev(&f, "U2F_V2\x90\x00", 8, &r)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	T_EQ_ERR(dev_probe(d, AUTH_APPID, &c, 1000), ERR_OK);
	T_EQ_INT(f->msg[2], U2F_AUTH_CHECK_ONLY);
	fake_script(f, (const uint8_t *)"\x6a\x80", 2);
	T_EQ_ERR(dev_probe(d, AUTH_APPID, &c, 1000), ERR_WRONG_KH);
	req.probe = true; /* the only entry is not on the key */
	T_EQ_ERR(dev_assert_begin(d, &req, util_now_ms() + 1000), ERR_WRONG_KH);
	req.probe = false;
	fake_script(f, (const uint8_t *)"\x69\x84", 2);
	T_EQ_ERR(assert_with(d, &req, &a), ERR_WRONG_KH);
	/* presence required, flag clear in a reply signed as such: the
	 * signature covers the flags, so it no longer verifies */
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	reply[0] = 0;
	fake_script(f, reply, len + 2);
	T_EQ_ERR(assert_with(d, &req, &a), ERR_VERIFY);
	free(reply);
	/* a reply too long to be an authentication */
	memset(big, 0, sizeof(big));
	big[98] = 0x90;
	fake_script(f, big, sizeof(big));
	T_EQ_ERR(assert_with(d, &req, &a), ERR_PROTO);
	/* key handles of no length or too long are never sent */
	f->msgs = 0;
	c.kh_len = 0;
	T_EQ_ERR(
	    dev_assert_begin(d, &req, util_now_ms() + 1000), ERR_UNSUPPORTED);
	c.kh_len = U2F_KH_MAX + 1;
	T_EQ_ERR(
	    dev_assert_begin(d, &req, util_now_ms() + 1000), ERR_UNSUPPORTED);
	T_EQ_INT(f->msgs, 0);
	T_TRUE(a.sig == NULL);
out:
	dev_close(&d);
	free(f);
	free(body);
	free(chal);
	free(kh);
	free(pk);
}

TEST_MAIN(TEST(exchange_version), TEST(exchange_register),
    TEST(register_waits_without_spinning), TEST(exchange_authenticate),
    TEST(exchange_authenticate_errors))
