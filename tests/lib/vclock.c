/* SPDX-License-Identifier: BSD-2-Clause */
/* A virtual CLOCK_MONOTONIC: see vclock.h. Compiled into every test that
 * waits (transport, protocol), hence in tests/lib. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vclock.h"

#define NS 1000000000LL
#define VCLOCK_START_S 1000 /* what CLOCK_MONOTONIC reads at first */

int __real_clock_gettime(clockid_t clk, struct timespec *ts);

static int64_t virt_ns;  /* virtual time since the start */
static long still_reads; /* clock reads since time last passed */

static void
bail(const char *why)
{
	printf("Bail out! virtual clock: %s\n", why);
	fflush(stdout);
	exit(99);
}

/* Move virtual time forward by ns; bail out past VCLOCK_LIMIT_MS. */
static void
advance_ns(int64_t ns)
{
	virt_ns += ns;
	still_reads = 0;
	if (virt_ns / 1000000LL > VCLOCK_LIMIT_MS)
		bail("an hour of virtual time passed (a deadline ignored?)");
}

void
vclock_advance_ms(int64_t ms)
{
	if (ms > 0)
		advance_ns(ms * 1000000LL);
}

int64_t
vclock_now_ms(void)
{
	return virt_ns / 1000000LL;
}

int
__wrap_nanosleep(const struct timespec *req, struct timespec *rem)
{
	int ok = req != NULL && req->tv_sec >= 0 && req->tv_nsec >= 0 &&
	    req->tv_nsec < NS;

	if (!ok) {
		errno = EINVAL;
		return -1;
	}
	advance_ns((int64_t)req->tv_sec * NS + req->tv_nsec);
	if (rem != NULL)
		*rem = (struct timespec){0, 0};
	return 0;
}

int
__wrap_clock_gettime(clockid_t clk, struct timespec *ts)
{
	int64_t t;

	if (clk != CLOCK_MONOTONIC)
		return __real_clock_gettime(clk, ts);
	if (ts == NULL) {
		errno = EFAULT;
		return -1;
	}
	if (++still_reads > VCLOCK_SPIN_MAX)
		bail("read without time passing (a loop that does not sleep?)");
	t = VCLOCK_START_S * NS + virt_ns;
	ts->tv_sec = (time_t)(t / NS);
	ts->tv_nsec = (long)(t % NS);
	return 0;
}
