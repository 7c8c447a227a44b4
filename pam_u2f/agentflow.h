/* SPDX-License-Identifier: BSD-2-Clause */
/* remote=agent (pam_u2f(8), SUDO OVER SSH): the user's OpenSSH FIDO keys
 * (the mapping file's @ssh-sk lines, or authcmd='s authorized_keys
 * lines), signed through the forwarded ssh-agent with privileges
 * dropped to the user. */
#ifndef PU_AGENTFLOW_H
#define PU_AGENTFLOW_H

#include "callctx.h"
#include "ssh/ssh.h"

/* The user's keys for the agent: ERR_OK with *keys, *n >= 1 (free with
 * sshpub_free_list); ERR_NOT_FOUND with c->what RETVAL_NO_FILE or
 * RETVAL_NO_CREDS (nouserok decides); ERR_PARSE and the errors of
 * userfile_load and cmdsource_run otherwise (logged, naming the file or
 * command and the line, never a key). */
int agentflow_keys(struct call *c, struct sshpub **keys, size_t *n);

/* The whole remote=agent course: keys, SSH_AUTH_SOCK (the PAM
 * environment, then the process's; none: the user is told to connect
 * with ssh -A, ERR_NO_KEY), sshauth_run as the user, the cue "touch the
 * key on your own machine", the signer, flags and counter logged.
 * ERR_OK only for sshauth_run's ERR_OK. */
int agentflow_run(struct call *c);

#endif
