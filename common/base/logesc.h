/* SPDX-License-Identifier: BSD-2-Clause */
/* Log lines that cannot be forged: every string that reaches a log sink
 * may hold text from outside (a user name from the PAM client, a USB
 * product string, a PC/SC reader name, a command's output), so the sinks
 * write each line through log_escape. */
#ifndef PU_LOGESC_H
#define PU_LOGESC_H

#include <stddef.h>

/* The escaped form of line (NUL-terminated) into out (cap bytes, cap >
 * 0): printable ASCII and well-formed UTF-8 as they are; control bytes
 * (newline, carriage return, escape, ... and DEL), C1 controls (U+0080 to
 * U+009F), the line and paragraph separators (U+2028, U+2029) and every
 * byte that is not part of well-formed UTF-8 as \xNN; a backslash as
 * \\, so that an escape in the output always comes from us. A line too
 * long for out is cut at an escape or character boundary, always NUL
 * terminated. Returns the length written. */
size_t log_escape(const char *line, char *out, size_t cap);

/* Room for the escaped form of a line of n bytes (4 per byte, the NUL). */
#define LOG_ESCAPE_CAP(n) (4 * (n) + 1)

#endif
