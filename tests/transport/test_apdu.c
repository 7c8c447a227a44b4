/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for the ISO 7816-4 framing of FIDO messages (apdu.c)
 * against the scripted card of tests/lib/fakecard.c: command APDUs byte for
 * byte (short, chained in APDU_CHUNK parts, U2F's extended APDUs framed
 * again), replies collected through 61xx + GET RESPONSE and bounded,
 * SELECT's answer, every status word, NFCCTAP_GETRESPONSE polled while
 * the key answers 9100 (sleeping between polls: the clock is virtual,
 * tests/lib/vclock.h, and a loop that spun would bail out), cancel, and a card
 * that is removed, stalls or answers malformed responses. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"
#include "fakecard.h"
#include "test.h"
#include "transport/apdu.h"
#include "transport/xport.h"
#include "vclock.h"

static struct fakecard *
card_new(struct apdu_fido **f)
{
	struct fakecard *c = calloc(1, sizeof(*c));

	*f = calloc(1, sizeof(**f));
	if (c == NULL || *f == NULL)
		abort();
	(*f)->card = fakecard_card(c);
	return c;
}

static void
card_free(struct fakecard *c, struct apdu_fido *f)
{
	free(c);
	free(f);
}

static void
pattern(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static void
test_build_parse(void)
{
	static const uint8_t hdr[4] = {0x80, 0x10, 0x80, 0x00};
	uint8_t out[APDU_CMD_MAX], data[300], h[4];
	const uint8_t *d;
	size_t n = 0, dl;

	pattern(data, sizeof(data), 1);
	T_EQ_ERR(apdu_build(hdr, data, 3, true, out, sizeof(out), &n), ERR_OK);
	T_EQ_INT(n, 9);
	T_EQ_MEM(out, "\x80\x10\x80\x00\x03", 5);
	T_EQ_INT(out[8], 0);
	T_EQ_ERR(apdu_build(hdr, NULL, 0, true, out, sizeof(out), &n), ERR_OK);
	T_EQ_INT(n, 5);
	T_EQ_ERR(apdu_build(hdr, NULL, 0, false, out, sizeof(out), &n), ERR_OK);
	T_EQ_INT(n, 4);
	T_EQ_ERR(apdu_build(hdr, data, 256, true, out, sizeof(out), &n),
	    ERR_TOO_BIG);
	T_EQ_ERR(apdu_build(hdr, data, 10, true, out, 10, &n), ERR_TOO_BIG);
	/* short with and without Le, extended with and without Le */
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x01\x02\x03\x02\xAA\xBB",
		     7, h, &d, &dl),
	    ERR_OK);
	T_EQ_INT(dl, 2);
	T_EQ_INT(d[1], 0xBB);
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x01\x02\x03\x01\xAA\x00",
		     7, h, &d, &dl),
	    ERR_OK);
	T_EQ_INT(dl, 1);
	T_EQ_ERR(apdu_parse_cmd(
		     (const uint8_t *)"\x00\x02\x03\x00\x00\x00\x02\xAA\xBB\x00"
				      "\x00",
		     11, h, &d, &dl),
	    ERR_OK);
	T_EQ_INT(dl, 2);
	T_EQ_INT(h[2], 3);
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x03\x00\x00\x00\x00\x00",
		     7, h, &d, &dl),
	    ERR_OK);
	T_EQ_INT(dl, 0);
	T_EQ_ERR(
	    apdu_parse_cmd((const uint8_t *)"\x00\x03\x00\x00", 4, h, &d, &dl),
	    ERR_OK);
	/* lengths that do not add up; an extended Lc cut short (found by
	 * fuzz_apdu: fuzz/crashes-found/apdu-ext-lc-cut) */
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x00\xff\xfd\x00\x01", 6,
		     h, &d, &dl),
	    ERR_PROTO);
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x01", 2, h, &d, &dl),
	    ERR_PROTO);
	T_EQ_ERR(apdu_parse_cmd((const uint8_t *)"\x00\x01\x02\x03\x05\xAA", 6,
		     h, &d, &dl),
	    ERR_PROTO);
	T_EQ_ERR(
	    apdu_parse_cmd((const uint8_t *)"\x00\x01\x02\x03\x01\xAA\x00\x00",
		8, h, &d, &dl),
	    ERR_PROTO);
	T_EQ_ERR(
	    apdu_parse_cmd((const uint8_t *)"\x00\x01\x02\x03\x00\x00\x05\xAA",
		8, h, &d, &dl),
	    ERR_PROTO);
	T_EQ_ERR(apdu_parse_cmd(
		     (const uint8_t *)"\x00\x01\x02\x03\x00\x00\x01\xAA\x00", 9,
		     h, &d, &dl),
	    ERR_PROTO);
}

