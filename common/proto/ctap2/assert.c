/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 assertions: the hooks by which the driver (driver.c) runs a
 * GetAssertion over the candidates (candidates.c) with the options
 * pam-u2f derives for each: how the user is verified for one, the
 * request itself, and each reply checked (signature, flags, the UV bit
 * after verification; the resident walk's replies matched by
 * resident.c). "Not mine", a key that wants verification we did not
 * send, and built-in UV refused are answered with C2_AGAIN: the driver
 * asks again. Its own file because it is what an assertion adds to the
 * common phases, as register.c is for a registration. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "crypto/crypto.h"
#include "client.h"

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

static enum c2_how
c2_assert_how(struct c2_st *st)
{
	return c2_how_for(&st->info, c2_cand_opts(&st->cand));
}

static const char *
c2_assert_rp(const struct c2_st *st)
{
	return c2_cand_rp(&st->cand);
}

int
c2_assert_setup(const struct proto_ctx *c, struct c2_st *st,
    const struct assert_req *req, int64_t deadline)
{
	return c2_cand_build(c, &st->cand, &st->rk, req, deadline);
}

/* The hmac-secret salt of the current candidate, or NULL (none asked
 * for; the resident walk has none: its entries are "*"). */
static const uint8_t *
c2_assert_salt(struct c2_st *st)
{
	const struct assert_req *req = c2_cand_req(&st->cand);
	const struct cred *cr = c2_cand_cred(&st->cand);

	if (req->hmac_salt == NULL || cr == NULL)
		return NULL;
	return req->hmac_salt[c2_cand_index(&st->cand)];
}

