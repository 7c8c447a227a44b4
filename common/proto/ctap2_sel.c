/* The PIN gate: with several keys that would each ask for their PIN, the
 * PIN must go only to the one the user picks, never to all of them (a
 * PIN typed for one key is a wrong PIN for the others and costs them a
 * try). An assertion that needs the PIN stops before asking for it
 * (assert_req.pin_gate) until the caller lets it through, or has the user
 * pick the key with a touch first: authenticatorSelection on CTAP 2.1
 * keys, and on older ones CTAP 2.0's way, a MakeCredential with an empty
 * pinAuth, which the key answers after a touch with PIN_INVALID or
 * PIN_NOT_SET (CTAP 2.0 5.5.8.1: no try is counted). */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "ctap2_st.h"

bool
c2_gate_here(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	bool gate =
	    st->op == C2_OP_ASSERT ? st->areq->pin_gate : st->rreq->pin_gate;

	if (!gate || st->ungated || st->chosen)
		return false;
	st->gated = true;
	log_msg(c->log, "%s: %s: stopped before the PIN", __func__,
	    xport_path(c->x));
	return true;
}

bool
c2_gated(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->op != C2_OP_NONE && st->gated;
}

bool
c2_chosen(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->op != C2_OP_NONE && st->chosen;
}

/* CTAP 2.0's selection: MakeCredential for the rp with an empty pinAuth
 * (a throw-away user; nothing is created). */
static int
c2_build_select20(struct c2_st *st)
{
	static const uint8_t uid[1] = {0};
	static const uint8_t none[1] = {0};
	struct reg_req req;
	struct ctap2_mc mc;
	int r;

	memset(&req, 0, sizeof(req));
	req.rp_id = st->op == C2_OP_ASSERT ? st->areq->rp_id : st->rreq->rp_id;
	req.type = COSE_ES256;
	req.user.id = uid;
	req.user.id_len = sizeof(uid);
	req.user.name = req.user.display_name = "pam_u2f";
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK)
		return r;
	memset(&mc, 0, sizeof(mc));
	mc.req = &req;
	mc.rk = mc.uv = -1;
	mc.pin_auth = none;
	mc.pin_auth_len = 0;
	mc.pin_proto = st->info.npin_protos > 0 ? st->info.pin_protos[0] : 1;
	return ctap2_build_mc(&mc, st->msg, &st->msg_len);
}

int
c2_ungate(struct proto_ctx *c, bool select)
{
	struct c2_st *st = c->st;
	int r;

	if (!c2_gated(c))
		return ERR_INVAL;
	st->gated = false;
	st->ungated = true;
	if (!select)
		return c2_pin_begin(c);
	log_msg(c->log, "%s: %s: the user picks a key first", __func__,
	    xport_path(c->x));
	if (st->info.versions & CTAP2_V_21)
		ctap2_build_bare(CTAP2_SELECTION, st->msg, &st->msg_len);
	else if ((r = c2_build_select20(st)) != ERR_OK)
		return r;
	st->phase = C2_PH_SELECT;
	st->touch = false;
	return c2_send(c);
}

int
c2_select_reply(struct proto_ctx *c, int r)
{
	struct c2_st *st = c->st;
	bool v21 = (st->info.versions & CTAP2_V_21) != 0;

	if ((v21 && r != ERR_OK) ||
	    (!v21 && r != ERR_PIN_INVALID && r != ERR_PIN_NOT_SET))
		return r == ERR_OK ? ERR_PROTO : r;
	log_msg(
	    c->log, "%s: %s: picked by the user", __func__, xport_path(c->x));
	st->chosen = true;
	st->touch = false;
	return c2_pending(c2_pin_begin(c));
}
