/* The candidates of a CTAP2 assertion: which allow-list entries this key
 * is to be asked for, with the options pam-u2f derives for each. Entries
 * it cannot meet are left out; with req->probe, silent checks (up=false,
 * no verification) find those it holds; the resident entries "*" are
 * asked for together (the walk of ctap2_rk.c). Its own file because the
 * candidates and the cursor over them are state that only the choice
 * and the walk over them should touch; the silent checks live here as
 * they are how the choice is made. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctap2_st.h"

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

int
c2_probe_one(const struct proto_ctx *c, struct c2_io *io, const char *rp_id,
    const struct cred *cr, int ms)
{
	uint8_t cdh[PROTO_CDH_LEN];
	struct ctap2_ga ga;
	size_t len = 0, rlen = 0;
	int r;

	if ((r = util_random(cdh, sizeof(cdh))) != ERR_OK)
		return r;
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = rp_id;
	ga.cdh = cdh;
	ga.cred = cr;
	ga.up = 0;
	ga.uv = -1;
	if ((r = ctap2_build_ga(&ga, io->msg, &len)) != ERR_OK ||
	    (r = c2_call(c, io->msg, len, io->rx, &rlen, ms)) != ERR_OK)
		return r;
	r = c2_status(c, io->rx, rlen, "probe");
	util_wipe(io->rx, rlen);
	return r;
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

enum c2_kind { C2_SKIP, C2_FIT, C2_HELD, C2_HIDDEN, C2_RESIDENT };

/* What allow-list entry i is to this key: one it cannot meet (SKIP), a
 * resident one, one it holds (or any, without a probe: HELD), one a
 * silent probe does not find (FIT), or one the probe may have missed:
 * it needs user verification and the key knows credProtect, whose
 * level 3 shows a credential only after verification (HIDDEN). */
static int
c2_consider(const struct proto_ctx *c, struct c2_cand *cs, size_t i,
    struct cred_opts *o, int64_t deadline, enum c2_kind *kind)
{
	const struct assert_req *req = cs->req;
	const struct cred *cr = &req->allow[i];
	bool rk = (cr->flags & CRED_RESIDENT) != 0;
	const char *why;
	int r;

	*kind = C2_SKIP;
	proto_cred_opts(req, cr, o);
	if (proto_cred_supported(cr, &why) != ERR_OK ||
	    (!rk && cr->kh_len == 0) || !c2_key_fits(cs->info, cr, o)) {
		log_msg(c->log, "%s: %s cannot meet what credential %zu asks",
		    "c2_candidates", xport_path(c->x), i + 1);
		return ERR_OK;
	}
	*kind = rk ? C2_RESIDENT : C2_HELD;
	if (rk || !req->probe)
		return ERR_OK;
	r = c2_probe_one(c, cs->io, c2_cred_rp(req, cr), cr,
	    util_cap_ms(C2_PROBE_MS, deadline));
	if (r != ERR_WRONG_KH)
		return r;
	*kind = (o->uv == 1 || o->pin == 1) &&
		(cs->info->exts & CTAP2_EXT_CRED_PROTECT)
	    ? C2_HIDDEN
	    : C2_FIT;
	return ERR_OK;
}

int
c2_cand_build(const struct proto_ctx *c, struct c2_cand *cs, struct c2_rk *rk,
    const struct assert_req *req, int64_t deadline)
{
	struct cred_opts o, rko = {0, -1, -1}, *hopts = NULL;
	enum c2_kind kind;
	size_t i, fit = 0, held, nhid = 0, *hid = NULL;
	int r = ERR_NOMEM;

	cs->req = req;
	cs->walk = !req->probe;
	if ((cs->idx = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (cs->opts = calloc(req->nallow, sizeof(*cs->opts))) == NULL ||
	    c2_rk_new(rk, req->nallow) != ERR_OK ||
	    (hid = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (hopts = calloc(req->nallow, sizeof(*hopts))) == NULL)
		goto out;
	for (i = 0; i < req->nallow; i++) {
		if ((r = c2_consider(c, cs, i, &o, deadline, &kind)) != ERR_OK)
			goto out;
		fit += kind != C2_SKIP;
		if (kind == C2_RESIDENT) {
			c2_opts_join(&rko, &o);
			c2_rk_add(rk, i);
		} else if (kind == C2_HELD) {
			c2_add_cand(cs, i, &o);
		} else if (kind == C2_HIDDEN) {
			hopts[nhid] = o;
			hid[nhid++] = i;
		}
	}
	held = cs->n;
	if ((r = c2_rk_candidate(c, cs, rk, &rko, deadline)) != ERR_OK)
		goto out;
	for (i = 0; held == 0 && i < nhid; i++)
		c2_add_cand(cs, hid[i], &hopts[i]);
	if (held == 0 && nhid > 0)
		cs->walk = true;
	log_msg(c->log,
	    "%s: %s holds %zu of %zu credentials (%zu resident ones asked "
	    "for together, %zu a probe may have missed)",
	    "c2_candidates", xport_path(c->x), held, req->nallow,
	    c2_rk_count(rk), nhid);
	r = cs->n > 0 ? ERR_OK : fit > 0 ? ERR_WRONG_KH : ERR_UNSUPPORTED;
out:
	free(hid);
	free(hopts);
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
