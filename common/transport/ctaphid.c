/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAPHID framing over a struct hid_io: channel allocation (INIT), message
 * split into init + continuation frames, and a strict receiver that skips
 * keepalives and other channels only within one deadline. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctaphid.h"
#include "base/err.h"
#include "base/util.h"

#define CTAPHID_DEFAULT_REPORT 64
#define CTAPHID_INIT_HDR 7 /* CID[4] CMD BCNTH BCNTL */
#define CTAPHID_CONT_HDR 5 /* CID[4] SEQ */
#define CTAPHID_NONCE_LEN 8
#define CTAPHID_INIT_REPLY_LEN 17
#define CTAPHID_SEQ_MAX 0x7f
/* Once the init frame of a reply is in, its continuation frames get at
 * least this long, even past the caller's deadline: a poll with a short
 * slice must not cut a message in two (its rest would then be refused by
 * the next call as stray frames). Devices drop a half-sent message after
 * about as long, so the wait stays bounded. */
#define CTAPHID_CONT_MS 500

/* What the receiver does with one incoming frame. */
enum {
	FRAME_SKIP, /* not ours, or a keepalive */
	FRAME_START /* the init frame of our reply */
};

static int
report_size_ok(size_t n)
{
	return n >= HID_REPORT_MIN && n <= HID_REPORT_MAX;
}

/* Largest message that fits the 128 continuation frames of this size. */
static size_t
max_msg(size_t report)
{
	size_t n;

	n = (report - CTAPHID_INIT_HDR) +
	    (CTAPHID_SEQ_MAX + 1) * (report - CTAPHID_CONT_HDR);
	return n < CTAPHID_MAX_MSG ? n : CTAPHID_MAX_MSG;
}

static int
hid_error_code(uint8_t code)
{
	switch (code) {
	case 0x01:
		return ERR_HID_INVALID_CMD;
	case 0x02:
		return ERR_HID_INVALID_PAR;
	case 0x03:
		return ERR_HID_INVALID_LEN;
	case 0x04:
		return ERR_HID_INVALID_SEQ;
	case 0x05:
		return ERR_HID_MSG_TIMEOUT;
	case 0x06:
		return ERR_HID_BUSY;
	case 0x0a:
		return ERR_HID_LOCK_REQUIRED;
	case 0x0b:
		return ERR_HID_INVALID_CHANNEL;
	default:
		return ERR_HID_OTHER;
	}
}

static int
io_err(int r)
{
	/* A vtable that returns 0 or a positive value on failure is a bug
	 * in the vtable; never let it look like success. */
	return r < 0 ? r : ERR_IO;
}

static int
tx_frame(struct ctaphid *ch, const uint8_t *frame, int64_t deadline)
{
	int r;

	if ((r = ch->io->write(ch->handle, frame, ch->report_out,
		 util_ms_left(deadline))) != ERR_OK) {
		log_msg(ch->log, "ctaphid_send: write failed: %s",
		    err_name(io_err(r)));
		return io_err(r);
	}
	return ERR_OK;
}

int
ctaphid_send(
    struct ctaphid *ch, uint8_t cmd, const uint8_t *data, size_t len, int ms)
{
	uint8_t frame[HID_REPORT_MAX];
	int64_t deadline = util_now_ms() + ms;
	size_t off, n, room;
	uint8_t seq = 0;
	int r = ERR_INVAL;

	if (ch == NULL || (cmd & 0x80) == 0 || (data == NULL && len > 0) ||
	    ms < 0)
		return ERR_INVAL;
	if (len > max_msg(ch->report_out)) {
		log_msg(ch->log, "ctaphid_send: message of %zu bytes too long",
		    len);
		return ERR_TOO_BIG;
	}
	memset(frame, 0, sizeof(frame));
	memcpy(frame, ch->cid, 4);
	frame[4] = cmd;
	frame[5] = (uint8_t)(len >> 8);
	frame[6] = (uint8_t)(len & 0xff);
	room = ch->report_out - CTAPHID_INIT_HDR;
	n = len < room ? len : room;
	if (n > 0)
		memcpy(frame + CTAPHID_INIT_HDR, data, n);
	if ((r = tx_frame(ch, frame, deadline)) != ERR_OK)
		goto fail;
	room = ch->report_out - CTAPHID_CONT_HDR;
	for (off = n; off < len; off += n) {
		memset(frame, 0, sizeof(frame));
		memcpy(frame, ch->cid, 4);
		frame[4] = seq++;
		n = len - off < room ? len - off : room;
		memcpy(frame + CTAPHID_CONT_HDR, data + off, n);
		if ((r = tx_frame(ch, frame, deadline)) != ERR_OK)
			goto fail;
	}
	r = ERR_OK;
fail:
	util_wipe(frame, sizeof(frame));
	return r;
}

