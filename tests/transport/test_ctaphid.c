/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for opening a channel with common/transport/ctaphid.c, against the
 * scripted device of tests/lib/fakehid.c: the CTAPHID_INIT request on the
 * broadcast channel and the checks on its reply (exactly 17 bytes, our
 * random nonce, a CID that is neither 0 nor broadcast, replies for other
 * nonces skipped only until the deadline), the errors of ctaphid_open
 * itself (open and write failures, report sizes, silence, the log line
 * naming the function), and INIT spread over 8-byte reports. Message
 * framing, keepalives, error frames and ctaphid_xfer on an open channel
 * are in tests/transport/test_ctaphid_msg.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ctaphid.h"
#include "base/err.h"
#include "fakehid.h"
#include "test.h"
#include "hidfix.h"

static const uint8_t cid_bcast[4] = {0xff, 0xff, 0xff, 0xff};
static const uint8_t cid_zero[4] = {0, 0, 0, 0};

/* How a scripted INIT answer differs from a good one. */
struct init_script {
	size_t len; /* reply length (17 is right) */
	uint8_t cid[4];
	int wrong_nonce_first; /* queue a reply for another nonce first */
	int only_wrong;        /* and nothing else */
};

static void
init_handler(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	const struct init_script *s = arg;
	uint8_t rep[32];

	if (cmd != CTAPHID_INIT || len != 8 || memcmp(cid, cid_bcast, 4) != 0)
		return;
	memset(rep, 0x11, sizeof(rep));
	memcpy(rep, data, 8);
	memcpy(rep + 8, s->cid, 4);
	rep[12] = 2;
	if (s->wrong_nonce_first || s->only_wrong) {
		rep[0] ^= 0x80;
		rep[8] ^= 0x40; /* another process's CID */
		fakehid_queue_msg(f, cid_bcast, CTAPHID_INIT, rep, 17);
		rep[0] ^= 0x80;
		rep[8] ^= 0x40;
	}
	if (!s->only_wrong)
		fakehid_queue_msg(f, cid_bcast, CTAPHID_INIT, rep, s->len);
}

static int
open_with(struct fakehid *f, const struct init_script *s, struct ctaphid **ch)
{
	fakehid_set_handler(f, init_handler, (void *)(uintptr_t)s);
	return ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, NULL, 300, ch);
}

static void
test_init_ok(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = open_fake(f);
	const uint8_t *w;
	size_t len = 0, i;

	T_TRUE(ch != NULL);
	if (ch == NULL)
		goto out;
	T_EQ_MEM(ch->cid, cid_ok, 4);
	T_EQ_INT(ch->proto_version, 2);
	T_EQ_INT(ch->major, 5);
	T_EQ_INT(ch->minor, 5);
	T_EQ_INT(ch->build, 4);
	T_EQ_INT(ch->caps, CTAPHID_CAP_WINK | CTAPHID_CAP_CBOR);
	T_EQ_INT(fakehid_nwritten(f), 1);
	w = fakehid_written(f, 0, &len);
	T_EQ_INT(len, 64);
	T_EQ_MEM(w, "\xff\xff\xff\xff\x86\x00\x08", 7);
	for (i = 15; i < 64; i++)
		T_EQ_INT(w[i], 0);
	T_TRUE(fakehid_is_open(f));
	ctaphid_close(&ch);
	T_TRUE(ch == NULL);
	T_TRUE(!fakehid_is_open(f));
out:
	fakehid_free(f);
}

static void
test_init_nonce_random(void)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *a = open_fake(f), *b = open_fake(f);
	const uint8_t *w0 = fakehid_written(f, 0, NULL);
	const uint8_t *w1 = fakehid_written(f, 1, NULL);

	T_TRUE(w0 != NULL && w1 != NULL);
	if (w0 != NULL && w1 != NULL)
		T_TRUE(memcmp(w0 + 7, w1 + 7, 8) != 0);
	ctaphid_close(&a);
	ctaphid_close(&b);
	fakehid_free(f);
}

