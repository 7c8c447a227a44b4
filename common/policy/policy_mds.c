/* SPDX-License-Identifier: BSD-2-Clause */
/* The FIDO MDS3 BLOB (policy_mds.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "policy_mds.h"

struct policy_mds {
	int unused;
};

int
policy_mds_open(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct policy_mds **out, char *why, size_t whylen)
{
	(void)cp;
	(void)owner;
	(void)now;
	(void)lg;
	*out = NULL;
	snprintf(why, whylen, "policy: mds: not supported yet");
	return ERR_CONFIG;
}

void
policy_mds_free(struct policy_mds *m)
{
	free(m);
}

int
policy_mds_check(const struct policy_mds *m, const struct conf_policy_id *model,
    const struct conf_policy_id *keyid, char *why, size_t whylen)
{
	(void)m;
	(void)model;
	(void)keyid;
	snprintf(why, whylen, "policy: mds: not supported yet");
	return ERR_DENIED;
}