/* Read exactly one report of report_in bytes within the deadline. */
static int
rx_frame(struct ctaphid *ch, uint8_t *frame, int64_t deadline)
{
	int r;

	r = ch->io->read(
	    ch->handle, frame, HID_REPORT_MAX, util_ms_left(deadline));
	if (r == ERR_TIMEOUT)
		return ERR_TIMEOUT;
	if (r <= 0) {
		log_msg(ch->log, "ctaphid_recv: read failed: %s",
		    err_name(io_err(r)));
		return io_err(r);
	}
	if ((size_t)r != ch->report_in) {
		log_msg(ch->log,
		    "ctaphid_recv: report of %d bytes, "
		    "expected %zu",
		    r, ch->report_in);
		return ERR_PROTO;
	}
	return ERR_OK;
}

/* Classify an init frame on any channel: FRAME_SKIP for other channels
 * and keepalives, FRAME_START for our reply, an error otherwise. */
static int
rx_classify(
    struct ctaphid *ch, const uint8_t *frame, uint8_t cmd, uint8_t *keepalive)
{
	if (memcmp(frame, ch->cid, 4) != 0) {
		log_msg(ch->log,
		    "ctaphid_recv: skipping frame for another "
		    "channel");
		return FRAME_SKIP;
	}
	if (frame[4] == CTAPHID_KEEPALIVE) {
		if (keepalive != NULL)
			*keepalive = frame[CTAPHID_INIT_HDR];
		return FRAME_SKIP;
	}
	if (frame[4] == CTAPHID_ERROR) {
		log_msg(ch->log, "ctaphid_recv: device error 0x%02x",
		    frame[CTAPHID_INIT_HDR]);
		return hid_error_code(frame[CTAPHID_INIT_HDR]);
	}
	if (frame[4] != cmd) {
		log_msg(ch->log,
		    "ctaphid_recv: unexpected command 0x%02x, "
		    "expected 0x%02x",
		    frame[4], cmd);
		return ERR_PROTO;
	}
	return FRAME_START;
}

/* A wait that ran out on frames that were not ours: worth a line unless
 * the read was only a look at what is there (no time given), as every
 * poll step's is: a key waiting for a touch sends a keepalive every
 * 100 ms. */
static int
rx_skipped_out(const struct ctaphid *ch, bool waited)
{
	if (waited)
		log_msg(ch->log,
		    "ctaphid_recv: deadline passed while skipping frames");
	return ERR_TIMEOUT;
}

/* Wait for the init frame of our reply; skip what may be skipped. */
static int
rx_start(struct ctaphid *ch, uint8_t cmd, uint8_t *frame, int64_t deadline,
    uint8_t *keepalive)
{
	bool waited = util_ms_left(deadline) > 0;
	int r;

	for (;;) {
		if ((r = rx_frame(ch, frame, deadline)) != ERR_OK)
			return r;
		if ((r = rx_classify(ch, frame, cmd, keepalive)) < 0)
			return r;
		if (r == FRAME_START)
			return ERR_OK;
		if (util_ms_left(deadline) == 0)
			return rx_skipped_out(ch, waited);
	}
}

/* Wait for continuation frame seq of our reply. */
static int
rx_cont(struct ctaphid *ch, uint8_t *frame, uint8_t seq, int64_t deadline)
{
	bool waited = util_ms_left(deadline) > 0;
	int r;

	for (;;) {
		if ((r = rx_frame(ch, frame, deadline)) != ERR_OK)
			return r;
		if (memcmp(frame, ch->cid, 4) == 0)
			break;
		if (util_ms_left(deadline) == 0)
			return rx_skipped_out(ch, waited);
	}
	if (frame[4] == CTAPHID_ERROR) {
		log_msg(ch->log,
		    "ctaphid_recv: device error 0x%02x in "
		    "continuation",
		    frame[CTAPHID_INIT_HDR]);
		return hid_error_code(frame[CTAPHID_INIT_HDR]);
	}
	if (frame[4] != seq) {
		log_msg(ch->log,
		    "ctaphid_recv: sequence 0x%02x, expected "
		    "0x%02x",
		    frame[4], seq);
		return ERR_PROTO;
	}
	return ERR_OK;
}

