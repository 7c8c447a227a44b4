/* SPDX-License-Identifier: BSD-2-Clause */
/* The virtual clock (tests/lib/vclock.c) for pam_u2f.so itself: the
 * module is loaded by libpam with dlopen, where the linker's --wrap does
 * not reach, so this program defines clock_gettime and nanosleep and
 * exports them (-export-dynamic): the module's calls bind to these,
 * which hand CLOCK_MONOTONIC and sleeps to the virtual clock. Time then
 * passes only when a front end (fe.c) says so: a user typing, gdm's
 * queue. Its own file because only the programs that need the module on
 * the virtual clock link it (test_conv, test_frontends). */
#include "config.h"

#include <dlfcn.h>
#include <time.h>

#include "vclock.h"

typedef int (*fe_gettime_fn)(clockid_t, struct timespec *);

int __real_clock_gettime(clockid_t clk, struct timespec *ts);

int
__real_clock_gettime(clockid_t clk, struct timespec *ts)
{
	static fe_gettime_fn real;

	if (real == NULL)
		*(void **)(&real) = dlsym(RTLD_NEXT, "clock_gettime");
	return real(clk, ts);
}

int
clock_gettime(clockid_t clk, struct timespec *ts)
{
	return __wrap_clock_gettime(clk, ts);
}

int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	return __wrap_nanosleep(req, rem);
}
