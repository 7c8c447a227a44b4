/* SPDX-License-Identifier: BSD-2-Clause */
/* The device side of CTAPHID: fed one 64-byte output report at a time,
 * emits 64-byte input reports through a callback. Time is passed in by the
 * caller so tests can drive it without sleeping. */
#ifndef ST_CTAPHID_DEV_H
#define ST_CTAPHID_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "token.h"

#define CTAPHID_DEV_REPORT 64
#define CTAPHID_DEV_MSG_MAX 7609
#define CTAPHID_DEV_MSG_TIMEOUT_MS 500
#define CTAPHID_DEV_KEEPALIVE_MS 100

/* Called once per input report the device sends (always 64 bytes). */
typedef void ctaphid_dev_send_fn(void *arg, const uint8_t *report);

struct ctaphid_dev;

/* tok is borrowed; keepalive: hold MSGs that need presence (see README). */
int ctaphid_dev_new(struct ctaphid_dev **out, struct token *tok, int keepalive,
    ctaphid_dev_send_fn *send, void *arg);
void ctaphid_dev_free(struct ctaphid_dev **dp);

/* One output report from the host (len must be 64, else it is dropped). */
void ctaphid_dev_input(
    struct ctaphid_dev *d, const uint8_t *report, size_t len, int64_t now_ms);
/* Run timers: message timeout, keepalives of a held request. */
void ctaphid_dev_tick(struct ctaphid_dev *d, int64_t now_ms);
/* Milliseconds until ctaphid_dev_tick should run, or -1 for never. */
int ctaphid_dev_next_ms(const struct ctaphid_dev *d, int64_t now_ms);
/* Nonzero once the device "disappeared" (fault vanish): close the front. */
int ctaphid_dev_gone(const struct ctaphid_dev *d);

#endif
