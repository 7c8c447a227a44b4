/* CTAP2 assertions: GetAssertion walking an allow list one credential
 * at a time with the options pam-u2f derives for it, a PIN/UV auth token
 * where a credential asks for one, silent probes, and resident
 * credentials (an empty allow list, then GetNextAssertion), each reply
 * checked (signature, flags, the UV bit after verification). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "authdata.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "ctap2_st.h"

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

/* How the user is verified for a credential with options o. */
static enum c2_how
c2_how_for(const struct ctap2_info *in, const struct cred_opts *o)
{
	bool always = ctap2_info_opt(in, CTAP2_OPT_ALWAYS_UV) == 1;
	bool uv_key = ctap2_info_opt(in, CTAP2_OPT_UV) == 1;
	bool tok = ctap2_info_opt(in, CTAP2_OPT_PIN_UV_TOKEN) == 1;

	if (o->pin == 1)
		return C2_HOW_PIN;
	if (o->uv == 1 || (always && o->up == 1 && uv_key))
		return tok ? C2_HOW_UV_TOKEN : C2_HOW_UV_OPT;
	if (always && o->up == 1 &&
	    ctap2_info_opt(in, CTAP2_OPT_CLIENT_PIN) == 1)
		return C2_HOW_PIN;
	return C2_HOW_NONE;
}

/* A silent assertion (up=false, no verification): does the key hold
 * cr? ERR_OK yes, ERR_WRONG_KH no. */
static int
c2_probe_one(
    struct proto_ctx *c, const char *rp_id, const struct cred *cr, int ms)
{
	struct c2_st *st = c->st;
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
	if ((r = ctap2_build_ga(&ga, st->msg, &len)) != ERR_OK ||
	    (r = c2_call(c, st->msg, len, st->rx, &rlen, ms)) != ERR_OK)
		return r;
	r = c2_status(c, st->rx, rlen, "probe");
	util_wipe(st->rx, rlen);
	return r;
}

