/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy at enrollment (pam_u2f.conf's policy section,
 * common/policy/policy.h): the new credential's evidence is checked as
 * the module will check it at every login, and kept with the credential
 * (the mapping line's evidence field) unless the policy is off. Its own
 * file so that enroll.c stays the registration itself. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "policy/policy.h"
#include "tool.h"

/* The verdict: told, and whether the enrollment goes on. */
static int
verdict(const struct tool_opts *o, enum conf_attestation mode, int r,
    const struct policy_result *res)
{
	if (r == ERR_OK) {
		if (o->verbose)
			tool_msg("attestation: model %s meets the policy",
			    res->model);
		return ERR_OK;
	}
	if (r != ERR_DENIED)
		return r;
	if (mode == CONF_ATTEST_REQUIRED) {
		tool_msg("this key is refused by the attestation policy: "
			 "%s%s%s",
		    res->why, res->model[0] ? "; model " : "", res->model);
		return ERR_DENIED;
	}
	tool_msg("warning: this key does not meet the attestation policy "
		 "(optional: enrolled anyway): %s%s%s",
	    res->why, res->model[0] ? "; model " : "", res->model);
	return ERR_OK;
}

int
tool_policy_ready(const struct tool_opts *o)
{
	const struct conf_policy *cp = o->cf.policy;
	char why[POLICY_WHY_MAX];
	struct policy *p = NULL;
	int r;

	if (cp == NULL || cp->attestation != CONF_ATTEST_REQUIRED)
		return ERR_OK; /* optional: told after the touch, not fatal */
	r = policy_open(cp, 0, (int64_t)time(NULL), o->lg, &p, why);
	policy_free(p);
	if (r != ERR_OK)
		tool_msg("%s", why[0] ? why : err_str(r));
	return r;
}

int
tool_policy_enroll(const struct tool_opts *o, struct reg_result *res)
{
	const struct conf_policy *cp = o->cf.policy;
	struct policy_result pr;
	char why[POLICY_WHY_MAX];
	struct policy *p = NULL;
	int64_t now = (int64_t)time(NULL);
	int r;

	if (cp == NULL || cp->attestation == CONF_ATTEST_NONE)
		return ERR_OK; /* nothing stored: the line as before */
	/* The evidence goes with the credential, and is checked there. */
	res->cred.att = res->evidence;
	res->cred.att_len = res->evidence_len;
	res->evidence = NULL;
	res->evidence_len = 0;
	if ((r = policy_open(cp, 0, now, o->lg, &p, why)) != ERR_OK) {
		tool_msg("%s", why[0] ? why : err_str(r));
		if (r == ERR_NOMEM || cp->attestation != CONF_ATTEST_OPTIONAL)
			return r;
		tool_msg("warning: attestation = optional: the policy is not "
			 "applied; the key is enrolled with its evidence");
		return ERR_OK;
	}
	r = policy_check(p, &res->cred, true, now, &pr);
	policy_free(p);
	return verdict(o, cp->attestation, r, &pr);
}
