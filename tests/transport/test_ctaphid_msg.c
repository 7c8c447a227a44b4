/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for the message layer of common/transport/ctaphid.c on an open
 * channel, against the scripted device of tests/lib/fakehid.c: how
 * ctaphid_send splits a message into init and continuation frames (byte
 * for byte, up to CTAPHID_MAX_MSG) and how ctaphid_recv reassembles one
 * while it skips other channels' frames and KEEPALIVE only within the
 * deadline, maps ERROR frames to errors, and refuses SEQ out of order,
 * BCNT above 7609 or the caller's buffer, short reports, unexpected
 * commands and a device that vanishes mid-message; then ctaphid_xfer
 * (with BUSY retried), ping, wink and cancel. Opening a channel (INIT) is
 * tested in tests/transport/test_ctaphid.c. Time is virtual
 * (tests/lib/vclock.h): the deadlines are checked against the time the fake
 * device's reads and the code's sleeps model, whatever the machine's load. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ctaphid.h"
#include "base/err.h"
#include "fakehid.h"
#include "test.h"
#include "base/util.h"
#include "hidfix.h"
#include "vclock.h"

static const uint8_t cid_other[4] = {0xc5, 0x71, 0xf8, 0x01};

struct msg_capture {
	uint8_t req[512];
	size_t req_len;
	size_t reply_len;
};

static void
msg_handler(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	struct msg_capture *c = arg;
	uint8_t rep[512];

	if (cmd != CTAPHID_MSG || len > sizeof(c->req))
		return;
	memcpy(c->req, data, len);
	c->req_len = len;
	pattern(rep, c->reply_len, 0x55);
	fakehid_queue_msg(f, cid, CTAPHID_MSG, rep, c->reply_len);
}

/* The frames a 150-byte message must become, byte for byte. */
static void
check_frames(struct fakehid *f, size_t first, const uint8_t *req)
{
	uint8_t exp[64];
	const uint8_t *w;
	size_t len = 0;

	T_EQ_INT(fakehid_nwritten(f), first + 3);
	memset(exp, 0, sizeof(exp));
	memcpy(exp, "\x01\x02\x03\x04\x83\x00\x96", 7);
	memcpy(exp + 7, req, 57);
	w = fakehid_written(f, first, &len);
	T_TRUE(w != NULL && len == 64 && memcmp(w, exp, 64) == 0);
	memcpy(exp, "\x01\x02\x03\x04\x00", 5);
	memcpy(exp + 5, req + 57, 59);
	w = fakehid_written(f, first + 1, &len);
	T_TRUE(w != NULL && len == 64 && memcmp(w, exp, 64) == 0);
	memset(exp, 0, sizeof(exp));
	memcpy(exp, "\x01\x02\x03\x04\x01", 5);
	memcpy(exp + 5, req + 116, 34);
	w = fakehid_written(f, first + 2, &len);
	T_TRUE(w != NULL && len == 64 && memcmp(w, exp, 64) == 0);
}

