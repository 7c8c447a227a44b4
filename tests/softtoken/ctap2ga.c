/* SPDX-License-Identifier: BSD-2-Clause */
/* authenticatorGetAssertion and authenticatorGetNextAssertion of the
 * software token (CTAP 2.1 6.2, 6.3). With an allowList: its first entry
 * that is ours for the RP and visible. Without one (or an empty one): the
 * resident credentials of the RP, newest first; the first is answered
 * with numberOfCredentials (when more than one) and the rest wait for
 * GetNextAssertion (same clientDataHash and flags, no new touch, 30 s on
 * the token's clock, lost on any other command). credProtect: 2 is seen
 * without UV only through an allowList, 3 only with UV. The user entity
 * of a resident credential is its id, with name and displayName only
 * after UV. */
#include "config.h"

#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

#define AD_UP 0x01
#define AD_UV 0x04
#define AD_ED 0x80

/* One assertion: credential, authData, signature, [user, [count]]. */
struct asr {
	const uint8_t *id;
	size_t id_len;
	const struct ctap2_rk *rk; /* the user entity, or NULL */
	size_t count;              /* numberOfCredentials, 0: omitted */
	const uint8_t *ext;        /* authData extensions (hmac-secret) */
	size_t ext_len;
};

static void
put_user(const struct ctap2_rk *r, int uv, struct cbor_wr *w)
{
	int names = uv && r->name[0] != '\0', disp = uv && r->display[0];

	cbor_put_map(w, 1u + (names ? 1u : 0u) + (disp ? 1u : 0u));
	cbor_put_str(w, "id");
	cbor_put_bytes(w, r->uid, r->uid_len);
	if (names) {
		cbor_put_str(w, "name");
		cbor_put_str(w, r->name);
	}
	if (disp) {
		cbor_put_str(w, "displayName");
		cbor_put_str(w, r->display);
	}
}

static int
assertion(struct token *t, const uint8_t rph[32], const uint8_t cdh[32],
    const struct ctap2_key *k, const struct asr *a, int up, int uv,
    struct cbor_wr *w)
{
	uint8_t ad[37 + CTAP2_HMAC_EXT_MAX + 32], sig[CTAP2_SIG_MAX];
	size_t siglen = 0, n = 37 + a->ext_len;
	int st;

	if ((st = ctap2_op_ad_head(t,
		 (uint8_t)((up ? AD_UP : 0) | (uv ? AD_UV : 0) |
		     (a->ext_len > 0 ? AD_ED : 0)),
		 rph, ad)) != ST_OK)
		return st;
	if (a->ext_len > 0)
		memcpy(ad + 37, a->ext, a->ext_len);
	memcpy(ad + n, cdh, 32);
	if (ctap2_sign(k->pkey, k->alg, ad, n + 32, sig, &siglen) != ERR_OK)
		return ST_OTHER;
	cbor_put_map(w, 3u + (a->rk != NULL ? 1u : 0u) + (a->count ? 1u : 0u));
	cbor_put_uint(w, 1);
	cbor_put_map(w, 2);
	cbor_put_str(w, "id");
	cbor_put_bytes(w, a->id, a->id_len);
	cbor_put_str(w, "type");
	cbor_put_str(w, "public-key");
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, ad, n);
	cbor_put_uint(w, 3);
	cbor_put_bytes(w, sig, siglen);
	if (a->rk != NULL) {
		cbor_put_uint(w, 4);
		put_user(a->rk, uv, w);
	}
	if (a->count) {
		cbor_put_uint(w, 5);
		cbor_put_uint(w, a->count);
	}
	return ST_OK;
}

/* 1 if the request has an allowList with at least one entry. */
static int
has_allow_list(const struct ctap2_req *q, int *bad)
{
	struct cbor_rd r;
	size_t n = 0;

	*bad = 0;
	if (!ctap2_req_has(q, 3))
		return 0;
	ctap2_req_rd(q, 3, &r);
	if (cbor_get_array(&r, &n) != ERR_OK)
		*bad = 1;
	return *bad || n > 0;
}

/* The resident credential idx of the next state, unwrapped. */
static int
rk_key(const struct token *t, size_t idx, struct ctap2_key *k)
{
	const struct ctap2_rk *r = &t->c2->rk[idx];

	return ctap2_cred_unwrap(t, r->id, r->id_len, r->rph, k) == ERR_OK
	    ? ST_OK
	    : ST_OTHER;
}

