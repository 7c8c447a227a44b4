/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 protocol behind struct proto, and its one phase driver:
 * GetInfo to detect (once per device); then an operation (the hooks of
 * assert.c: assert, register.c: register) is asked for, with a
 * PIN/UV auth token first where one is needed (pin.c), stopping at
 * the PIN gate or having the user pick the key (select.c). Each reply
 * goes to the part its phase names; a hook answers C2_AGAIN to have the
 * request asked again, and the driver alone decides how. The driver
 * calls down into the parts; no part calls it back. A request is sent
 * once; the key answers when done and sends keepalives meanwhile
 * (PROCESSING, or UPNEEDED: waiting for a touch). A step never blocks. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "client.h"

/* The exchange's buffers (2 x CTAP2_MSG_MAX) come with c2_detect, once
 * the key says it speaks CBOR: a U2F-only key never has them, so freeing
 * its state wipes nothing that was never written (15 k instructions per
 * device and authentication, issue 27 item 9). */
static int
c2_state_new(void **out)
{
	struct c2_st *st;

	*out = NULL;
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return ERR_NOMEM;
	c2_pin_init(&st->pin, &st->io, &st->info);
	c2_sel_init(&st->sel, &st->io, &st->info);
	c2_cand_init(&st->cand, &st->io, &st->info);
	*out = st;
	return ERR_OK;
}

/* Forget the operation's parts, all but the exchange's buffers. */
static void
c2_forget(struct c2_st *st)
{
	c2_pin_reset(&st->pin);
	c2_cand_reset(&st->cand);
	c2_rk_reset(&st->rk);
	c2_sel_reset(&st->sel, false, NULL);
	memset(&st->reg, 0, sizeof(st->reg));
	c2_hmac_clear(&st->hmac);
	st->ops = NULL;
	st->phase = C2_PH_MAIN;
	st->how = C2_HOW_NONE;
	util_wipe(st->cdh, sizeof(st->cdh));
}

/* Forget the operation (the GetInfo and the wiring stay). */
static void
c2_reset(struct c2_st *st)
{
	c2_forget(st);
	c2_io_reset(&st->io);
}

/* c2_io_free wipes the buffers itself: wiping them first with c2_reset
 * too cost two more passes over 2 x CTAP2_MSG_MAX bytes (15 k
 * instructions per device and authentication, issue 27). */
static void
c2_state_free(void *p)
{
	struct c2_st *st = p;

	if (st == NULL)
		return;
	c2_forget(st);
	c2_io_free(&st->io);
	util_freezero(st, sizeof(*st));
}

static int
c2_detect(struct proto_ctx *c, int ms)
{
	struct c2_st *st = c->st;
	uint8_t req = CTAP2_GET_INFO;
	size_t len = 0;
	int r;

	if (!(xport_caps(c->x) & XPORT_CAP_CBOR))
		return ERR_UNSUPPORTED;
	if (st->io.msg == NULL && c2_io_new(&st->io) != ERR_OK)
		return ERR_NOMEM;
	if ((r = c2_call(c, &req, 1, st->io.rx, &len, ms)) != ERR_OK ||
	    (r = c2_status(c, st->io.rx, len, "GetInfo")) != ERR_OK ||
	    (r = ctap2_parse_info(st->io.rx + 1, len - 1, &st->info)) !=
		ERR_OK) {
		log_msg(c->log, "%s: %s claims CTAP2 but GetInfo failed (%s)",
		    __func__, xport_path(c->x), err_str(r));
		return r == ERR_OK ? ERR_PROTO : r;
	}
	log_msg(c->log,
	    "%s: %s: CTAP2 versions 0x%x, options 0x%x of 0x%x, "
	    "%zu PIN protocols, up to %zu credentials in a list",
	    __func__, xport_path(c->x), st->info.versions, st->info.opt_true,
	    st->info.opt_present, st->info.npin_protos,
	    ctap2_info_list_max(&st->info));
	return ERR_OK;
}