static void
test_msg_roundtrip(void)
{
	struct msg_capture c;
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t req[150], rep[300], exp[300];
	size_t len = 0;

	memset(&c, 0, sizeof(c));
	c.reply_len = 300; /* 57 + 59 * 4 = 293: six frames */
	pattern(req, sizeof(req), 0x10);
	pattern(exp, sizeof(exp), 0x55);
	fakehid_set_handler(f, msg_handler, &c);
	if (ch == NULL)
		goto out;
	T_EQ_ERR(ctaphid_xfer(ch, CTAPHID_MSG, req, sizeof(req), rep,
		     sizeof(rep), &len, 1000),
	    ERR_OK);
	T_EQ_INT(len, 300);
	T_EQ_MEM(rep, exp, 300);
	T_EQ_INT(c.req_len, 150);
	T_EQ_MEM(c.req, req, 150);
	T_EQ_INT(fakehid_bad_frames(f), 0);
	check_frames(f, 1, req);
	/* Exactly the reply's six frames were read, nothing more. */
	T_EQ_INT(fakehid_nreads(f), 1 + 6);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_send_limits(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t *big = calloc(1, CTAPHID_MAX_MSG + 1);
	const uint8_t *w;
	size_t len = 0;

	if (ch == NULL || big == NULL)
		goto out;
	T_EQ_ERR(ctaphid_send(ch, CTAPHID_MSG, big, CTAPHID_MAX_MSG + 1, 1000),
	    ERR_TOO_BIG);
	T_EQ_INT(fakehid_nwritten(f), 1);
	T_EQ_ERR(ctaphid_send(ch, 0x03, big, 1, 1000), ERR_INVAL);
	T_EQ_ERR(
	    ctaphid_send(ch, CTAPHID_MSG, big, CTAPHID_MAX_MSG, 1000), ERR_OK);
	/* 1 + 128 frames, the last with SEQ 0x7f. */
	T_EQ_INT(fakehid_nwritten(f), 1 + 129);
	w = fakehid_written(f, 129, &len);
	T_TRUE(w != NULL && w[4] == 0x7f);
	T_EQ_ERR(ctaphid_cancel(ch), ERR_OK);
	w = fakehid_written(f, 130, &len);
	T_TRUE(w != NULL && len == 64 &&
	    memcmp(w, "\x01\x02\x03\x04\x91\x00\x00", 7) == 0);
out:
	free(big);
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_foreign_cid_skipped(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t data[100], other[100], buf[100];
	size_t len = 0;

	pattern(data, sizeof(data), 1);
	pattern(other, sizeof(other), 99);
	if (ch == NULL)
		goto out;
	fakehid_queue_msg(f, cid_other, CTAPHID_MSG, other, sizeof(other));
	fakehid_queue_init_frame(
	    f, cid_ok, CTAPHID_MSG, sizeof(data), data, sizeof(data));
	/* another channel's continuation between ours */
	fakehid_queue_cont_frame(f, cid_other, 0, other, 59);
	fakehid_queue_cont_frame(f, cid_ok, 0, data + 57, 43);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_OK);
	T_EQ_INT(len, 100);
	T_EQ_MEM(buf, data, 100);
	T_EQ_INT(fakehid_queued(f), 0);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_keepalive_skipped(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t buf[16], ka = 0xee;
	size_t len = 0;

	if (ch == NULL)
		goto out;
	fakehid_queue_msg(
	    f, cid_ok, CTAPHID_KEEPALIVE, (const uint8_t *)"\1", 1);
	fakehid_queue_msg(
	    f, cid_ok, CTAPHID_KEEPALIVE, (const uint8_t *)"\2", 1);
	fakehid_queue_msg(
	    f, cid_ok, CTAPHID_MSG, (const uint8_t *)"\x90\x00", 2);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, &ka),
	    ERR_OK);
	T_EQ_INT(len, 2);
	T_EQ_MEM(buf, "\x90\x00", 2);
	T_EQ_INT(ka, 2);
	/* No keepalive: 0. */
	fakehid_queue_msg(
	    f, cid_ok, CTAPHID_MSG, (const uint8_t *)"\x90\x00", 2);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, &ka),
	    ERR_OK);
	T_EQ_INT(ka, 0);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

/* A device that sends KEEPALIVE (or frames for another channel) every
 * 10 ms, for ever: the wait ends in ERR_TIMEOUT at the 200 ms deadline,
 * after the 20 reports that fit in it (one more at most). */
static void
test_endless_keepalive(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t ka[64], buf[16];
	size_t len = 0, reads;
	uint8_t status = 0;
	int64_t t0, dt;

	memset(ka, 0, sizeof(ka));
	memcpy(ka, "\x01\x02\x03\x04\xbb\x00\x01\x02", 8);
	if (ch == NULL)
		goto out;
	fakehid_set_read_ms(f, 10);
	fakehid_set_repeat(f, ka, sizeof(ka));
	reads = fakehid_nreads(f);
	t0 = vclock_now_ms();
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 200, &status),
	    ERR_TIMEOUT);
	dt = vclock_now_ms() - t0;
	T_TRUE(dt >= 200 && dt <= 210);
	T_TRUE(
	    fakehid_nreads(f) - reads >= 20 && fakehid_nreads(f) - reads <= 21);
	T_EQ_INT(status, 2);
	/* Endless frames for another channel end the same way. */
	memcpy(ka, cid_other, 4);
	fakehid_set_repeat(f, ka, sizeof(ka));
	reads = fakehid_nreads(f);
	t0 = vclock_now_ms();
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 200, NULL),
	    ERR_TIMEOUT);
	dt = vclock_now_ms() - t0;
	T_TRUE(dt >= 200 && dt <= 210);
	T_TRUE(
	    fakehid_nreads(f) - reads >= 20 && fakehid_nreads(f) - reads <= 21);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

