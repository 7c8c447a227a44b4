/* SPDX-License-Identifier: BSD-2-Clause */
/* The output of an authcmd= command (authcmd.h), from memory: lines that
 * are either mapping lines in the formats authfile.h reads or SSSD
 * passkey: values (passkey.h), one per line, in any mix. */
#ifndef PU_AUTHCMD_OUTPUT_H
#define PU_AUTHCMD_OUTPUT_H

#include <stddef.h>

#include "base/cred.h"

/* The user's credentials in buf (len bytes, no NUL needed): those of the
 * user's last mapping line (as authfile_find: other users' lines are
 * not parsed, blank and '#' lines skipped, CRLF tolerated), followed by
 * one per passkey: line (every passkey: line is the user's: the command
 * was asked about this user). A line is a passkey: value when it starts
 * with "passkey:" (one trailing '\r' dropped). Returns ERR_OK with the
 * list (n >= 1), ERR_NOT_FOUND when there is none (no line, or "user:"
 * and no passkey: value), ERR_PARSE with *bad_line (1-based, counting
 * every line of buf) for a NUL byte, a malformed passkey: value or a
 * malformed mapping line that could be the user's. ERR_INVAL for a bad
 * user name (as authfile_find). Never logs. */
int cmdout_find(const char *buf, size_t len, const char *user,
    struct cred **creds, size_t *n, size_t *bad_line);

#define CMDOUT_SKIPPED_MAX 8 /* line numbers kept of the skipped lines */

/* The lines without a colon that cmdout_find skipped (not the user's,
 * as in a mapping file: authfile.h): n of them, the numbers (1-based)
 * of the first min(n, CMDOUT_SKIPPED_MAX) in line[]. */
struct cmdout_skipped {
	size_t n;
	size_t line[CMDOUT_SKIPPED_MAX];
};

/* cmdout_find, and *sk the lines it skipped (filled on every return). */
int cmdout_find_skipped(const char *buf, size_t len, const char *user,
    struct cred **creds, size_t *n, size_t *bad_line,
    struct cmdout_skipped *sk);

#endif
