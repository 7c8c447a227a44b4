/* SPDX-License-Identifier: BSD-2-Clause */
/* ClientPIN (CTAP 2.1 6.5) of the software token, authenticator side, PIN/UV
 * auth protocols 1 and 2: key agreement, setPIN, changePIN, the PIN and UV
 * tokens with permissions, the retry counters (8 PIN retries kept in the
 * state file; 3 wrong PINs in a row block PIN use until a restart), and
 * the pinUvAuthParam check of MakeCredential and GetAssertion. */
#include "config.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

enum {
	SUB_GET_RETRIES = 1,
	SUB_GET_KA = 2,
	SUB_SET_PIN = 3,
	SUB_CHANGE_PIN = 4,
	SUB_GET_TOKEN = 5,
	SUB_TOKEN_UV = 6,
	SUB_GET_UV_RETRIES = 7,
	SUB_TOKEN_PIN = 9
};

enum {
	K_PROTO = 1,
	K_SUB = 2,
	K_KA = 3,
	K_AUTH = 4,
	K_NEWPIN = 5,
	K_PINHASH = 6,
	K_PERM = 9,
	K_RPID = 10
};

#define PIN_PAD 64 /* newPin is padded to 64 bytes */

int
ctap2_pin_set_initial(struct ctap2 *c, const char *pin)
{
	uint8_t h[32];
	size_t n = strlen(pin);

	if (n < 4 || n >= PIN_PAD)
		return ERR_INVAL;
	if (EVP_Digest(pin, n, h, NULL, EVP_sha256(), NULL) != 1)
		return ERR_CRYPTO;
	memcpy(c->pin_hash, h, 16);
	c->pin_set = 1;
	util_wipe(h, sizeof(h));
	return ERR_OK;
}

static int
proto_ok(const struct ctap2 *c, uint64_t p)
{
	return p == 1 || (p == 2 && c->version >= TOKEN_CTAP2_21PRE);
}

static int
get_proto(
    const struct ctap2 *c, const struct ctap2_req *q, unsigned key, int *proto)
{
	uint64_t p = 0;
	int st;

	if ((st = ctap2_req_uint(q, key, &p)) != ST_OK)
		return st;
	if (!proto_ok(c, p))
		return ST_INVALID_PARAMETER;
	*proto = (int)p;
	return ST_OK;
}

/* ---- the subcommands ---- */

static int
get_retries(const struct ctap2 *c, struct cbor_wr *w)
{
	int v21 = c->version == TOKEN_CTAP2_21;

	cbor_put_map(w, v21 ? 2 : 1);
	cbor_put_uint(w, 3);
	cbor_put_uint(w, c->pin_retries);
	if (v21) {
		cbor_put_uint(w, 4); /* powerCycleState */
		cbor_put_bool(w, c->pin_fails >= CTAP2_PIN_FAILS_MAX);
	}
	return ST_OK;
}

static int
get_key_agreement(const struct ctap2 *c, struct cbor_wr *w)
{
	uint8_t pt[65];
	size_t n = 0;

	if (EVP_PKEY_get_octet_string_param(
		c->ka, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof(pt), &n) != 1 ||
	    n != 65)
		return ST_OTHER;
	cbor_put_map(w, 1);
	cbor_put_uint(w, 1);
	cbor_put_map(w, 5);
	cbor_put_int(w, 1);
	cbor_put_int(w, 2);
	cbor_put_int(w, 3);
	cbor_put_int(w, -25); /* ECDH-ES+HKDF-256 */
	cbor_put_int(w, -1);
	cbor_put_int(w, 1);
	cbor_put_int(w, -2);
	cbor_put_bytes(w, pt + 1, 32);
	cbor_put_int(w, -3);
	cbor_put_bytes(w, pt + 33, 32);
	return ST_OK;
}

