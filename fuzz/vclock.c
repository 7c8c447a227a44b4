/* SPDX-License-Identifier: BSD-2-Clause */
/* Virtual time: see vclock.h. One process, one thread. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "vclock.h"

#define NS 1000000000LL

int __real_clock_gettime(clockid_t clk, struct timespec *ts);

static int64_t skipped_ns; /* total time slept so far */

int
__wrap_nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (req == NULL || req->tv_sec < 0 || req->tv_nsec < 0 ||
	    req->tv_nsec >= NS) {
		errno = EINVAL;
		return -1;
	}
	skipped_ns += (int64_t)req->tv_sec * NS + req->tv_nsec;
	if (rem != NULL)
		rem->tv_sec = rem->tv_nsec = 0;
	return 0;
}

int
__wrap_clock_gettime(clockid_t clk, struct timespec *ts)
{
	int64_t t;

	if (__real_clock_gettime(clk, ts) != 0)
		return -1;
	if (clk != CLOCK_MONOTONIC)
		return 0;
	t = (int64_t)ts->tv_sec * NS + ts->tv_nsec + skipped_ns;
	ts->tv_sec = (time_t)(t / NS);
	ts->tv_nsec = (long)(t % NS);
	return 0;
}
