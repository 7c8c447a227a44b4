/* The U2F (CTAP1) protocol behind struct dev_proto. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "device/dev_int.h"
#include "base/err.h"
#include "u2f.h"

#define U2F_REPLY_MAX 7609 /* a whole CTAPHID message */
#define U2F_AUTH_REPLY_MAX (1 + 4 + U2F_SIG_MAX + 2)
#define U2F_VERSION_REPLY_MAX 64
#define U2F_VERSION_STR "U2F_V2"

static int
u2f_cred_usable(const struct cred *c)
{
	if (c->type != COSE_ES256 || c->kh == NULL || c->kh_len == 0 ||
	    c->kh_len > U2F_KH_MAX || c->pk_len != U2F_POINT_LEN ||
	    (c->flags & (CRED_PIN | CRED_VERIFICATION | CRED_RESIDENT)))
		return ERR_UNSUPPORTED;
	return ERR_OK;
}

/* The AUTHENTICATE request APDU. */
static int
u2f_auth_apdu(uint8_t p1, const uint8_t chal[U2F_PARAM_LEN],
    const uint8_t app[U2F_PARAM_LEN], const uint8_t *kh, size_t kh_len,
    uint8_t apdu[U2F_APDU_MAX], size_t *len)
{
	uint8_t data[2 * U2F_PARAM_LEN + 1 + U2F_KH_MAX];
	int r;

	if (kh_len == 0 || kh_len > U2F_KH_MAX)
		return ERR_INVAL;
	memcpy(data, chal, U2F_PARAM_LEN);
	memcpy(data + U2F_PARAM_LEN, app, U2F_PARAM_LEN);
	data[2 * U2F_PARAM_LEN] = (uint8_t)kh_len;
	memcpy(data + 2 * U2F_PARAM_LEN + 1, kh, kh_len);
	r = u2f_apdu(U2F_INS_AUTHENTICATE, p1, data,
	    2 * U2F_PARAM_LEN + 1 + kh_len, apdu, U2F_APDU_MAX, len);
	util_wipe(data, sizeof(data));
	return r;
}

static int
u2f_send_op(struct dev *d)
{
	struct dev_u2f_op *op = &d->u2f;
	uint8_t data[2 * U2F_PARAM_LEN];
	uint8_t apdu[U2F_APDU_MAX];
	size_t len;
	int r;

	if (op->op == DEV_OP_ASSERT) {
		r = u2f_auth_apdu(
		    op->p1, op->chal, op->app, op->kh, op->kh_len, apdu, &len);
	} else {
		memcpy(data, op->chal, U2F_PARAM_LEN);
		memcpy(data + U2F_PARAM_LEN, op->app, U2F_PARAM_LEN);
		r = u2f_apdu(U2F_INS_REGISTER, 0, data, sizeof(data), apdu,
		    sizeof(apdu), &len);
		util_wipe(data, sizeof(data));
	}
	if (r == ERR_OK)
		r = d->xport->send(d, CTAPHID_MSG, apdu, len);
	util_wipe(apdu, sizeof(apdu));
	op->in_flight = (r == ERR_OK);
	op->sent_at = util_now_ms();
	return r;
}

/* Nothing came back for a request in flight: was it lost? */
static bool
u2f_stalled(const struct dev_u2f_op *op)
{
	int64_t last = op->alive_at > op->sent_at ? op->alive_at : op->sent_at;

	return util_now_ms() - last >= DEV_U2F_STALL_MS;
}

/* Wait for the next step of the operation: ERR_OK with a reply to parse,
 * ERR_PENDING while the key waits for a touch, or a terminal error. The
 * reply is read by `recv`, which does the protocol-specific parse. */
static int
u2f_poll_step(
    struct dev *d, int (*recv)(struct dev *, void *, int), void *out, int ms)
{
	struct dev_u2f_op *op = &d->u2f;
	int64_t deadline = util_now_ms() + ms;
	int r, wait;

	for (;;) {
		if (!op->in_flight) {
			wait = (int)(op->next_send - util_now_ms());
			if (wait > util_ms_left(deadline))
				return ERR_PENDING;
			if (wait > 0)
				util_sleep_ms(wait);
			if ((r = u2f_send_op(d)) != ERR_OK)
				return r;
		}
		r = recv(d, out, util_ms_left(deadline));
		if (r == ERR_TIMEOUT) {
			if (u2f_stalled(op)) {
				log_msg(d->log,
				    "%s: %s: no answer, asking again", __func__,
				    d->path);
				op->in_flight = false;
				op->next_send = util_now_ms();
			}
			return ERR_PENDING;
		}
		op->in_flight = false;
		/* "Touch needed", or another program holds the key: ask
		 * again after the poll interval. */
		if (r != ERR_PRESENCE && r != ERR_HID_BUSY)
			return r;
		op->next_send = util_now_ms() + DEV_U2F_POLL_MS;
		if (util_ms_left(deadline) == 0)
			return ERR_PENDING;
	}
}

