/* SPDX-License-Identifier: BSD-2-Clause */
/* The PIN gate: with several keys that would each ask for their PIN, the
 * PIN must go only to the one the user picks, never to all of them (a
 * PIN typed for one key is a wrong PIN for the others and costs them a
 * try). An assertion that needs the PIN stops before asking for it
 * (assert_req.pin_gate) until the caller lets it through, or has the user
 * pick the key with a touch first: authenticatorSelection on CTAP 2.1
 * keys, and on older ones CTAP 2.0's way, a MakeCredential with an empty
 * pinAuth, which the key answers after a touch with PIN_INVALID or
 * PIN_NOT_SET (CTAP 2.0 5.5.8.1: no try is counted). The gate's state
 * (struct c2_sel) is this file's alone; it sends the pick through the
 * exchange and leaves asking for the PIN to the driver. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "client.h"

void
c2_sel_init(struct c2_sel *s, struct c2_io *io, const struct ctap2_info *info)
{
	memset(s, 0, sizeof(*s));
	s->io = io;
	s->info = info;
}

void
c2_sel_reset(struct c2_sel *s, bool gate, const char *rp_id)
{
	s->gate = gate;
	s->rp_id = rp_id;
	s->gated = s->ungated = s->chosen = false;
}

bool
c2_gate_here(const struct proto_ctx *c, struct c2_sel *s)
{
	if (!s->gate || s->ungated || s->chosen)
		return false;
	s->gated = true;
	log_msg(c->log, "%s: %s: stopped before the PIN", __func__,
	    xport_path(c->x));
	return true;
}

bool
c2_sel_gated(const struct c2_sel *s)
{
	return s->gated;
}

bool
c2_sel_chosen(const struct c2_sel *s)
{
	return s->chosen;
}

void
c2_sel_choose(struct c2_sel *s)
{
	s->chosen = true;
}

/* CTAP 2.0's selection: MakeCredential for the rp with an empty pinAuth
 * (a throw-away user; nothing is created). */
static int
c2_build_select20(struct c2_sel *s)
{
	static const uint8_t uid[1] = {0};
	static const uint8_t none[1] = {0};
	struct reg_req req;
	struct ctap2_mc mc;
	int r;

	memset(&req, 0, sizeof(req));
	req.rp_id = s->rp_id;
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
	mc.pin_proto = s->info->npin_protos > 0 ? s->info->pin_protos[0] : 1;
	return ctap2_build_mc(&mc, s->io->msg, &s->io->msg_len);
}

int
c2_sel_ungate(const struct proto_ctx *c, struct c2_sel *s, bool select)
{
	int r;

	if (!s->gated)
		return ERR_INVAL;
	s->gated = false;
	s->ungated = true;
	if (!select)
		return ERR_OK;
	log_msg(c->log, "%s: %s: the user picks a key first", "c2_ungate",
	    xport_path(c->x));
	if (s->info->versions & CTAP2_V_21)
		ctap2_build_bare(CTAP2_SELECTION, s->io->msg, &s->io->msg_len);
	else if ((r = c2_build_select20(s)) != ERR_OK)
		return r;
	return c2_send(c, s->io);
}

int
c2_sel_reply(const struct proto_ctx *c, struct c2_sel *s, int r)
{
	bool v21 = (s->info->versions & CTAP2_V_21) != 0;

	if ((v21 && r != ERR_OK) ||
	    (!v21 && r != ERR_PIN_INVALID && r != ERR_PIN_NOT_SET))
		return r == ERR_OK ? ERR_PROTO : r;
	log_msg(c->log, "%s: %s: picked by the user", "c2_select_reply",
	    xport_path(c->x));
	s->chosen = true;
	return ERR_OK;
}
