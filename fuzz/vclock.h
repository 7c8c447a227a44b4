/* SPDX-License-Identifier: BSD-2-Clause */
/* Virtual time for the fuzz harnesses: linked with
 * -Wl,--wrap=nanosleep,--wrap=clock_gettime, the production code's sleeps
 * (util_sleep_ms, e.g. ctaphid_xfer's retry after a BUSY error) return at
 * once and move CLOCK_MONOTONIC forward by what they asked for. Deadlines
 * therefore expire as they would on a real device, without the harness
 * waiting for them. */
#ifndef PU_FUZZ_VCLOCK_H
#define PU_FUZZ_VCLOCK_H

#include <time.h>

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem);
int __wrap_clock_gettime(clockid_t clk, struct timespec *ts);

#endif
