/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAPHID device state machine of the software token. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"
#include "ctaphid_dev.h"

#define CID_BROADCAST 0xffffffffu
#define INIT_DATA 57     /* payload bytes in an init frame */
#define CONT_DATA 59     /* payload bytes in a continuation frame */
#define BURST_FRAMES 100 /* > 63: overflows a hidraw reader queue */

enum {
	CMD_PING = 0x01,
	CMD_MSG = 0x03,
	CMD_LOCK = 0x04,
	CMD_INIT = 0x06,
	CMD_WINK = 0x08,
	CMD_CBOR = 0x10,
	CMD_CANCEL = 0x11,
	CMD_KEEPALIVE = 0x3b,
	CMD_ERROR = 0x3f
};

enum {
	ERR_CODE_INVALID_CMD = 0x01,
	ERR_CODE_INVALID_LEN = 0x03,
	ERR_CODE_INVALID_SEQ = 0x04,
	ERR_CODE_MSG_TIMEOUT = 0x05,
	ERR_CODE_BUSY = 0x06,
	ERR_CODE_INVALID_CHANNEL = 0x0b,
	ERR_CODE_OTHER = 0x7f
};

struct ctaphid_dev {
	struct token *tok;
	int keepalive;
	unsigned faults;
	ctaphid_dev_send_fn *send;
	void *arg;
	int gone;
	uint32_t cid_first; /* allocated CIDs: [cid_first, cid_next) */
	uint32_t cid_next;
	/* a request being assembled */
	int busy;
	uint32_t a_cid;
	uint8_t a_cmd;
	uint8_t a_seq;
	size_t a_bcnt;
	size_t a_got;
	int64_t a_deadline;
	uint8_t a_buf[CTAPHID_DEV_MSG_MAX];
	/* a MSG held while waiting for presence (keepalive mode), or a CBOR
	 * request held while the token works or waits for presence */
	int held;
	uint8_t h_cmd;
	uint32_t h_cid;
	size_t h_len;
	int64_t h_next;
	uint8_t h_apdu[CTAPHID_DEV_MSG_MAX];
};

static void
put_cid(uint8_t *p, uint32_t cid)
{
	p[0] = (uint8_t)(cid >> 24);
	p[1] = (uint8_t)(cid >> 16);
	p[2] = (uint8_t)(cid >> 8);
	p[3] = (uint8_t)cid;
}