/* A look at what is there (ms 0, every poll step's read) that finds only
 * a keepalive ends in ERR_TIMEOUT with the keepalive's status and no log
 * line: a key waiting for a touch sends one every 100 ms. A wait given
 * time that runs out on keepalives says so, once. */
static void
test_keepalive_look_quiet(void)
{
	static const uint8_t upneeded = 2;
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = NULL;
	struct log_capture lines;
	struct log lg = {log_capture_fn, &lines};
	uint8_t ka[64], buf[16], status = 0;
	size_t len = 0;
	int i;

	memset(&lines, 0, sizeof(lines));
	fakehid_auto_init(f, cid_ok);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, &lg, 1000, &ch),
	    ERR_OK);
	if (ch == NULL)
		goto out;
	memset(&lines, 0, sizeof(lines)); /* only what follows counts */
	for (i = 0; i < 10; i++) {
		fakehid_queue_msg(f, cid_ok, CTAPHID_KEEPALIVE, &upneeded, 1);
		T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len,
			     0, &status),
		    ERR_TIMEOUT);
		T_EQ_INT(status, 2);
	}
	T_EQ_INT(lines.lines, 0);
	memset(ka, 0, sizeof(ka));
	memcpy(ka, "\x01\x02\x03\x04\xbb\x00\x01\x02", 8);
	fakehid_set_read_ms(f, 10);
	fakehid_set_repeat(f, ka, sizeof(ka));
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 100, &status),
	    ERR_TIMEOUT);
	T_EQ_INT(lines.lines, 1);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_error_codes(void)
{
	static const struct {
		uint8_t code;
		int err;
	} map[] = {
	    {0x01, ERR_HID_INVALID_CMD},
	    {0x02, ERR_HID_INVALID_PAR},
	    {0x03, ERR_HID_INVALID_LEN},
	    {0x04, ERR_HID_INVALID_SEQ},
	    {0x05, ERR_HID_MSG_TIMEOUT},
	    {0x06, ERR_HID_BUSY},
	    {0x0a, ERR_HID_LOCK_REQUIRED},
	    {0x0b, ERR_HID_INVALID_CHANNEL},
	    {0x7f, ERR_HID_OTHER},
	    {0x42, ERR_HID_OTHER},
	};
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t buf[16];
	size_t i, len = 0;

	for (i = 0; ch != NULL && i < sizeof(map) / sizeof(map[0]); i++) {
		fakehid_queue_msg(f, cid_ok, CTAPHID_ERROR, &map[i].code, 1);
		T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len,
			     1000, NULL),
		    map[i].err);
	}
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_error_other_cid(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t buf[16];
	size_t len = 0;

	if (ch == NULL)
		goto out;
	fakehid_queue_msg(
	    f, cid_other, CTAPHID_ERROR, (const uint8_t *)"\6", 1);
	fakehid_queue_msg(f, cid_ok, CTAPHID_MSG, (const uint8_t *)"ok", 2);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_OK);
	T_EQ_INT(len, 2);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_seq_order(void)
{
	static const uint8_t bad[][2] = {{1, 0}, {0, 0}, {0, 2}, {0x80, 1}};
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t data[200], buf[200];
	size_t i, len = 0;

	pattern(data, sizeof(data), 3);
	for (i = 0; ch != NULL && i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* 200 bytes: init + SEQ 0, 1, 2. */
		fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 200, data, 57);
		fakehid_queue_cont_frame(f, cid_ok, bad[i][0], data + 57, 59);
		fakehid_queue_cont_frame(f, cid_ok, bad[i][1], data + 116, 59);
		fakehid_queue_cont_frame(f, cid_ok, 2, data + 175, 25);
		T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len,
			     1000, NULL),
		    ERR_PROTO);
		while (fakehid_queued(f) > 0) /* drain what is left */
			fakehid_io.read(ch->handle, buf, sizeof(buf), 0);
	}
	/* And in order it is accepted. */
	fakehid_queue_msg(f, cid_ok, CTAPHID_MSG, data, 200);
	if (ch != NULL)
		T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len,
			     1000, NULL),
		    ERR_OK);
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_bcnt_limits(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t *buf = calloc(1, 8000);
	size_t len = 0;

	if (ch == NULL || buf == NULL)
		goto out;
	fakehid_queue_init_frame(
	    f, cid_ok, CTAPHID_MSG, CTAPHID_MAX_MSG + 1, buf, 57);
	fakehid_queue_cont_frame(f, cid_ok, 0, buf, 59);
	T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, 8000, &len, 1000, NULL),
	    ERR_PROTO);
	T_EQ_INT(fakehid_queued(f), 1); /* the rest was not read */
	fakehid_io.read(ch->handle, buf, 64, 0);
	/* Larger than the caller's buffer. */
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, buf, 57);
	fakehid_queue_cont_frame(f, cid_ok, 0, buf, 59);
	T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, 99, &len, 1000, NULL),
	    ERR_PROTO);
	T_EQ_INT(fakehid_queued(f), 1);
	fakehid_io.read(ch->handle, buf, 64, 0);
	/* Exactly the caller's buffer is fine. */
	fakehid_queue_msg(f, cid_ok, CTAPHID_MSG, buf, 100);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, 100, &len, 1000, NULL), ERR_OK);
	T_EQ_INT(len, 100);
