/* authenticatorMakeCredential and authenticatorGetAssertion of the software
 * token (CTAP 2.1 6.1, 6.2), non-resident credentials only. Order of the
 * checks: parameters, options, a zero-length pinUvAuthParam (touch, then
 * PIN_NOT_SET or PIN_INVALID), the credential (GetAssertion: the first of
 * the allowList that is ours for this RP, else NO_CREDENTIALS at once),
 * user verification (pinUvAuthParam, or built-in UV for uv=true or
 * alwaysUv), the excludeList (MakeCredential), presence, then the key and
 * signature. The UV flag is set only when UV was done (unless uv-lie). */
#include "config.h"

#include <string.h>

#include <openssl/evp.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

#define ST_CREDENTIAL_EXCLUDED 0x19
#define AD_UP 0x01
#define AD_UV 0x04
#define AD_AT 0x40
#define AD_MAX (37 + 16 + 2 + CTAP2_CRED_MAX + CTAP2_PK_MAX)

/* What MakeCredential and GetAssertion share. */
struct op {
	int mc;      /* MakeCredential */
	unsigned kp; /* request key of pinUvAuthParam */
	const uint8_t *cdh;
	uint8_t rph[32];
	struct ctap2_opts o;
};

static int
get_cdh(const struct ctap2_req *q, unsigned key, struct op *op)
{
	size_t n = 0;
	int st;

	if ((st = ctap2_req_bytes(q, key, &op->cdh, &n)) != ST_OK)
		return st;
	return n == 32 ? ST_OK : ST_INVALID_PARAMETER;
}

static int
hash_rp(const char *rp, size_t n, uint8_t rph[32])
{
	return EVP_Digest(rp, n, rph, NULL, EVP_sha256(), NULL) == 1 ? ST_OK
								     : ST_OTHER;
}

static int
bad_option(const struct ctap2 *c)
{
	return c->version == TOKEN_CTAP2_20 ? ST_UNSUPPORTED_OPTION
					    : ST_INVALID_OPTION;
}

/* A zero-length pinUvAuthParam: ST_OK if there is none, else the answer
 * after a touch. */
static int
empty_auth(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct op *op)
{
	const uint8_t *p;
	size_t n = 0;
	int st;

	if (!ctap2_req_has(q, op->kp) ||
	    ctap2_req_bytes(q, op->kp, &p, &n) != ST_OK || n > 0)
		return ST_OK;
	if ((st = ctap2_presence(t, now, mode)) != ST_OK)
		return st;
	return t->c2->pin_set ? ST_PIN_INVALID : ST_PIN_NOT_SET;
}

/* The UV of the request: *uv = 1 when it was really done. */
static int
user_verification(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct op *op, int *uv)
{
	const struct ctap2 *c = t->c2;
	int st, want = op->o.uv == 1;

	*uv = 0;
	if (t->faults & FAULT_UV_SKIP)
		return ST_OK;
	if (ctap2_req_has(q, op->kp)) {
		st = ctap2_check_puat(t, q, op->kp, op->kp + 1, op->cdh,
		    op->mc ? PERM_MC : PERM_GA, op->rph);
		*uv = st == ST_OK;
		return st;
	}
	if (!want && c->always_uv && (op->mc || op->o.up != 0)) {
		if (c->uv == TOKEN_UV_NONE)
			return ST_PUAT_REQUIRED;
		want = 1;
	}
	if (!want)
		return op->mc && c->pin_set && c->version != TOKEN_CTAP2_21
		    ? ST_PUAT_REQUIRED
		    : ST_OK;
	if (c->uv == TOKEN_UV_NONE)
		return bad_option(c);
	st = ctap2_builtin_uv(t, now, mode);
	*uv = st == ST_OK;
	return st;
}

/* The first {id, type: "public-key"} of the list at key that is ours for
 * op->rph: ST_OK and the key and id, or ST_NO_CREDENTIALS. */