/* The new PIN from newPinEnc: 64 bytes, the PIN then zeros, 4..63 bytes. */
static int
new_pin(
    struct token *t, const struct ctap2_shared *s, const uint8_t *enc, size_t n)
{
	struct ctap2 *c = t->c2;
	uint8_t pad[PIN_PAD + 32], h[32];
	size_t len = 0, plen;
	int st = ST_PIN_POLICY_VIOLATION;

	if (n != (s->proto == 2 ? 16 : 0) + PIN_PAD)
		return ST_INVALID_PARAMETER;
	if (ctap2_pin_decrypt(s, enc, n, pad, &len) != ERR_OK || len != PIN_PAD)
		return ST_INVALID_PARAMETER;
	plen = strnlen((const char *)pad, PIN_PAD);
	if (plen < 4 || plen == PIN_PAD)
		goto fail;
	st = ST_OTHER;
	if (EVP_Digest(pad, plen, h, NULL, EVP_sha256(), NULL) != 1)
		goto fail;
	memcpy(c->pin_hash, h, 16);
	c->pin_set = 1;
	c->pin_retries = CTAP2_PIN_RETRIES_MAX;
	c->pin_fails = 0;
	c->puat_valid = 0;
	st = token_save_state(t) == ERR_OK ? ST_OK : ST_OTHER;
fail:
	util_wipe(pad, sizeof(pad));
	util_wipe(h, sizeof(h));
	return st;
}

static int
set_pin(
    struct token *t, const struct ctap2_shared *s, const struct ctap2_req *q)
{
	const uint8_t *enc, *auth;
	size_t n, an;
	int st;

	if ((st = ctap2_req_bytes(q, K_NEWPIN, &enc, &n)) != ST_OK ||
	    (st = ctap2_req_bytes(q, K_AUTH, &auth, &an)) != ST_OK)
		return st;
	if (t->c2->pin_set)
		return ST_NOT_ALLOWED;
	if (!ctap2_pin_verify(s->proto, s->hmac, enc, n, NULL, 0, auth, an))
		return ST_PIN_AUTH_INVALID;
	return new_pin(t, s, enc, n);
}

/* pinHashEnc against the stored PIN, with the retry counters. */
static int
check_pin_hash(
    struct token *t, const struct ctap2_shared *s, const struct ctap2_req *q)
{
	struct ctap2 *c = t->c2;
	const uint8_t *enc;
	uint8_t h[32 + 16];
	size_t n, len = 0;
	int st, ok;

	if ((st = ctap2_req_bytes(q, K_PINHASH, &enc, &n)) != ST_OK)
		return st;
	if (n != (s->proto == 2 ? 32u : 16u) ||
	    ctap2_pin_decrypt(s, enc, n, h, &len) != ERR_OK || len != 16)
		return ST_INVALID_PARAMETER;
	c->pin_retries--;
	ok = CRYPTO_memcmp(h, c->pin_hash, 16) == 0;
	util_wipe(h, sizeof(h));
	token_log_line(t, ok ? "pin ok" : "pin bad");
	if (ok) {
		c->pin_retries = CTAP2_PIN_RETRIES_MAX;
		c->pin_fails = 0;
		return token_save_state(t) == ERR_OK ? ST_OK : ST_OTHER;
	}
	c->pin_fails++;
	EVP_PKEY_free(c->ka); /* a new key agreement key after a miss */
	if ((c->ka = EVP_EC_gen("P-256")) == NULL ||
	    token_save_state(t) != ERR_OK)
		return ST_OTHER;
	if (c->pin_retries == 0)
		return ST_PIN_BLOCKED;
	if (c->pin_fails >= CTAP2_PIN_FAILS_MAX)
		return ST_PIN_AUTH_BLOCKED;
	return ST_PIN_INVALID;
}

/* The checks before any use of the PIN. */
static int
pin_usable(const struct ctap2 *c)
{
	if (!c->pin_set)
		return ST_PIN_NOT_SET;
	if (c->pin_retries == 0)
		return ST_PIN_BLOCKED;
	if (c->pin_fails >= CTAP2_PIN_FAILS_MAX)
		return ST_PIN_AUTH_BLOCKED;
	return ST_OK;
}

static int
change_pin(
    struct token *t, const struct ctap2_shared *s, const struct ctap2_req *q)
{
	const uint8_t *enc, *hash, *auth;
	size_t n, hn, an;
	int st;

	if ((st = ctap2_req_bytes(q, K_NEWPIN, &enc, &n)) != ST_OK ||
	    (st = ctap2_req_bytes(q, K_PINHASH, &hash, &hn)) != ST_OK ||
	    (st = ctap2_req_bytes(q, K_AUTH, &auth, &an)) != ST_OK ||
	    (st = pin_usable(t->c2)) != ST_OK)
		return st;
	if (!ctap2_pin_verify(s->proto, s->hmac, enc, n, hash, hn, auth, an))
		return ST_PIN_AUTH_INVALID;
	if ((st = check_pin_hash(t, s, q)) != ST_OK)
		return st;
	return new_pin(t, s, enc, n);
}

/* permissions and rpId of subcommands 6 and 9 into the token state. */
static int
get_perms(
    const struct ctap2_req *q, unsigned *perm, int *has_rp, uint8_t rph[32])
{
	const char *rp;
	uint64_t p = 0;
	size_t n;
	int st;

	if ((st = ctap2_req_uint(q, K_PERM, &p)) != ST_OK)
		return st;
	if (p == 0)
		return ST_INVALID_PARAMETER;
	if ((p & ~(uint64_t)(PERM_MC | PERM_GA)) != 0)
		return ST_UNAUTHORIZED_PERMISSION;
	*perm = (unsigned)p;
	*has_rp = ctap2_req_has(q, K_RPID);
	if (*has_rp &&
	    ((st = ctap2_req_text(q, K_RPID, &rp, &n)) != ST_OK ||
		EVP_Digest(rp, n, rph, NULL, EVP_sha256(), NULL) != 1))
		return st != ST_OK ? st : ST_OTHER;
	return ST_OK;
}

/* A fresh pinUvAuthToken, returned encrypted: {2: token}. */
static int
issue_token(struct ctap2 *c, const struct ctap2_shared *s, unsigned perm,
    int has_rp, const uint8_t rph[32], struct cbor_wr *w)
{
	uint8_t enc[CTAP2_PUAT_LEN + 16];
	size_t n = 0;

	if (util_random(c->puat, sizeof(c->puat)) != ERR_OK)
		return ST_OTHER;
	c->puat_valid = 1;
	c->puat_proto = s->proto;
	c->puat_perm = perm;
	c->puat_has_rp = has_rp;
	if (has_rp)
		memcpy(c->puat_rp, rph, 32);
	if (ctap2_pin_encrypt(s, c->puat, sizeof(c->puat), enc, &n) != ERR_OK)
		return ST_OTHER;
	cbor_put_map(w, 1);
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, enc, n);
	return ST_OK;
}

/* Subcommands 5 and 9: a token for the PIN. */
static int
token_pin(struct token *t, const struct ctap2_shared *s,
    const struct ctap2_req *q, unsigned sub, struct cbor_wr *w)
{
	struct ctap2 *c = t->c2;
	uint8_t rph[32];
	unsigned perm = PERM_MC | PERM_GA;
	int has_rp = 0, st;

	if (sub == SUB_GET_TOKEN && c->version == TOKEN_CTAP2_21 &&
	    (ctap2_req_has(q, K_PERM) || ctap2_req_has(q, K_RPID)))
		return ST_INVALID_PARAMETER;
	if (sub == SUB_TOKEN_PIN &&
	    (st = get_perms(q, &perm, &has_rp, rph)) != ST_OK)
		return st;
	if ((st = pin_usable(c)) != ST_OK ||
	    (st = check_pin_hash(t, s, q)) != ST_OK)
		return st;
	return issue_token(c, s, perm, has_rp, rph, w);
}