int
c2_probe(struct proto_ctx *c, const char *rp_id, const struct cred *cr, int ms)
{
	if (cr->kh == NULL || cr->kh_len == 0)
		return ERR_UNSUPPORTED;
	return c2_probe_one(c, rp_id, cr, ms);
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

/* Is the key to be asked for its resident credentials (o: the joined
 * options)? Without a probe, yes; with one, if a silent look finds any
 * for the rp, or if they need verification (credProtect may hide them
 * from a look without it). */
static int
c2_rk_wanted(struct proto_ctx *c, const struct assert_req *req,
    const struct cred_opts *o, int64_t deadline)
{
	int r;

	if (!req->probe)
		return ERR_OK;
	r = c2_probe_one(
	    c, req->rp_id, NULL, util_cap_ms(C2_PROBE_MS, deadline));
	if (r == ERR_WRONG_KH && (o->uv == 1 || o->pin == 1))
		return ERR_OK;
	return r;
}

/* The resident entries the key can meet become one candidate, last. */
static int
c2_rk_candidate(struct proto_ctx *c, const struct assert_req *req,
    const struct cred_opts *o, int64_t deadline)
{
	struct c2_st *st = c->st;
	int r;

	if (st->nrk == 0)
		return ERR_OK;
	if ((r = c2_rk_wanted(c, req, o, deadline)) == ERR_WRONG_KH) {
		st->nrk = 0;
		return ERR_OK;
	}
	if (r != ERR_OK)
		return r;
	st->copts[st->ncand] = *o;
	st->cand[st->ncand++] = C2_RK;
	return ERR_OK;
}

enum c2_kind { C2_SKIP, C2_FIT, C2_HELD, C2_HIDDEN, C2_RESIDENT };

/* What allow-list entry i is to this key: one it cannot meet (SKIP), a
 * resident one, one it holds (or any, without a probe: HELD), one a
 * silent probe does not find (FIT), or one the probe may have missed:
 * it needs user verification and the key knows credProtect, whose
 * level 3 shows a credential only after verification (HIDDEN). */
static int
c2_consider(struct proto_ctx *c, const struct assert_req *req, size_t i,
    struct cred_opts *o, int64_t deadline, enum c2_kind *kind)
{
	struct c2_st *st = c->st;
	const struct cred *cr = &req->allow[i];
	bool rk = (cr->flags & CRED_RESIDENT) != 0;
	const char *why;
	int r;

	*kind = C2_SKIP;
	proto_cred_opts(req, cr, o);
	if (proto_cred_supported(cr, &why) != ERR_OK ||
	    (!rk && cr->kh_len == 0) || !c2_key_fits(&st->info, cr, o)) {
		log_msg(c->log, "%s: %s cannot meet what credential %zu asks",
		    "c2_candidates", xport_path(c->x), i + 1);
		return ERR_OK;
	}
	*kind = rk ? C2_RESIDENT : C2_HELD;
	if (rk || !req->probe)
		return ERR_OK;
	r = c2_probe_one(
	    c, c2_cred_rp(req, cr), cr, util_cap_ms(C2_PROBE_MS, deadline));
	if (r != ERR_WRONG_KH)
		return r;
	*kind = (o->uv == 1 || o->pin == 1) &&
		(st->info.exts & CTAP2_EXT_CRED_PROTECT)
	    ? C2_HIDDEN
	    : C2_FIT;
	return ERR_OK;
}

static void
c2_add_cand(struct c2_st *st, size_t i, const struct cred_opts *o)
{
	st->copts[st->ncand] = *o;
	st->cand[st->ncand++] = i;
}

/* Which allow-list entries to ask for, with their options: those the
 * key holds, then its resident ones together; only when it shows none
 * of the others, those a probe may have missed, asked in turn. */
static int
c2_candidates(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline)
{
	struct c2_st *st = c->st;
	struct cred_opts o, rko = {0, -1, -1}, *hopts = NULL;
	enum c2_kind kind;
	size_t i, fit = 0, held, nhid = 0, *hid = NULL;
	int r = ERR_NOMEM;

	if ((st->cand = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (st->copts = calloc(req->nallow, sizeof(*st->copts))) == NULL ||
	    (st->rk = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (hid = calloc(req->nallow, sizeof(size_t))) == NULL ||
	    (hopts = calloc(req->nallow, sizeof(*hopts))) == NULL)
		goto out;
	for (i = 0; i < req->nallow; i++) {
		if ((r = c2_consider(c, req, i, &o, deadline, &kind)) != ERR_OK)
			goto out;
		fit += kind != C2_SKIP;
		if (kind == C2_RESIDENT) {
			c2_opts_join(&rko, &o);
			st->rk[st->nrk++] = i;
		} else if (kind == C2_HELD) {
			c2_add_cand(st, i, &o);
		} else if (kind == C2_HIDDEN) {
			hopts[nhid] = o;
			hid[nhid++] = i;
		}
	}
	held = st->ncand;
	if ((r = c2_rk_candidate(c, req, &rko, deadline)) != ERR_OK)
		goto out;
	for (i = 0; held == 0 && i < nhid; i++)
		c2_add_cand(st, hid[i], &hopts[i]);
	if (held == 0 && nhid > 0)
		st->walk = true;
	log_msg(c->log,
	    "%s: %s holds %zu of %zu credentials (%zu resident ones asked "
	    "for together, %zu a probe may have missed)",
	    __func__, xport_path(c->x), held, req->nallow, st->nrk, nhid);
	r = st->ncand > 0 ? ERR_OK : fit > 0 ? ERR_WRONG_KH : ERR_UNSUPPORTED;
out:
	free(hid);
	free(hopts);
	return r;
}

/* The current candidate's allow-list entry; NULL for the resident ones. */
static const struct cred *
c2_cand(const struct c2_st *st)
{
	size_t k = st->cand[st->next];

	return k == C2_RK ? NULL : &st->areq->allow[k];
}

const char *
c2_cand_rp(const struct c2_st *st)
{
	const struct cred *cr = c2_cand(st);

	return cr != NULL ? c2_cred_rp(st->areq, cr) : st->areq->rp_id;
}

static int
c2_send_ga(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	const struct cred_opts *o = &st->copts[st->next];
	uint8_t auth[PIN_AUTH_MAX];
	struct ctap2_ga ga;
	int r;

	memset(&ga, 0, sizeof(ga));
	ga.rp_id = c2_cand_rp(st);
	ga.cdh = st->cdh;
	ga.cred = c2_cand(st);
	st->rk_total = st->rk_seen = 0;
	ga.up = o->up == 0 ? 0 : -1;
	ga.uv = st->how == C2_HOW_UV_OPT ? 1
	    : st->how == C2_HOW_NONE     ? o->uv
					 : -1;
	if (ga.uv == 0)
		ga.uv = -1; /* false is the default; some keys refuse it */
	if (st->how == C2_HOW_PIN || st->how == C2_HOW_UV_TOKEN) {
		if ((r = c2_pin_auth(st, auth, &ga.pin_auth_len)) != ERR_OK)
			return r;
		ga.pin_auth = auth;
		ga.pin_proto = st->pin_proto;
	}
	r = ctap2_build_ga(&ga, st->msg, &st->msg_len);
	util_wipe(auth, sizeof(auth));
	if (r != ERR_OK)
		return r;
	st->phase = C2_PH_MAIN;
	return c2_send(c);
}

/* Ask for the candidate st->next: a token first where needed. */
static int
c2_ask_current(struct proto_ctx *c)
{
	struct c2_st *st = c->st;

	st->how = c2_how_for(&st->info, &st->copts[st->next]);
	st->touch = false;
	if (st->how != C2_HOW_PIN && st->how != C2_HOW_UV_TOKEN)
		return c2_send_ga(c);
	if (st->token_len > 0 && st->token_rp != NULL &&
	    strcmp(st->token_rp, c2_cand_rp(st)) == 0)
		return c2_send_ga(c);
	c2_pin_forget(st);
	if (st->how == C2_HOW_PIN && c2_gate_here(c))
		return ERR_OK;
	return c2_pin_begin(c);
}

int
c2_assert_begin(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline)
{
	struct c2_st *st = c->st;
	int r;

	c2_cancel(c);
	if (req->nallow == 0 || req->pin_token != NULL)
		return ERR_UNSUPPORTED;
	st->op = C2_OP_ASSERT;
	st->areq = req;
	st->pin_cb = req->pin_cb;
	st->walk = !req->probe;
	memcpy(st->cdh, req->cdh, PROTO_CDH_LEN);
	if ((r = c2_candidates(c, req, deadline)) != ERR_OK ||
	    (r = c2_ask_current(c)) != ERR_OK)
		c2_reset(st);
	return r;
}

static int
c2_dup(const uint8_t *p, size_t n, uint8_t **out, size_t *outlen)
{
	if (n == 0) {
		*out = NULL;
		*outlen = 0;
		return ERR_OK;
	}
	if ((*out = malloc(n)) == NULL)
		return ERR_NOMEM;
	memcpy(*out, p, n);
	*outlen = n;
	return ERR_OK;
}

/* After the PIN or UV was asked for, the UV flag must be set
 * (CVE-2021-31924). */
static int
c2_check_uv(const struct proto_ctx *c, const struct assertion *as)
{
	const struct c2_st *st = c->st;
	const struct cred_opts *o = &st->copts[st->next];

	if ((st->how != C2_HOW_NONE || o->uv == 1 || o->pin == 1) &&
	    !(as->flags & PROTO_UV)) {
		log_msg(c->log,
		    "%s: %s: user verification was asked for but "
		    "the UV flag is clear",
		    __func__, xport_path(c->x));
		return ERR_NO_UV;
	}
	return ERR_OK;
}

/* A resident credential's reply: which of the user's "*" entries signed
 * it (its public key verifies the signature)? ERR_WRONG_KH: none (the
 * key holds someone else's credential for this rp). A wrong rp or a
 * missing presence flag fails at once: no entry can change those. */
static int
c2_check_rk(struct proto_ctx *c, const struct ctap2_ga_reply *g,
    const uint8_t rph[PROTO_RPID_HASH], struct assertion *as)
{
	struct c2_st *st = c->st;
	const struct cred_opts *o = &st->copts[st->next];
	size_t k;
	int r;

	if (g->cred_id == NULL || g->cred_id_len == 0)
		return ERR_PROTO; /* CTAP2: named when the allow list is empty
				   */
	for (k = 0; k < st->nrk; k++) {
		r = proto_check_assertion(&st->areq->allow[st->rk[k]], rph,
		    st->cdh, o->up == 1, g->authdata, g->authdata_len, g->sig,
		    g->sig_len, &as->flags, &as->counter);
		if (r == ERR_OK) {
			as->cred_index = st->rk[k];
			return ERR_OK;
		}
		if (r == ERR_MISMATCH || r == ERR_NO_PRESENCE || r == ERR_NOMEM)
			return r;
	}
	log_msg(c->log,
	    "%s: %s: resident credential %zu of %zu is none of the user's",
	    __func__, xport_path(c->x), st->rk_seen, st->rk_total);
	return ERR_WRONG_KH;
}

/* A GetAssertion reply: the one check, plus what CTAP2 adds: the
 * credential named is the one asked for, and the UV flag is set when
 * the PIN or UV was asked for. */
static int
c2_check_ga(
    struct proto_ctx *c, const struct ctap2_ga_reply *g, struct assertion *as)
{
	struct c2_st *st = c->st;
	const struct cred *cr = c2_cand(st);
	const struct cred_opts *o = &st->copts[st->next];
	const char *rp = c2_cand_rp(st);
	uint8_t rph[PROTO_RPID_HASH];
	int r;

	if ((r = crypto_sha256(rp, strlen(rp), rph)) != ERR_OK)
		return r;
	if (cr == NULL) {
		if ((r = c2_check_rk(c, g, rph, as)) != ERR_OK)
			return r;
		return c2_check_uv(c, as);
	}
	if (g->cred_id != NULL &&
	    (g->cred_id_len != cr->kh_len ||
		memcmp(g->cred_id, cr->kh, cr->kh_len)))
		return ERR_MISMATCH;
	as->cred_index = st->cand[st->next];
	if ((r = proto_check_assertion(cr, rph, st->cdh, o->up == 1,
		 g->authdata, g->authdata_len, g->sig, g->sig_len, &as->flags,
		 &as->counter)) != ERR_OK)
		return r;
	return c2_check_uv(c, as);
}

/* The next of the key's resident credentials (GetNextAssertion: no
 * touch, the same cdh), while there are more. */
static int
c2_next_rk(struct proto_ctx *c)
{
	struct c2_st *st = c->st;

	if (c2_cand(st) != NULL || st->rk_seen >= st->rk_total)
		return ERR_WRONG_KH;
	ctap2_build_bare(CTAP2_GET_NEXT_ASSERTION, st->msg, &st->msg_len);
	return c2_pending(c2_send(c));
}

static int
c2_assertion(
    struct proto_ctx *c, const uint8_t *body, size_t len, struct assertion *out)
{
	struct c2_st *st = c->st;
	struct ctap2_ga_reply g;
	struct assertion as;
	int r;

	memset(&as, 0, sizeof(as));
	if ((r = ctap2_parse_ga(body, len, &g)) != ERR_OK) {
		log_msg(c->log, "%s: %s: malformed GetAssertion reply",
		    __func__, xport_path(c->x));
		return r;
	}
	if (st->rk_seen++ == 0)
		st->rk_total = g.ncreds > 0 ? g.ncreds : 1;
	if ((r = c2_check_ga(c, &g, &as)) == ERR_WRONG_KH)
		return c2_next_rk(c);
	if (r != ERR_OK ||
	    (r = c2_dup(g.authdata, g.authdata_len, &as.authdata,
		 &as.authdata_len)) != ERR_OK ||
	    (r = c2_dup(g.sig, g.sig_len, &as.sig, &as.sig_len)) != ERR_OK ||
	    (r = c2_dup(c2_cand(st) != NULL ? c2_cand(st)->kh : g.cred_id,
		 c2_cand(st) != NULL ? c2_cand(st)->kh_len : g.cred_id_len,
		 &as.cred_id, &as.cred_id_len)) != ERR_OK ||
	    (r = c2_dup(g.user_id, g.user_id_len, &as.user_handle,
		 &as.user_handle_len)) != ERR_OK) {
		assertion_clear(&as);
		return r;
	}
	*out = as;
	return ERR_OK;
}

/* "Not mine" for the one asked for: without a probe, the next. */
static int
c2_next_candidate(struct proto_ctx *c)
{
	struct c2_st *st = c->st;

	if (!st->walk || st->next + 1 >= st->ncand)
		return ERR_WRONG_KH;
	st->next++;
	return c2_pending(c2_ask_current(c));
}

/* The key wants verification we did not send (alwaysUv, a 2.1 key's
 * PUAT_REQUIRED): ask again with a token, once. */
static int
c2_escalate(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	struct cred_opts *o = &st->copts[st->next];

	if (st->how != C2_HOW_NONE)
		return ERR_PIN_REQUIRED;
	if (ctap2_info_opt(&st->info, CTAP2_OPT_UV) == 1)
		o->uv = 1;
	else if (ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) == 1)
		o->pin = 1;
	else
		return ERR_PIN_REQUIRED;
	return c2_pending(c2_ask_current(c));
}

/* Built-in verification failed or is blocked: the user is told, and the
 * PIN is asked for instead where the key has one and the credential
 * allows it (pinverification=0 does not), as pam-u2f users ask (#276,
 * #388); the UV flag is still required. Else the error stands. */
static int
c2_uv_fallback(struct proto_ctx *c, int r)
{
	struct c2_st *st = c->st;
	struct cred_opts *o = &st->copts[st->next];

	if (r != ERR_UV_INVALID && r != ERR_UV_BLOCKED)
		return r;
	c2_pin_failed(c, r);
	if ((st->how != C2_HOW_UV_TOKEN && st->how != C2_HOW_UV_OPT) ||
	    o->pin == 0 || st->pin_cb == NULL ||
	    ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) != 1)
		return r;
	log_msg(c->log,
	    "%s: %s: built-in verification refused; the PIN "
	    "instead",
	    __func__, xport_path(c->x));
	o->pin = 1;
	st->chosen = true; /* the user tried this key's verification */
	return c2_pending(c2_ask_current(c));
}

static int
c2_main_reply(struct proto_ctx *c, int r, size_t len, struct assertion *out)
{
	struct c2_st *st = c->st;

	if (r == ERR_OK)
		return c2_assertion(c, st->rx + 1, len - 1, out);
	if (r == ERR_WRONG_KH)
		return c2_next_candidate(c);
	if (r == ERR_PIN_REQUIRED)
		return c2_escalate(c);
	return c2_uv_fallback(c, r);
}

int
c2_assert_step(struct proto_ctx *c, struct assertion *out)
{
	struct c2_st *st = c->st;
	size_t len = 0;
	int r;

	if (st->op != C2_OP_ASSERT)
		return ERR_INVAL;
	if ((r = c2_recv_step(c, &len)) == ERR_PENDING)
		return r;
	if (r == ERR_OK)
		r = c2_status(c, st->rx, len, "GetAssertion");
	if (st->phase == C2_PH_SELECT) {
		r = c2_select_reply(c, r);
	} else if (st->phase != C2_PH_MAIN) {
		if (r == ERR_OK &&
		    (r = c2_pin_step(c, st->rx + 1, len - 1)) == ERR_OK)
			r = c2_pending(c2_send_ga(c));
		else if (r == ERR_UV_INVALID || r == ERR_UV_BLOCKED)
			r = c2_uv_fallback(c, r);
		else if (c2_pin_refused(r))
			c2_pin_failed(c, r);
	} else {
		r = c2_main_reply(c, r, len, out);
	}
	if (r != ERR_PENDING) {
		if (r != ERR_OK)
			log_msg(c->log, "%s: %s: %s", __func__,
			    xport_path(c->x), err_str(r));
		c2_reset(st);
	}
	return r;
}
