/* SPDX-License-Identifier: BSD-2-Clause */
/* The U2F (CTAP1) protocol behind struct proto: VERSION to detect,
 * REGISTER, and AUTHENTICATE walking an allow list (probed with
 * check-only requests, or asked entry by entry with `nodetect`), each
 * reply checked. What is asked is here; when and how often it goes out
 * (a touch is polled for, a silent key asked again, late replies
 * dropped) is u2f/wire.c's, and u2f/msg.c holds the bytes. The U2F half
 * of proto/ (u2f/), as ctap2/driver.c is the CTAP2 one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "crypto/crypto.h"
#include "proto/evidence.h"
#include "proto/proto.h"
#include "u2f.h"
#include "wire.h"

#define U2F_AUTH_REPLY_MAX (1 + 4 + U2F_SIG_MAX + 2)
#define U2F_VERSION_REPLY_MAX 64
#define U2F_VERSION_STR "U2F_V2"
#define U2F_PROBE_MS 3000 /* a check-only probe needs no touch */

enum u2f_opkind { U2F_OP_NONE, U2F_OP_REGISTER, U2F_OP_ASSERT };

struct u2f_st {
	enum u2f_opkind op;
	uint8_t app[U2F_PARAM_LEN];    /* of the request being asked */
	uint8_t app_rp[U2F_PARAM_LEN]; /* SHA-256(rp_id) */
	uint8_t app_id[U2F_PARAM_LEN]; /* SHA-256(appid) */
	uint8_t chal[U2F_PARAM_LEN];
	const struct cred *allow; /* borrowed from the request */
	size_t *cand;             /* allow-list entries the key holds */
	size_t ncand;
	size_t next;       /* the one being asked for */
	bool presence;     /* the request's (a credential's +presence adds) */
	bool walk;         /* no probe: a "not mine" moves to the next */
	struct u2f_wire w; /* the request in flight (wire.c's) */
};

/* Can U2F ask for this credential under req? Not for what needs user
 * verification or a PIN, or another key type than ES256. */
static int
u2f_cred_usable(const struct assert_req *req, const struct cred *c)
{
	struct cred_opts o;
	const char *why;

	if (proto_cred_supported(c, &why) != ERR_OK || c->type != COSE_ES256 ||
	    c->kh == NULL || c->kh_len == 0 || c->kh_len > U2F_KH_MAX ||
	    c->pk_len != U2F_POINT_LEN)
		return ERR_UNSUPPORTED;
	if (req != NULL) {
		proto_cred_opts(req, c, &o);
		if (o.uv == 1 || o.pin == 1)
			return ERR_UNSUPPORTED;
	}
	return ERR_OK;
}

static int
u2f_state_new(void **out)
{
	*out = calloc(1, sizeof(struct u2f_st));
	return *out != NULL ? ERR_OK : ERR_NOMEM;
}

static void
u2f_reset(struct u2f_st *st)
{
	free(st->cand);
	util_wipe(st, sizeof(*st));
}

static void
u2f_state_free(void *p)
{
	if (p == NULL)
		return;
	u2f_reset(p);
	free(p);
}

/* The AUTHENTICATE request APDU. */
static int
u2f_auth_apdu(uint8_t p1, const uint8_t chal[U2F_PARAM_LEN],
    const uint8_t app[U2F_PARAM_LEN], const struct cred *c,
    uint8_t apdu[U2F_APDU_MAX], size_t *len)
{
	uint8_t data[2 * U2F_PARAM_LEN + 1 + U2F_KH_MAX];
	int r;

	if (c->kh_len == 0 || c->kh_len > U2F_KH_MAX)
		return ERR_INVAL;
	memcpy(data, chal, U2F_PARAM_LEN);
	memcpy(data + U2F_PARAM_LEN, app, U2F_PARAM_LEN);
	data[2 * U2F_PARAM_LEN] = (uint8_t)c->kh_len;
	memcpy(data + 2 * U2F_PARAM_LEN + 1, c->kh, c->kh_len);
	r = u2f_apdu(U2F_INS_AUTHENTICATE, p1, data,
	    2 * U2F_PARAM_LEN + 1 + c->kh_len, apdu, U2F_APDU_MAX, len);
	util_wipe(data, sizeof(data));
	return r;
}