out:
	free(buf);
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_short_report(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t r[64], buf[16];
	size_t len = 0;

	memset(r, 0, sizeof(r));
	memcpy(r, "\x01\x02\x03\x04\x83\x00\x02\x90\x00", 9);
	if (ch == NULL)
		goto out;
	fakehid_queue_report(f, r, 63);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_PROTO);
	fakehid_queue_report(f, r, 64);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_OK);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_device_gone(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t data[100], buf[100];
	size_t len = 0;

	pattern(data, sizeof(data), 5);
	if (ch == NULL)
		goto out;
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, data, 57);
	fakehid_queue_error(f, ERR_NODEV);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_NODEV);
	/* A continuation that never comes is a timeout. */
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, data, 57);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_TIMEOUT);
	/* With a short slice, the continuation still gets its grace time
	 * (bounded) so that a message is not cut in two. */
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, data, 57);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 10, NULL),
	    ERR_TIMEOUT);
	T_TRUE(fakehid_last_read_ms(f) > 100 && fakehid_last_read_ms(f) <= 500);
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, data, 57);
	fakehid_queue_cont_frame(f, cid_ok, 0, data + 57, 43);
	T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 0, NULL),
	    ERR_OK);
	T_EQ_MEM(buf, data, 100);
	/* An ERROR frame instead of a continuation. */
	fakehid_queue_init_frame(f, cid_ok, CTAPHID_MSG, 100, data, 57);
	fakehid_queue_msg(f, cid_ok, CTAPHID_ERROR, (const uint8_t *)"\5", 1);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_HID_MSG_TIMEOUT);
	/* Writes that fail. */
	fakehid_set_write_err(f, ERR_NODEV);
	T_EQ_ERR(ctaphid_send(ch, CTAPHID_MSG, data, 100, 1000), ERR_NODEV);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_unexpected_cmd(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t buf[16];
	size_t len = 0;

	if (ch == NULL)
		goto out;
	fakehid_queue_msg(f, cid_ok, CTAPHID_CBOR, (const uint8_t *)"\0", 1);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_PROTO);
	/* a stray continuation frame where an init frame belongs */
	fakehid_queue_cont_frame(f, cid_ok, 0, buf, 2);
	T_EQ_ERR(
	    ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len, 1000, NULL),
	    ERR_PROTO);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