static void
test_init_bad_len(void)
{
	static const size_t lens[] = {16, 18, 0, 32};
	struct init_script s = {17, {1, 2, 3, 4}, 0, 0};
	struct ctaphid *ch = NULL;
	struct fakehid *f;
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		f = fakehid_new(0);
		s.len = lens[i];
		T_EQ_ERR(open_with(f, &s, &ch), ERR_PROTO);
		T_TRUE(ch == NULL);
		T_TRUE(!fakehid_is_open(f));
		fakehid_free(f);
	}
	/* The same script with 17 bytes works, so the refusal was the
	 * length. */
	f = fakehid_new(0);
	s.len = 17;
	T_EQ_ERR(open_with(f, &s, &ch), ERR_OK);
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_init_wrong_nonce(void)
{
	struct init_script s = {17, {9, 8, 7, 6}, 1, 0};
	struct ctaphid *ch = NULL;
	struct fakehid *f = fakehid_new(0);

	/* Another nonce first (skipped), then ours. */
	T_EQ_ERR(open_with(f, &s, &ch), ERR_OK);
	T_TRUE(ch != NULL);
	if (ch != NULL)
		T_EQ_MEM(ch->cid, s.cid, 4);
	ctaphid_close(&ch);
	fakehid_free(f);

	/* Only another nonce: skipped, then the deadline. */
	f = fakehid_new(0);
	s.only_wrong = 1;
	T_EQ_ERR(open_with(f, &s, &ch), ERR_TIMEOUT);
	T_TRUE(ch == NULL);
	T_EQ_INT(fakehid_nreads(f), 2);
	fakehid_free(f);
}

static void
test_init_bad_cid(void)
{
	struct init_script s = {17, {0, 0, 0, 0}, 0, 0};
	struct ctaphid *ch = NULL;
	struct fakehid *f = fakehid_new(0);

	T_EQ_ERR(open_with(f, &s, &ch), ERR_PROTO);
	T_TRUE(ch == NULL);
	fakehid_free(f);
	f = fakehid_new(0);
	memcpy(s.cid, cid_bcast, 4);
	T_EQ_ERR(open_with(f, &s, &ch), ERR_PROTO);
	T_TRUE(ch == NULL);
	fakehid_free(f);
	(void)cid_zero;
}

static void
test_open_errors(void)
{
	struct ctaphid *ch = NULL;
	struct fakehid *f = fakehid_new(0);

	fakehid_set_open_err(f, ERR_PERM);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, NULL, 100, &ch),
	    ERR_PERM);
	fakehid_set_open_err(f, 0);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 7, 0, NULL, 100, &ch),
	    ERR_INVAL);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 65, NULL, 100, &ch),
	    ERR_INVAL);
	/* No answer at all. */
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, NULL, 100, &ch),
	    ERR_TIMEOUT);
	fakehid_set_write_err(f, ERR_NODEV);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, NULL, 100, &ch),
	    ERR_NODEV);
	T_TRUE(ch == NULL);
	fakehid_free(f);
}

static void
test_small_reports(void)
{
	struct fakehid *f = fakehid_new(8);
	struct ctaphid *ch = NULL;
	uint8_t data[40];
	const uint8_t *w;
	size_t len = 0;

	pattern(data, sizeof(data), 0x21);
	fakehid_auto_init(f, cid_ok);
	fakehid_auto_ping(f, 1);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 8, 8, NULL, 1000, &ch),
	    ERR_OK);
	if (ch == NULL)
		goto out;
	T_EQ_MEM(ch->cid, cid_ok, 4);
	/* INIT: 1 nonce byte in the init frame, then 3 + 3 + 1. */
	T_EQ_INT(fakehid_nwritten(f), 4);
	w = fakehid_written(f, 3, &len);
	T_TRUE(w != NULL && len == 8 && w[4] == 2 && w[6] == 0 && w[7] == 0);
	T_EQ_ERR(ctaphid_ping(ch, data, sizeof(data), 1000), ERR_OK);
	T_EQ_INT(fakehid_bad_frames(f), 0);
out:
	ctaphid_close(&ch);
	fakehid_free(f);
}

static void
test_log_names_function(void)
{
	struct log_capture c;
	struct log lg = {log_capture_fn, &c};
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = NULL;

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, &lg, 50, &ch),
	    ERR_TIMEOUT);
	T_TRUE(c.lines > 0);
	T_TRUE(strncmp(c.last, "ctaphid_open: ", 14) == 0);
	fakehid_free(f);
}

TEST_MAIN(TEST(test_init_ok), TEST(test_init_nonce_random),
    TEST(test_init_bad_len), TEST(test_init_wrong_nonce),
    TEST(test_init_bad_cid), TEST(test_open_errors), TEST(test_small_reports),
    TEST(test_log_names_function))
