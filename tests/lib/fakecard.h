/* SPDX-License-Identifier: BSD-2-Clause */
/* A scripted smart card for tests of the APDU framing (apdu.h): it
 * answers each command APDU with the next queued response, or, once the
 * queue is empty, with a fixed one; it records every command it got. A
 * transmit may be made to take virtual time (tests/lib/vclock.h) or to fail
 * (a card removed, a reader that stalls). */
#ifndef PU_TESTS_FAKECARD_H
#define PU_TESTS_FAKECARD_H

#include <stddef.h>
#include <stdint.h>

#include "transport/apdu.h"

#define FAKECARD_MAX 64

struct fakecard {
	uint8_t rsp[FAKECARD_MAX][APDU_RSP_MAX + 8];
	size_t rsp_len[FAKECARD_MAX];
	size_t nrsp, next;
	uint8_t dflt[APDU_RSP_MAX];
	size_t dflt_len; /* 0: no default, the card fails (fail_err) */
	int fail_err;    /* what transmit returns when nothing is queued */
	int fail_at;     /* > 0: the fail_at-th transmit returns fail_err */
	int xmit_ms;     /* virtual time one transmit takes */
	uint8_t cmd[FAKECARD_MAX][APDU_CMD_MAX];
	size_t cmd_len[FAKECARD_MAX];
	size_t ncmd; /* commands received (all, even past FAKECARD_MAX) */
	int last_ms; /* the ms of the last transmit */
};

/* Queue a response: data (may be NULL with len 0), then SW. */
void fakecard_queue(
    struct fakecard *c, const uint8_t *data, size_t len, uint16_t sw);
/* Queue raw response bytes (malformed ones too). */
void fakecard_queue_raw(struct fakecard *c, const uint8_t *raw, size_t len);
/* The response once the queue is empty. */
void fakecard_default(
    struct fakecard *c, const uint8_t *data, size_t len, uint16_t sw);
/* struct apdu_card for c. */
struct apdu_card fakecard_card(struct fakecard *c);

#endif
