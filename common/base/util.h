/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by everything: wiping, randomness, clocks, logging. */
#ifndef PU_UTIL_H
#define PU_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Wipe n bytes at p, then free(p). NULL-safe. */
void util_freezero(void *p, size_t n);
/* Wipe n bytes at p; never optimised away. */
void util_wipe(void *p, size_t n);
/* Fill buf with n bytes from getrandom(2); ERR_RANDOM on failure. */
int util_random(void *buf, size_t n);
/* Write all len bytes of buf to fd (restarted after signals): ERR_OK, or
 * ERR_FILE with errno kept. */
int util_write_all(int fd, const void *buf, size_t len);
/* Milliseconds on CLOCK_MONOTONIC. */
int64_t util_now_ms(void);
/* Sleep ms milliseconds (restarted after signals). */
void util_sleep_ms(int ms);
/* Wait up to ms for events on fd (poll(2), restarted after signals):
 * ERR_OK when ready, ERR_TIMEOUT, ERR_NODEV on hang-up or error without
 * the events, ERR_IO otherwise. */
int util_poll(int fd, short events, int ms);
/* Milliseconds left until deadline (never negative, capped at INT32_MAX). */
int util_ms_left(int64_t deadline);
/* ms, cut to what is left before deadline (0 = no deadline): how long one
 * more step of a bounded operation may take; 0 once the deadline passed. */
int util_cap_ms(int ms, int64_t deadline);

/* A log sink. Code under common/ never prints: it hands lines to a sink
 * that the module or the tool provides. Pass NULL for silence. */
struct log {
	void (*fn)(void *arg, const char *line);
	void *arg;
};

void log_msg(const struct log *lg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void log_vmsg(const struct log *lg, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif
