/* Unit tests for the operations of common/u2f.c: u2f_version,
 * u2f_register, u2f_authenticate and its split form (u2f_authenticate_send
 * and u2f_authenticate_recv), run through the real CTAPHID framing of
 * common/ctaphid.c against a small scripted device behind the hid_io seam
 * that answers INIT and replies to each MSG with a canned APDU reply. The
 * cases check the request bytes the device receives, that good replies
 * (the FIDO U2F example vectors of tests/u2ffix.h) parse and verify, and
 * that status words, trailing bytes, oversized replies, silence and bad
 * key handle lengths end in the right error. The APDU builder and the
 * reply parsers on their own are tested in tests/test_u2f.c. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "transport/ctaphid.h"
#include "base/err.h"
#include "proto/u2f.h"
#include "test.h"
#include "u2ffix.h"

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
fake_write(void *h, const uint8_t *buf, size_t len)
{
	struct fake *f = h;
	size_t n;

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
    fake_open, fake_close, fake_read, fake_write};

/* Open a channel on a fresh fake device; the device is returned too. */
static struct ctaphid *
fake_channel(struct fake **fp)
{
	struct ctaphid *ch = NULL;
	struct fake *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		abort();
	memcpy(f->cid, "\x11\x22\x33\x44", 4);
	fake_next = f;
	if (ctaphid_open(&fake_io, "fake", 0, 0, NULL, 1000, &ch) != ERR_OK)
		T_FAIL_AT("ctaphid_open on the fake device failed");
	fake_next = NULL;
	*fp = f;
	return ch;
}

static void
fake_script(struct fake *f, const uint8_t *reply, size_t len)
{
	f->reply = reply;
	f->reply_len = len;
}

static void
exchange_version(void)
{
	struct ctaphid *ch;
	struct fake *f;

	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"U2F_V2\x90\x00", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_OK);
	T_EQ_INT(f->msg_len, 7);
	T_EQ_MEM(f->msg, "\x00\x03\x00\x00\x00\x00\x00", 7);
	fake_script(f, (const uint8_t *)"U2F_V3\x90\x00", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"U2F_V2x\x90\x00", 9);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"U2F_V\x90\x00", 7);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"\x90\x00", 2);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"\x6d\x00", 2);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_INS_NOT_SUPPORTED);
	fake_script(f, (const uint8_t *)"U2F_V2\x6a\x82", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_SW);
	fake_script(f, (const uint8_t *)"\x90", 1);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	T_EQ_INT(f->msgs, 8);
	fake_script(f, NULL, 0); /* no answer at all */
	T_EQ_ERR(u2f_version(ch, 50), ERR_TIMEOUT);
out:
	ctaphid_close(&ch);
	free(f);
}

static void
exchange_register(void)
{
	uint8_t *body, *reply, *app, *chal, want[73];
	struct ctaphid *ch;
	struct u2f_reg reg;
	struct fake *f;
	size_t len;

	body = unhex(REG_REPLY, &len);
	app = unhex(REG_APP, NULL);
	chal = unhex(REG_CHAL, NULL);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	fake_script(f, reply, len + 2);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_OK);
	memcpy(want, "\x00\x01\x00\x00\x00\x00\x40", 7);
	memcpy(want + 7, chal, 32); /* challenge first, then app */
	memcpy(want + 39, app, 32);
	want[71] = want[72] = 0;
	T_EQ_INT(f->msg_len, 73);
	T_EQ_MEM(f->msg, want, 73);
	T_EQ_INT(reg.kh_len, 64);
	T_EQ_INT(reg.cert_len, REG_CERT_LEN);
	T_EQ_INT(reg.sig_len, REG_SIG_LEN);
	T_EQ_ERR(crypto_verify_u2f_register(reg.cert, reg.cert_len, app, chal,
		     reg.kh, reg.kh_len, reg.pubkey, reg.sig, reg.sig_len),
	    ERR_OK);
	u2f_reg_clear(&reg);
	free(reply);
	/* touch needed: nothing parsed, nothing to free */
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_PRESENCE);
	T_TRUE(reg.cert == NULL && reg.kh_len == 0);
	/* a trailing byte before the status word */
	reply = cat(body, len, (const uint8_t *)"\x00\x90\x00", 3);
	fake_script(f, reply, len + 3);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_PROTO);
	T_TRUE(reg.cert == NULL);
	free(reply);
