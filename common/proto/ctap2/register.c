/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 MakeCredential: a new credential, verified (authData parsed
 * strictly, rpIdHash, flags, the attestation statement) before it is
 * returned. The hooks by which the driver (driver.c) runs it: how the
 * user is verified, the request, its reply; the registration's own state
 * (struct c2_reg) is this file's. Its own file because it is what a
 * registration adds to the common phases, as assert.c is for an
 * assertion. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proto/attest.h"
#include "proto/evidence.h"
#include "proto/authdata.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "client.h"

static int
c2_send_mc(
    const struct proto_ctx *c, struct c2_st *st, const struct c2_auth *auth)
{
	const struct reg_req *req = st->reg.req;
	struct ctap2_mc mc;
	int r;

	memset(&mc, 0, sizeof(mc));
	mc.req = req;
	mc.rp_name = req->rp_name;
	mc.rk = req->resident ? 1 : -1;
	mc.uv = st->how == C2_HOW_UV_OPT ? 1 : -1;
	if (auth != NULL) {
		mc.pin_auth = auth->param;
		mc.pin_auth_len = auth->len;
		mc.pin_proto = auth->proto;
	}
	if ((r = ctap2_build_mc(&mc, st->io.msg, &st->io.msg_len)) != ERR_OK)
		return r;
	return c2_send(c, &st->io);
}

static enum c2_how
c2_reg_how_now(struct c2_st *st)
{
	return st->reg.how;
}

static const char *
c2_reg_rp(const struct c2_st *st)
{
	return st->reg.req->rp_id;
}

/* How the user is verified at enrollment (pamu2fcfg -N, -V). */
static int
c2_reg_how(const struct proto_ctx *c, const struct ctap2_info *in,
    const struct reg_req *req, enum c2_how *how)
{
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
c2_reg_fits(const struct proto_ctx *c, const struct ctap2_info *in,
    const struct reg_req *req)
{
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
	if (req->hmac_secret && !(in->exts & CTAP2_EXT_HMAC_SECRET)) {
		log_msg(c->log,
		    "%s: %s does not list the hmac-secret extension", __func__,
		    xport_path(c->x));
		return ERR_UNSUPPORTED;
	}
	return ERR_OK;
}

int
c2_reg_setup(
    const struct proto_ctx *c, struct c2_st *st, const struct reg_req *req)
{
	enum c2_how how;
	int r;

	if (!ctap2_info_alg(&st->info, req->type)) {
		log_msg(c->log, "%s: %s does not offer %s keys", "c2_reg_begin",
		    xport_path(c->x),
		    cred_type_name(req->type) ? cred_type_name(req->type)
					      : "such");
		return ERR_UNSUPPORTED;
	}
	if ((r = c2_reg_fits(c, &st->info, req)) != ERR_OK ||
	    (r = c2_reg_how(c, &st->info, req, &how)) != ERR_OK)
		return r;
	st->reg.req = req;
	st->reg.how = how;
	return ERR_OK;
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

/* The level asked for is the one the key applied, and hmac-secret is
 * on where asked for (its authData says). */
static int
c2_check_protect(const struct proto_ctx *c, const struct reg_req *req,
    const struct authdata *ad)
{
	const uint8_t *p;
	size_t n;
	bool on = false;
	int level = 0;

	if (req->hmac_secret &&
	    (ctap2_ext_hmac_secret(ad->ext, ad->ext_len, &p, &n, &on) !=
		    ERR_OK ||
		!on)) {
		log_msg(c->log, "%s: %s: hmac-secret asked for, not enabled",
		    __func__, xport_path(c->x));
		return ERR_UNSUPPORTED;
	}
	if (req->cred_protect == 0)
		return ERR_OK;
	if (ctap2_ext_cred_protect(ad->ext, ad->ext_len, &level) != ERR_OK)
		return ERR_PROTO;
	if (level != req->cred_protect) {
		log_msg(c->log,
		    "%s: %s: credProtect %d asked for, the key applied %d",
		    __func__, xport_path(c->x), req->cred_protect, level);
		return ERR_MISMATCH;
	}
	return ERR_OK;
}

static int
c2_check_mc(const struct proto_ctx *c, const struct c2_st *st,
    const struct authdata *ad)
{
	const struct reg_req *req = st->reg.req;
	uint8_t rph[PROTO_RPID_HASH];
	int r;

	if ((r = crypto_sha256(req->rp_id, strlen(req->rp_id), rph)) != ERR_OK)
		return r;
	if (memcmp(rph, ad->rpid_hash, sizeof(rph)) != 0)
		return ERR_MISMATCH;
	if (!(ad->flags & AUTHDATA_UP))
		return ERR_NO_PRESENCE;
	if (st->how != C2_HOW_NONE && !(ad->flags & AUTHDATA_UV))
		return ERR_NO_UV;
	if (ad->type != req->type)
		return ERR_PROTO;
	return c2_check_protect(c, req, ad);
}

static int
c2_reg_result(const struct proto_ctx *c, const struct c2_st *st,
    const uint8_t *body, size_t len, struct reg_result *out)
{
	struct ctap2_mc_reply m;
	struct reg_result res;
	struct authdata ad;
	int r;

	memset(&res, 0, sizeof(res));
	if ((r = ctap2_parse_mc(body, len, &m)) != ERR_OK ||
	    (r = authdata_parse(m.authdata, m.authdata_len, true, &ad)) !=
		ERR_OK ||
	    (r = c2_check_mc(c, st, &ad)) != ERR_OK ||
	    (r = attest_verify(m.fmt, m.fmt_len, m.attstmt, m.attstmt_len,
		 m.authdata, m.authdata_len, &ad, st->cdh, c->log, &res.cert,
		 &res.cert_len)) != ERR_OK)
		goto fail;
	if ((r = c2_dup(ad.cred_id, ad.cred_id_len, &res.cred.kh,
		 &res.cred.kh_len)) != ERR_OK ||
	    (r = c2_dup(ad.pk, ad.pk_len, &res.cred.pk, &res.cred.pk_len)) !=
		ERR_OK ||
	    (r = c2_dup(m.authdata, m.authdata_len, &res.authdata,
		 &res.authdata_len)) != ERR_OK ||
	    (r = evidence_encode(m.fmt, m.fmt_len, m.attstmt, m.attstmt_len,
		 m.authdata, m.authdata_len, st->cdh, (int64_t)time(NULL),
		 &res.evidence, &res.evidence_len)) != ERR_OK)
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
c2_reg_escalate(struct c2_st *st)
{
	if (st->reg.how != C2_HOW_NONE ||
	    ctap2_info_opt(&st->info, CTAP2_OPT_CLIENT_PIN) != 1)
		return ERR_PIN_REQUIRED;
	st->reg.how = C2_HOW_PIN;
	return C2_AGAIN;
}

static int
c2_reg_reply(const struct proto_ctx *c, struct c2_st *st, int r,
    const uint8_t *body, size_t len, void *out)
{
	if (r == ERR_OK)
		return c2_reg_result(c, st, body, len, out);
	if (r == ERR_PIN_REQUIRED)
		return c2_reg_escalate(st);
	return r;
}

const struct c2_ops c2_reg_ops = {
    .op = C2_OP_REGISTER,
    .what = "MakeCredential",
    .perms = CTAP2_PERM_MC,
    .how = c2_reg_how_now,
    .rp = c2_reg_rp,
    .send = c2_send_mc,
    .reply = c2_reg_reply,
    .refused = NULL,
};
