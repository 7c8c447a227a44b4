/* SPDX-License-Identifier: BSD-2-Clause */
/* authenticatorMakeCredential of the software token (CTAP 2.1 6.1) and
 * what it shares with GetAssertion (ctap2ga.c). Order of the checks:
 * parameters, options, a zero-length pinUvAuthParam (touch, then PIN_NOT_SET or
 * PIN_INVALID), the credential (GetAssertion: the first of the allowList that
 * is ours for this RP, else NO_CREDENTIALS at once), user verification
 * (pinUvAuthParam, or built-in UV for uv=true or alwaysUv), the excludeList
 * (MakeCredential), presence, then the key and signature. The UV flag is set
 * only when UV was done (unless uv-lie). */
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
#define AD_ED 0x80
#define EXT_MAX 32 /* {"credProtect": n, "hmac-secret": true} */
#define AD_MAX (37 + 16 + 2 + CTAP2_CRED_MAX + CTAP2_PK_MAX + EXT_MAX)

int
ctap2_op_cdh(const struct ctap2_req *q, unsigned key, struct ctap2_op *op)
{
	size_t n = 0;
	int st;

	if ((st = ctap2_req_bytes(q, key, &op->cdh, &n)) != ST_OK)
		return st;
	return n == 32 ? ST_OK : ST_INVALID_PARAMETER;
}

int
ctap2_op_rp_hash(const char *rp, size_t n, uint8_t rph[32])
{
	return EVP_Digest(rp, n, rph, NULL, EVP_sha256(), NULL) == 1 ? ST_OK
								     : ST_OTHER;
}

int
ctap2_op_bad_option(const struct ctap2 *c)
{
	return c->version == TOKEN_CTAP2_20 ? ST_UNSUPPORTED_OPTION
					    : ST_INVALID_OPTION;
}

/* A zero-length pinUvAuthParam: ST_OK if there is none, else the answer
 * after a touch. */
int
ctap2_op_empty_auth(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct ctap2_op *op)
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

int
ctap2_op_wants_uv(
    const struct token *t, const struct ctap2_req *q, const struct ctap2_op *op)
{
	const struct ctap2 *c = t->c2;

	if (t->faults & FAULT_UV_SKIP)
		return 0;
	return ctap2_req_has(q, op->kp) || op->o.uv == 1 ||
	    (c->always_uv && c->uv != TOKEN_UV_NONE &&
		(op->mc || op->o.up != 0));
}

/* The UV of the request: *uv = 1 when it was really done. */
int
ctap2_op_uv(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct ctap2_op *op, int *uv)
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
	if (!want) /* 2.1's makeCredUvNotRqd is for non-resident ones */
		return op->mc && c->pin_set &&
			(c->version != TOKEN_CTAP2_21 || op->o.rk == 1)
		    ? ST_PUAT_REQUIRED
		    : ST_OK;
	if (c->uv == TOKEN_UV_NONE)
		return ctap2_op_bad_option(c);
	st = ctap2_builtin_uv(t, now, mode);
	*uv = st == ST_OK;
	return st;
}

/* A credential of ours the request may see: credProtect 3 needs UV, a
 * resident one must still be kept (not replaced). */
static int
visible(const struct token *t, const struct ctap2_key *k, const uint8_t *id,
    size_t n, int uv)
{
	if (k->prot == 3 && !uv)
		return 0;
	return !k->rk || ctap2_rk_by_id(t->c2, id, n) != NULL;
}

/* The first {id, type: "public-key"} of the list at key that is ours for
 * op->rph and visible: ST_OK and the key and id, or ST_NO_CREDENTIALS. */
int
ctap2_op_find(const struct token *t, const struct ctap2_req *q, unsigned key,
    const struct ctap2_op *op, int uv, struct ctap2_key *k, const uint8_t **id,
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
	/* an allowList (GetAssertion's key 3) longer than we said */
	if (key == 3 && t->c2->max_list > 0 && cnt > t->c2->max_list)
		return ST_LIMIT_EXCEEDED;
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
		if (p == NULL || !pk ||
		    ctap2_cred_unwrap(t, p, n, op->rph, k) != ERR_OK)
			continue;
		if (visible(t, k, p, n, uv)) {
			*id = p;
			*id_len = n;
			return ST_OK;
		}
		ctap2_key_clear(k);
	}
	return ST_NO_CREDENTIALS;
}

