/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of CTAP2 through the software token's CTAPHID device side
 * (ctaphid_dev.c over a real token, a fake clock, every report captured):
 * INIT's capabilities per configuration, CBOR (0x10) framing, MSG and
 * CBOR refused when that protocol is off, KEEPALIVE PROCESSING while the
 * built-in UV runs and UPNEEDED while presence is pending, CANCEL ending a
 * held CBOR request with 2D, endless PROCESSING, and the oversized reply
 * filling the largest message. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "../lib/test.h"
#include "ctap2host.h"
#include "ctaphid_dev.h"
#include "token.h"

#define BCAST 0xffffffffu
#define NREP 256

struct hid {
	struct token *tok;
	struct ctaphid_dev *dev;
	uint8_t r[NREP][64];
	size_t n;   /* reports captured */
	size_t pos; /* next report to read */
	uint32_t cid;
	int64_t now;
};

static void
capture(void *arg, const uint8_t *report)
{
	struct hid *g = arg;

	if (g->n < NREP)
		memcpy(g->r[g->n], report, 64);
	g->n++;
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Frame and send one message. */
static void
send(struct hid *g, uint32_t cid, uint8_t cmd, const uint8_t *d, size_t len)
{
	uint8_t r[64];
	size_t off = 0, k;
	uint8_t seq = 0;

	memset(r, 0, sizeof(r));
	put32(r, cid);
	r[4] = (uint8_t)(0x80 | cmd);
	r[5] = (uint8_t)(len >> 8);
	r[6] = (uint8_t)len;
	k = len < 57 ? len : 57;
	if (k > 0)
		memcpy(r + 7, d, k);
	ctaphid_dev_input(g->dev, r, 64, g->now);
	for (off = k; off < len; off += k) {
		memset(r, 0, sizeof(r));
		put32(r, cid);
		r[4] = seq++;
		k = len - off < 59 ? len - off : 59;
		memcpy(r + 5, d + off, k);
		ctaphid_dev_input(g->dev, r, 64, g->now);
	}
}

/* The next message from the device (keepalives counted per status, not
 * returned); its command, or -1 if none or malformed. */
static int
recv(struct hid *g, uint8_t *buf, size_t *len, unsigned ka[3])
{
	const uint8_t *r;
	size_t bcnt, got, k;
	uint8_t seq = 0;
	int cmd;

	while (g->pos < g->n && g->pos < NREP) {
		r = g->r[g->pos++];
		if (r[4] == 0xbb && r[7] <= 2) {
			ka[r[7]]++;
			continue;
		}
		if (!(r[4] & 0x80))
			return -1;
		cmd = r[4] & 0x7f;
		bcnt = (size_t)r[5] << 8 | r[6];
		got = bcnt < 57 ? bcnt : 57;
		memcpy(buf, r + 7, got);
		while (got < bcnt && g->pos < g->n && g->pos < NREP) {
			r = g->r[g->pos++];
			if (r[4] != seq++)
				return -1;
			k = bcnt - got < 59 ? bcnt - got : 59;
			memcpy(buf + got, r + 5, k);
			got += k;
		}
		*len = got;
		return got == bcnt ? cmd : -1;
	}
	return -1;
}

static struct hid *
hid_new(enum token_ctap2 v, const struct token_config *c)
{
	struct hid *g = calloc(1, sizeof(*g));
	uint8_t nonce[8] = {1, 2, 3, 4, 5, 6, 7, 8}, buf[64];
	unsigned ka[3] = {0, 0, 0};
	size_t len = 0;

	if (g == NULL)
		abort();
	g->tok = ch_token(v, c);
	if (ctaphid_dev_new(&g->dev, g->tok, 0, capture, g) != ERR_OK)
		abort();
	send(g, BCAST, 0x06, nonce, sizeof(nonce));
	if (recv(g, buf, &len, ka) != 0x06 || len != 17)
		abort();
	g->cid = (uint32_t)buf[8] << 24 | (uint32_t)buf[9] << 16 |
	    (uint32_t)buf[10] << 8 | buf[11];
	return g;
}

/* The capabilities byte of the INIT reply. */
static uint8_t
caps(enum token_ctap2 v, const struct token_config *c)
{
	struct hid *g = hid_new(v, c);
	uint8_t b = g->r[0][7 + 16];

	ctaphid_dev_free(&g->dev);
	token_free(&g->tok);
	free(g);
	return b;
}

static void
hid_free(struct hid *g)
{
	ctaphid_dev_free(&g->dev);
	token_free(&g->tok);
	free(g);
}

/* Run the clock in 100 ms steps until the device answered (or steps). */
static void
run(struct hid *g, int steps)
{
	size_t before = g->n;
	int i;

	for (i = 0; i < steps; i++) {
		g->now += 100;
		ctaphid_dev_tick(g->dev, g->now);
		if (g->n > before && g->r[g->n - 1][4] != 0xbb && g->n < NREP &&
		    (g->r[g->n - 1][4] & 0x80))
			return;
	}
}

static void
test_caps(void)
{
	struct token_config c;

	ch_config(&c);
	T_EQ_INT(caps(TOKEN_CTAP2_OFF, &c), 0x01);
	T_EQ_INT(caps(TOKEN_CTAP2_20, &c), 0x05);
	c.u2f_off = 1;
	T_EQ_INT(caps(TOKEN_CTAP2_21, &c), 0x0D);
	ch_config(&c);
	c.always_uv = 1;
	T_EQ_INT(caps(TOKEN_CTAP2_21, &c), 0x0D);
}

static void
test_cbor_frames(void)
{
	static const uint8_t getinfo[] = {0x04};
	static const uint8_t version[] = {0, 3, 0, 0, 0, 0, 0};
	struct token_config c;
	uint8_t buf[CTAP2_REPLY_MAX];
	unsigned ka[3] = {0, 0, 0};
	size_t len = 0;
	struct hid *g;

	ch_config(&c);
	g = hid_new(TOKEN_CTAP2_21, &c);
	send(g, g->cid, 0x10, getinfo, 1);
	T_EQ_INT(recv(g, buf, &len, ka), 0x10);
	T_TRUE(len > 57); /* continuation frames */
	T_EQ_INT(buf[0], 0);
	T_EQ_ERR(cbor_check(buf + 1, len - 1), ERR_OK);
	send(g, g->cid, 0x03, version, sizeof(version)); /* U2F still on */
	T_EQ_INT(recv(g, buf, &len, ka), 0x03);
	T_EQ_INT(len, 8);
	T_EQ_INT(memcmp(buf, "U2F_V2\x90\x00", 8), 0);
	hid_free(g);

	c.u2f_off = 1;
	g = hid_new(TOKEN_CTAP2_21, &c);
	send(g, g->cid, 0x03, version, sizeof(version));
	T_EQ_INT(recv(g, buf, &len, ka), 0x3f);
	T_EQ_INT(buf[0], 0x01);
	hid_free(g);

	ch_config(&c); /* CTAP2 off: CBOR is an unknown command */
	g = hid_new(TOKEN_CTAP2_OFF, &c);
	send(g, g->cid, 0x10, getinfo, 1);
	T_EQ_INT(recv(g, buf, &len, ka), 0x3f);
	T_EQ_INT(buf[0], 0x01);
	hid_free(g);
}

/* Send a MakeCredential request through CTAPHID. */
static void
send_mc(struct hid *g, int uv)
{
	uint8_t req[REQ_MAX + 1];
	struct ch_req q;

	ch_req_init(&q, "pam://hid");
	q.uv = uv;
	req[0] = 0x01;
	send(g, g->cid, 0x10, req, 1 + ch_mc_request(&q, req + 1));
}

static void
test_keepalive_status(void)
{
	struct token_config c;
	uint8_t buf[CTAP2_REPLY_MAX];
	unsigned ka[3] = {0, 0, 0};
	size_t len = 0;
	struct hid *g;

	ch_config(&c);
	c.uv = TOKEN_UV_OK;
	c.presence = TOKEN_PRESENCE_AFTER;
	c.after_ms = 400;
	g = hid_new(TOKEN_CTAP2_21, &c);
	send_mc(g, 1);
	run(g, 50);
	T_EQ_INT(recv(g, buf, &len, ka), 0x10);
	T_EQ_INT(buf[0], 0);
	T_TRUE(ka[1] >= 3); /* UV: PROCESSING */
	T_TRUE(ka[2] >= 3); /* then presence: UPNEEDED */
	T_EQ_INT(ka[0], 0);
	hid_free(g);
}

static void
test_cancel(void)
{
	struct token_config c;
	uint8_t buf[CTAP2_REPLY_MAX];
	unsigned ka[3] = {0, 0, 0};
	size_t len = 0;
	struct hid *g;

	ch_config(&c);
	c.presence = TOKEN_PRESENCE_NEVER;
	g = hid_new(TOKEN_CTAP2_21, &c);
	send_mc(g, -1);
	run(g, 5);
	send(g, g->cid, 0x11, NULL, 0);
	T_EQ_INT(recv(g, buf, &len, ka), 0x10);
	T_EQ_INT(len, 1);
	T_EQ_INT(buf[0], 0x2D);
	T_TRUE(ka[2] >= 5);
	hid_free(g);

	c.faults = FAULT_ENDLESS_PROCESSING;
	c.presence = TOKEN_PRESENCE_NOW;
	g = hid_new(TOKEN_CTAP2_21, &c);
	send_mc(g, -1);
	run(g, 10);
	send(g, g->cid, 0x11, NULL, 0);
	run(g, 10);
	T_EQ_INT(recv(g, buf, &len, ka), -1); /* never answered */
	T_TRUE(ka[1] >= 20);
	hid_free(g);
}

static void
test_oversized(void)
{
	static const uint8_t retries[] = {0x06, 0xa2, 0x01, 0x01, 0x02, 0x01};
	struct token_config c;
	uint8_t buf[CTAP2_REPLY_MAX];
	unsigned ka[3] = {0, 0, 0};
	size_t len = 0;
	struct hid *g;

	ch_config(&c);
	c.faults = FAULT_CBOR_OVERSIZED;
	g = hid_new(TOKEN_CTAP2_21, &c);
	send(g, g->cid, 0x10, retries, sizeof(retries));
	T_EQ_INT(recv(g, buf, &len, ka), 0x10);
	T_EQ_INT(len, CTAPHID_DEV_MSG_MAX);
	T_EQ_INT(g->n, 1 + 1 + 128); /* INIT reply, init + 128 frames */
	T_EQ_INT(buf[0], 0);
	T_TRUE(cbor_check(buf + 1, len - 1) != ERR_OK);
	hid_free(g);
}

TEST_MAIN(TEST(test_caps), TEST(test_cbor_frames), TEST(test_keepalive_status),
    TEST(test_cancel), TEST(test_oversized))
