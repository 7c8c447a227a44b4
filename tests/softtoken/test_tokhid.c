/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's CTAPHID device side, in memory:
 * ctaphid_dev.c over a real token, fed 64-byte reports and a fake clock,
 * with every report it sends captured. They cover INIT (channel allocation,
 * resync, the 17-byte reply), channel and command errors, framing across
 * continuation reports up to the 7609-byte maximum, busy channels, sequence
 * errors and the continuation timeout, MSG carrying APDUs, keepalive mode
 * (KEEPALIVE while presence is pending, CANCEL) and the faults injected at
 * the HID level (short INIT, wrong CID, missing continuation, bad sequence,
 * oversized BCNT, ERROR frames, bursts, a vanishing device, endless
 * keepalives). The APDU side is tested in test_token.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "../lib/test.h"
#include "token.h"
#include "ctaphid_dev.h"
#include "tokfix.h"

#define BCAST 0xffffffffu

/* ---- helpers: a device with its captured reports ---- */

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
	g->tok = tokfix_token(p, after_ms, faults, log);
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
	size_t alen = tokfix_apdu(apdu, ins, p1, data, len), i = g->cap.n, n;

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
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	n = hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0);
	T_TRUE(n > 300 && n != (size_t)-1);
	if (n > 300 && n != (size_t)-1) {
		T_EQ_INT(rep[0], 0x05);
		T_EQ_INT(tokfix_sw(rep, n), 0x9000);
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
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	alen = tokfix_apdu(apdu, 0x01, 0x03, data, 64);
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
		T_EQ_INT(tokfix_sw(rep, n), 0x9000);
	T_EQ_INT(ctaphid_dev_next_ms(g->dev, 1300), -1);
	rewind(log);
	n = fread(text, 1, sizeof(text) - 1, log);
	text[n] = '\0';
	T_EQ_STR(text, "keepalive\ntouch\nins=01 p1=03 sw=9000\n");
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

	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	alen = tokfix_apdu(apdu, 0x01, 0x03, data, 64);
	send_msg(g, cid, 0x03, apdu, alen, 0);
	T_TRUE(keepalive_at(g, i++, cid));
	ctaphid_dev_tick(g->dev, 100);
	T_TRUE(keepalive_at(g, i++, cid));
	send_msg(g, cid, 0x11, NULL, 0, 150);
	T_EQ_INT(recv_msg(g, &i, cid, &cmd, rep), 2);
	T_EQ_INT(cmd, 0x03);
	T_EQ_INT(tokfix_sw(rep, 2), 0x6985);
	ctaphid_dev_tick(g->dev, 1000); /* nothing more */
	T_EQ_INT(g->cap.n, i);
	/* without --keepalive the answer is 6985 at once */
	rig_free(g);
	g = mk_rig(TOKEN_PRESENCE_NEVER, 0, 0, 0, NULL);
	cid = do_init(g, 0);
	T_EQ_INT(hid_apdu(g, cid, 0x01, 0x03, data, 64, rep, 0), 2);
	T_EQ_INT(tokfix_sw(rep, 2), 0x6985);
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

	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
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

TEST_MAIN(TEST(test_hid_init), TEST(test_hid_channels),
    TEST(test_hid_multi_report), TEST(test_hid_busy_seq_timeout),
    TEST(test_hid_msg), TEST(test_hid_keepalive), TEST(test_hid_cancel),
    TEST(test_hid_faults))