/* rpIdHash || flags || signCount: the counter goes up by one. */
int
ctap2_op_ad_head(
    struct token *t, uint8_t flags, const uint8_t rph[32], uint8_t *ad)
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

/* Text of at most max bytes, cut at a UTF-8 character boundary. */
static void
copy_trunc(char *dst, const char *s, size_t n, size_t max)
{
	if (n > max) {
		n = max;
		while (n > 0 && ((uint8_t)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
	if (memchr(dst, '\0', n) != NULL)
		dst[0] = '\0';
}

/* user (key 3): id (1..64 bytes), name and displayName (truncated to 64
 * bytes), for a resident credential. */
static int
get_user(const struct ctap2_req *q, struct ctap2_rk *r)
{
	struct cbor_rd rd;
	const uint8_t *id = NULL;
	const char *s;
	char *dst;
	size_t cnt, i, n = 0, sn;

	ctap2_req_rd(q, 3, &rd);
	if (cbor_get_map(&rd, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_take_text_key(&rd, "id")) {
			if (cbor_get_bytes(&rd, &id, &n) != ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
		} else if ((dst = cbor_take_text_key(&rd, "name") ? r->name
				   : cbor_take_text_key(&rd, "displayName")
				   ? r->display
				   : NULL) != NULL) {
			if (cbor_get_text(&rd, &s, &sn) != ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
			copy_trunc(dst, s, sn, CTAP2_NAME_MAX);
		} else if (cbor_skip(&rd) != ERR_OK || cbor_skip(&rd) != ERR_OK)
			return ST_INVALID_CBOR;
	}
	if (id == NULL)
		return ST_MISSING_PARAMETER;
	if (n == 0 || n > CTAP2_USER_ID_MAX)
		return ST_INVALID_LENGTH;
	memcpy(r->uid, id, n);
	r->uid_len = n;
	return ST_OK;
}
/* extensions (key 6): credProtect 1..3 (*prot; 0 if not asked for),
 * hmac-secret (*hmac: asked for and the token has it); other extensions
 * are ignored. */
static int
get_ext(const struct ctap2 *c, const struct ctap2_req *q, int *prot, int *hmac)
{
	struct cbor_rd rd;
	size_t cnt, i;
	uint64_t v;
	bool b;

	*prot = 0;
	*hmac = 0;
	if (!ctap2_req_has(q, 6))
		return ST_OK;
	ctap2_req_rd(q, 6, &rd);
	if (cbor_get_map(&rd, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_take_text_key(&rd, "credProtect")) {
			if (cbor_get_uint(&rd, &v) != ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
			if (v < 1 || v > 3)
				return ST_INVALID_PARAMETER;
			*prot = (int)v;
		} else if (cbor_take_text_key(&rd, "hmac-secret")) {
			if (cbor_get_bool(&rd, &b) != ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
			*hmac = b && c->hmac;
		} else if (cbor_skip(&rd) != ERR_OK || cbor_skip(&rd) != ERR_OK)
			return ST_INVALID_CBOR;
	}
	return ST_OK;
}

/* The extensions output {"credProtect": n, "hmac-secret": true} (each
 * where asked) at ad; its length. */
static size_t
put_ext(uint8_t *ad, int prot, int hmac)
{
	struct cbor_wr w;
	size_t n = 0;

	cbor_wr_init(&w, ad, EXT_MAX);
	cbor_put_map(&w, (size_t)(prot > 0) + (size_t)(hmac != 0));
	if (prot > 0) {
		cbor_put_str(&w, "credProtect");
		cbor_put_uint(&w, (uint64_t)prot);
	}
	if (hmac) {
		cbor_put_str(&w, "hmac-secret");
		cbor_put_bool(&w, true);
	}
	return cbor_wr_end(&w, &n) == ERR_OK ? n : 0;
}

/* What a new credential is to be: r (rk: user, rpId), asked credProtect
 * (0: not asked). */
struct mc {
	int alg, uv, asked, hmac;
	struct ctap2_rk r;
};

static int
new_cred(
    struct token *t, const struct ctap2_op *op, struct mc *m, struct cbor_wr *w)
{
	struct ctap2_key k = {0, NULL, 1, 0, 0};
	uint8_t ad[AD_MAX], fl;
	size_t pk_len = 0, n, e = 0;
	int st = ST_OTHER;

	if (ctap2_key_gen(m->alg, &k) != ERR_OK)
		goto fail;
	k.prot = m->r.prot;
	k.rk = op->o.rk == 1;
	k.hmac = m->hmac;
	if (ctap2_cred_wrap(t, &k, op->rph, m->r.id, &m->r.id_len) != ERR_OK)
		goto fail;
	n = 37 + 16 + 2 + m->r.id_len;
	fl = (uint8_t)(AD_UP | AD_AT | (m->uv ? AD_UV : 0) |
	    (m->asked || m->hmac ? AD_ED : 0));
	if (ctap2_cose_write(&k, ad + n, sizeof(ad) - n - EXT_MAX, &pk_len) !=
		ERR_OK ||
	    ((m->asked || m->hmac) &&
		(e = put_ext(
		     ad + n + pk_len, m->asked ? m->r.prot : 0, m->hmac)) == 0))
		goto fail;
	if (k.rk && (st = ctap2_rk_put(t->c2, &m->r)) != ST_OK)
		goto fail;
	if ((st = ctap2_op_ad_head(t, fl, op->rph, ad)) != ST_OK)
		goto fail;
	memcpy(ad + 37, t->ad_aaguid, 16);
	ad[53] = (uint8_t)(m->r.id_len >> 8);
	ad[54] = (uint8_t)m->r.id_len;
	memcpy(ad + 55, m->r.id, m->r.id_len);
	cbor_put_map(w, 3);
	st = ctap2_attest(t, &k, ad, n + pk_len + e, op->cdh, m->r.id,
		 m->r.id_len, w) == ERR_OK
	    ? ST_OK
	    : ST_OTHER;
fail:
	ctap2_key_clear(&k);
	return st;
}

/* The excludeList (key 5): one of ours for this RP (a credProtect 3 one
 * only with UV) -> touch, then CREDENTIAL_EXCLUDED. */
static int
excluded(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct ctap2_op *op, int uv)
{
	struct ctap2_key k = {0, NULL, 1, 0, 0};
	const uint8_t *id;
	size_t n;
	int st;

	st = ctap2_op_find(t, q, 5, op, uv, &k, &id, &n);
	ctap2_key_clear(&k);
	if (st == ST_NO_CREDENTIALS)
		return ST_OK;
	if (st != ST_OK)
		return st;
	if ((st = ctap2_presence(t, now, mode)) != ST_OK)
		return st;
	return ST_CREDENTIAL_EXCLUDED;
}

/* The parameters: cdh, rp, user, algorithm, options, extensions. */
static int
mc_params(const struct ctap2 *c, const struct ctap2_req *q, struct ctap2_op *op,
    struct mc *m)
{
	const char *rp;
	size_t rn;
	int st;

	if ((st = ctap2_op_cdh(q, 1, op)) != ST_OK ||
	    (st = ctap2_req_map_text(q, 2, "id", &rp, &rn)) != ST_OK ||
	    (st = ctap2_op_rp_hash(rp, rn, op->rph)) != ST_OK)
		return st;
	if (!ctap2_req_has(q, 3))
		return ST_MISSING_PARAMETER;
	if ((st = pick_alg(q, &m->alg)) != ST_OK ||
	    (st = ctap2_req_opts(q, 7, &op->o)) != ST_OK ||
	    (st = get_ext(c, q, &m->asked, &m->hmac)) != ST_OK)
		return st;
	m->r.prot = m->asked ? m->asked : 1;
	memcpy(m->r.rph, op->rph, 32);
	copy_trunc(m->r.rp, rp, rn, CTAP2_RPID_MAX);
	return op->o.rk == 1 ? get_user(q, &m->r) : ST_OK;
}

int
ctap2_make_credential(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	struct ctap2_op op = {1, 8, NULL, {0}, {0, 0, 0}};
	struct mc m;
	int st;

	memset(&m, 0, sizeof(m));
	if ((st = mc_params(t->c2, q, &op, &m)) != ST_OK)
		goto out;
	st = ST_INVALID_OPTION;
	if (op.o.up == 0)
		goto out;
	if ((st = ctap2_op_empty_auth(t, now, mode, q, &op)) != ST_OK ||
	    (st = ctap2_op_uv(t, now, mode, q, &op, &m.uv)) != ST_OK ||
	    (st = excluded(t, now, mode, q, &op, m.uv)) != ST_OK ||
	    (op.o.rk == 1 && (st = ctap2_rk_room(t->c2, &m.r)) != ST_OK) ||
	    (st = ctap2_presence(t, now, mode)) != ST_OK)
		goto out;
	st = new_cred(t, &op, &m, w);
out:
	util_wipe(&m, sizeof(m));
	return st;
}
