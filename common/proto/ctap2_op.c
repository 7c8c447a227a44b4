/* The CTAP2 protocol behind struct proto: GetInfo to detect (once per
 * device), GetAssertion (ctap2_ga.c), MakeCredential (ctap2_reg.c), a
 * PIN/UV auth token where one is needed (ctap2_pin.c). A request is
 * sent once; the key answers when done and sends keepalives meanwhile
 * (PROCESSING, or UPNEEDED: waiting for a touch). Only a request that
 * may be sent twice is sent again after a silence (c2_resendable). A
 * step never blocks. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "authdata.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "ctap2_st.h"

static int
c2_state_new(void **out)
{
	struct c2_st *st;

	*out = NULL;
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return ERR_NOMEM;
	if ((st->msg = malloc(CTAP2_MSG_MAX)) == NULL ||
	    (st->rx = malloc(CTAP2_MSG_MAX)) == NULL) {
		free(st->msg);
		free(st);
		return ERR_NOMEM;
	}
	*out = st;
	return ERR_OK;
}

/* Forget the operation (the GetInfo stays). */
void
c2_reset(struct c2_st *st)
{
	c2_pin_forget(st);
	free(st->cand);
	free(st->copts);
	free(st->rk);
	st->cand = NULL;
	st->copts = NULL;
	st->rk = NULL;
	st->ncand = st->next = 0;
	st->nrk = st->rk_total = st->rk_seen = 0;
	st->op = C2_OP_NONE;
	st->in_flight = st->touch = st->resend = false;
	st->gated = st->ungated = st->chosen = false;
	st->areq = NULL;
	st->rreq = NULL;
	st->pin_cb = NULL;
	util_wipe(st->cdh, sizeof(st->cdh));
	c2_msg_wipe(st);
	util_wipe(st->rx, CTAP2_MSG_MAX);
}

void
c2_msg_wipe(struct c2_st *st)
{
	util_wipe(st->msg, CTAP2_MSG_MAX);
	st->msg_len = 0;
	st->resend = false;
}

static void
c2_state_free(void *p)
{
	struct c2_st *st = p;

	if (st == NULL)
		return;
	c2_reset(st);
	free(st->msg);
	free(st->rx);
	util_freezero(st, sizeof(*st));
}

/* May this request be sent a second time? A lost reply (hidraw drops
 * input reports from a full queue) is then asked for again. Only where a
 * second copy is harmless: GetAssertion (a second signature over the
 * same challenge; the late first answer is as good as the second) and
 * authenticatorSelection (a touch). Not ClientPIN: getPinToken spends a
 * PIN try, and its message, which held pinHashEnc, is wiped as soon as
 * it is sent. Not MakeCredential: a second credential. Not
 * GetNextAssertion: the key would move on past a credential. */
static bool
c2_resendable(const uint8_t *msg, size_t len)
{
	return len > 0 &&
	    (msg[0] == CTAP2_GET_ASSERTION || msg[0] == CTAP2_SELECTION);
}

int
c2_send(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	int r;

	if (st->msg_len == 0) /* wiped: never sent (again) */
		return ERR_INVAL;
	st->resend = c2_resendable(st->msg, st->msg_len);
	r = xport_send(c->x, XPORT_CBOR, st->msg, st->msg_len, C2_SEND_MS);
	st->in_flight = (r == ERR_OK);
	st->sent_at = st->alive_at = util_now_ms();
	return r;
}

int
c2_status(const struct proto_ctx *c, const uint8_t *reply, size_t len,
    const char *what)
{
	const char *name;
	int r;

	if (len < 1)
		return ERR_PROTO;
	if ((r = ctap2_status_err(reply[0])) != ERR_OK) {
		name = ctap2_status_name(reply[0]);
		log_msg(c->log, "%s: %s: %s: status 0x%02x (%s)", "ctap2",
		    xport_path(c->x), what, reply[0],
		    name != NULL ? name : "unknown");
	}
	return r;
}

