/* SPDX-License-Identifier: BSD-2-Clause */
/* The wait under auth.c's loops: one poll(2) over every device with an
 * operation in progress, sleeping until input arrives or the earliest of
 * their wake times (re-send, stall) or the deadline. No slices and no
 * spinning: wait_run hands the caller a device only when it has input or
 * its time has come; the caller steps it and decides what follows (no
 * callbacks). */
#ifndef PU_AUTH_WAIT_H
#define PU_AUTH_WAIT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev.h"

struct wait_stats {
	size_t polls; /* poll(2) calls made */
	size_t steps; /* devices handed out for a step */
};

/* One wait over devs; active[i] (the caller's, read at every event)
 * says which devices are still in the operation. */
struct wait {
	struct dev **devs;
	size_t ndevs;
	const bool *active;
	int64_t deadline;
	struct pollfd *pfd;
	size_t next; /* the device of this round to look at next */
	int64_t now; /* when this round's poll(2) returned */
	bool polled; /* a round is under way */
	struct wait_stats *stats;
	struct wait_stats own; /* when the caller keeps none */
};

/* Set w up over devs until deadline (util_now_ms clock); stats may be
 * NULL. ERR_OK or ERR_NOMEM; free with wait_free. */
int wait_init(struct wait *w, struct dev **devs, size_t ndevs,
    const bool *active, int64_t deadline, struct wait_stats *stats);

/* The next event. ERR_OK: device *due is active and due for a step (it
 * has input, an error on its descriptor, or its wake time passed); the
 * devices due in one round are handed out in index order, one per call,
 * and a device that left meanwhile (active[i] cleared) is skipped.
 * ERR_WRONG_KH: no device is active any more. ERR_TIMEOUT: a round ended
 * at or after the deadline. ERR_SYSTEM: poll(2) failed. Between rounds it
 * sleeps in poll(2). */
int wait_run(struct wait *w, size_t *due);

void wait_free(struct wait *w);

#endif