static void
test_sw_err(void)
{
	T_EQ_ERR(apdu_sw_err(0x6700), ERR_WRONG_LENGTH);
	T_EQ_ERR(apdu_sw_err(0x6985), ERR_PRESENCE);
	T_EQ_ERR(apdu_sw_err(0x6A80), ERR_WRONG_KH);
	T_EQ_ERR(apdu_sw_err(0x6984), ERR_WRONG_KH);
	T_EQ_ERR(apdu_sw_err(0x6D00), ERR_INS_NOT_SUPPORTED);
	T_EQ_ERR(apdu_sw_err(0x6E00), ERR_UNSUPPORTED);
	T_EQ_ERR(apdu_sw_err(0x6A81), ERR_UNSUPPORTED);
	T_EQ_ERR(apdu_sw_err(0x6A82), ERR_UNSUPPORTED);
	T_EQ_ERR(apdu_sw_err(0x6F00), ERR_SW);
	T_EQ_ERR(apdu_sw_err(0x6400), ERR_SW);
}

static void
test_select(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t caps = 0;

	fakecard_queue(c, (const uint8_t *)"U2F_V2", 6, 0x9000);
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_OK);
	T_EQ_INT(caps, XPORT_CAP_CBOR);
	T_EQ_INT(c->cmd_len[0], 14);
	T_EQ_MEM(c->cmd[0],
	    "\x00\xA4\x04\x00\x08\xA0\x00\x00\x06\x47\x2F\x00\x01\x00", 14);
	fakecard_queue(c, (const uint8_t *)"FIDO_2_0", 8, 0x9000);
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_OK);
	T_EQ_INT(caps, XPORT_CAP_CBOR | XPORT_CAP_NMSG);
	fakecard_queue(c, NULL, 0, 0x6A82); /* no FIDO applet */
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_UNSUPPORTED);
	fakecard_queue(c, (const uint8_t *)"U2F_V3", 6, 0x9000);
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_PROTO);
	fakecard_queue(c, (const uint8_t *)"U2F_V2x", 7, 0x9000);
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_PROTO);
	fakecard_queue_raw(c, (const uint8_t *)"\x90", 1); /* truncated */
	T_EQ_ERR(apdu_fido_select(f, 1000, &caps), ERR_PROTO);
	card_free(c, f);
}

/* A CTAP2 request longer than one APDU goes out in chained parts. */
static void
test_chaining(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t req[600], buf[64];
	size_t len = 0;
	int st;

	pattern(req, sizeof(req), 3);
	fakecard_queue(c, NULL, 0, 0x9000);
	fakecard_queue(c, NULL, 0, 0x9000);
	fakecard_queue(c, (const uint8_t *)"\x00\xA1", 2, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, req, sizeof(req), 1000), ERR_OK);
	T_EQ_INT(c->ncmd, 0); /* queued: the card sees it in the recv */
	T_EQ_INT(apdu_fido_wake_at(f), 0);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_OK);
	T_EQ_INT(c->ncmd, 3);
	T_EQ_INT(c->cmd_len[0], 5 + APDU_CHUNK);
	T_EQ_MEM(c->cmd[0], "\x90\x10\x80\x00\xF0", 5);
	T_EQ_MEM(c->cmd[0] + 5, req, APDU_CHUNK);
	T_EQ_MEM(c->cmd[1], "\x90\x10\x80\x00\xF0", 5);
	T_EQ_MEM(c->cmd[1] + 5, req + APDU_CHUNK, APDU_CHUNK);
	T_EQ_INT(c->cmd_len[2], 5 + 120 + 1);
	T_EQ_MEM(c->cmd[2], "\x80\x10\x80\x00\x78", 5);
	T_EQ_MEM(c->cmd[2] + 5, req + 2 * APDU_CHUNK, 120);
	T_EQ_INT(c->cmd[2][125], 0x00); /* Le */
	T_EQ_INT(len, 2);
	T_EQ_MEM(buf, "\x00\xA1", 2);
	/* a part refused: no more parts, its status is the answer */
	c->ncmd = 0;
	fakecard_queue(c, NULL, 0, 0x6700);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, req, sizeof(req), 1000), ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_WRONG_LENGTH);
	T_EQ_INT(c->ncmd, 1);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, req, APDU_REQUEST_MAX + 1, 1000),
	    ERR_TOO_BIG);
	T_EQ_ERR(apdu_fido_send(f, 0x42, req, 10, 1000), ERR_INVAL);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, req, 0, 1000), ERR_INVAL);
	card_free(c, f);
}