/* Receive on the channel currently in ch->cid. */
static int
rx_msg(struct ctaphid *ch, uint8_t cmd, uint8_t *buf, size_t cap, size_t *len,
    int64_t deadline, uint8_t *keepalive)
{
	uint8_t frame[HID_REPORT_MAX];
	size_t bcnt, got = 0, n;
	uint8_t seq = 0;
	int r;

	if ((r = rx_start(ch, cmd, frame, deadline, keepalive)) != ERR_OK)
		goto fail;
	if (deadline < util_now_ms() + CTAPHID_CONT_MS)
		deadline = util_now_ms() + CTAPHID_CONT_MS;
	bcnt = (size_t)frame[5] << 8 | frame[6];
	if (bcnt > max_msg(ch->report_in) || bcnt > cap) {
		log_msg(ch->log,
		    "ctaphid_recv: message of %zu bytes refused "
		    "(room for %zu)",
		    bcnt, cap);
		r = ERR_PROTO;
		goto fail;
	}
	n = ch->report_in - CTAPHID_INIT_HDR;
	got = bcnt < n ? bcnt : n;
	if (got > 0)
		memcpy(buf, frame + CTAPHID_INIT_HDR, got);
	while (got < bcnt) {
		if ((r = rx_cont(ch, frame, seq++, deadline)) != ERR_OK)
			goto fail;
		n = ch->report_in - CTAPHID_CONT_HDR;
		if (bcnt - got < n)
			n = bcnt - got;
		memcpy(buf + got, frame + CTAPHID_CONT_HDR, n);
		got += n;
	}
	*len = bcnt;
	r = ERR_OK;
fail:
	if (r != ERR_OK)
		util_wipe(buf, got);
	util_wipe(frame, sizeof(frame));
	return r;
}

int
ctaphid_recv(struct ctaphid *ch, uint8_t cmd, uint8_t *buf, size_t cap,
    size_t *len, int ms, uint8_t *keepalive)
{
	int64_t deadline;

	if (keepalive != NULL)
		*keepalive = 0;
	if (ch == NULL || len == NULL || (buf == NULL && cap > 0) || ms < 0 ||
	    (cmd & 0x80) == 0)
		return ERR_INVAL;
	*len = 0;
	deadline = util_now_ms() + ms;
	return rx_msg(ch, cmd, buf, cap, len, deadline, keepalive);
}

int
ctaphid_xfer(struct ctaphid *ch, uint8_t cmd, const uint8_t *in, size_t inlen,
    uint8_t *out, size_t cap, size_t *outlen, int ms)
{
	int64_t deadline;
	int r;

	if (ch == NULL || outlen == NULL || ms < 0)
		return ERR_INVAL;
	deadline = util_now_ms() + ms;
	for (;;) {
		if ((r = ctaphid_send(
			 ch, cmd, in, inlen, util_ms_left(deadline))) != ERR_OK)
			return r;
		r = ctaphid_recv(
		    ch, cmd, out, cap, outlen, util_ms_left(deadline), NULL);
		/* Another program is talking to the device: try again a
		 * little later, within the same deadline. */
		if (r != ERR_HID_BUSY ||
		    util_ms_left(deadline) < CTAPHID_BUSY_RETRY_MS)
			return r;
		log_msg(ch->log, "ctaphid_xfer: channel busy, retrying");
		util_sleep_ms(CTAPHID_BUSY_RETRY_MS);
	}
}

/* Parse a 17-byte INIT reply; ERR_PENDING when it answers another nonce. */
static int
init_reply(
    struct ctaphid *ch, const uint8_t *nonce, const uint8_t *rep, size_t len)
{
	static const uint8_t zero[4] = {0, 0, 0, 0};
	static const uint8_t bcast[4] = {0xff, 0xff, 0xff, 0xff};

	if (len != CTAPHID_INIT_REPLY_LEN) {
		log_msg(ch->log, "ctaphid_open: INIT reply of %zu bytes", len);
		return ERR_PROTO;
	}
	if (memcmp(rep, nonce, CTAPHID_NONCE_LEN) != 0) {
		log_msg(ch->log,
		    "ctaphid_open: skipping INIT reply for "
		    "another nonce");
		return ERR_PENDING;
	}
	if (memcmp(rep + 8, zero, 4) == 0 || memcmp(rep + 8, bcast, 4) == 0) {
		log_msg(ch->log, "ctaphid_open: INIT reply with invalid CID");
		return ERR_PROTO;
	}
	memcpy(ch->cid, rep + 8, 4);
	ch->proto_version = rep[12];
	ch->major = rep[13];
	ch->minor = rep[14];
	ch->build = rep[15];
	ch->caps = rep[16];
	return ERR_OK;
}