static int
find_cred(const struct token *t, const struct ctap2_req *q, unsigned key,
    const struct op *op, struct ctap2_key *k, const uint8_t **id,
    size_t *id_len)
{
	struct cbor_rd r;
	const uint8_t *p = NULL;
	const char *ty;
	size_t cnt, i, m, j, n = 0, tn;
	int pk;

	if (!ctap2_req_has(q, key))
		return ST_NO_CREDENTIALS;
	ctap2_req_rd(q, key, &r);
	if (cbor_get_array(&r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_map(&r, &m) != ERR_OK)
			return ST_CBOR_UNEXPECTED_TYPE;
		for (j = 0, pk = 0, p = NULL; j < m; j++) {
			if (cbor_take_text_key(&r, "id")) {
				if (cbor_get_bytes(&r, &p, &n) != ERR_OK)
					return ST_CBOR_UNEXPECTED_TYPE;
			} else if (cbor_take_text_key(&r, "type")) {
				if (cbor_get_text(&r, &ty, &tn) != ERR_OK)
					return ST_CBOR_UNEXPECTED_TYPE;
				pk = tn == 10 &&
				    memcmp(ty, "public-key", 10) == 0;
			} else if (cbor_skip(&r) != ERR_OK ||
			    cbor_skip(&r) != ERR_OK)
				return ST_INVALID_CBOR;
		}
		if (p != NULL && pk &&
		    ctap2_cred_unwrap(t, p, n, op->rph, k) == ERR_OK) {
			*id = p;
			*id_len = n;
			return ST_OK;
		}
	}
	return ST_NO_CREDENTIALS;
}

/* rpIdHash || flags || signCount: the counter goes up by one. */
static int
ad_head(struct token *t, uint8_t flags, const uint8_t rph[32], uint8_t *ad)
{
	t->counter++;
	if (token_save_state(t) != ERR_OK)
		return ST_OTHER;
	if (t->faults & FAULT_UV_LIE)
		flags |= AD_UV;
	memcpy(ad, rph, 32);
	ad[32] = flags;
	ad[33] = (uint8_t)(t->counter >> 24);
	ad[34] = (uint8_t)(t->counter >> 16);
	ad[35] = (uint8_t)(t->counter >> 8);
	ad[36] = (uint8_t)t->counter;
	return ST_OK;
}

/* ---- MakeCredential ---- */

/* The first algorithm of pubKeyCredParams (key 4) that we support. */
static int
pick_alg(const struct ctap2_req *q, int *alg)
{
	struct cbor_rd r;
	const char *ty;
	size_t cnt, i, m, j, tn;
	int64_t a;
	int pk, got;

	if (!ctap2_req_has(q, 4))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, 4, &r);
	if (cbor_get_array(&r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_map(&r, &m) != ERR_OK)
			return ST_CBOR_UNEXPECTED_TYPE;
		for (j = 0, pk = 0, got = 0; j < m; j++) {
			if (cbor_take_text_key(&r, "alg")) {
				if (cbor_get_int(&r, &a) != ERR_OK)
					return ST_CBOR_UNEXPECTED_TYPE;
				got = 1;
			} else if (cbor_take_text_key(&r, "type")) {
				if (cbor_get_text(&r, &ty, &tn) != ERR_OK)
					return ST_CBOR_UNEXPECTED_TYPE;
				pk = tn == 10 &&
				    memcmp(ty, "public-key", 10) == 0;
			} else if (cbor_skip(&r) != ERR_OK ||
			    cbor_skip(&r) != ERR_OK)
				return ST_INVALID_CBOR;
		}
		if (got && pk &&
		    (a == COSE_ES256 || a == COSE_EDDSA || a == COSE_RS256)) {
			*alg = (int)a;
			return ST_OK;
		}
	}
	return ST_UNSUPPORTED_ALGORITHM;
}

static int
new_cred(
    struct token *t, const struct op *op, int alg, int uv, struct cbor_wr *w)
{
	struct ctap2_key k = {0, NULL};
	uint8_t ad[AD_MAX], id[CTAP2_CRED_MAX];
	size_t id_len = 0, pk_len = 0, n;
	int st = ST_OTHER;

	if (ctap2_key_gen(alg, &k) != ERR_OK ||
	    ctap2_cred_wrap(t, &k, op->rph, id, &id_len) != ERR_OK)
		goto fail;
	n = 37 + 16 + 2 + id_len;
	if (ctap2_cose_write(&k, ad + n, sizeof(ad) - n, &pk_len) != ERR_OK ||
	    (st = ad_head(t, (uint8_t)(AD_UP | AD_AT | (uv ? AD_UV : 0)),
		 op->rph, ad)) != ST_OK)
		goto fail;
	memcpy(ad + 37, ctap2_aaguid, 16);
	ad[53] = (uint8_t)(id_len >> 8);
	ad[54] = (uint8_t)id_len;
	memcpy(ad + 55, id, id_len);
	cbor_put_map(w, 3);
	st = ctap2_attest(t, &k, ad, n + pk_len, op->cdh, id, id_len, w) ==
		ERR_OK
	    ? ST_OK
	    : ST_OTHER;
fail:
	ctap2_key_clear(&k);
	return st;
}

