/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether the client of a PAM transaction may be remote, for what the
 * user is told (usermsg.c): a remote client that has not authenticated
 * must learn nothing that tells accounts apart. */
#ifndef PU_REMOTE_H
#define PU_REMOTE_H

#include <stdbool.h>

#include <security/pam_modules.h>

/* True (and *why, a static text for the log) when the client may be
 * remote: PAM_SERVICE is "sshd", or PAM_TTY is "ssh" (sshd's during
 * authentication, whatever its service is called), or PAM_RHOST is set
 * to anything but this host's own name (as gethostname(2) gives it, or
 * the part before its first dot; sudo sets PAM_RHOST so). An item that
 * cannot be read, or a host name that cannot be found, counts as
 * remote. */
bool remote_client(pam_handle_t *pamh, const char **why);

#endif
