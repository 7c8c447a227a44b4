/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers every layer needs (util.h): wiping memory, random bytes,
 * the monotonic clock and deadlines, poll with a deadline, writing
 * whole buffers, sleeping, and the log callback. Kept together because
 * each is a few lines and none belongs to a layer above base. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

void
util_wipe(void *p, size_t n)
{
	if (p != NULL && n > 0)
		explicit_bzero(p, n);
}

void
util_freezero(void *p, size_t n)
{
	if (p == NULL)
		return;
	util_wipe(p, n);
	free(p);
}

int
util_random(void *buf, size_t n)
{
	uint8_t *p = buf;
	ssize_t got;

	while (n > 0) {
		got = getrandom(p, n, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return ERR_RANDOM;
		}
		p += (size_t)got;
		n -= (size_t)got;
	}
	return ERR_OK;
}

int64_t
util_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
util_ms_left(int64_t deadline)
{
	int64_t left = deadline - util_now_ms();

	if (left < 0)
		return 0;
	if (left > INT32_MAX)
		return INT32_MAX;
	return (int)left;
}

int
util_cap_ms(int ms, int64_t deadline)
{
	int left;

	if (deadline == 0)
		return ms;
	left = util_ms_left(deadline);
	return left < ms ? left : ms;
}

int
util_poll(int fd, short events, int ms)
{
	struct pollfd pfd;
	int64_t deadline = util_now_ms() + ms;
	int n;

	for (;;) {
		memset(&pfd, 0, sizeof(pfd));
		pfd.fd = fd;
		pfd.events = events;
		n = poll(&pfd, 1, util_ms_left(deadline));
		if (n > 0)
			break;
		if (n == 0)
			return ERR_TIMEOUT;
		if (errno != EINTR)
			return ERR_IO;
	}
	if ((pfd.revents & POLLNVAL) != 0)
		return ERR_IO;
	if ((pfd.revents & events) == 0 &&
	    (pfd.revents & (POLLHUP | POLLERR)) != 0)
		return ERR_NODEV;
	return ERR_OK;
}

int
util_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t w;

	while (len > 0) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return ERR_FILE;
		p += w;
		len -= (size_t)w;
	}
	return ERR_OK;
}

void
util_sleep_ms(int ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void
log_vmsg(const struct log *lg, const char *fmt, va_list ap)
{
	char line[512];

	if (lg == NULL || lg->fn == NULL)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	lg->fn(lg->arg, line);
}

void
log_msg(const struct log *lg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(lg, fmt, ap);
	va_end(ap);
}