static uint32_t
get_cid(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static int
allocated(const struct ctaphid_dev *d, uint32_t cid)
{
	return cid != 0 && cid != CID_BROADCAST &&
	    cid - d->cid_first < d->cid_next - d->cid_first;
}

static uint32_t
alloc_cid(struct ctaphid_dev *d)
{
	uint32_t cid = d->cid_next++;

	if (d->cid_next == CID_BROADCAST) { /* start over, rarely */
		d->cid_first = 1;
		d->cid_next = 2;
		cid = 1;
	}
	return cid;
}

/* Frame one message into reports. fault: apply the framing faults. */
static void
send_frames(struct ctaphid_dev *d, uint32_t cid, uint8_t cmd,
    const uint8_t *data, size_t len, int fault)
{
	uint8_t rep[CTAPHID_DEV_REPORT];
	size_t off, n, bcnt = len;
	uint8_t seq = 0;

	if (fault && (d->faults & FAULT_WRONG_CID))
		cid ^= 0x01010101u;
	if (fault && (d->faults & FAULT_BCNT_LARGE))
		bcnt = CTAPHID_DEV_MSG_MAX + 1;
	if (fault && (d->faults & FAULT_BAD_SEQ))
		seq = 1;
	memset(rep, 0, sizeof(rep));
	put_cid(rep, cid);
	rep[4] = (uint8_t)(cmd | 0x80);
	rep[5] = (uint8_t)(bcnt >> 8);
	rep[6] = (uint8_t)bcnt;
	off = len < INIT_DATA ? len : INIT_DATA;
	if (off > 0)
		memcpy(rep + 7, data, off);
	d->send(d->arg, rep);
	if (fault && (d->faults & FAULT_VANISH)) {
		d->gone = 1;
		return;
	}
	if (fault && (d->faults & FAULT_MISSING_CONT))
		return;
	while (off < len) {
		memset(rep, 0, sizeof(rep));
		put_cid(rep, cid);
		rep[4] = seq++;
		n = len - off < CONT_DATA ? len - off : CONT_DATA;
		memcpy(rep + 5, data + off, n);
		off += n;
		d->send(d->arg, rep);
	}
}

static void
send_error(struct ctaphid_dev *d, uint32_t cid, uint8_t code)
{
	send_frames(d, cid, CMD_ERROR, &code, 1, 0);
}

/* status 1: processing, 2: user presence needed */
static void
send_keepalive(struct ctaphid_dev *d, uint32_t cid, uint8_t status)
{
	send_frames(d, cid, CMD_KEEPALIVE, &status, 1, 0);
}

static void
send_msg_reply(
    struct ctaphid_dev *d, uint32_t cid, const uint8_t *rep, size_t len)
{
	int i;

	if (d->faults & FAULT_BURST)
		for (i = 0; i < BURST_FRAMES; i++)
			send_keepalive(d, cid, 0x02);
	send_frames(d, cid, CMD_MSG, rep, len, 1);
}

/* Start holding a request (MSG or CBOR) that waits. */
static void
hold(struct ctaphid_dev *d, uint32_t cid, uint8_t cmd, const uint8_t *apdu,
    size_t len, int64_t now, uint8_t status)
{
	d->held = 1;
	d->h_cmd = cmd;
	d->h_cid = cid;
	memcpy(d->h_apdu, apdu, len);
	d->h_len = len;
	d->h_next = now + CTAPHID_DEV_KEEPALIVE_MS;
	token_log_line(d->tok, "keepalive");
	send_keepalive(d, cid, status);
}

static void
release(struct ctaphid_dev *d)
{
	util_wipe(d->h_apdu, d->h_len);
	d->held = 0;
	d->h_len = 0;
}

/* Run the APDU; answer, or hold it (ERR_PENDING). */
static void
run_apdu(struct ctaphid_dev *d, uint32_t cid, const uint8_t *apdu, size_t len,
    int64_t now, enum token_mode mode)
{
	uint8_t rep[TOKEN_REPLY_MAX];
	size_t rlen = 0;
	int r;

	r = token_apdu(d->tok, now, mode, apdu, len, rep, &rlen);
	if (r == ERR_PENDING) {
		if (!d->held)
			hold(d, cid, CMD_MSG, apdu, len, now, 0x02);
		return;
	}
	if (d->held)
		release(d);
	if (r == ERR_OK)
		send_msg_reply(d, cid, rep, rlen);
	else
		send_error(d, cid, ERR_CODE_OTHER);
	util_wipe(rep, sizeof(rep));
}

/* Run a CBOR request; answer, or hold it while the token works. A held
 * request sends KEEPALIVE with the token's current status. */
static uint8_t
run_cbor(struct ctaphid_dev *d, uint32_t cid, const uint8_t *req, size_t len,
    int64_t now, enum token_mode mode)
{
	uint8_t rep[CTAP2_REPLY_MAX];
	size_t rlen = 0;
	uint8_t status = 0;
	int r;

	r = token_cbor(d->tok, now, mode, req, len, rep, &rlen, &status);
	if (r == ERR_PENDING) {
		if (!d->held)
			hold(d, cid, CMD_CBOR, req, len, now, status);
		return status;
	}
	if (d->held)
		release(d);
	if (r == ERR_OK)
		send_frames(d, cid, CMD_CBOR, rep, rlen, 0);
	else
		send_error(d, cid, ERR_CODE_OTHER);
	util_wipe(rep, sizeof(rep));
	return 0;
}

/* Run the held request again (tick) or cancel it. 0 once answered, else
 * the keepalive status. */
static uint8_t
rerun(struct ctaphid_dev *d, int64_t now, enum token_mode mode)
{
	if (d->h_cmd == CMD_CBOR)
		return run_cbor(d, d->h_cid, d->h_apdu, d->h_len, now, mode);
	run_apdu(d, d->h_cid, d->h_apdu, d->h_len, now, mode);
	return 0x02;
}

static void
do_msg(struct ctaphid_dev *d, uint32_t cid, const uint8_t *apdu, size_t len,
    int64_t now)
{
	if (!token_has_u2f(d->tok)) {
		send_error(d, cid, ERR_CODE_INVALID_CMD);
		return;
	}
	if (d->faults & FAULT_ENDLESS_KEEPALIVE) {
		hold(d, cid, CMD_MSG, apdu, len, now, 0x02);
		return;
	}
	if (d->faults & FAULT_ERROR_FRAMES) {
		send_error(d, cid, ERR_CODE_OTHER);
		return;
	}
	run_apdu(
	    d, cid, apdu, len, now, d->keepalive ? TOKEN_HOLD : TOKEN_ANSWER);
}

static void
do_init(struct ctaphid_dev *d, uint32_t cid, const uint8_t *data, size_t len)
{
	uint8_t rep[17];

	if (len != 8) {
		send_error(d, cid, ERR_CODE_INVALID_LEN);
		return;
	}
	memcpy(rep, data, 8);
	put_cid(rep + 8, cid == CID_BROADCAST ? alloc_cid(d) : cid);
	rep[12] = 2; /* CTAPHID protocol version */
	rep[13] = 1; /* device version 1.0.0 */
	rep[14] = 0;
	rep[15] = 0;
	rep[16] = 0x01; /* WINK; CBOR if CTAP2 is on; NMSG if U2F is off */
	if (token_has_ctap2(d->tok))
		rep[16] |= 0x04;
	if (!token_has_u2f(d->tok))
		rep[16] |= 0x08;
	send_frames(d, cid, CMD_INIT, rep,
	    (d->faults & FAULT_SHORT_INIT) ? 16 : sizeof(rep), 0);
}

static void
dispatch(struct ctaphid_dev *d, uint32_t cid, uint8_t cmd, const uint8_t *data,
    size_t len, int64_t now)
{
	switch (cmd) {
	case CMD_INIT:
		do_init(d, cid, data, len);
		break;
	case CMD_PING:
		send_frames(d, cid, CMD_PING, data, len, 0);
		break;
	case CMD_MSG:
		do_msg(d, cid, data, len, now);
		break;
	case CMD_WINK:
		send_frames(d, cid, CMD_WINK, NULL, 0, 0);
		break;
	case CMD_CBOR:
		if (token_has_ctap2(d->tok))
			run_cbor(d, cid, data, len, now, TOKEN_HOLD);
		else
			send_error(d, cid, ERR_CODE_INVALID_CMD);
		break;
	case CMD_CANCEL:
		break; /* nothing to cancel on this channel */
	default:
		send_error(d, cid, ERR_CODE_INVALID_CMD);
		break;
	}
}

/* An init frame while a request is assembled or held. 1 if handled. */
static int
init_while_busy(struct ctaphid_dev *d, uint32_t cid, uint8_t cmd, int64_t now)
{
	uint32_t owner = d->busy ? d->a_cid : d->h_cid;

	if (cid != owner) {
		send_error(d, cid, ERR_CODE_BUSY);
		return 1;
	}
	if (cmd == CMD_INIT) { /* resync: drop what was pending */
		d->busy = 0;
		if (d->held)
			release(d);
		return 0;
	}
	if (d->busy) {
		d->busy = 0;
		send_error(d, cid, ERR_CODE_INVALID_SEQ);
	} else if (cmd == CMD_CANCEL) {
		if (d->h_cmd == CMD_CBOR ||
		    !(d->faults & FAULT_ENDLESS_KEEPALIVE))
			rerun(d, now, TOKEN_CANCEL);
	} else
		send_error(d, cid, ERR_CODE_BUSY);
	return 1;
}

static void
init_frame(struct ctaphid_dev *d, uint32_t cid, const uint8_t *r, int64_t now)
{
	uint8_t cmd = r[4] & 0x7f;
	size_t bcnt = (size_t)r[5] << 8 | r[6];

	if ((d->busy || d->held) && init_while_busy(d, cid, cmd, now))
		return;
	if (cid == 0 || (cid == CID_BROADCAST && cmd != CMD_INIT) ||
	    (cid != CID_BROADCAST && !allocated(d, cid))) {
		send_error(d, cid, ERR_CODE_INVALID_CHANNEL);
		return;
	}
	if (bcnt > CTAPHID_DEV_MSG_MAX) {
		send_error(d, cid, ERR_CODE_INVALID_LEN);
		return;
	}
	if (bcnt <= INIT_DATA) {
		dispatch(d, cid, cmd, r + 7, bcnt, now);
		return;
	}
	d->busy = 1;
	d->a_cid = cid;
	d->a_cmd = cmd;
	d->a_bcnt = bcnt;
	d->a_got = INIT_DATA;
	d->a_seq = 0;
	d->a_deadline = now + CTAPHID_DEV_MSG_TIMEOUT_MS;
	memcpy(d->a_buf, r + 7, INIT_DATA);
}

static void
cont_frame(struct ctaphid_dev *d, uint32_t cid, const uint8_t *r, int64_t now)
{
	size_t n;

	if (!d->busy || cid != d->a_cid)
		return; /* spurious continuation: ignore */
	if (r[4] != d->a_seq) {
		d->busy = 0;
		send_error(d, cid, ERR_CODE_INVALID_SEQ);
		return;
	}
	n = d->a_bcnt - d->a_got;
	if (n > CONT_DATA)
		n = CONT_DATA;
	memcpy(d->a_buf + d->a_got, r + 5, n);
	d->a_got += n;
	d->a_seq++;
	d->a_deadline = now + CTAPHID_DEV_MSG_TIMEOUT_MS;
	if (d->a_got < d->a_bcnt)
		return;
	d->busy = 0;
	dispatch(d, cid, d->a_cmd, d->a_buf, d->a_bcnt, now);
	util_wipe(d->a_buf, d->a_bcnt);
}

void
ctaphid_dev_input(
    struct ctaphid_dev *d, const uint8_t *report, size_t len, int64_t now_ms)
{
	uint32_t cid;

	if (d->gone || len != CTAPHID_DEV_REPORT)
		return;
	ctaphid_dev_tick(d, now_ms);
	cid = get_cid(report);
	if (report[4] & 0x80)
		init_frame(d, cid, report, now_ms);
	else
		cont_frame(d, cid, report, now_ms);
}

void
ctaphid_dev_tick(struct ctaphid_dev *d, int64_t now_ms)
{
	uint8_t status = 0x02;

	if (d->gone)
		return;
	if (d->busy && now_ms >= d->a_deadline) {
		d->busy = 0;
		send_error(d, d->a_cid, ERR_CODE_MSG_TIMEOUT);
	}
	if (!d->held || now_ms < d->h_next)
		return;
	if (d->h_cmd == CMD_CBOR || !(d->faults & FAULT_ENDLESS_KEEPALIVE)) {
		status = rerun(d, now_ms, TOKEN_HOLD);
		if (!d->held)
			return;
	}
	send_keepalive(d, d->h_cid, status);
	d->h_next += CTAPHID_DEV_KEEPALIVE_MS;
	if (d->h_next <= now_ms)
		d->h_next = now_ms + CTAPHID_DEV_KEEPALIVE_MS;
}

int
ctaphid_dev_next_ms(const struct ctaphid_dev *d, int64_t now_ms)
{
	int64_t next = -1;

	if (d->gone)
		return -1;
	if (d->busy)
		next = d->a_deadline;
	if (d->held && (next < 0 || d->h_next < next))
		next = d->h_next;
	if (next < 0)
		return -1;
	if (next <= now_ms)
		return 0;
	return next - now_ms > 60000 ? 60000 : (int)(next - now_ms);
}

int
ctaphid_dev_gone(const struct ctaphid_dev *d)
{
	return d->gone;
}

int
ctaphid_dev_new(struct ctaphid_dev **out, struct token *tok, int keepalive,
    ctaphid_dev_send_fn *send, void *arg)
{
	struct ctaphid_dev *d;
	uint32_t first = 0;
	int r;

	*out = NULL;
	if ((r = util_random(&first, sizeof(first))) != ERR_OK)
		return r;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return ERR_NOMEM;
	d->tok = tok;
	d->keepalive = keepalive;
	d->faults = token_faults(tok);
	d->send = send;
	d->arg = arg;
	d->cid_first = (first & 0x7fffffffu) | 0x01000000u;
	d->cid_next = d->cid_first;
	*out = d;
	return ERR_OK;
}

void
ctaphid_dev_free(struct ctaphid_dev **dp)
{
	if (*dp == NULL)
		return;
	util_freezero(*dp, sizeof(**dp));
	*dp = NULL;
}