/* 61xx: the rest of the reply through GET RESPONSE, bounded. */
static void
test_get_response(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t part[256], buf[APDU_REPLY_MAX];
	size_t len = 0, i;
	int st;

	pattern(part, sizeof(part), 9);
	fakecard_queue(c, part, 256, 0x6110);
	fakecard_queue(c, part, 16, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_OK);
	T_EQ_INT(c->ncmd, 2);
	T_EQ_INT(c->cmd_len[1], 5);
	T_EQ_MEM(c->cmd[1], "\x00\xC0\x00\x00\x10", 5);
	T_EQ_INT(len, 272);
	T_EQ_MEM(buf, part, 256);
	T_EQ_MEM(buf + 256, part, 16);
	/* longer than the caller's buffer */
	fakecard_queue(c, part, 256, 0x6100);
	fakecard_queue(c, part, 16, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, 271, &len, 0, &st), ERR_PROTO);
	/* 61xx with no data: no progress, refused */
	fakecard_queue(c, part, 10, 0x6100);
	fakecard_queue(c, NULL, 0, 0x6100);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_PROTO);
	/* a card that never stops: refused at APDU_REPLY_MAX */
	c->ncmd = 0;
	fakecard_default(c, part, 256, 0x6100);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TOO_BIG);
	T_EQ_INT(c->ncmd, APDU_REPLY_MAX / 256 + 1);
	/* a response APDU longer than any */
	c->dflt_len = 0;
	for (i = 0; i < sizeof(part); i++)
		part[i] = 0x61;
	fakecard_queue_raw(c, part, 0); /* empty */
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_PROTO);
	card_free(c, f);
}

/* Every status word of a CTAP2 exchange. */
static void
test_cbor_status_words(void)
{
	static const struct {
		uint16_t sw;
		int err;
	} sws[] = {{0x6700, ERR_WRONG_LENGTH}, {0x6985, ERR_PRESENCE},
	    {0x6A80, ERR_WRONG_KH}, {0x6A82, ERR_UNSUPPORTED},
	    {0x6D00, ERR_INS_NOT_SUPPORTED}, {0x6E00, ERR_UNSUPPORTED},
	    {0x6F00, ERR_SW}, {0x9001, ERR_SW}};
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[64];
	size_t len, i;
	int st;

	for (i = 0; i < sizeof(sws) / sizeof(sws[0]); i++) {
		fakecard_queue(c, (const uint8_t *)"\x00", 1, sws[i].sw);
		T_EQ_ERR(apdu_fido_send(
			     f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
		    ERR_OK);
		T_EQ_ERR(apdu_fido_recv(
			     f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
		    sws[i].err);
		T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	}
	card_free(c, f);
}

/* 9100: polled with NFCCTAP_GETRESPONSE every APDU_POLL_MS, asleep in
 * between; the status byte is the keepalive status. */
static void
test_poll(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[64];
	size_t len = 0;
	int64_t t0;
	int st;

	c->xmit_ms = 5;
	fakecard_queue(c, (const uint8_t *)"\x01", 1, 0x9100);
	fakecard_queue(c, (const uint8_t *)"\x02", 1, 0x9100);
	fakecard_queue(c, (const uint8_t *)"\x02", 1, 0x9100);
	fakecard_queue(c, (const uint8_t *)"\x00\xA0", 2, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	/* the MSG goes out: 9100, processing */
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(st, XPORT_KA_PROCESSING);
	T_EQ_INT(c->ncmd, 1);
	T_EQ_MEM(c->cmd[0], "\x80\x10\x80\x00\x01\x02\x00", 7);
	t0 = vclock_now_ms();
	T_EQ_INT(apdu_fido_wake_at(f), util_now_ms() + APDU_POLL_MS);
	/* not due: nothing sent, the key's status */
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(st, XPORT_KA_PROCESSING);
	T_EQ_INT(c->ncmd, 1);
	T_EQ_INT(vclock_now_ms(), t0);
	/* 50 ms: asleep all of it, still nothing sent */
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 50, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(vclock_now_ms(), t0 + 50);
	T_EQ_INT(c->ncmd, 1);
	/* due: one GETRESPONSE, the key now waits for the user */
	vclock_advance_ms(50);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(st, XPORT_KA_UPNEEDED);
	T_EQ_INT(c->ncmd, 2);
	T_EQ_MEM(c->cmd[1], "\x80\x11\x00\x00\x00", 5);
	T_EQ_INT(c->cmd_len[1], 5);
	T_EQ_INT(apdu_fido_wake_at(f), util_now_ms() + APDU_POLL_MS);
	/* a long wait: two more polls, a sleep before each */
	t0 = vclock_now_ms();
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 1000, &st),
	    ERR_OK);
	T_EQ_INT(c->ncmd, 4);
	T_EQ_INT(vclock_now_ms() - t0, 2 * (APDU_POLL_MS + c->xmit_ms));
	T_EQ_INT(len, 2);
	T_EQ_MEM(buf, "\x00\xA0", 2);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	card_free(c, f);
}

/* Cancel: no more polls, and no reply for a later recv. */
static void
test_cancel(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[64];
	size_t len = 0;
	int st;

	fakecard_default(c, (const uint8_t *)"\x02", 1, 0x9100);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TIMEOUT);
	apdu_fido_cancel(f);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	vclock_advance_ms(10 * APDU_POLL_MS);
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 500, &st),
	    ERR_INVAL);
	T_EQ_INT(c->ncmd, 1);
	/* the reply of another kind is not handed out */
	fakecard_queue(c, NULL, 0, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 0, &st),
	    ERR_INVAL);
	card_free(c, f);
}