static int
c2_send_ga(
    const struct proto_ctx *c, struct c2_st *st, const struct c2_auth *auth)
{
	const struct cred_opts *o = c2_cand_opts(&st->cand);
	struct ctap2_hmac_in hin;
	struct ctap2_ga ga;
	int r;

	memset(&ga, 0, sizeof(ga));
	ga.rp_id = c2_cand_rp(&st->cand);
	ga.cdh = st->cdh;
	ga.cred = c2_cand_cred(&st->cand);
	c2_rk_restart(&st->rk);
	ga.up = o->up == 0 ? 0 : -1;
	ga.uv = st->how == C2_HOW_UV_OPT ? 1
	    : st->how == C2_HOW_NONE     ? o->uv
					 : -1;
	if (ga.uv == 0)
		ga.uv = -1; /* false is the default; some keys refuse it */
	if (auth != NULL) {
		ga.pin_auth = auth->param;
		ga.pin_auth_len = auth->len;
		ga.pin_proto = auth->proto;
	}
	/* Without the input (logged) the assertion is asked for alone: the
	 * login stands on its signature, only nothing is unsealed. */
	(void)c2_hmac_input(c, &st->hmac, &st->info, &st->pin, st->how,
	    c2_assert_salt(st), &st->io, &hin);
	if (st->hmac.asked)
		ga.hmac = &hin;
	if ((r = ctap2_build_ga(&ga, st->io.msg, &st->io.msg_len)) != ERR_OK)
		return r;
	return c2_send(c, &st->io);
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
c2_check_uv(
    const struct proto_ctx *c, struct c2_st *st, const struct assertion *as)
{
	const struct cred_opts *o = c2_cand_opts(&st->cand);

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

/* A GetAssertion reply: the one check, plus what CTAP2 adds: the
 * credential named is the one asked for (a resident one's reply: one of
 * the user's "*" entries signed it), and the UV flag is set when the PIN
 * or UV was asked for. A wrong rp or a missing presence flag fails at
 * once. */
static int
c2_check_ga(const struct proto_ctx *c, struct c2_st *st,
    const struct ctap2_ga_reply *g, struct assertion *as)
{
	const struct cred *cr = c2_cand_cred(&st->cand);
	const char *rp = c2_cand_rp(&st->cand);
	uint8_t rph[PROTO_RPID_HASH];
	struct c2_signed sg = {rph, st->cdh, c2_cand_opts(&st->cand)->up == 1,
	    g->authdata, g->authdata_len, g->sig, g->sig_len};
	int r;

	if ((r = crypto_sha256(rp, strlen(rp), rph)) != ERR_OK)
		return r;
	if (cr == NULL) {
		if (g->cred_id == NULL || g->cred_id_len == 0)
			return ERR_PROTO; /* CTAP2: named when the allow list
					   * is empty */
		r = c2_rk_match(c, &st->rk, c2_cand_req(&st->cand)->allow, &sg,
		    &as->cred_index, &as->flags, &as->counter);
		return r != ERR_OK ? r : c2_check_uv(c, st, as);
	}
	if (g->cred_id != NULL &&
	    (g->cred_id_len != cr->kh_len ||
		memcmp(g->cred_id, cr->kh, cr->kh_len)))
		return ERR_MISMATCH;
	as->cred_index = c2_cand_index(&st->cand);
	if ((r = proto_check_assertion(cr, rph, st->cdh, sg.up, g->authdata,
		 g->authdata_len, g->sig, g->sig_len, &as->flags,
		 &as->counter)) != ERR_OK)
		return r;
	return c2_check_uv(c, st, as);
}

/* The next of the key's resident credentials (GetNextAssertion: no
 * touch, the same cdh), while there are more. */
static int
c2_next_rk(const struct proto_ctx *c, struct c2_st *st)
{
	if (c2_cand_cred(&st->cand) != NULL || !c2_rk_more(&st->rk))
		return ERR_WRONG_KH;
	ctap2_build_bare(CTAP2_GET_NEXT_ASSERTION, st->io.msg, &st->io.msg_len);
	return c2_pending(c2_send(c, &st->io));
}

/* The verified assertion, its buffers copied out of the reply. */
static int
c2_assertion_out(const struct c2_st *st, const struct ctap2_ga_reply *g,
    struct assertion *as)
{
	const struct cred *cr = c2_cand_cred(&st->cand);
	int r;

	if ((r = c2_dup(g->authdata, g->authdata_len, &as->authdata,
		 &as->authdata_len)) != ERR_OK ||
	    (r = c2_dup(g->sig, g->sig_len, &as->sig, &as->sig_len)) !=
		ERR_OK ||
	    (r = c2_dup(cr != NULL ? cr->kh : g->cred_id,
		 cr != NULL ? cr->kh_len : g->cred_id_len, &as->cred_id,
		 &as->cred_id_len)) != ERR_OK ||
	    (r = c2_dup(g->user_id, g->user_id_len, &as->user_handle,
		 &as->user_handle_len)) != ERR_OK)
		assertion_clear(as);
	return r;
}

static int
c2_assertion(const struct proto_ctx *c, struct c2_st *st, const uint8_t *body,
    size_t len, struct assertion *out)
{
	struct ctap2_ga_reply g;
	struct assertion as;
	int r;

	memset(&as, 0, sizeof(as));
	if ((r = ctap2_parse_ga(body, len, &g)) != ERR_OK) {
		log_msg(c->log, "%s: %s: malformed GetAssertion reply",
		    __func__, xport_path(c->x));
		return r;
	}
	c2_rk_seen(&st->rk, g.ncreds);
	if ((r = c2_check_ga(c, st, &g, &as)) == ERR_WRONG_KH)
		return c2_next_rk(c, st);
	if (r != ERR_OK || (r = c2_assertion_out(st, &g, &as)) != ERR_OK)
		return r;
	c2_hmac_output(c, &st->hmac, g.authdata, g.authdata_len, &as);
	*out = as;
	util_wipe(&as, sizeof(as));
	return ERR_OK;
}

/* The key wants verification we did not send (alwaysUv, a 2.1 key's
 * PUAT_REQUIRED): ask again with a token, once. */
static int
c2_escalate(struct c2_st *st)
{
	struct cred_opts *o = c2_cand_opts(&st->cand);

	if (st->how != C2_HOW_NONE)
		return ERR_PIN_REQUIRED;
	if (ctap2_info_opt(&st->info, CTAP2_OPT_UV) == 1)
		o->uv = 1;
	else if (ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) == 1)
		o->pin = 1;
	else
		return ERR_PIN_REQUIRED;
	return C2_AGAIN;
}

/* Built-in verification failed or is blocked (the user was told): the
 * PIN is asked for instead where the key has one and the credential
 * allows it (pinverification=0 does not), as pam-u2f users ask (#276,
 * #388); the UV flag is still required. Else the error stands. */
static int
c2_uv_fallback(const struct proto_ctx *c, struct c2_st *st, int r)
{
	struct cred_opts *o = c2_cand_opts(&st->cand);

	if (r != ERR_UV_INVALID && r != ERR_UV_BLOCKED)
		return r;
	if ((st->how != C2_HOW_UV_TOKEN && st->how != C2_HOW_UV_OPT) ||
	    o->pin == 0 || !c2_pin_has_cb(&st->pin) ||
	    ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) != 1)
		return r;
	log_msg(c->log,
	    "%s: %s: built-in verification refused; the PIN "
	    "instead",
	    __func__, xport_path(c->x));
	o->pin = 1;
	c2_sel_choose(&st->sel); /* the user tried this key's verification */
	return C2_AGAIN;
}

static int
c2_assert_reply(const struct proto_ctx *c, struct c2_st *st, int r,
    const uint8_t *body, size_t len, void *out)
{
	if (r == ERR_OK)
		return c2_assertion(c, st, body, len, out);
	if (c2_hmac_refused(c, &st->hmac, r))
		return C2_AGAIN;
	if (r == ERR_WRONG_KH)
		return c2_cand_advance(&st->cand) ? C2_AGAIN : ERR_WRONG_KH;
	if (r == ERR_PIN_REQUIRED)
		return c2_escalate(st);
	if (r == ERR_UV_INVALID || r == ERR_UV_BLOCKED)
		c2_pin_failed(c, &st->pin, r);
	return c2_uv_fallback(c, st, r);
}

const struct c2_ops c2_assert_ops = {
    .op = C2_OP_ASSERT,
    .what = "GetAssertion",
    .perms = CTAP2_PERM_GA,
    .how = c2_assert_how,
    .rp = c2_assert_rp,
    .send = c2_send_ga,
    .reply = c2_assert_reply,
    .refused = c2_uv_fallback,
};
