/* SPDX-License-Identifier: BSD-2-Clause */
/* The candidates of a CTAP2 assertion: which allow-list entries this key
 * is to be asked for, with the options pam-u2f derives for each. Entries
 * it cannot meet are left out; with req->probe, silent checks (up=false,
 * no verification) find those it holds; the resident entries "*" are
 * asked for together (the walk of resident.c). Its own file because the
 * candidates and the cursor over them are state that only the choice
 * and the walk over them should touch; the silent checks live here as
 * they are how the choice is made. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "client.h"

void
c2_cand_init(
    struct c2_cand *cs, struct c2_io *io, const struct ctap2_info *info)
{
	memset(cs, 0, sizeof(*cs));
	cs->io = io;
	cs->info = info;
}

void
c2_cand_reset(struct c2_cand *cs)
{
	free(cs->idx);
	free(cs->opts);
	cs->idx = NULL;
	cs->opts = NULL;
	cs->n = cs->next = 0;
	cs->req = NULL;
	cs->walk = false;
}

static const char *
c2_cred_rp(const struct assert_req *req, const struct cred *cr)
{
	if ((cr->flags & CRED_APPID) && req->appid != NULL)
		return req->appid;
	return req->rp_id;
}

/* Can this key meet what the credential asks (pam-u2f's
 * match_device_opts)? Adjusts o->uv 0 to unset where the key has no
 * built-in UV. */
static bool
c2_key_fits(
    const struct ctap2_info *in, const struct cred *cr, struct cred_opts *o)
{
	if (o->pin == 1 && ctap2_info_opt(in, CTAP2_OPT_CLIENT_PIN) != 1)
		return false;
	if (o->uv == 1 && ctap2_info_opt(in, CTAP2_OPT_UV) != 1)
		return false;
	if (o->uv == 0 && ctap2_info_opt(in, CTAP2_OPT_UV) == -1)
		o->uv = -1;
	return ctap2_info_alg(in, cr->type) || cr->type == COSE_ES256;
}

/* Which of list[0..n) the reply body[0..len) names: a reply to a list
 * of more than one names its credential (CTAP2 6.2.2). */
static int
c2_named(const uint8_t *body, size_t len, const struct cred *const *list,
    size_t n, size_t *which)
{
	struct ctap2_ga_reply g;
	size_t i;

	if (ctap2_parse_ga(body, len, &g) != ERR_OK || g.cred_id == NULL)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (g.cred_id_len == list[i]->kh_len &&
		    memcmp(g.cred_id, list[i]->kh, g.cred_id_len) == 0) {
			*which = i;
			return ERR_OK;
		}
	}
	return ERR_MISMATCH; /* one we did not ask for */
}

/* One silent check (up=false, no verification) of list[0..n) under
 * rp_id (n 0: any resident credential): ERR_OK with *which the entry
 * the key named, ERR_WRONG_KH none, ERR_TOO_BIG when a list of more
 * than one would pass limit bytes (nothing sent) or the key refused its
 * length, or the error. */
static int
c2_probe_list(const struct proto_ctx *c, struct c2_io *io, const char *rp_id,
    const struct cred *const *list, size_t n, size_t limit, int ms,
    size_t *which)
{
	uint8_t cdh[PROTO_CDH_LEN];
	struct ctap2_ga ga;
	size_t len = 0, rlen = 0;
	int r;

	*which = 0;
	if ((r = util_random(cdh, sizeof(cdh))) != ERR_OK)
		return r;
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = rp_id;
	ga.cdh = cdh;
	ga.list = list;
	ga.nlist = n;
	ga.up = 0;
	ga.uv = -1;
	if ((r = ctap2_build_ga(&ga, io->msg, &len)) != ERR_OK)
		return r;
	if (n > 1 && len > limit)
		return ERR_TOO_BIG;
	if ((r = c2_call(c, io->msg, len, io->rx, &rlen, ms)) != ERR_OK)
		return r;
	if ((r = c2_status(c, io->rx, rlen, "probe")) == ERR_OK && n > 1)
		r = c2_named(io->rx + 1, rlen - 1, list, n, which);
	util_wipe(io->rx, rlen);
	return r;
}

int
c2_probe_one(const struct proto_ctx *c, struct c2_io *io, const char *rp_id,
    const struct cred *cr, int ms)
{
	size_t which;

	return c2_probe_list(
	    c, io, rp_id, &cr, cr != NULL ? 1 : 0, SIZE_MAX, ms, &which);
}

/* The longest batch from chk[0]: entries asked for under the same rp,
 * at most max. */
