/* SPDX-License-Identifier: BSD-2-Clause */
/* The walk of a key's resident credentials for a CTAP2 assertion: the
 * allow-list entries "*" that the key can meet are asked for together,
 * with an empty allow list; the key answers with its first credential
 * for the rp and numberOfCredentials, and GetNextAssertion gives the
 * rest. Each reply is matched against those entries (whose public key
 * verifies its signature). Its own file because this walk has its own
 * state (the entries, how many the key has, how many were read) that
 * nothing else should touch. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "client.h"

int
c2_rk_new(struct c2_rk *rk, size_t cap)
{
	c2_rk_reset(rk);
	return (rk->idx = calloc(cap > 0 ? cap : 1, sizeof(size_t))) != NULL
	    ? ERR_OK
	    : ERR_NOMEM;
}

void
c2_rk_reset(struct c2_rk *rk)
{
	free(rk->idx);
	memset(rk, 0, sizeof(*rk));
}

void
c2_rk_add(struct c2_rk *rk, size_t i)
{
	rk->idx[rk->n++] = i;
}

size_t
c2_rk_count(const struct c2_rk *rk)
{
	return rk->n;
}

void
c2_rk_drop(struct c2_rk *rk)
{
	rk->n = 0;
}

void
c2_rk_restart(struct c2_rk *rk)
{
	rk->total = rk->seen = 0;
}

void
c2_rk_seen(struct c2_rk *rk, size_t ncreds)
{
	if (rk->seen++ == 0)
		rk->total = ncreds > 0 ? ncreds : 1;
}

bool
c2_rk_more(const struct c2_rk *rk)
{
	return rk->seen < rk->total;
}

int
c2_rk_match(const struct proto_ctx *c, const struct c2_rk *rk,
    const struct cred *allow, const struct c2_signed *sg, size_t *index,
    uint8_t *flags, uint32_t *counter)
{
	size_t k;
	int r;

	for (k = 0; k < rk->n; k++) {
		r = proto_check_assertion(&allow[rk->idx[k]], sg->rph, sg->cdh,
		    sg->up, sg->authdata, sg->authdata_len, sg->sig,
		    sg->sig_len, flags, counter);
		if (r == ERR_OK) {
			*index = rk->idx[k];
			return ERR_OK;
		}
		if (r == ERR_MISMATCH || r == ERR_NO_PRESENCE || r == ERR_NOMEM)
			return r;
	}
	log_msg(c->log,
	    "%s: %s: resident credential %zu of %zu is none of the user's",
	    "c2_check_rk", xport_path(c->x), rk->seen, rk->total);
	return ERR_WRONG_KH;
}
