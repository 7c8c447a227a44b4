/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether the client of a PAM transaction may be remote, for what the
 * user is told (usermsg.c): a remote client that has not authenticated
 * must learn nothing that tells accounts apart. And whether the session
 * is remote, for remote= (authflow.c). */
#ifndef PU_REMOTE_H
#define PU_REMOTE_H

#include <stdbool.h>

#include <security/pam_modules.h>

#include "remsess.h"

/* True (and *why, a static text for the log) when the client may be
 * remote: PAM_SERVICE is "sshd", or PAM_TTY is "ssh" (sshd's during
 * authentication, whatever its service is called), or PAM_RHOST is set
 * to anything but this host's own name (as gethostname(2) gives it, or
 * the part before its first dot; sudo sets PAM_RHOST so). An item that
 * cannot be read, or a host name that cannot be found, counts as
 * remote. */
bool remote_client(pam_handle_t *pamh, const char **why);

/* The rule of remote= (pam_u2f(8), REMOTE SESSIONS), first answer wins:
 *  1. PAM_RHOST set, not empty, and neither this host's name (as for
 *     remote_client) nor "localhost", "127.0.0.1", "::1": remote;
 *  2. logind's view of the process's session (remsess_logind, files
 *     under roots): remote or local as it says;
 *  3. no answer from logind (no logind, or the process in no session):
 *     remote when SSH_CONNECTION or SSH_CLIENT is set and not empty in
 *     the PAM environment, the process's, or the one the process was
 *     started with (PROC/self/environ), unless trusted_only (the
 *     environment is the user's to set: remote=ignore must not take it);
 *     else local.
 * ERR_OK with *remote and *why (a static text for the log);
 * ERR_SYSTEM (with *why) when PAM_RHOST or a logind file cannot be
 * read: the caller fails, whatever remote= says. Being remote only
 * chooses what is asked for; it never passes anything. */
int remote_session(pam_handle_t *pamh, const struct remsess_roots *roots,
    bool trusted_only, bool *remote, const char **why);

#endif
