/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy at login (pam_u2f.conf's policy section,
 * common/policy/policy.h), applied to the user's credentials after they
 * are read and before any key is asked. */
#ifndef PU_POLICYFLOW_H
#define PU_POLICYFLOW_H

#include "callctx.h"

/* Every credential of c checked against the policy, if any.
 * attestation = required: a credential that fails leaves the list (its
 * number and the reason logged); when none is left the user is told the
 * reason and the result is ERR_DENIED. optional: each failure logged,
 * nothing refused. A policy whose files cannot be read or verified:
 * logged, and ERR_CONFIG under required (ERR_OK under optional).
 * ERR_OK otherwise. */
int policyflow_check(struct call *c);

/* remote=agent under attestation = required: OpenSSH keys carry no
 * evidence, so the login is refused (ERR_DENIED, logged and told).
 * ERR_OK without that policy. */
int policyflow_agent(struct call *c);

#endif
