/* SPDX-License-Identifier: BSD-2-Clause */
/* logind's view of the calling process's session: is it remote? Read
 * from files, without libsystemd, the way sd_session_is_remote(NULL)
 * finds it (the rule is in pam_u2f(8), REMOTE SESSIONS). The folders
 * read are given by the caller, so that tests feed their own. */
#ifndef PU_REMSESS_H
#define PU_REMSESS_H

#include <stdbool.h>
#include <stddef.h>

/* Where the files the rule reads live: "/proc" and "/run" on a host
 * (REMSESS_ROOTS_HOST), a test's own folders in tests. */
struct remsess_roots {
	const char *proc;
	const char *run;
};
#define REMSESS_ROOTS_HOST                                                     \
	{                                                                      \
		"/proc", "/run"                                                \
	}

enum remsess_verdict {
	REMSESS_UNKNOWN = 0, /* logind has no answer: use the fallback */
	REMSESS_LOCAL,
	REMSESS_REMOTE,
	REMSESS_ERROR /* a file could not be read: no verdict */
};

#define REMSESS_ID_MAX 32 /* bytes of a session id ("3", "c12") */

/* The session of the calling process:
 *  1. no directory RUN/systemd/sessions: UNKNOWN (no logind);
 *  2. its id: the "session-ID.scope" component of the systemd line of
 *     PROC/self/cgroup (cgroup v2 "0::", or v1 "name=systemd"), else the
 *     audit session id of PROC/self/sessionid (not 4294967295, unset);
 *     neither: UNKNOWN (the process is in no session);
 *  3. RUN/systemd/sessions/ID, a regular file (no symbolic link) of at
 *     most 64 KiB: missing, UNKNOWN; a line "REMOTE=1", REMOTE; else
 *     LOCAL. A file that cannot be read (other than missing), is not
 *     a regular file or is too big: ERROR, which callers treat as a
 *     failure, never as either answer.
 * id (REMSESS_ID_MAX + 1 bytes, may be NULL) gets the id found or "";
 * *why a static text for the log. */
enum remsess_verdict remsess_logind(
    const struct remsess_roots *roots, char *id, const char **why);

/* The session id in one line of /proc/PID/cgroup (len bytes, no
 * newline) into id (REMSESS_ID_MAX + 1 bytes): true if the line is the
 * systemd hierarchy's and a component of its path is "session-ID.scope"
 * with ID of 1..REMSESS_ID_MAX letters and digits. */
bool remsess_cgroup_line(const char *line, size_t len, char *id);

/* Is name set, and not empty, in PROC/self/environ: the environment the
 * process was started with (sudo replaces its environ before PAM runs,
 * but not this)? False when the file cannot be read. */
bool remsess_environ_has(const struct remsess_roots *roots, const char *name);

#endif