static size_t
c2_batch_len(
    const struct assert_req *req, const size_t *chk, size_t nchk, size_t max)
{
	const char *rp = c2_cred_rp(req, &req->allow[chk[0]]);
	size_t n = 1;

	while (n < nchk && n < max &&
	    strcmp(c2_cred_rp(req, &req->allow[chk[n]]), rp) == 0)
		n++;
	return n;
}

/* The silent checks: the entries chk[0..nchk) in batches of up to the
 * key's maxCredentialCountInList (halved while a list is too long for
 * the key), until the key names one it holds: *found (SIZE_MAX: none).
 * A key holding several of them names the one it picks. */
static int
c2_find_held(const struct proto_ctx *c, struct c2_cand *cs, const size_t *chk,
    size_t nchk, int64_t deadline, size_t *found)
{
	const struct assert_req *req = cs->req;
	const struct cred *list[CTAP2_LIST_MAX];
	size_t max = ctap2_info_list_max(cs->info), i = 0, n, k, which;
	size_t limit = cs->info->max_msg > 0 ? cs->info->max_msg : 1024;
	int r;

	*found = SIZE_MAX;
	while (i < nchk) {
		n = c2_batch_len(req, chk + i, nchk - i, max);
		for (k = 0; k < n; k++)
			list[k] = &req->allow[chk[i + k]];
		r = c2_probe_list(c, cs->io,
		    c2_cred_rp(req, &req->allow[chk[i]]), list, n, limit,
		    util_cap_ms(C2_PROBE_MS, deadline), &which);
		if (r == ERR_TOO_BIG && n > 1) {
			max = n / 2;
			continue;
		}
		if (r == ERR_OK) {
			*found = chk[i + which];
			return ERR_OK;
		}
		if (r != ERR_WRONG_KH)
			return r;
		i += n;
	}
	return ERR_OK;
}

/* The strictest of two credentials' options: resident credentials are
 * asked for together, with what every one of them needs. */
static void
c2_opts_join(struct cred_opts *to, const struct cred_opts *o)
{
	to->up = to->up > o->up ? to->up : o->up;
	to->uv = to->uv > o->uv ? to->uv : o->uv;
	to->pin = to->pin > o->pin ? to->pin : o->pin;
}

static void
c2_add_cand(struct c2_cand *cs, size_t i, const struct cred_opts *o)
{
	cs->opts[cs->n] = *o;
	cs->idx[cs->n++] = i;
}

/* Is the key to be asked for its resident credentials (o: the joined
 * options)? Without a probe, yes; with one, if a silent look finds any
 * for the rp, or if they need verification (credProtect may hide them
 * from a look without it). */
static int
c2_rk_wanted(const struct proto_ctx *c, struct c2_cand *cs,
    const struct cred_opts *o, int64_t deadline)
{
	int r;

	if (!cs->req->probe)
		return ERR_OK;
	r = c2_probe_one(c, cs->io, cs->req->rp_id, NULL,
	    util_cap_ms(C2_PROBE_MS, deadline));
	if (r == ERR_WRONG_KH && (o->uv == 1 || o->pin == 1))
		return ERR_OK;
	return r;
}

/* The resident entries the key can meet become one candidate, last. */
static int
c2_rk_candidate(const struct proto_ctx *c, struct c2_cand *cs, struct c2_rk *rk,
    const struct cred_opts *o, int64_t deadline)
{
	int r;

	if (c2_rk_count(rk) == 0)
		return ERR_OK;
	if ((r = c2_rk_wanted(c, cs, o, deadline)) == ERR_WRONG_KH) {
		c2_rk_drop(rk);
		return ERR_OK;
	}
	if (r != ERR_OK)
		return r;
	c2_add_cand(cs, C2_RK, o);
	return ERR_OK;
}

enum c2_kind { C2_SKIP, C2_HELD, C2_CHECK, C2_RESIDENT };

/* What allow-list entry i is to this key, before any request: one it
 * cannot meet (SKIP), a resident one, one to ask for (HELD: without
 * silent checks), or one to check silently first (CHECK). */
static enum c2_kind
c2_classify(const struct proto_ctx *c, const struct c2_cand *cs, size_t i,
    struct cred_opts *o)
{
	const struct assert_req *req = cs->req;
	const struct cred *cr = &req->allow[i];
	bool rk = (cr->flags & CRED_RESIDENT) != 0;
	const char *why;

	proto_cred_opts(req, cr, o);
	if (proto_cred_supported(cr, &why) != ERR_OK ||
	    (!rk && cr->kh_len == 0) || !c2_key_fits(cs->info, cr, o)) {
		log_msg(c->log, "%s: %s cannot meet what credential %zu asks",
		    "c2_candidates", xport_path(c->x), i + 1);
		return C2_SKIP;
	}
	if (rk)
		return C2_RESIDENT;
	return req->probe ? C2_CHECK : C2_HELD;
}

