/* SPDX-License-Identifier: BSD-2-Clause */
/* A virtual CLOCK_MONOTONIC for unit tests of code that waits only
 * through clock_gettime and nanosleep (util_now_ms, util_sleep_ms):
 * linked with -Wl,--wrap=clock_gettime,--wrap=nanosleep. The clock stands
 * still except when the code sleeps (nanosleep returns at once and moves
 * it forward by what was asked) or a fake device says that time passed
 * (vclock_advance_ms, e.g. fakehid_set_read_ms). Virtual time does not
 * depend on the machine's load, so a test may bound it from above.
 *
 * Unlike fuzz/vclock.c (real time plus what was slept), no real time is
 * added. A loop that waits for time to pass without sleeping would spin
 * for ever on this clock: after VCLOCK_SPIN_MAX clock reads in a row
 * without time passing, or once virtual time is VCLOCK_LIMIT_MS past its
 * start, the program prints "Bail out!" (TAP) and exits 99. One thread
 * only. */
#ifndef PU_TESTS_VCLOCK_H
#define PU_TESTS_VCLOCK_H

#include <stdint.h>
#include <time.h>

#define VCLOCK_SPIN_MAX 10000000L
#define VCLOCK_LIMIT_MS (3600LL * 1000)

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem);
int __wrap_clock_gettime(clockid_t clk, struct timespec *ts);

/* Virtual ms since the start; time passing without a sleep. */
int64_t vclock_now_ms(void);
void vclock_advance_ms(int64_t ms);

#endif