/* Without an allowList: the first resident credential, the rest kept. */
static int
discover(struct token *t, int64_t now, const struct ctap2_op *op, int up,
    int uv, struct cbor_wr *w)
{
	struct ctap2_next *nx = &t->c2->next;
	struct ctap2_key k = {0, NULL, 1, 0, 0};
	struct asr a;
	int st;

	if ((st = rk_key(t, nx->idx[0], &k)) != ST_OK)
		return st;
	a.rk = &t->c2->rk[nx->idx[0]];
	a.id = a.rk->id;
	a.id_len = a.rk->id_len;
	a.count = nx->n > 1 ? nx->n : 0;
	a.ext = NULL;
	a.ext_len = 0;
	st = assertion(t, op->rph, op->cdh, &k, &a, up, uv, w);
	ctap2_key_clear(&k);
	if (st != ST_OK || nx->n < 2)
		return st;
	nx->active = 1;
	nx->at = now;
	nx->pos = 1;
	nx->up = up;
	nx->uv = uv;
	memcpy(nx->cdh, op->cdh, 32);
	memcpy(nx->rph, op->rph, 32);
	return ST_OK;
}

static int
ga_params(struct token *t, const struct ctap2_req *q, struct ctap2_op *op)
{
	const char *rp;
	size_t rn;
	int st;

	if ((st = ctap2_req_text(q, 1, &rp, &rn)) != ST_OK ||
	    (st = ctap2_op_rp_hash(rp, rn, op->rph)) != ST_OK ||
	    (st = ctap2_op_cdh(q, 2, op)) != ST_OK ||
	    (st = ctap2_req_opts(q, 5, &op->o)) != ST_OK)
		return st;
	return op->o.rk != -1 ? ctap2_op_bad_option(t->c2) : ST_OK;
}

int
ctap2_get_assertion(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	struct ctap2_op op = {0, 6, NULL, {0}, {0, 0, 0}};
	struct ctap2_key k = {0, NULL, 1, 0, 0};
	struct ctap2_next *nx = &t->c2->next;
	struct asr a = {NULL, 0, NULL, 0, NULL, 0};
	uint8_t ext[CTAP2_HMAC_EXT_MAX];
	int st, uv = 0, up, want, list, bad;

	nx->active = 0;
	if ((st = ga_params(t, q, &op)) != ST_OK)
		return st;
	up = op.o.up != 0;
	want = ctap2_op_wants_uv(t, q, &op);
	list = has_allow_list(q, &bad);
	if (bad)
		return ST_CBOR_UNEXPECTED_TYPE;
	if ((st = ctap2_op_empty_auth(t, now, mode, q, &op)) != ST_OK)
		return st;
	if (list)
		st = ctap2_op_find(t, q, 3, &op, want, &k, &a.id, &a.id_len);
	else
		st = (nx->n = ctap2_rk_list(t->c2, op.rph, want, nx->idx)) > 0
		    ? ST_OK
		    : ST_NO_CREDENTIALS;
	if (st != ST_OK ||
	    (st = ctap2_op_uv(t, now, mode, q, &op, &uv)) != ST_OK ||
	    (up && (st = ctap2_presence(t, now, mode)) != ST_OK))
		goto fail;
	st = ST_NO_CREDENTIALS; /* what UV was asked for was not done */
	if (want && !uv)
		goto fail;
	if (list &&
	    (st = ctap2_hmac_get(
		 t, q, &k, a.id, a.id_len, uv, ext, &a.ext_len)) != ST_OK)
		goto fail;
	a.ext = ext;
	st = list ? assertion(t, op.rph, op.cdh, &k, &a, up, uv, w)
		  : discover(t, now, &op, up, uv, w);
fail:
	util_wipe(ext, sizeof(ext));
	ctap2_key_clear(&k);
	return st;
}

int
ctap2_get_next_assertion(struct token *t, int64_t now, struct cbor_wr *w)
{
	struct ctap2_next *nx = &t->c2->next;
	struct ctap2_key k = {0, NULL, 1, 0, 0};
	struct asr a;
	int st;

	if (!nx->active || nx->pos >= nx->n || now - nx->at > CTAP2_NEXT_MS) {
		nx->active = 0;
		return ST_NOT_ALLOWED;
	}
	if ((st = rk_key(t, nx->idx[nx->pos], &k)) != ST_OK)
		return st;
	a.rk = &t->c2->rk[nx->idx[nx->pos]];
	a.id = a.rk->id;
	a.id_len = a.rk->id_len;
	a.count = 0;
	a.ext = NULL;
	a.ext_len = 0;
	st = assertion(t, nx->rph, nx->cdh, &k, &a, nx->up, nx->uv, w);
	ctap2_key_clear(&k);
	nx->pos++;
	nx->at = now;
	if (nx->pos >= nx->n)
		nx->active = 0;
	return st;
}