/* May a silent check have missed this entry? It needs user
 * verification and the key knows credProtect, whose level 3 shows a
 * credential only after verification. */
static bool
c2_maybe_hidden(const struct c2_cand *cs, const struct cred_opts *o)
{
	return (o->uv == 1 || o->pin == 1) &&
	    (cs->info->exts & CTAP2_EXT_CRED_PROTECT);
}

/* Sort the entries: the resident ones into rk (their options joined
 * into *rko), those to ask for as candidates, those to check into
 * chk[0..*nchk); o[i] the options of entry i. The number the key can
 * meet. */
static size_t
c2_sort(const struct proto_ctx *c, struct c2_cand *cs, struct c2_rk *rk,
    struct cred_opts *o, struct cred_opts *rko, size_t *chk, size_t *nchk)
{
	size_t i, fit = 0;
	enum c2_kind kind;

	*nchk = 0;
	for (i = 0; i < cs->req->nallow; i++) {
		kind = c2_classify(c, cs, i, &o[i]);
		fit += kind != C2_SKIP;
		if (kind == C2_RESIDENT) {
			c2_opts_join(rko, &o[i]);
			c2_rk_add(rk, i);
		} else if (kind == C2_HELD) {
			c2_add_cand(cs, i, &o[i]);
		} else if (kind == C2_CHECK) {
			chk[(*nchk)++] = i;
		}
	}
	return fit;
}

/* Which entries to ask for: the one the silent checks found (or, with
 * none, all in turn), then the resident ones together; only when the
 * key shows none, those a check may have missed, asked in turn. */
int
c2_cand_build(const struct proto_ctx *c, struct c2_cand *cs, struct c2_rk *rk,
    const struct assert_req *req, int64_t deadline)
{
	struct cred_opts rko = {0, -1, -1}, *o = NULL;
	size_t i, fit, held, found = SIZE_MAX, nhid = 0, nchk, *chk = NULL;
	int r = ERR_NOMEM;

	cs->req = req;
	cs->walk = !req->probe;
	if ((cs->idx = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (cs->opts = calloc(req->nallow, sizeof(*cs->opts))) == NULL ||
	    c2_rk_new(rk, req->nallow) != ERR_OK ||
	    (chk = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (o = calloc(req->nallow, sizeof(*o))) == NULL)
		goto out;
	fit = c2_sort(c, cs, rk, o, &rko, chk, &nchk);
	if ((r = c2_find_held(c, cs, chk, nchk, deadline, &found)) != ERR_OK)
		goto out;
	if (found != SIZE_MAX)
		c2_add_cand(cs, found, &o[found]);
	held = cs->n;
	/* with one found, it is the one asked: the resident ones are not
	 * reached, so not looked for */
	if ((held == 0 || !req->probe) &&
	    (r = c2_rk_candidate(c, cs, rk, &rko, deadline)) != ERR_OK)
		goto out;
	for (i = 0; held == 0 && i < nchk; i++) {
		if (c2_maybe_hidden(cs, &o[chk[i]])) {
			c2_add_cand(cs, chk[i], &o[chk[i]]);
			nhid++;
		}
	}
	if (nhid > 0)
		cs->walk = true;
	log_msg(c->log,
	    "%s: %s holds %zu of %zu credentials (%zu resident ones asked "
	    "for together, %zu a probe may have missed)",
	    "c2_candidates", xport_path(c->x), held, req->nallow,
	    c2_rk_count(rk), nhid);
	r = cs->n > 0 ? ERR_OK : fit > 0 ? ERR_WRONG_KH : ERR_UNSUPPORTED;
out:
	free(chk);
	free(o);
	return r;
}

const struct cred *
c2_cand_cred(const struct c2_cand *cs)
{
	size_t k = cs->idx[cs->next];

	return k == C2_RK ? NULL : &cs->req->allow[k];
}

const struct assert_req *
c2_cand_req(const struct c2_cand *cs)
{
	return cs->req;
}

size_t
c2_cand_index(const struct c2_cand *cs)
{
	return cs->idx[cs->next];
}

struct cred_opts *
c2_cand_opts(struct c2_cand *cs)
{
	return &cs->opts[cs->next];
}

const char *
c2_cand_rp(const struct c2_cand *cs)
{
	const struct cred *cr = c2_cand_cred(cs);

	return cr != NULL ? c2_cred_rp(cs->req, cr) : cs->req->rp_id;
}

bool
c2_cand_advance(struct c2_cand *cs)
{
	if (!cs->walk || cs->next + 1 >= cs->n)
		return false;
	cs->next++;
	return true;
}