/* U2F: the request APDU (extended, as the U2F code builds it) framed
 * short; the reply is the data and the status word, 6985 included. */
static void
test_u2f(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t req[7 + 64 + 2], buf[512], body[300];
	size_t len = 0;
	int st;

	memcpy(req, "\x00\x01\x03\x00\x00\x00\x40", 7);
	pattern(req + 7, 64, 5);
	req[71] = req[72] = 0;
	fakecard_queue(c, NULL, 0, 0x6985);
	T_EQ_ERR(apdu_fido_send(f, XPORT_MSG, req, sizeof(req), 100), ERR_OK);
	T_EQ_INT(apdu_fido_wake_at(f), 0);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 0, &st),
	    ERR_OK);
	T_EQ_INT(c->cmd_len[0], 5 + 64 + 1);
	T_EQ_MEM(c->cmd[0], "\x00\x01\x03\x00\x40", 5);
	T_EQ_MEM(c->cmd[0] + 5, req + 7, 64);
	T_EQ_INT(len, 2);
	T_EQ_MEM(buf, "\x69\x85", 2);
	/* a register reply longer than one response APDU */
	pattern(body, sizeof(body), 11);
	fakecard_queue(c, body, 256, 0x612C);
	fakecard_queue(c, body + 256, 44, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_MSG, req, sizeof(req), 100), ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 0, &st),
	    ERR_OK);
	T_EQ_INT(len, 302);
	T_EQ_MEM(buf, body, 300);
	T_EQ_MEM(buf + 300, "\x90\x00", 2);
	/* VERSION: no data */
	fakecard_queue(c, (const uint8_t *)"U2F_V2", 6, 0x9000);
	T_EQ_ERR(apdu_fido_send(f, XPORT_MSG,
		     (const uint8_t *)"\x00\x03\x00\x00\x00\x00\x00", 7, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 0, &st),
	    ERR_OK);
	T_EQ_INT(c->cmd_len[c->ncmd - 1], 5);
	T_EQ_MEM(c->cmd[c->ncmd - 1], "\x00\x03\x00\x00\x00", 5);
	/* a malformed request APDU is the caller's bug */
	T_EQ_ERR(apdu_fido_send(
		     f, XPORT_MSG, (const uint8_t *)"\x00\x01\x03", 3, 100),
	    ERR_INVAL);
	card_free(c, f);
}