int
c2_call(struct proto_ctx *c, const uint8_t *msg, size_t len, uint8_t *reply,
    size_t *rlen, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int r;

	if ((r = xport_send(c->x, XPORT_CBOR, msg, len, ms)) != ERR_OK)
		return r;
	r = xport_recv(c->x, XPORT_CBOR, reply, CTAP2_MSG_MAX, rlen,
	    util_ms_left(deadline), NULL);
	if (r == ERR_TIMEOUT)
		xport_cancel(c->x);
	return r;
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
	if ((r = c2_call(c, &req, 1, st->rx, &len, ms)) != ERR_OK ||
	    (r = c2_status(c, st->rx, len, "GetInfo")) != ERR_OK ||
	    (r = ctap2_parse_info(st->rx + 1, len - 1, &st->info)) != ERR_OK) {
		log_msg(c->log, "%s: %s claims CTAP2 but GetInfo failed (%s)",
		    __func__, xport_path(c->x), err_str(r));
		return r == ERR_OK ? ERR_PROTO : r;
	}
	log_msg(c->log,
	    "%s: %s: CTAP2 versions 0x%x, options 0x%x of 0x%x, "
	    "%zu PIN protocols",
	    __func__, xport_path(c->x), st->info.versions, st->info.opt_true,
	    st->info.opt_present, st->info.npin_protos);
	return ERR_OK;
}

static int64_t
c2_wake_at(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	if (st->op == C2_OP_NONE || !st->in_flight)
		return INT64_MAX;
	if (xport_fd(c->x) < 0) /* the transport says, or at once */
		return xport_wake_at(c->x, st->sent_at);
	return st->resend ? st->alive_at + C2_STALL_MS : INT64_MAX;
}

/* Has the request in flight gone silent, and may it be sent again? */
static bool
c2_stalled(const struct c2_st *st)
{
	return st->resend && util_now_ms() >= st->alive_at + C2_STALL_MS;
}

static int
c2_poll_fd(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->op != C2_OP_NONE && st->in_flight ? xport_fd(c->x) : -1;
}

static bool
c2_wants_touch(const struct proto_ctx *c)
{
	const struct c2_st *st = c->st;

	return st->op != C2_OP_NONE && st->touch;
}

/* Read what has arrived for the request in flight: ERR_PENDING, or the
 * reply (status byte first) in st->rx. A request that went silent is
 * sent again if it may be (c2_resendable); any other is waited for until
 * the operation's deadline. */
int
c2_recv_step(struct proto_ctx *c, size_t *len)
{
	struct c2_st *st = c->st;
	int status = XPORT_KA_NONE, r;

	if (!st->in_flight)
		return ERR_INVAL;
	r = xport_recv(
	    c->x, XPORT_CBOR, st->rx, CTAP2_MSG_MAX, len, 0, &status);
	if (status != XPORT_KA_NONE) {
		st->alive_at = util_now_ms();
		st->touch = (status == XPORT_KA_UPNEEDED);
	}
	if (r == ERR_TIMEOUT) {
		if (c2_stalled(st)) {
			log_msg(c->log, "%s: %s: no answer, asking again",
			    __func__, xport_path(c->x));
			return c2_pending(c2_send(c));
		}
		return ERR_PENDING;
	}
	st->in_flight = false;
	return r;
}

/* Abandon what is in flight (CTAPHID_CANCEL), drop its late answer, and
 * forget the operation. */
void
c2_cancel(struct proto_ctx *c)
{
	struct c2_st *st = c->st;
	size_t len;

	if (st->op != C2_OP_NONE && st->in_flight) {
		xport_cancel(c->x);
		(void)xport_recv(
		    c->x, XPORT_CBOR, st->rx, CTAP2_MSG_MAX, &len, 100, NULL);
	}
	c2_reset(st);
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
