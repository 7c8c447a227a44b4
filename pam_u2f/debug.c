/* SPDX-License-Identifier: BSD-2-Clause */
/* The module's log sinks. debug_file is opened O_WRONLY|O_APPEND|
 * O_NOFOLLOW|O_CLOEXEC|O_NOCTTY and must be a regular file that already
 * exists (CVE-2019-12210: no descriptor leaks into children). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <security/pam_ext.h>

#include "base/logesc.h"
#include "debug.h"

#define DEBUG_LINE_MAX 1024

/* Room for the prefix "pam_u2f: " and the newline around a line. */
#define DEBUG_FRAME 16

/* Write a line that is escaped already (log_escape). */
static void
debug_put(const struct debug *d, const char *line)
{
	char buf[DEBUG_LINE_MAX + DEBUG_FRAME];
	int n;

	switch (d->to) {
	case DEBUG_SYSLOG:
		pam_syslog(d->pamh, LOG_DEBUG, "%s", line);
		return;
	case DEBUG_STDERR:
	case DEBUG_FILE:
		n = snprintf(buf, sizeof(buf), "pam_u2f: %s\n", line);
		if (n < 0)
			return;
		if ((size_t)n >= sizeof(buf)) {
			n = (int)sizeof(buf) - 1;
			buf[n - 1] = '\n';
		}
		if (write(d->to == DEBUG_FILE ? d->fd : STDERR_FILENO, buf,
			(size_t)n) < 0)
			return;
		return;
	case DEBUG_OFF:
		return;
	}
}

/* Every line is escaped on its way out: a user name, a device's or a
 * reader's name, a command's output cannot start a line of their own. */
static void
debug_write(const struct debug *d, const char *line)
{
	char esc[DEBUG_LINE_MAX];

	(void)log_escape(line, esc, sizeof(esc));
	debug_put(d, esc);
}

static void
debug_sink(void *arg, const char *line)
{
	debug_write(arg, line);
}

static void debug_vlog(const struct debug *d, int prio, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

static void
debug_vlog(const struct debug *d, int prio, const char *fmt, va_list ap)
{
	char line[DEBUG_LINE_MAX], esc[DEBUG_LINE_MAX];

	vsnprintf(line, sizeof(line), fmt, ap);
	(void)log_escape(line, esc, sizeof(esc));
	if (d->pamh != NULL)
		pam_syslog(d->pamh, prio, "%s", esc);
	if (d->to != DEBUG_SYSLOG)
		debug_put(d, esc);
}

static void
debug_err_sink(void *arg, const char *line)
{
	debug_err(arg, "%s", line);
}

static int
debug_open_file(const char *file, int *fdp)
{
	struct stat st;
	int fd;

	fd = open(file,
	    O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		O_NONBLOCK);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return EINVAL;
	}
	*fdp = fd;
	return 0;
}

void
debug_open(struct debug *d, pam_handle_t *pamh, bool on, const char *file)
{
	int e;

	d->pamh = pamh;
	d->to = DEBUG_OFF;
	d->fd = -1;
	d->log.fn = NULL; /* debug off: lines are not even formatted */
	d->log.arg = d;
	d->err.fn = debug_err_sink;
	d->err.arg = d;
	if (!on)
		return;
	d->log.fn = debug_sink;
	if (file == NULL || strcmp(file, "stderr") == 0)
		d->to = DEBUG_STDERR;
	else if (strcmp(file, "syslog") == 0)
		d->to = DEBUG_SYSLOG;
	else if ((e = debug_open_file(file, &d->fd)) == 0)
		d->to = DEBUG_FILE;
	else {
		d->to = DEBUG_SYSLOG;
		pam_syslog(pamh, LOG_WARNING,
		    "debug_file=%s: %s; debug "
		    "goes to syslog",
		    file, e == EINVAL ? "not a regular file" : strerror(e));
	}
}

void
debug_close(struct debug *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	d->to = DEBUG_OFF;
}

void
debug_msg(const struct debug *d, const char *fmt, ...)
{
	char line[DEBUG_LINE_MAX];
	va_list ap;

	if (d->to == DEBUG_OFF)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	debug_write(d, line);
}

void
debug_err(const struct debug *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	debug_vlog(d, LOG_ERR, fmt, ap);
	va_end(ap);
}

void
debug_warn(const struct debug *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	debug_vlog(d, LOG_WARNING, fmt, ap);
	va_end(ap);
}