static const struct cred *
u2f_current(const struct u2f_st *st)
{
	return &st->allow[st->cand[st->next]];
}

/* Is presence required for the credential asked for? */
static bool
u2f_presence(const struct u2f_st *st)
{
	return st->presence || (u2f_current(st)->flags & CRED_PRESENCE);
}

static int
u2f_send_op(struct proto_ctx *c)
{
	struct u2f_st *st = c->st;
	uint8_t data[2 * U2F_PARAM_LEN];
	uint8_t apdu[U2F_APDU_MAX];
	size_t len;
	int r;

	if (st->op == U2F_OP_ASSERT) {
		r = u2f_auth_apdu(
		    u2f_presence(st) ? U2F_AUTH_ENFORCE : U2F_AUTH_NO_PRESENCE,
		    st->chal, st->app, u2f_current(st), apdu, &len);
	} else {
		memcpy(data, st->chal, U2F_PARAM_LEN);
		memcpy(data + U2F_PARAM_LEN, st->app, U2F_PARAM_LEN);
		r = u2f_apdu(U2F_INS_REGISTER, 0, data, sizeof(data), apdu,
		    sizeof(apdu), &len);
		util_wipe(data, sizeof(data));
	}
	if (r == ERR_OK)
		r = u2f_wire_send(&st->w, c->x, apdu, len);
	util_wipe(apdu, sizeof(apdu));
	return r;
}

static int64_t
u2f_wake_at(const struct proto_ctx *c)
{
	const struct u2f_st *st = c->st;

	return st->op == U2F_OP_NONE ? INT64_MAX
				     : u2f_wire_wake_at(&st->w, c->x);
}

static int
u2f_poll_fd(const struct proto_ctx *c)
{
	const struct u2f_st *st = c->st;

	return st->op == U2F_OP_NONE ? -1 : u2f_wire_poll_fd(&st->w, c->x);
}

static bool
u2f_wants_touch(const struct proto_ctx *c)
{
	const struct u2f_st *st = c->st;

	return st->op != U2F_OP_NONE && u2f_wire_touch(&st->w);
}

/* One step of the operation: send if due, read what has arrived. ERR_OK
 * with a reply body in buf, ERR_PENDING, or a terminal error. */
static int
u2f_step(struct proto_ctx *c, uint8_t *buf, size_t cap, size_t *body)
{
	struct u2f_st *st = c->st;
	int r;

	switch (u2f_wire_next(&st->w, c->x, c->log, buf, cap)) {
	case U2F_WIRE_WAIT:
		return ERR_PENDING;
	case U2F_WIRE_SEND:
		if ((r = u2f_send_op(c)) != ERR_OK)
			return r;
		break;
	case U2F_WIRE_READ:
		break;
	}
	return u2f_wire_read(&st->w, c->x, c->log, buf, cap, body);
}

static int
u2f_detect(struct proto_ctx *c, int ms)
{
	struct xport *x = c->x;
	const struct log *lg = c->log;
	uint8_t apdu[U2F_APDU_MAX], reply[U2F_VERSION_REPLY_MAX];
	size_t len = 0, body = 0;
	int r;

	if (xport_caps(x) & XPORT_CAP_NMSG) {
		log_msg(lg, "%s: %s speaks FIDO2 only (no U2F messages)",
		    __func__, xport_path(x));
		return ERR_UNSUPPORTED;
	}
	if ((r = u2f_apdu(U2F_INS_VERSION, 0, NULL, 0, apdu, sizeof(apdu),
		 &len)) != ERR_OK ||
	    (r = u2f_wire_call(
		 x, apdu, len, reply, sizeof(reply), &body, ms)) != ERR_OK)
		goto fail;
	if (body != strlen(U2F_VERSION_STR) ||
	    memcmp(reply, U2F_VERSION_STR, body) != 0)
		r = ERR_PROTO;
fail:
	if (r != ERR_OK)
		log_msg(lg, "%s: %s: U2F VERSION failed: %s", __func__,
		    xport_path(x), err_str(r));
	util_wipe(reply, sizeof(reply));
	return r;
}

