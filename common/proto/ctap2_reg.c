/* CTAP2 MakeCredential: a new credential, verified (authData parsed
 * strictly, rpIdHash, flags, the attestation statement) before it is
 * returned. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "attest.h"
#include "authdata.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "ctap2_st.h"

int
c2_send_mc(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	uint8_t auth[PIN_AUTH_MAX];
	struct ctap2_mc mc;
	int r;

	memset(&mc, 0, sizeof(mc));
	mc.req = st->rreq;
	mc.rp_name = st->rreq->rp_name;
	mc.rk = st->rreq->resident ? 1 : -1;
	mc.uv = st->how == C2_HOW_UV_OPT ? 1 : -1;
	if (st->how == C2_HOW_PIN || st->how == C2_HOW_UV_TOKEN) {
		if ((r = c2_pin_auth(st, auth, &mc.pin_auth_len)) != ERR_OK)
			return r;
		mc.pin_auth = auth;
		mc.pin_proto = st->pin_proto;
	}
	r = ctap2_build_mc(&mc, st->msg, &st->msg_len);
	util_wipe(auth, sizeof(auth));
	if (r != ERR_OK)
		return r;
	st->phase = C2_PH_MAIN;
	return c2_send(c);
}

/* How the user is verified at enrollment (pamu2fcfg -N, -V). */
static int
c2_reg_how(struct proto_ctx *c, const struct reg_req *req, enum c2_how *how)
{
	const struct ctap2_info *in = &((struct c2_st *)c->st)->info;

	*how = C2_HOW_NONE;
	if (req->pin) {
		if (ctap2_info_opt(in, CTAP2_OPT_CLIENT_PIN) == 1) {
			*how = C2_HOW_PIN;
			return ERR_OK;
		}
		log_msg(c->log, "%s: %s: PIN verification asked for, but %s",
		    __func__, xport_path(c->x),
		    ctap2_info_opt(in, CTAP2_OPT_CLIENT_PIN) == 0
			? "the key has no PIN set"
			: "the key does not support a PIN");
		return ctap2_info_opt(in, CTAP2_OPT_CLIENT_PIN) == 0
		    ? ERR_PIN_NOT_SET
		    : ERR_UNSUPPORTED;
	}
	if (req->uv) {
		if (ctap2_info_opt(in, CTAP2_OPT_UV) != 1) {
			log_msg(c->log,
			    "%s: %s: user verification asked for, but the "
			    "key has no built-in verification",
			    __func__, xport_path(c->x));
			return ERR_UNSUPPORTED;
		}
		*how = ctap2_info_opt(in, CTAP2_OPT_PIN_UV_TOKEN) == 1
		    ? C2_HOW_UV_TOKEN
		    : C2_HOW_UV_OPT;
	}
	return ERR_OK;
}

/* Can the key store a resident credential and apply credProtect, where
 * asked? */
static int
c2_reg_fits(struct proto_ctx *c, const struct reg_req *req)
{
	const struct ctap2_info *in = &((struct c2_st *)c->st)->info;

	if (req->resident && ctap2_info_opt(in, CTAP2_OPT_RK) != 1) {
		log_msg(c->log,
		    "%s: %s cannot store resident credentials (no rk "
		    "option)",
		    __func__, xport_path(c->x));
		return ERR_UNSUPPORTED;
	}
	if (req->cred_protect > 0 && !(in->exts & CTAP2_EXT_CRED_PROTECT)) {
		log_msg(c->log,
		    "%s: %s does not list the credProtect extension", __func__,
		    xport_path(c->x));
		return ERR_UNSUPPORTED;
	}
	return ERR_OK;
}

int
c2_reg_begin(struct proto_ctx *c, const struct reg_req *req)
{
	struct c2_st *st = c->st;
	enum c2_how how;
	int r;

	c2_cancel(c);
	if (!ctap2_info_alg(&st->info, req->type)) {
		log_msg(c->log, "%s: %s does not offer %s keys", __func__,
		    xport_path(c->x),
		    cred_type_name(req->type) ? cred_type_name(req->type)
					      : "such");
		return ERR_UNSUPPORTED;
	}
	if ((r = c2_reg_fits(c, req)) != ERR_OK ||
	    (r = c2_reg_how(c, req, &how)) != ERR_OK)
		return r;
	st->op = C2_OP_REGISTER;
	st->how = how;
	st->rreq = req;
	st->pin_cb = req->pin_cb;
	memcpy(st->cdh, req->cdh, PROTO_CDH_LEN);
	if (how == C2_HOW_PIN && c2_gate_here(c))
		r = ERR_OK;
	else if (how == C2_HOW_PIN || how == C2_HOW_UV_TOKEN)
		r = c2_pin_begin(c);
	else
		r = c2_send_mc(c);
	if (r != ERR_OK)
		c2_reset(st);
	return r;
}