out:
	ctaphid_close(&ch);
	free(f);
	free(body);
	free(app);
	free(chal);
}

static void
exchange_authenticate(void)
{
	uint8_t *body, *reply, *app, *chal, *kh, want[7 + 129 + 2];
	struct ctaphid *ch;
	struct u2f_auth a;
	struct fake *f;
	size_t len;

	body = unhex(AUTH_REPLY, &len);
	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, reply, len + 2);
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_OK);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.counter, 1);
	T_EQ_INT(a.sig_len, AUTH_SIG_LEN);
	memcpy(want, "\x00\x02\x03\x00\x00\x00\x81", 7);
	memcpy(want + 7, chal, 32);
	memcpy(want + 39, app, 32);
	want[71] = 64;
	memcpy(want + 72, kh, 64);
	want[136] = want[137] = 0;
	T_EQ_INT(f->msg_len, sizeof(want));
	T_EQ_MEM(f->msg, want, sizeof(want));
	/* the split form sends the same bytes and reads the same reply */
	f->msg_len = 0;
	T_EQ_ERR(u2f_authenticate_send(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64),
	    ERR_OK);
	T_EQ_INT(f->msg_len, sizeof(want));
	T_EQ_MEM(f->msg, want, sizeof(want));
	T_EQ_ERR(u2f_authenticate_recv(ch, &a, 1000), ERR_OK);
	T_EQ_INT(a.counter, 1);
	/* nothing more to read */
	T_EQ_ERR(u2f_authenticate_recv(ch, &a, 20), ERR_TIMEOUT);
	T_EQ_INT(a.sig_len, 0);
out:
	ctaphid_close(&ch);
	free(f);
	free(reply);
	free(body);
	free(app);
	free(chal);
	free(kh);
}

static void
exchange_authenticate_errors(void)
{
	uint8_t *app, *chal, *kh, big[100];
	struct ctaphid *ch;
	struct u2f_auth a;
	struct fake *f;

	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	T_EQ_ERR(u2f_authenticate(
		     ch, U2F_AUTH_CHECK_ONLY, chal, app, kh, 64, &a, 1000),
	    ERR_PRESENCE);
	T_EQ_INT(f->msg[2], U2F_AUTH_CHECK_ONLY);
	fake_script(f, (const uint8_t *)"\x6a\x80", 2);
	T_EQ_ERR(u2f_authenticate(
		     ch, U2F_AUTH_CHECK_ONLY, chal, app, kh, 64, &a, 1000),
	    ERR_WRONG_KH);
	fake_script(f, (const uint8_t *)"\x69\x84", 2);
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_WRONG_KH);
	/* a reply too long to be an authentication */
	memset(big, 0, sizeof(big));
	big[98] = 0x90;
	fake_script(f, big, sizeof(big));
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_PROTO);
	/* key handles of no length or too long are never sent */
	f->msgs = 0;
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 0, &a, 1000),
	    ERR_INVAL);
	T_EQ_ERR(u2f_authenticate_send(
		     ch, U2F_AUTH_ENFORCE, chal, app, kh, U2F_KH_MAX + 1),
	    ERR_INVAL);
	T_EQ_INT(f->msgs, 0);
out:
	ctaphid_close(&ch);
	free(f);
	free(app);
	free(chal);
	free(kh);
}

TEST_MAIN(TEST(exchange_version), TEST(exchange_register),
    TEST(exchange_authenticate), TEST(exchange_authenticate_errors))