/* Cancel what is in flight and forget the operation. */
static void
u2f_cancel(struct proto_ctx *c)
{
	struct u2f_st *st = c->st;

	u2f_wire_cancel(&st->w, c->x);
	u2f_reset(st);
}

static int
u2f_begin(struct proto_ctx *c, enum u2f_opkind kind, const char *rp_id,
    const uint8_t cdh[PROTO_CDH_LEN])
{
	struct u2f_st *st = c->st;
	int r;

	u2f_cancel(c);
	st->op = kind;
	if ((r = crypto_sha256(rp_id, strlen(rp_id), st->app_rp)) != ERR_OK)
		return r;
	memcpy(st->app, st->app_rp, U2F_PARAM_LEN);
	memcpy(st->chal, cdh, U2F_PARAM_LEN);
	u2f_wire_start(&st->w);
	return ERR_OK;
}

static int
u2f_reg_begin(struct proto_ctx *c, const struct reg_req *req)
{
	int r;

	if (req->type != COSE_ES256 || req->resident || req->uv || req->pin ||
	    req->pin_token != NULL || req->cred_protect != 0)
		return ERR_UNSUPPORTED;
	if ((r = u2f_begin(c, U2F_OP_REGISTER, req->rp_id, req->cdh)) != ERR_OK)
		return r;
	return u2f_send_op(c);
}