/* proto.probe: one silent check (candidates.c). */
static int
c2_probe(struct proto_ctx *c, const char *rp_id, const struct cred *cr, int ms)
{
	struct c2_st *st = c->st;

	if (cr->kh == NULL || cr->kh_len == 0)
		return ERR_UNSUPPORTED;
	return c2_probe_one(c, &st->io, rp_id, cr, ms);
}

/* The request itself, with a pinUvAuthParam where how has a token. */
static int
c2_send_main(const struct proto_ctx *c, struct c2_st *st)
{
	struct c2_auth auth;
	int r;

	st->phase = C2_PH_MAIN;
	if (!c2_how_token(st->how))
		return st->ops->send(c, st, NULL);
	if ((r = c2_pin_auth(&st->pin, st->cdh, auth.param, &auth.len,
		 &auth.proto)) == ERR_OK)
		r = st->ops->send(c, st, &auth);
	util_wipe(&auth, sizeof(auth));
	return r;
}

/* Start getting the token the request needs. */
static int
c2_token_begin(const struct proto_ctx *c, struct c2_st *st)
{
	st->phase = C2_PH_TOKEN;
	return c2_pin_begin(
	    c, &st->pin, st->how, st->ops->rp(st), st->ops->perms);
}

/* Ask the operation's request: with a token where it needs one (the one
 * there if it is for the same rp, else a new one, stopping first at the
 * PIN gate). ERR_OK: sent, or stopped at the gate. */
static int
c2_ask(const struct proto_ctx *c, struct c2_st *st)
{
	st->how = st->ops->how(st);
	st->io.touch = false;
	if (!c2_how_token(st->how) ||
	    c2_pin_has_token(&st->pin, st->ops->rp(st)))
		return c2_send_main(c, st);
	c2_pin_forget(&st->pin);
	if (st->how == C2_HOW_PIN && c2_gate_here(c, &st->sel))
		return ERR_OK;
	return c2_token_begin(c, st);
}

static void
c2_cancel(struct proto_ctx *c)
{
	struct c2_st *st = c->st;

	if (st->ops != NULL)
		c2_io_cancel(c, &st->io);
	c2_reset(st);
}

/* Begin an operation whose setup (ops' own) has been done. */
static int
c2_begin(struct proto_ctx *c, const struct c2_ops *ops,
    const struct proto_pin *cb, const uint8_t cdh[PROTO_CDH_LEN])
{
	struct c2_st *st = c->st;

	st->ops = ops;
	c2_pin_set_cb(&st->pin, cb);
	memcpy(st->cdh, cdh, PROTO_CDH_LEN);
	return c2_ask(c, st);
}

static int
c2_assert_begin(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline)
{
	struct c2_st *st = c->st;
	int r;

	c2_cancel(c);
	if (req->nallow == 0 || req->pin_token != NULL)
		return ERR_UNSUPPORTED;
	c2_sel_reset(&st->sel, req->pin_gate, req->rp_id);
	if ((r = c2_assert_setup(c, st, req, deadline)) != ERR_OK ||
	    (r = c2_begin(c, &c2_assert_ops, req->pin_cb, req->cdh)) != ERR_OK)
		c2_reset(st);
	return r;
}

static int
c2_reg_begin(struct proto_ctx *c, const struct reg_req *req)
{
	struct c2_st *st = c->st;
	int r;

	c2_cancel(c);
	c2_sel_reset(&st->sel, req->pin_gate, req->rp_id);
	if ((r = c2_reg_setup(c, st, req)) != ERR_OK)
		return r;
	if ((r = c2_begin(c, &c2_reg_ops, req->pin_cb, req->cdh)) != ERR_OK)
		c2_reset(st);
	return r;
}

/* A reply in the token phase (status r): the request itself once the
 * token is there; a refused PIN or UV is told, and the operation may try
 * another way. */