/* Subcommand 6: a token for built-in UV (may be pending). */
static int
token_uv(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_shared *s, const struct ctap2_req *q, struct cbor_wr *w)
{
	uint8_t rph[32];
	unsigned perm = 0;
	int has_rp = 0, st;

	if (t->c2->uv == TOKEN_UV_NONE)
		return ST_NOT_ALLOWED;
	if ((st = get_perms(q, &perm, &has_rp, rph)) != ST_OK ||
	    (st = ctap2_builtin_uv(t, now, mode)) != ST_OK)
		return st;
	return issue_token(t->c2, s, perm, has_rp, rph, w);
}

/* The subcommands that need the protocol and a shared secret. */
static int
with_shared(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, unsigned sub, struct cbor_wr *w)
{
	struct ctap2_shared s;
	int proto = 0, st;

	if ((st = get_proto(t->c2, q, K_PROTO, &proto)) != ST_OK ||
	    (st = ctap2_pin_shared(t->c2, q, K_KA, proto, &s)) != ST_OK)
		goto fail;
	switch (sub) {
	case SUB_SET_PIN:
		st = set_pin(t, &s, q);
		break;
	case SUB_CHANGE_PIN:
		st = change_pin(t, &s, q);
		break;
	case SUB_TOKEN_UV:
		st = token_uv(t, now, mode, &s, q, w);
		break;
	default:
		st = token_pin(t, &s, q, sub, w);
		break;
	}
fail:
	util_wipe(&s, sizeof(s));
	return st;
}

int
ctap2_client_pin(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	int v21 = t->c2->version == TOKEN_CTAP2_21;
	uint64_t sub = 0;
	int st;

	if ((st = ctap2_req_uint(q, K_SUB, &sub)) != ST_OK)
		return st;
	switch (sub) {
	case SUB_GET_RETRIES:
		return get_retries(t->c2, w);
	case SUB_GET_KA:
		if ((st = get_proto(t->c2, q, K_PROTO, &(int){0})) != ST_OK)
			return st;
		return get_key_agreement(t->c2, w);
	case SUB_GET_UV_RETRIES:
		cbor_put_map(w, 1);
		cbor_put_uint(w, 5);
		cbor_put_uint(w, t->c2->uv_retries);
		return ST_OK;
	case SUB_TOKEN_UV:
	case SUB_TOKEN_PIN:
		if (!v21)
			return ST_INVALID_SUBCOMMAND;
		return with_shared(t, now, mode, q, (unsigned)sub, w);
	case SUB_SET_PIN:
	case SUB_CHANGE_PIN:
	case SUB_GET_TOKEN:
		return with_shared(t, now, mode, q, (unsigned)sub, w);
	default:
		return ST_INVALID_SUBCOMMAND;
	}
}

int
ctap2_check_puat(struct token *t, const struct ctap2_req *q, unsigned kp,
    unsigned kproto, const uint8_t cdh[32], unsigned perm,
    const uint8_t rph[32])
{
	struct ctap2 *c = t->c2;
	const uint8_t *param;
	size_t n;
	int proto = 0, st;

	if ((st = ctap2_req_bytes(q, kp, &param, &n)) != ST_OK ||
	    (st = get_proto(c, q, kproto, &proto)) != ST_OK)
		return st;
	if (!c->puat_valid)
		return c->pin_set ? ST_PIN_AUTH_INVALID : ST_PIN_NOT_SET;
	if (proto != c->puat_proto ||
	    !ctap2_pin_verify(proto, c->puat, cdh, 32, NULL, 0, param, n))
		return ST_PIN_AUTH_INVALID;
	if (c->version != TOKEN_CTAP2_21)
		return ST_OK;
	if ((c->puat_perm & perm) == 0 ||
	    (c->puat_has_rp && memcmp(c->puat_rp, rph, 32) != 0))
		return ST_UNAUTHORIZED_PERMISSION;
	if (!c->puat_has_rp) {
		memcpy(c->puat_rp, rph, 32);
		c->puat_has_rp = 1;
	}
	return ST_OK;
}