corrupt_ping(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	uint8_t rep[64];

	(void)arg;
	if (cmd != CTAPHID_PING || len == 0 || len > sizeof(rep))
		return;
	memcpy(rep, data, len);
	rep[len - 1] ^= 1;
	fakehid_queue_msg(f, cid, cmd, rep, len);
}

static void
test_ping(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t data[300];

	pattern(data, sizeof(data), 9);
	if (ch == NULL)
		goto out;
	fakehid_auto_ping(f, 1);
	T_EQ_ERR(ctaphid_ping(ch, data, sizeof(data), 1000), ERR_OK);
	T_EQ_ERR(ctaphid_ping(ch, NULL, 0, 1000), ERR_OK);
	fakehid_auto_ping(f, 0);
	fakehid_set_handler(f, corrupt_ping, NULL);
	T_EQ_ERR(ctaphid_ping(ch, data, 20, 1000), ERR_PROTO);
	fakehid_set_handler(f, NULL, NULL);
	T_EQ_ERR(ctaphid_ping(ch, data, 20, 100), ERR_TIMEOUT);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_wink(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);

	if (ch == NULL)
		goto out;
	fakehid_queue_msg(f, cid_ok, CTAPHID_WINK, NULL, 0);
	T_EQ_ERR(ctaphid_wink(ch, 1000), ERR_OK);
	T_EQ_MEM(
	    fakehid_written(f, 1, NULL), "\x01\x02\x03\x04\x88\x00\x00", 7);
	ch->caps = 0;
	T_EQ_ERR(ctaphid_wink(ch, 1000), ERR_UNSUPPORTED);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

/* BUSY (another program is using the key) is retried within the deadline:
 * the request goes out twice and the second answer is taken. A key that
 * stays busy ends in ERR_HID_BUSY, not a hang. */
static void
test_xfer_busy_retried(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	uint8_t busy = 0x06, req[3] = {1, 2, 3}, buf[16];
	size_t len = 0, before;
	int64_t t0;

	if (ch == NULL)
		goto out;
	before = fakehid_nwritten(f);
	fakehid_queue_msg(f, cid_ok, CTAPHID_ERROR, &busy, 1);
	fakehid_queue_msg(f, cid_ok, CTAPHID_MSG, req, sizeof(req));
	T_EQ_ERR(ctaphid_xfer(ch, CTAPHID_MSG, req, sizeof(req), buf,
		     sizeof(buf), &len, 1000),
	    ERR_OK);
	T_EQ_INT(len, sizeof(req));
	T_EQ_INT(fakehid_nwritten(f) - before, 2);
	fakehid_set_repeat(f, NULL, 0);
	before = fakehid_nwritten(f);
	t0 = vclock_now_ms();
	for (len = 0; len < 40; len++)
		fakehid_queue_msg(f, cid_ok, CTAPHID_ERROR, &busy, 1);
	T_EQ_ERR(ctaphid_xfer(ch, CTAPHID_MSG, req, sizeof(req), buf,
		     sizeof(buf), &len, 200),
	    ERR_HID_BUSY);
	/* Retried every CTAPHID_BUSY_RETRY_MS until the deadline, and no
	 * further: the requests that fit in 200 ms, not the 40 answers. */
	T_TRUE(vclock_now_ms() - t0 <= 200);
	T_TRUE(vclock_now_ms() - t0 > 200 - CTAPHID_BUSY_RETRY_MS);
	T_EQ_INT(fakehid_nwritten(f) - before, 200 / CTAPHID_BUSY_RETRY_MS + 1);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

TEST_MAIN(TEST(test_msg_roundtrip), TEST(test_send_limits),
    TEST(test_foreign_cid_skipped), TEST(test_keepalive_skipped),
    TEST(test_endless_keepalive), TEST(test_keepalive_look_quiet),
    TEST(test_error_codes), TEST(test_error_other_cid), TEST(test_seq_order),
    TEST(test_bcnt_limits), TEST(test_short_report), TEST(test_device_gone),
    TEST(test_unexpected_cmd), TEST(test_ping), TEST(test_wink),
    TEST(test_xfer_busy_retried))