/* The excludeList (key 5): one of ours for this RP -> touch, then
 * CREDENTIAL_EXCLUDED. */
static int
excluded(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct op *op)
{
	struct ctap2_key k = {0, NULL};
	const uint8_t *id;
	size_t n;
	int st;

	st = find_cred(t, q, 5, op, &k, &id, &n);
	ctap2_key_clear(&k);
	if (st == ST_NO_CREDENTIALS)
		return ST_OK;
	if (st != ST_OK)
		return st;
	if ((st = ctap2_presence(t, now, mode)) != ST_OK)
		return st;
	return ST_CREDENTIAL_EXCLUDED;
}

int
ctap2_make_credential(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	struct op op = {1, 8, NULL, {0}, {0, 0, 0}};
	const char *rp;
	size_t rn;
	int st, alg = 0, uv = 0;

	if ((st = get_cdh(q, 1, &op)) != ST_OK ||
	    (st = ctap2_req_map_text(q, 2, "id", &rp, &rn)) != ST_OK ||
	    (st = hash_rp(rp, rn, op.rph)) != ST_OK)
		return st;
	if (!ctap2_req_has(q, 3))
		return ST_MISSING_PARAMETER;
	if ((st = pick_alg(q, &alg)) != ST_OK ||
	    (st = ctap2_req_opts(q, 7, &op.o)) != ST_OK)
		return st;
	if (op.o.rk == 1)
		return ST_UNSUPPORTED_OPTION;
	if (op.o.up == 0)
		return ST_INVALID_OPTION;
	if ((st = empty_auth(t, now, mode, q, &op)) != ST_OK ||
	    (st = user_verification(t, now, mode, q, &op, &uv)) != ST_OK ||
	    (st = excluded(t, now, mode, q, &op)) != ST_OK ||
	    (st = ctap2_presence(t, now, mode)) != ST_OK)
		return st;
	return new_cred(t, &op, alg, uv, w);
}

/* ---- GetAssertion ---- */

static int
assertion(struct token *t, const struct op *op, const struct ctap2_key *k,
    const uint8_t *id, size_t id_len, int up, int uv, struct cbor_wr *w)
{
	uint8_t ad[37 + 32], sig[CTAP2_SIG_MAX];
	size_t siglen = 0;
	int st;

	if ((st = ad_head(t, (uint8_t)((up ? AD_UP : 0) | (uv ? AD_UV : 0)),
		 op->rph, ad)) != ST_OK)
		return st;
	memcpy(ad + 37, op->cdh, 32);
	if (ctap2_sign(k->pkey, k->alg, ad, sizeof(ad), sig, &siglen) != ERR_OK)
		return ST_OTHER;
	cbor_put_map(w, 3);
	cbor_put_uint(w, 1);
	cbor_put_map(w, 2);
	cbor_put_str(w, "id");
	cbor_put_bytes(w, id, id_len);
	cbor_put_str(w, "type");
	cbor_put_str(w, "public-key");
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, ad, 37);
	cbor_put_uint(w, 3);
	cbor_put_bytes(w, sig, siglen);
	return ST_OK;
}

int
ctap2_get_assertion(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	struct op op = {0, 6, NULL, {0}, {0, 0, 0}};
	struct ctap2_key k = {0, NULL};
	const uint8_t *id = NULL;
	const char *rp;
	size_t rn, id_len = 0;
	int st, uv = 0, up;

	if ((st = ctap2_req_text(q, 1, &rp, &rn)) != ST_OK ||
	    (st = hash_rp(rp, rn, op.rph)) != ST_OK ||
	    (st = get_cdh(q, 2, &op)) != ST_OK ||
	    (st = ctap2_req_opts(q, 5, &op.o)) != ST_OK)
		return st;
	if (op.o.rk != -1)
		return bad_option(t->c2);
	up = op.o.up != 0;
	if ((st = empty_auth(t, now, mode, q, &op)) != ST_OK ||
	    (st = find_cred(t, q, 3, &op, &k, &id, &id_len)) != ST_OK ||
	    (st = user_verification(t, now, mode, q, &op, &uv)) != ST_OK ||
	    (up && (st = ctap2_presence(t, now, mode)) != ST_OK))
		goto fail;
	st = assertion(t, &op, &k, id, id_len, up, uv, w);
fail:
	ctap2_key_clear(&k);
	return st;
}
