/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy at login (policyflow.h): the one step of
 * authflow.c that decides which credentials may be used at all. Its own
 * file so that authflow.c keeps reading as the order of a login; the
 * decision itself is common/policy/'s, shared with pamu2fcfg. */
#include "config.h"

#include <string.h>
#include <time.h>

#include "base/err.h"
#include "policy/policy.h"
#include "policyflow.h"
#include "usermsg.h"

/* Credential at idx of the list (number num on the line, 0-based)
 * against p; *keep says whether it stays. */
static int
check_one(struct call *c, const struct policy *p, size_t idx, size_t i,
    int64_t now, bool *keep, struct policy_result *res)
{
	bool required = policy_mode(p) == CONF_ATTEST_REQUIRED;
	int r = policy_check(p, &c->creds[idx], false, now, res);

	*keep = true;
	if (r == ERR_OK) {
		debug_msg(&c->dbg,
		    "credential %zu of %s: model %s meets the attestation "
		    "policy",
		    i + 1, c->user, res->model);
		return ERR_OK;
	}
	if (r != ERR_DENIED)
		return r;
	if (!required) {
		debug_warn(&c->dbg,
		    "credential %zu of %s does not meet the attestation "
		    "policy (optional: used anyway): %s%s%s",
		    i + 1, c->user, res->why, res->model[0] ? "; model " : "",
		    res->model);
		return ERR_OK;
	}
	debug_err(&c->dbg,
	    "credential %zu of %s refused by the attestation policy: %s%s%s",
	    i + 1, c->user, res->why, res->model[0] ? "; model " : "",
	    res->model);
	*keep = false;
	return ERR_OK;
}

/* Drop credential i from the list. */
static void
drop(struct call *c, size_t i)
{
	cred_clear(&c->creds[i]);
	memmove(&c->creds[i], &c->creds[i + 1],
	    (c->ncreds - i - 1) * sizeof(*c->creds));
	c->ncreds--;
	memset(&c->creds[c->ncreds], 0, sizeof(*c->creds));
}

/* Every credential through check_one; the first refusal's reason in
 * first. */
static int
check_all(struct call *c, const struct policy *p, int64_t now,
    struct policy_result *first)
{
	struct policy_result res;
	size_t i = 0, n = 0;
	bool keep;
	int r;

	while (i < c->ncreds) {
		if ((r = check_one(c, p, i, i + n, now, &keep, &res)) != ERR_OK)
			return r;
		if (keep) {
			i++;
			continue;
		}
		if (first->why[0] == '\0')
			*first = res;
		drop(c, i);
		n++; /* numbers in the log stay those of the line */
	}
	return ERR_OK;
}

int
policyflow_check(struct call *c)
{
	struct policy_result first;
	char why[POLICY_WHY_MAX];
	struct policy *p = NULL;
	int64_t now = (int64_t)time(NULL);
	size_t had = c->ncreds;
	int r;

	memset(&first, 0, sizeof(first));
	if ((r = policy_open(c->opt.policy, 0, now, &c->dbg.log, &p, why)) !=
	    ERR_OK) {
		debug_err(&c->dbg, "%s", why[0] ? why : err_str(r));
		/* optional never refuses: not even for its own files */
		if (r == ERR_NOMEM ||
		    c->opt.policy->attestation != CONF_ATTEST_OPTIONAL)
			return r;
		debug_warn(&c->dbg,
		    "attestation = optional: the policy is "
		    "not applied");
		return ERR_OK;
	}
	if (p == NULL)
		return ERR_OK;
	r = check_all(c, p, now, &first);
	policy_free(p);
	if (r != ERR_OK)
		return r;
	if (had > 0 && c->ncreds == 0) {
		tell_policy_refused(c, first.why);
		return ERR_DENIED;
	}
	return ERR_OK;
}

int
policyflow_agent(struct call *c)
{
	const struct conf_policy *cp = c->opt.policy;

	if (cp == NULL || cp->attestation != CONF_ATTEST_REQUIRED)
		return ERR_OK;
	debug_err(&c->dbg,
	    "remote=agent: keys through the SSH agent carry no attestation "
	    "evidence; refused for %s under attestation = required",
	    c->user);
	tell_policy_refused(c,
	    "keys through the SSH agent carry no "
	    "attestation evidence");
	return ERR_DENIED;
}
