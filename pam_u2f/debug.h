/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the module's messages go: errors and warnings to syslog (and to
 * the debug sink when debug is on), debug lines to debug_file ("stderr",
 * "syslog", or an existing regular file). One per call; the file is
 * closed by debug_close so no descriptor outlives the call. */
#ifndef PU_DEBUG_H
#define PU_DEBUG_H

#include <stdbool.h>

#include <security/pam_modules.h>

#include "base/util.h"

enum debug_to { DEBUG_OFF, DEBUG_STDERR, DEBUG_SYSLOG, DEBUG_FILE };

struct debug {
	pam_handle_t *pamh;
	enum debug_to to;
	int fd;         /* DEBUG_FILE only, else -1 */
	struct log log; /* debug lines, for common/ */
	struct log err; /* error lines: syslog + debug */
};

/* Never fails: a debug_file that cannot be used falls back to syslog with
 * a warning. file NULL means stderr. */
void debug_open(struct debug *d, pam_handle_t *pamh, bool on, const char *file);
void debug_close(struct debug *d);

void debug_msg(const struct debug *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void debug_err(const struct debug *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void debug_warn(const struct debug *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