static int
ctaphid_init(struct ctaphid *ch, int ms)
{
	uint8_t nonce[CTAPHID_NONCE_LEN];
	uint8_t rep[CTAPHID_INIT_REPLY_LEN + 1];
	int64_t deadline = util_now_ms() + ms;
	size_t len;
	int r;

	memset(ch->cid, 0xff, sizeof(ch->cid));
	if ((r = util_random(nonce, sizeof(nonce))) != ERR_OK) {
		log_msg(ch->log, "ctaphid_open: no random nonce");
		goto fail;
	}
	if ((r = ctaphid_send(ch, CTAPHID_INIT, nonce, sizeof(nonce),
		 util_ms_left(deadline))) != ERR_OK)
		goto fail;
	do {
		/* One byte of room more than 17 so that an 18-byte reply is
		 * read and refused for its length. */
		r = rx_msg(
		    ch, CTAPHID_INIT, rep, sizeof(rep), &len, deadline, NULL);
		if (r == ERR_OK)
			r = init_reply(ch, nonce, rep, len);
		if (r == ERR_PENDING && util_ms_left(deadline) == 0)
			r = ERR_TIMEOUT;
	} while (r == ERR_PENDING);
fail:
	util_wipe(nonce, sizeof(nonce));
	util_wipe(rep, sizeof(rep));
	return r;
}

int
ctaphid_open(const struct hid_io *io, const char *path, size_t report_in,
    size_t report_out, const struct log *lg, int ms, struct ctaphid **out)
{
	struct ctaphid *ch = NULL;
	int r = ERR_INVAL;

	if (out != NULL)
		*out = NULL;
	if (io == NULL || path == NULL || out == NULL || ms < 0)
		return ERR_INVAL;
	if (report_in == 0)
		report_in = CTAPHID_DEFAULT_REPORT;
	if (report_out == 0)
		report_out = CTAPHID_DEFAULT_REPORT;
	if (!report_size_ok(report_in) || !report_size_ok(report_out)) {
		log_msg(lg, "ctaphid_open: report sizes %zu/%zu out of range",
		    report_in, report_out);
		return ERR_INVAL;
	}
	if ((ch = calloc(1, sizeof(*ch))) == NULL)
		return ERR_NOMEM;
	ch->io = io;
	ch->log = lg;
	ch->report_in = report_in;
	ch->report_out = report_out;
	if ((ch->handle = io->open(path, &r)) == NULL) {
		r = io_err(r);
		log_msg(lg, "ctaphid_open: open failed: %s", err_name(r));
		goto fail;
	}
	if ((r = ctaphid_init(ch, ms)) != ERR_OK) {
		log_msg(lg, "ctaphid_open: INIT failed: %s", err_name(r));
		goto fail;
	}
	*out = ch;
	ch = NULL;
fail:
	ctaphid_close(&ch);
	return r;
}

void
ctaphid_close(struct ctaphid **chp)
{
	struct ctaphid *ch;

	if (chp == NULL || (ch = *chp) == NULL)
		return;
	if (ch->handle != NULL)
		ch->io->close(ch->handle);
	util_freezero(ch, sizeof(*ch));
	*chp = NULL;
}

int
ctaphid_ping(struct ctaphid *ch, const uint8_t *data, size_t len, int ms)
{
	uint8_t *reply = NULL;
	size_t got = 0;
	int r;

	if (ch == NULL || (data == NULL && len > 0))
		return ERR_INVAL;
	if ((reply = malloc(len > 0 ? len : 1)) == NULL)
		return ERR_NOMEM;
	r = ctaphid_xfer(ch, CTAPHID_PING, data, len, reply, len, &got, ms);
	if (r == ERR_OK &&
	    (got != len || (len > 0 && memcmp(reply, data, len) != 0))) {
		log_msg(ch->log, "ctaphid_ping: echo differs");
		r = ERR_PROTO;
	}
	util_freezero(reply, len > 0 ? len : 1);
	return r;
}

int
ctaphid_wink(struct ctaphid *ch, int ms)
{
	size_t got = 0;

	if (ch == NULL)
		return ERR_INVAL;
	if ((ch->caps & CTAPHID_CAP_WINK) == 0) {
		log_msg(ch->log, "ctaphid_wink: device cannot wink");
		return ERR_UNSUPPORTED;
	}
	return ctaphid_xfer(ch, CTAPHID_WINK, NULL, 0, NULL, 0, &got, ms);
}

int
ctaphid_cancel(struct ctaphid *ch)
{
	if (ch == NULL)
		return ERR_INVAL;
	return ctaphid_send(ch, CTAPHID_CANCEL, NULL, 0, CTAPHID_CANCEL_MS);
}

int
ctaphid_fd(const struct ctaphid *ch)
{
	if (ch == NULL || ch->io->fd == NULL)
		return -1;
	return ch->io->fd(ch->handle);
}
