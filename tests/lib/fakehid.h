/* SPDX-License-Identifier: BSD-2-Clause */
/* A scripted fake device behind struct hid_io, for unit tests and fuzzers.
 *
 * Reads return, in order, what was queued: reports (any length, so short
 * or long reports can be tested), errors (ERR_TIMEOUT, ERR_NODEV, ...).
 * When the queue is empty a read returns the "repeat" report if one is
 * set (an endless keepalive, say), else ERR_TIMEOUT at once.
 *
 * Every written report is recorded. Written reports are also reassembled
 * into host messages (CTAPHID framing with the fake's report size); with
 * auto-INIT on, a broadcast INIT is answered with the nonce and the
 * configured CID; with auto-PING on, a PING is echoed; every other
 * complete message goes to the handler, which may queue replies.
 *
 * Open the fake with ctaphid_open(&fakehid_io, fakehid_path(f), ...). */
#ifndef PU_FAKEHID_H
#define PU_FAKEHID_H

#include <stddef.h>
#include <stdint.h>

#include "transport/hid.h"

struct fakehid;

typedef void (*fakehid_msg_fn)(struct fakehid *f, const uint8_t cid[4],
    uint8_t cmd, const uint8_t *data, size_t len, void *arg);

extern const struct hid_io fakehid_io;

/* report: report size for reassembly and fakehid_queue_msg (0 = 64). */
struct fakehid *fakehid_new(size_t report);
void fakehid_free(struct fakehid *f);
/* "fake:<address>", valid while f lives. */
const char *fakehid_path(const struct fakehid *f);

/* Script what reads return. All return 0, or -1 when out of memory. */
int fakehid_queue_report(struct fakehid *f, const uint8_t *r, size_t len);
int fakehid_queue_error(struct fakehid *f, int err);
/* Split a message into init + continuation frames of the fake's report
 * size, zero padded, BCNT = len. */
int fakehid_queue_msg(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len);
/* The same with a frame that only states bcnt; data fills what fits in
 * the init frame (for oversize BCNT tests). */
int fakehid_queue_init_frame(struct fakehid *f, const uint8_t cid[4],
    uint8_t cmd, size_t bcnt, const uint8_t *data, size_t len);
/* One continuation frame with seq and data. */
int fakehid_queue_cont_frame(struct fakehid *f, const uint8_t cid[4],
    uint8_t seq, const uint8_t *data, size_t len);
/* Returned forever once the queue is empty; NULL turns it off. */
void fakehid_set_repeat(struct fakehid *f, const uint8_t *r, size_t len);
size_t fakehid_queued(const struct fakehid *f);

/* Answers. cid is what auto-INIT assigns. */
void fakehid_auto_init(struct fakehid *f, const uint8_t cid[4]);
void fakehid_auto_ping(struct fakehid *f, int on);
void fakehid_set_handler(struct fakehid *f, fakehid_msg_fn fn, void *arg);

/* Time a read takes, for tests on a virtual clock (tests/lib/vclock.h):
 * with ms >= 0, a read that returns a report (or a queued error) first
 * sleeps ms (util_sleep_ms), and a read with nothing to return sleeps the
 * whole time it was given before its ERR_TIMEOUT. -1 (the default): every
 * read returns at once. */
void fakehid_set_read_ms(struct fakehid *f, int ms);

/* Failures: open fails with err (0 = opens); writes fail with err. */
void fakehid_set_open_err(struct fakehid *f, int err);
void fakehid_set_write_err(struct fakehid *f, int err);

/* What the host did. */
size_t fakehid_nwritten(const struct fakehid *f);
/* Written report i (without report id) and its length; NULL if none. */
const uint8_t *fakehid_written(const struct fakehid *f, size_t i, size_t *len);
size_t fakehid_nreads(const struct fakehid *f);
/* ms passed to the last read. */
int fakehid_last_read_ms(const struct fakehid *f);
int fakehid_is_open(const struct fakehid *f);
/* Written reports that broke CTAPHID framing (bad length, SEQ, CID). */
size_t fakehid_bad_frames(const struct fakehid *f);

#endif
