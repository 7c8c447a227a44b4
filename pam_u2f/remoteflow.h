/* SPDX-License-Identifier: BSD-2-Clause */
/* What remote= does (pam_u2f(8), REMOTE SESSIONS): whether this call is
 * in a remote session, and the call's course there. */
#ifndef PU_REMOTEFLOW_H
#define PU_REMOTEFLOW_H

#include "callctx.h"
#include "remsess.h"

/* Classify the session (remote_session, files under roots) unless
 * remote=wait, which needs no answer: c->remote. remote=ignore takes
 * the trusted signals only. ERR_OK, or ERR_SYSTEM when the rule cannot
 * be applied (logged): the call fails, whatever remote= says. */
int remoteflow_classify(struct call *c, const struct remsess_roots *roots);

/* remote=fail in a remote session: the user is told, the log says
 * why, no device is looked for. Always ERR_NO_KEY (PAM_AUTH_ERR). */
int remoteflow_fail(struct call *c);

/* remote=agent in a remote session: the user's OpenSSH FIDO keys signed
 * through the forwarded ssh-agent (agentflow_run). */
int remoteflow_agent(struct call *c);

#endif