/* The card removed, or a reader that stalls, mid-operation. */
static void
test_link_failures(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[64];
	size_t len = 0;
	int st;

	c->fail_err = ERR_NODEV;
	c->fail_at = 1;
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_NODEV);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	/* removed while the key waits for a touch */
	c->ncmd = 0;
	c->fail_at = 2;
	fakecard_queue(c, (const uint8_t *)"\x02", 1, 0x9100);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 1000, &st),
	    ERR_NODEV);
	T_EQ_INT(c->ncmd, 2);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	/* a stalled poll: cut at APDU_XMIT_MS, the request is over (not
	 * "still waiting") */
	c->ncmd = 0;
	c->fail_at = 2;
	c->fail_err = ERR_TIMEOUT;
	fakecard_queue(c, (const uint8_t *)"\x02", 1, 0x9100);
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 1000, &st),
	    ERR_IO);
	T_EQ_INT(c->last_ms, APDU_XMIT_MS);
	/* the first APDU within the recv's ms, or APDU_XMIT_MS with 0 */
	c->ncmd = 0;
	c->fail_at = 1;
	T_EQ_ERR(apdu_fido_send(f, XPORT_MSG,
		     (const uint8_t *)"\x00\x03\x00\x00\x00", 5, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 400, &st),
	    ERR_IO);
	T_EQ_INT(c->last_ms, 400);
	c->ncmd = 0;
	T_EQ_ERR(apdu_fido_send(f, XPORT_MSG,
		     (const uint8_t *)"\x00\x03\x00\x00\x00", 5, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_MSG, buf, sizeof(buf), &len, 0, &st),
	    ERR_IO);
	T_EQ_INT(c->last_ms, APDU_XMIT_MS);
	card_free(c, f);
}

/* A card that answers every GET RESPONSE with 61 01 and one byte: the
 * reply would take APDU_REPLY_MAX rounds; the exchange ends at the
 * APDU_MORE_MAX-th, or at the operation's deadline, whichever is first. */
static void
test_trickle(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[APDU_REPLY_MAX];
	size_t len = 0;
	int64_t t0;
	int st;

	fakecard_default(c, (const uint8_t *)"\x00", 1, 0x6101);
	/* the round cap: instant APDUs, no deadline */
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_PROTO);
	T_EQ_INT(c->ncmd, 1 + APDU_MORE_MAX);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	/* the operation's deadline: 2 s left, 100 ms an APDU */
	c->ncmd = 0;
	c->xmit_ms = 100;
	t0 = vclock_now_ms();
	f->deadline = util_now_ms() + 2000;
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_IO);
	T_EQ_INT(vclock_now_ms(), t0 + 2000);
	T_EQ_INT(c->ncmd, 20);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	/* no deadline from the operation: APDU_EXCHANGE_MS in all */
	c->ncmd = 0;
	c->xmit_ms = 1000;
	f->deadline = 0;
	t0 = vclock_now_ms();
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x04", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_IO);
	T_EQ_INT(vclock_now_ms(), t0 + APDU_EXCHANGE_MS);
	T_EQ_INT(c->ncmd, APDU_EXCHANGE_MS / 1000);
	card_free(c, f);
}

/* A key that answers 9100 for ever: polled until the operation's
 * deadline (then "still waiting", and no more polls), and without one,
 * APDU_POLLS_MAX times. */
static void
test_busy_forever(void)
{
	struct apdu_fido *f;
	struct fakecard *c = card_new(&f);
	uint8_t buf[64];
	size_t len = 0;
	int64_t t0 = vclock_now_ms();
	int st;

	fakecard_default(c, (const uint8_t *)"\x01", 1, 0x9100);
	f->deadline = util_now_ms() + 1000;
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(
	    apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 60000, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(vclock_now_ms(), t0 + 1000);
	T_EQ_INT(c->ncmd, 1000 / APDU_POLL_MS);
	T_EQ_INT(st, XPORT_KA_PROCESSING);
	vclock_advance_ms(10 * APDU_POLL_MS);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len, 0, &st),
	    ERR_TIMEOUT);
	T_EQ_INT(c->ncmd, 1000 / APDU_POLL_MS);
	/* no deadline: the poll cap */
	c->ncmd = 0;
	f->deadline = 0;
	T_EQ_ERR(apdu_fido_send(f, XPORT_CBOR, (const uint8_t *)"\x02", 1, 100),
	    ERR_OK);
	T_EQ_ERR(apdu_fido_recv(f, XPORT_CBOR, buf, sizeof(buf), &len,
		     (APDU_POLLS_MAX + 10) * APDU_POLL_MS, &st),
	    ERR_IO);
	T_EQ_INT(c->ncmd, 1 + APDU_POLLS_MAX);
	T_EQ_INT(apdu_fido_wake_at(f), INT64_MAX);
	card_free(c, f);
}

TEST_MAIN(TEST(test_build_parse), TEST(test_sw_err), TEST(test_select),
    TEST(test_chaining), TEST(test_get_response), TEST(test_cbor_status_words),
    TEST(test_poll), TEST(test_cancel), TEST(test_u2f),
    TEST(test_link_failures), TEST(test_trickle), TEST(test_busy_forever))