static int
u2f_recv_reg(struct dev *d, void *out, int ms)
{
	uint8_t *reply = NULL;
	size_t len = 0, body;
	uint16_t sw;
	int r;

	if ((reply = malloc(U2F_REPLY_MAX)) == NULL)
		return ERR_NOMEM;
	if ((r = d->xport->recv(
		 d, CTAPHID_MSG, reply, U2F_REPLY_MAX, &len, ms)) != ERR_OK)
		goto fail;
	if ((r = u2f_status(reply, len, &body, &sw)) != ERR_OK)
		goto fail;
	r = u2f_parse_register(reply, body, out);
fail:
	util_freezero(reply, U2F_REPLY_MAX);
	return r;
}

static int
u2f_recv_auth(struct dev *d, void *out, int ms)
{
	uint8_t reply[U2F_AUTH_REPLY_MAX];
	size_t len = 0, body;
	uint16_t sw;
	int r;

	if ((r = d->xport->recv(
		 d, CTAPHID_MSG, reply, sizeof(reply), &len, ms)) != ERR_OK)
		goto fail;
	if ((r = u2f_status(reply, len, &body, &sw)) != ERR_OK)
		goto fail;
	r = u2f_parse_authenticate(reply, body, out);
fail:
	util_wipe(reply, sizeof(reply));
	return r;
}

int
dev_u2f_version(struct dev *d, int ms)
{
	uint8_t apdu[U2F_APDU_MAX], reply[U2F_VERSION_REPLY_MAX];
	int64_t deadline = util_now_ms() + ms;
	size_t len = 0, body;
	uint16_t sw;
	int r;

	if ((r = u2f_apdu(U2F_INS_VERSION, 0, NULL, 0, apdu, sizeof(apdu),
		 &len)) != ERR_OK ||
	    (r = d->xport->send(d, CTAPHID_MSG, apdu, len)) != ERR_OK)
		return r;
	if ((r = d->xport->recv(d, CTAPHID_MSG, reply, sizeof(reply), &len,
		 util_ms_left(deadline))) != ERR_OK)
		goto fail;
	if ((r = u2f_status(reply, len, &body, &sw)) != ERR_OK)
		goto fail;
	if (body != strlen(U2F_VERSION_STR) ||
	    memcmp(reply, U2F_VERSION_STR, body) != 0)
		r = ERR_PROTO;
fail:
	util_wipe(reply, sizeof(reply));
	return r;
}

static int
u2f_begin(struct dev *d, enum dev_op kind, const char *rp_id,
    const uint8_t cdh[DEV_CDH_LEN])
{
	struct dev_u2f_op *op = &d->u2f;
	int r;

	if (op->in_flight)
		d->proto->cancel(d);
	util_wipe(op, sizeof(*op));
	op->op = kind;
	if ((r = crypto_sha256(rp_id, strlen(rp_id), op->app)) != ERR_OK)
		return r;
	memcpy(op->chal, cdh, U2F_PARAM_LEN);
	return u2f_send_op(d);
}

static int
u2f_reg_begin(struct dev *d, const struct reg_req *req)
{
	return u2f_begin(d, DEV_OP_REGISTER, req->rp_id, req->cdh);
}

static int
u2f_reg_result(const struct dev_u2f_op *op, const struct u2f_reg *reg,
    struct reg_result *out)
{
	struct reg_result res;
	int r;

	memset(&res, 0, sizeof(res));
	if ((r = crypto_verify_u2f_register(reg->cert, reg->cert_len, op->app,
		 op->chal, reg->kh, reg->kh_len, reg->pubkey, reg->sig,
		 reg->sig_len)) != ERR_OK)
		return r;
	if ((res.cred.kh = malloc(reg->kh_len)) == NULL ||
	    (res.cred.pk = malloc(U2F_POINT_LEN)) == NULL ||
	    (res.cert = malloc(reg->cert_len)) == NULL) {
		reg_result_clear(&res);
		return ERR_NOMEM;
	}
	memcpy(res.cred.kh, reg->kh, reg->kh_len);
	res.cred.kh_len = reg->kh_len;
	memcpy(res.cred.pk, reg->pubkey, U2F_POINT_LEN);
	res.cred.pk_len = U2F_POINT_LEN;
	res.cred.type = COSE_ES256;
	memcpy(res.cert, reg->cert, reg->cert_len);
	res.cert_len = reg->cert_len;
	*out = res;
	return ERR_OK;
}

static int
u2f_reg_poll(struct dev *d, struct reg_result *out, int ms)
{
	struct u2f_reg reg;
	int r;

	memset(&reg, 0, sizeof(reg));
	if (d->u2f.op != DEV_OP_REGISTER)
		return ERR_INVAL;
	if ((r = u2f_poll_step(d, u2f_recv_reg, &reg, ms)) == ERR_OK) {
		r = u2f_reg_result(&d->u2f, &reg, out);
		if (r != ERR_OK)
			log_msg(d->log, "%s: %s: registration refused: %s",
			    __func__, d->path, err_str(r));
		d->u2f.op = DEV_OP_NONE;
	}
	u2f_reg_clear(&reg);
	if (r != ERR_OK && r != ERR_PENDING)
		d->u2f.op = DEV_OP_NONE;
	return r;
}