static int
c2_dup(const uint8_t *p, size_t n, uint8_t **out, size_t *outlen)
{
	if ((*out = malloc(n > 0 ? n : 1)) == NULL)
		return ERR_NOMEM;
	memcpy(*out, p, n);
	*outlen = n;
	return ERR_OK;
}

/* The level asked for is the one the key applied (its authData says). */
static int
c2_check_protect(struct proto_ctx *c, const struct authdata *ad)
{
	const struct c2_st *st = c->st;
	int level = 0;

	if (st->rreq->cred_protect == 0)
		return ERR_OK;
	if (ctap2_ext_cred_protect(ad->ext, ad->ext_len, &level) != ERR_OK)
		return ERR_PROTO;
	if (level != st->rreq->cred_protect) {
		log_msg(c->log,
		    "%s: %s: credProtect %d asked for, the key applied %d",
		    __func__, xport_path(c->x), st->rreq->cred_protect, level);
		return ERR_MISMATCH;
	}
	return ERR_OK;
}

static int
c2_check_mc(struct proto_ctx *c, const struct ctap2_mc_reply *m,
    const struct authdata *ad)
{
	struct c2_st *st = c->st;
	uint8_t rph[PROTO_RPID_HASH];
	int r;

	if ((r = crypto_sha256(
		 st->rreq->rp_id, strlen(st->rreq->rp_id), rph)) != ERR_OK)
		return r;
	if (memcmp(rph, ad->rpid_hash, sizeof(rph)) != 0)
		return ERR_MISMATCH;
	if (!(ad->flags & AUTHDATA_UP))
		return ERR_NO_PRESENCE;
	if (st->how != C2_HOW_NONE && !(ad->flags & AUTHDATA_UV))
		return ERR_NO_UV;
	if (ad->type != st->rreq->type)
		return ERR_PROTO;
	(void)m;
	return c2_check_protect(c, ad);
}

static int
c2_reg_result(struct proto_ctx *c, const uint8_t *body, size_t len,
    struct reg_result *out)
{
	struct c2_st *st = c->st;
	struct ctap2_mc_reply m;
	struct reg_result res;
	struct authdata ad;
	int r;

	memset(&res, 0, sizeof(res));
	if ((r = ctap2_parse_mc(body, len, &m)) != ERR_OK ||
	    (r = authdata_parse(m.authdata, m.authdata_len, true, &ad)) !=
		ERR_OK ||
	    (r = c2_check_mc(c, &m, &ad)) != ERR_OK ||
	    (r = attest_verify(m.fmt, m.fmt_len, m.attstmt, m.attstmt_len,
		 m.authdata, m.authdata_len, &ad, st->cdh, c->log, &res.cert,
		 &res.cert_len)) != ERR_OK)
		goto fail;
	if ((r = c2_dup(ad.cred_id, ad.cred_id_len, &res.cred.kh,
		 &res.cred.kh_len)) != ERR_OK ||
	    (r = c2_dup(ad.pk, ad.pk_len, &res.cred.pk, &res.cred.pk_len)) !=
		ERR_OK ||
	    (r = c2_dup(m.authdata, m.authdata_len, &res.authdata,
		 &res.authdata_len)) != ERR_OK)
		goto fail;
	res.cred.type = ad.type;
	*out = res;
	return ERR_OK;
fail:
	log_msg(c->log, "%s: %s: registration refused: %s", __func__,
	    xport_path(c->x), err_str(r));
	reg_result_clear(&res);
	return r;
}

/* The key wants verification we did not send: the PIN, once. */
static int
c2_reg_escalate(struct proto_ctx *c)
{
	struct c2_st *st = c->st;

	if (st->how != C2_HOW_NONE ||
	    ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) != 1)
		return ERR_PIN_REQUIRED;
	st->how = C2_HOW_PIN;
	if (c2_gate_here(c))
		return ERR_PENDING;
	return c2_pending(c2_pin_begin(c));
}

int
c2_reg_step(struct proto_ctx *c, struct reg_result *out)
{
	struct c2_st *st = c->st;
	size_t len = 0;
	int r;

	if (st->op != C2_OP_REGISTER)
		return ERR_INVAL;
	if ((r = c2_recv_step(c, &len)) == ERR_PENDING)
		return r;
	if (r == ERR_OK)
		r = c2_status(c, st->rx, len, "MakeCredential");
	if (st->phase == C2_PH_SELECT) {
		r = c2_select_reply(c, r);
	} else if (st->phase != C2_PH_MAIN) {
		if (r == ERR_OK &&
		    (r = c2_pin_step(c, st->rx + 1, len - 1)) == ERR_OK)
			r = c2_pending(c2_send_mc(c));
		else if (c2_pin_refused(r))
			c2_pin_failed(c, r);
	} else if (r == ERR_OK) {
		r = c2_reg_result(c, st->rx + 1, len - 1, out);
	} else if (r == ERR_PIN_REQUIRED) {
		r = c2_reg_escalate(c);
	}
	if (r != ERR_PENDING)
		c2_reset(st);
	return r;
}