static int
u2f_reg_result(
    const struct u2f_st *st, const struct u2f_reg *reg, struct reg_result *out)
{
	struct reg_result res;
	int r;

	memset(&res, 0, sizeof(res));
	if ((r = crypto_verify_u2f_register(reg->cert, reg->cert_len, st->app,
		 st->chal, reg->kh, reg->kh_len, reg->pubkey, reg->sig,
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
	if ((r = evidence_u2f(st->app, st->chal, reg->kh, reg->kh_len,
		 reg->pubkey, reg->cert, reg->cert_len, reg->sig, reg->sig_len,
		 (int64_t)time(NULL), &res.evidence, &res.evidence_len)) !=
	    ERR_OK) {
		reg_result_clear(&res);
		return r;
	}
	*out = res;
	return ERR_OK;
}

static int
u2f_reg_step(struct proto_ctx *c, struct reg_result *out)
{
	struct u2f_st *st = c->st;
	uint8_t *reply = NULL;
	struct u2f_reg reg;
	size_t body = 0;
	int r;

	memset(&reg, 0, sizeof(reg));
	if (st->op != U2F_OP_REGISTER)
		return ERR_INVAL;
	if ((reply = malloc(U2F_REPLY_MAX)) == NULL)
		return ERR_NOMEM;
	r = u2f_step(c, reply, U2F_REPLY_MAX, &body);
	if (r == ERR_OK &&
	    (r = u2f_parse_register(reply, body, &reg)) == ERR_OK &&
	    (r = u2f_reg_result(st, &reg, out)) != ERR_OK)
		log_msg(c->log, "%s: %s: registration refused: %s", __func__,
		    xport_path(c->x), err_str(r));
	if (r != ERR_PENDING)
		u2f_reset(st);
	u2f_reg_clear(&reg);
	util_freezero(reply, U2F_REPLY_MAX);
	return r;
}

/* One check-only AUTHENTICATE of cred under app (the rp id's hash). */
static int
u2f_probe_app(struct proto_ctx *c, const uint8_t app[U2F_PARAM_LEN],
    const struct cred *cred, int ms)
{
	uint8_t chal[U2F_PARAM_LEN], apdu[U2F_APDU_MAX];
	uint8_t reply[U2F_AUTH_REPLY_MAX];
	size_t len, body;
	int r;

	if ((r = u2f_cred_usable(NULL, cred)) != ERR_OK)
		return r;
	if ((r = util_random(chal, sizeof(chal))) != ERR_OK)
		return r;
	if ((r = u2f_auth_apdu(
		 U2F_AUTH_CHECK_ONLY, chal, app, cred, apdu, &len)) != ERR_OK)
		return r;
	r = u2f_wire_call(c->x, apdu, len, reply, sizeof(reply), &body, ms);
	util_wipe(apdu, sizeof(apdu));
	util_wipe(reply, sizeof(reply));
	/* 6985 is the conforming "yes"; a key that signs anyway holds it
	 * too (the signature is not used). */
	if (r == ERR_PRESENCE || r == ERR_OK)
		return ERR_OK;
	return r;
}

static int
u2f_probe(
    struct proto_ctx *c, const char *rp_id, const struct cred *cred, int ms)
{
	uint8_t app[U2F_PARAM_LEN];
	int r;

	if ((r = crypto_sha256(rp_id, strlen(rp_id), app)) != ERR_OK)
		return r;
	return u2f_probe_app(c, app, cred, ms);
}

/* The hash a credential is asked under: the appid's for a credential
 * registered under it (CRED_APPID), else the rp id's (u2f_assert_begin
 * fills both, hashing each string once). */
static const uint8_t *
u2f_app_of(const struct u2f_st *st, const struct cred *cred)
{
	return (cred->flags & CRED_APPID) ? st->app_id : st->app_rp;
}

/* The allow-list entries the key holds (probe), or all of them. */
static int
u2f_candidates(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline)
{
	struct u2f_st *st = c->st;
	size_t i;
	int r;

	if ((st->cand = calloc(req->nallow, sizeof(size_t))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < req->nallow; i++) {
		if (u2f_cred_usable(req, &req->allow[i]) != ERR_OK) {
			log_msg(c->log,
			    "%s: %s: credential %zu needs FIDO2: skipped",
			    __func__, xport_path(c->x), i + 1);
			continue;
		}
		if (!req->probe) {
			st->cand[st->ncand++] = i;
			continue;
		}
		r = u2f_probe_app(c, u2f_app_of(st, &req->allow[i]),
		    &req->allow[i], util_cap_ms(U2F_PROBE_MS, deadline));
		if (r == ERR_OK)
			st->cand[st->ncand++] = i;
		else if (r != ERR_WRONG_KH) {
			log_msg(c->log, "%s: %s: probe failed: %s", __func__,
			    xport_path(c->x), err_str(r));
			return r;
		}
	}
	log_msg(c->log, "%s: %s holds %zu of %zu credentials", __func__,
	    xport_path(c->x), st->ncand, req->nallow);
	return st->ncand > 0 ? ERR_OK : ERR_WRONG_KH;
}

/* Point st->app at the rp id of the candidate being asked for. */
static void
u2f_pick_app(struct u2f_st *st)
{
	const struct cred *cred = u2f_current(st);

	memcpy(st->app, u2f_app_of(st, cred), U2F_PARAM_LEN);
}

static int
u2f_assert_begin(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline)
{
	struct u2f_st *st = c->st;
	size_t i;
	int r;

	if (req->nallow == 0 || req->pin_token != NULL)
		return ERR_UNSUPPORTED;
	for (i = 0; i < req->nallow; i++)
		if (u2f_cred_usable(req, &req->allow[i]) == ERR_OK)
			break;
	if (i == req->nallow) {
		log_msg(c->log,
		    "%s: %s: a U2F key cannot meet what the "
		    "credentials ask (+pin, +verification, or another key "
		    "type than es256)",
		    __func__, xport_path(c->x));
		return ERR_UNSUPPORTED;
	}
	if ((r = u2f_begin(c, U2F_OP_ASSERT, req->rp_id, req->cdh)) != ERR_OK)
		goto fail;
	if (req->appid == NULL || strcmp(req->appid, req->rp_id) == 0)
		memcpy(st->app_id, st->app_rp, U2F_PARAM_LEN);
	else if ((r = crypto_sha256(
		      req->appid, strlen(req->appid), st->app_id)) != ERR_OK)
		goto fail;
	if ((r = u2f_candidates(c, req, deadline)) != ERR_OK)
		goto fail;
	st->allow = req->allow;
	st->presence = req->presence;
	st->walk = !req->probe;
	u2f_pick_app(st);
	if ((r = u2f_send_op(c)) == ERR_OK)
		return ERR_OK;
fail:
	u2f_reset(st);
	return r;
}

static int
u2f_dup(const uint8_t *p, size_t n, uint8_t **out, size_t *outlen)
{
	if ((*out = malloc(n)) == NULL)
		return ERR_NOMEM;
	memcpy(*out, p, n);
	*outlen = n;
	return ERR_OK;
}

/* A signed reply: put it in authData | cdh shape, check it with the one
 * check every protocol uses, and fill out. */
static int
u2f_assertion(
    struct proto_ctx *c, const struct u2f_auth *a, struct assertion *out)
{
	struct u2f_st *st = c->st;
	const struct cred *cred = u2f_current(st);
	uint8_t ad[PROTO_AUTHDATA_MIN];
	struct assertion as;
	int r;

	memset(&as, 0, sizeof(as));
	memcpy(ad, st->app, U2F_PARAM_LEN);
	ad[32] = a->flags;
	ad[33] = (uint8_t)(a->counter >> 24);
	ad[34] = (uint8_t)(a->counter >> 16);
	ad[35] = (uint8_t)(a->counter >> 8);
	ad[36] = (uint8_t)a->counter;
	as.cred_index = st->cand[st->next];
	if ((r = proto_check_assertion(cred, st->app, st->chal,
		 u2f_presence(st), ad, sizeof(ad), a->sig, a->sig_len,
		 &as.flags, &as.counter)) != ERR_OK ||
	    (r = u2f_dup(ad, sizeof(ad), &as.authdata, &as.authdata_len)) !=
		ERR_OK ||
	    (r = u2f_dup(a->sig, a->sig_len, &as.sig, &as.sig_len)) != ERR_OK ||
	    (r = u2f_dup(cred->kh, cred->kh_len, &as.cred_id,
		 &as.cred_id_len)) != ERR_OK) {
		assertion_clear(&as);
		return r;
	}
	*out = as;
	return ERR_OK;
}

/* "Not mine" for the entry asked for: without a probe, ask for the next
 * one (once the replies still owed to this one are in). ERR_PENDING when
 * there is one. */
static int
u2f_next_candidate(struct u2f_st *st)
{
	if (!st->walk || st->next + 1 >= st->ncand)
		return ERR_WRONG_KH;
	st->next++;
	u2f_pick_app(st);
	u2f_wire_start(&st->w);
	return ERR_PENDING;
}

static int
u2f_assert_step(struct proto_ctx *c, struct assertion *out)
{
	struct u2f_st *st = c->st;
	uint8_t reply[U2F_AUTH_REPLY_MAX];
	struct u2f_auth a;
	size_t body = 0;
	int r;

	memset(&a, 0, sizeof(a));
	if (st->op != U2F_OP_ASSERT)
		return ERR_INVAL;
	r = u2f_step(c, reply, sizeof(reply), &body);
	if (r == ERR_WRONG_KH)
		r = u2f_next_candidate(st);
	if (r == ERR_OK &&
	    (r = u2f_parse_authenticate(reply, body, &a)) == ERR_OK)
		r = u2f_assertion(c, &a, out);
	if (r != ERR_PENDING) {
		if (r != ERR_OK)
			log_msg(c->log, "%s: %s: %s", __func__,
			    xport_path(c->x), err_str(r));
		u2f_reset(st);
	}
	util_wipe(&a, sizeof(a));
	util_wipe(reply, sizeof(reply));
	return r;
}

const struct proto proto_u2f = {
    .name = "u2f",
    .detect = u2f_detect,
    .state_new = u2f_state_new,
    .state_free = u2f_state_free,
    .reg_begin = u2f_reg_begin,
    .reg_step = u2f_reg_step,
    .assert_begin = u2f_assert_begin,
    .assert_step = u2f_assert_step,
    .probe = u2f_probe,
    .poll_fd = u2f_poll_fd,
    .wake_at = u2f_wake_at,
    .wants_touch = u2f_wants_touch,
    .cancel = u2f_cancel,
};