static int
c2_token_reply(const struct proto_ctx *c, struct c2_st *st, int r, size_t len)
{
	if (r == ERR_OK &&
	    (r = c2_pin_step(c, &st->pin, st->io.rx + 1, len - 1)) == ERR_OK)
		return c2_pending(c2_send_main(c, st));
	if (!c2_pin_refused(r))
		return r;
	c2_pin_failed(c, &st->pin, r);
	return st->ops->refused != NULL ? st->ops->refused(c, st, r) : r;
}

/* A reply in the selection phase: picked, the token next. */
static int
c2_select_reply(const struct proto_ctx *c, struct c2_st *st, int r)
{
	if ((r = c2_sel_reply(c, &st->sel, r)) != ERR_OK)
		return r;
	st->io.touch = false;
	return c2_pending(c2_token_begin(c, st));
}

/* One step of the operation op: the reply in flight to its phase's part. */
static int
c2_step(struct proto_ctx *c, enum c2_op op, void *out)
{
	struct c2_st *st = c->st;
	size_t len = 0;
	int r;

	if (st->ops == NULL || st->ops->op != op)
		return ERR_INVAL;
	if ((r = c2_recv_step(c, &st->io, &len)) == ERR_PENDING)
		return r;
	if (r == ERR_OK)
		r = c2_status(c, st->io.rx, len, st->ops->what);
	if (st->phase == C2_PH_SELECT)
		r = c2_select_reply(c, st, r);
	else if (st->phase == C2_PH_TOKEN)
		r = c2_token_reply(c, st, r, len);
	else
		r = st->ops->reply(c, st, r, st->io.rx + 1, len - 1, out);
	if (r == C2_AGAIN)
		r = c2_pending(c2_ask(c, st));
	if (r != ERR_PENDING) {
		if (r != ERR_OK && op == C2_OP_ASSERT)
			log_msg(c->log, "%s: %s: %s", "c2_assert_step",
			    xport_path(c->x), err_str(r));
		c2_reset(st);
	}
	return r;
}

static int
c2_assert_step(struct proto_ctx *c, struct assertion *out)
{
	return c2_step(c, C2_OP_ASSERT, out);
}

static int
c2_reg_step(struct proto_ctx *c, struct reg_result *out)
{
	return c2_step(c, C2_OP_REGISTER, out);
}

static int64_t
c2_wake_at(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->ops == NULL ? INT64_MAX : c2_io_wake_at(c, &st->io);
}

static int
c2_poll_fd(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->ops != NULL && st->io.in_flight ? xport_fd(c->x) : -1;
}

static bool
c2_wants_touch(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->ops != NULL && st->io.touch;
}

static bool
c2_gated(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->ops != NULL && c2_sel_gated(&st->sel);
}

static bool
c2_chosen(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->ops != NULL && c2_sel_chosen(&st->sel);
}

/* Leave the PIN gate: the token at once, or the user's pick first. */
static int
c2_ungate(struct proto_ctx *c, bool select)
{
	struct c2_st *st = c->st;
	int r;

	if (!c2_gated(c))
		return ERR_INVAL;
	if ((r = c2_sel_ungate(c, &st->sel, select)) != ERR_OK)
		return r;
	if (!select)
		return c2_token_begin(c, st);
	st->phase = C2_PH_SELECT;
	st->io.touch = false;
	return ERR_OK;
}

const struct proto proto_ctap2 = {
    .name = "ctap2",
    .detect = c2_detect,
    .state_new = c2_state_new,
    .state_free = c2_state_free,
    .reg_begin = c2_reg_begin,
    .reg_step = c2_reg_step,
    .assert_begin = c2_assert_begin,
    .assert_step = c2_assert_step,
    .probe = c2_probe,
    .poll_fd = c2_poll_fd,
    .wake_at = c2_wake_at,
    .wants_touch = c2_wants_touch,
    .cancel = c2_cancel,
    .gated = c2_gated,
    .ungate = c2_ungate,
    .chosen = c2_chosen,
};
