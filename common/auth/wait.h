/* The wait under auth_run and auth_register: one poll(2) over every
 * device with an operation in progress, sleeping until input arrives or
 * the earliest of their wake times (re-send, stall) or the deadline. No
 * slices and no spinning: a device is stepped only when it has input or
 * its time has come. */
#ifndef PU_AUTH_WAIT_H
#define PU_AUTH_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev.h"

/* One step of device i's operation: ERR_OK (it won), ERR_PENDING, or an
 * error that takes it out. */
typedef int (*wait_step_fn)(void *arg, size_t i);

struct wait_stats {
	size_t polls; /* poll(2) calls made */
	size_t steps; /* device steps taken */
};

/* Step the active devices until one returns ERR_OK (*winner says which),
 * every one is out (the last error), or deadline (ERR_TIMEOUT). active[i]
 * is cleared for each device that leaves. stats may be NULL. */
int wait_run(struct dev **devs, size_t ndevs, bool *active, wait_step_fn step,
    void *arg, int64_t deadline, size_t *winner, struct wait_stats *stats);

#endif
