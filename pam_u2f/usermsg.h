/* SPDX-License-Identifier: BSD-2-Clause */
/* What the user is told through the conversation when the second factor
 * cannot go on: short, saying what to do. Only errors are told, as
 * PAM_ERROR_MSG; the cue (PAM_TEXT_INFO) is touchwait.c's. Nothing here
 * changes the result: a message that cannot be shown is logged and the
 * authentication fails as it would have. Nothing about another user is
 * told: only the user's own name, the user's own file (never a central
 * file's path) and the origin, which the PAM configuration shows anyway. */
#ifndef PU_USERMSG_H
#define PU_USERMSG_H

#include <stddef.h>
#include <stdint.h>

#include "callctx.h"
#include "device/dev.h"
#include "usermsg_text.h"

/* The user has no credentials (no file, no line, no credential on the
 * line), and nouserok is not set: how to register a key. */
void tell_no_creds(struct call *c);

struct hidraw_why;

/* No key could be opened: first_err is auth_open_all's first error; why
 * (transport/hidraw_why.h, NULL or kind NONE: nothing known) what sysfs
 * and /dev say: the nodes are hidden from this process (a sandbox), or
 * one may not be opened (named, with the permission missing). */
void tell_no_key(struct call *c, int first_err, const struct hidraw_why *why);
/* devices= named a reader and no card came to it within timeout s. */
void tell_no_card(struct call *c, int timeout);

/* auth_run failed with err on devs (still open): ERR_WRONG_KH (no key
 * holds a credential of the user's for the origin: each key is probed,
 * check-only, under the other origins this host may have used, until
 * deadline) and ERR_TIMEOUT (TELL_TIMEOUT once the wait for the touch
 * began, TELL_NO_KEY_MUTE before) are told; other errors (a reply
 * refused, a key gone) are not: the log has them. */
void tell_auth_failed(
    struct call *c, int err, struct dev **devs, size_t ndevs, int64_t deadline);

/* A remote session with remote=fail: no key can be used here. */
void tell_remote_fail(struct call *c);
/* A remote session with remote=agent and no agent to ask. */
void tell_remote_no_agent(struct call *c);
/* remote=agent: the agent holds none of the keys, or refused to sign
 * (a destination-constrained key is one cause: ssh/ssh.h). */
void tell_remote_agent_refused(struct call *c);
/* remote=agent: the user has no @ssh-sk line (or authcmd= key). */
void tell_remote_no_keys(struct call *c);

/* attestation = required refused every credential of the user: why is
 * the first reason (common/policy/policy.h's sentence). */
void tell_policy_refused(struct call *c, const char *why);

#endif