static int
u2f_probe(struct dev *d, const char *rp_id, const struct cred *c, int ms)
{
	uint8_t app[U2F_PARAM_LEN], chal[U2F_PARAM_LEN], apdu[U2F_APDU_MAX];
	struct u2f_auth a;
	size_t len;
	int r;

	if ((r = u2f_cred_usable(c)) != ERR_OK)
		return r;
	if ((r = crypto_sha256(rp_id, strlen(rp_id), app)) != ERR_OK ||
	    (r = util_random(chal, sizeof(chal))) != ERR_OK)
		return r;
	memset(&a, 0, sizeof(a));
	if ((r = u2f_auth_apdu(U2F_AUTH_CHECK_ONLY, chal, app, c->kh, c->kh_len,
		 apdu, &len)) != ERR_OK)
		return r;
	r = d->xport->send(d, CTAPHID_MSG, apdu, len);
	util_wipe(apdu, sizeof(apdu));
	if (r == ERR_OK)
		r = u2f_recv_auth(d, &a, ms);
	util_wipe(&a, sizeof(a));
	/* 6985 is the conforming "yes"; a key that signs anyway holds it
	 * too (the signature is not used). */
	if (r == ERR_PRESENCE || r == ERR_OK)
		return ERR_OK;
	return r;
}

static int
u2f_assert_begin(struct dev *d, const struct assert_req *req)
{
	const struct cred *c = req->cred;
	struct dev_u2f_op *op = &d->u2f;
	int r;

	if ((r = u2f_cred_usable(c)) != ERR_OK)
		return r;
	if (op->in_flight)
		d->proto->cancel(d);
	util_wipe(op, sizeof(*op));
	memcpy(op->kh, c->kh, c->kh_len);
	op->kh_len = c->kh_len;
	memcpy(op->point, c->pk, U2F_POINT_LEN);
	op->presence = req->presence;
	op->p1 = req->presence ? U2F_AUTH_ENFORCE : U2F_AUTH_NO_PRESENCE;
	op->op = DEV_OP_ASSERT;
	if ((r = crypto_sha256(req->rp_id, strlen(req->rp_id), op->app)) !=
	    ERR_OK)
		return r;
	memcpy(op->chal, req->cdh, U2F_PARAM_LEN);
	return u2f_send_op(d);
}

static int
u2f_assert_check(const struct dev_u2f_op *op, const struct u2f_auth *a)
{
	int r;

	if ((r = crypto_verify_u2f_auth(op->point, op->app, a->flags,
		 a->counter, op->chal, a->sig, a->sig_len)) != ERR_OK)
		return r == ERR_PARSE ? ERR_VERIFY : r;
	if (op->presence && (a->flags & 0x01) == 0)
		return ERR_NO_PRESENCE;
	return ERR_OK;
}

static int
u2f_assert_poll(struct dev *d, struct assertion *out, int ms)
{
	struct u2f_auth a;
	int r;

	memset(&a, 0, sizeof(a));
	if (d->u2f.op != DEV_OP_ASSERT)
		return ERR_INVAL;
	r = u2f_poll_step(d, u2f_recv_auth, &a, ms);
	if (r == ERR_OK && (r = u2f_assert_check(&d->u2f, &a)) == ERR_OK) {
		out->flags = a.flags;
		out->counter = a.counter;
	}
	if (r != ERR_PENDING) {
		if (r != ERR_OK)
			log_msg(d->log, "%s: %s: %s", __func__, d->path,
			    err_str(r));
		util_wipe(&d->u2f, sizeof(d->u2f));
	}
	util_wipe(&a, sizeof(a));
	return r;
}

static void
u2f_cancel(struct dev *d)
{
	uint8_t *reply = NULL;
	size_t len;

	if (d->u2f.in_flight && (reply = malloc(U2F_REPLY_MAX)) != NULL) {
		d->xport->cancel(d);
		/* Read (and drop) the answer to the request we abandon, so
		 * it cannot be taken for the answer to a later one. */
		(void)d->xport->recv(d, CTAPHID_MSG, reply, U2F_REPLY_MAX, &len,
		    DEV_U2F_POLL_MS);
		util_freezero(reply, U2F_REPLY_MAX);
	}
	util_wipe(&d->u2f, sizeof(d->u2f));
}

const struct dev_proto dev_u2f_proto = {
    .name = "u2f",
    .reg_begin = u2f_reg_begin,
    .reg_poll = u2f_reg_poll,
    .probe = u2f_probe,
    .assert_begin = u2f_assert_begin,
    .assert_poll = u2f_assert_poll,
    .cancel = u2f_cancel,
};
