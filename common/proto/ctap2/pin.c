/* SPDX-License-Identifier: BSD-2-Clause */
/* A PIN/UV auth token for the request being asked (CTAP 2.1 6.5):
 * getKeyAgreement, then getPinToken (0x05, 2.0 keys),
 * getPinUvAuthTokenUsingPinWithPermissions (0x09) or
 * getPinUvAuthTokenUsingUvWithPermissions (0x06) where GetInfo lists
 * pinUvAuthToken. The PIN is asked for through the caller's callback,
 * used once for pinHashEnc and wiped; it is never logged. The PIN
 * session (struct c2_pin: the shared secret, the token, the rp it is
 * for) is this file's alone: the driver says what to ask for, and the
 * file sends through the exchange below it, never up. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/printable.h"
#include "crypto/crypto.h"
#include "client.h"

#define C2_PIN_MIN 4     /* code points; we count bytes, the key counts too */
#define C2_LABEL_MAX 200 /* the key's name in the prompt (xport_label) */

void
c2_pin_init(struct c2_pin *p, struct c2_io *io, const struct ctap2_info *info)
{
	memset(p, 0, sizeof(*p));
	p->io = io;
	p->info = info;
}

void
c2_pin_reset(struct c2_pin *p)
{
	c2_pin_forget(p);
	p->cb = NULL;
	p->how = C2_HOW_NONE;
	p->perms = 0;
	p->phase = C2_PIN_KA;
}

void
c2_pin_set_cb(struct c2_pin *p, const struct proto_pin *cb)
{
	p->cb = cb;
}

bool
c2_pin_has_cb(const struct c2_pin *p)
{
	return p->cb != NULL;
}

bool
c2_pin_has_token(const struct c2_pin *p, const char *rp)
{
	return p->token_len > 0 && p->rp != NULL && strcmp(p->rp, rp) == 0;
}

static int
c2_pick_pin_proto(const struct ctap2_info *in)
{
	return in->npin_protos > 0 ? in->pin_protos[0] : 1;
}

/* A ClientPIN request with only a subCommand (getKeyAgreement,
 * getPINRetries), sent in phase ph. */
static int
c2_send_sub(
    const struct proto_ctx *c, struct c2_pin *p, int sub, enum c2_pin_phase ph)
{
	struct ctap2_cp cp;
	int r;

	memset(&cp, 0, sizeof(cp));
	cp.proto = p->proto;
	cp.sub = sub;
	if ((r = ctap2_build_cp(&cp, p->io->msg, &p->io->msg_len)) != ERR_OK)
		return r;
	p->phase = ph;
	return c2_send(c, p->io);
}

/* Does the PIN have a floor of tries left (proto_pin.retries_floor)? */
static bool
c2_has_floor(const struct c2_pin *p)
{
	return p->how == C2_HOW_PIN && p->cb != NULL &&
	    p->cb->retries_floor > 0;
}

int
c2_pin_begin(const struct proto_ctx *c, struct c2_pin *p, enum c2_how how,
    const char *rp, unsigned perms)
{
	p->how = how;
	p->rp = rp;
	p->perms = perms;
	p->proto = c2_pick_pin_proto(p->info);
	if (c2_has_floor(p))
		return c2_send_sub(c, p, CTAP2_PIN_GET_RETRIES, C2_PIN_RETRIES);
	return c2_send_sub(c, p, CTAP2_PIN_GET_KA, C2_PIN_KA);
}

/* getPINRetries answered: with the floor or fewer tries left, the PIN
 * is not asked for (a lock screen that answers every prompt with the
 * password would spend them); else on to the key agreement. */
static int
c2_retries_reply(const struct proto_ctx *c, struct c2_pin *p,
    const uint8_t *body, size_t len)
{
	struct ctap2_cp_reply rep;
	char msg[768], label[C2_LABEL_MAX], path[C2_LABEL_MAX];

	if (ctap2_parse_cp(body, len, &rep) != ERR_OK || rep.pin_retries < 0) {
		log_msg(c->log, "%s: %s: bad getPINRetries reply", __func__,
		    xport_path(c->x));
		return ERR_PROTO;
	}
	if (rep.pin_retries > p->cb->retries_floor)
		return c2_pending(
		    c2_send_sub(c, p, CTAP2_PIN_GET_KA, C2_PIN_KA));
	xport_label(c->x, label, sizeof(label));
	(void)printable_copy(path, sizeof(path), xport_path(c->x));
	if (rep.pin_retries == 0)
		snprintf(msg, sizeof(msg),
		    "The PIN of the security key %s is blocked (no tries "
		    "left): only a reset (\"fido2-token -R %s\", which "
		    "erases its credentials) makes it usable again.",
		    label, path);
	else
		snprintf(msg, sizeof(msg),
		    "The security key %s has only %d PIN %s left, so its PIN "
		    "is not asked for here (at %d or fewer, a password typed "
		    "by mistake could block it for good). Enter the right PIN "
		    "once with \"fido2-token -C %s\" (that resets the count), "
		    "then try again.",
		    label, rep.pin_retries,
		    rep.pin_retries == 1 ? "try" : "tries",
		    p->cb->retries_floor, path);
	log_msg(c->log, "%s: %s: %d PIN tries left, at most %d: PIN not used",
	    __func__, xport_path(c->x), rep.pin_retries, p->cb->retries_floor);
	if (p->cb->tell != NULL)
		p->cb->tell(p->cb->arg, msg);
	return ERR_DENIED;
}

/* pinHashEnc = encrypt(shared, LEFT(SHA-256(PIN), 16)) of a PIN asked
 * for now. */
static int
c2_pin_hash_enc(const struct proto_ctx *c, struct c2_pin *p, uint8_t *out,
    size_t cap, size_t *len)
{
	uint8_t hash[CRYPTO_SHA256_LEN];
	char pin[CTAP2_PIN_MAX + 2], label[C2_LABEL_MAX];
	size_t n;
	int r;

	if (p->cb == NULL || p->cb->get == NULL)
		return ERR_PIN_REQUIRED;
	memset(pin, 0, sizeof(pin));
	xport_label(c->x, label, sizeof(label));
	if ((r = p->cb->get(p->cb->arg, label, pin, sizeof(pin))) != ERR_OK)
		goto out;
	n = strnlen(pin, sizeof(pin));
	if (n < C2_PIN_MIN || n > CTAP2_PIN_MAX) {
		if (p->cb->tell != NULL)
			p->cb->tell(
			    p->cb->arg, "A PIN has 4 to 63 characters.");
		r = ERR_PIN_INVALID;
		goto out;
	}
	if ((r = crypto_sha256(pin, n, hash)) == ERR_OK)
		r = pin_encrypt(&p->shared, hash, 16, out, cap, len);
out:
	util_wipe(pin, sizeof(pin));
	util_wipe(hash, sizeof(hash));
	return r;
}

/* The token request, after key agreement. */
static int
c2_send_token_req(const struct proto_ctx *c, struct c2_pin *p,
    const uint8_t x[32], const uint8_t y[32])
{
	uint8_t enc[16 + 16];
	struct ctap2_cp cp;
	bool perms = ctap2_info_opt(p->info, CTAP2_OPT_PIN_UV_TOKEN) == 1;
	size_t len = 0;
	int r;

	memset(&cp, 0, sizeof(cp));
	cp.proto = p->proto;
	cp.ka_x = x;
	cp.ka_y = y;
	if (p->how == C2_HOW_PIN) {
		if ((r = c2_pin_hash_enc(c, p, enc, sizeof(enc), &len)) !=
		    ERR_OK)
			return r;
		cp.pin_hash_enc = enc;
		cp.pin_hash_enc_len = len;
		cp.sub = perms ? CTAP2_PIN_GET_TOKEN_PIN : CTAP2_PIN_GET_TOKEN;
	} else {
		cp.sub = CTAP2_PIN_GET_TOKEN_UV;
		perms = true;
	}
	if (perms) {
		cp.perms = p->perms;
		cp.rp_id = p->rp;
	}
	r = ctap2_build_cp(&cp, p->io->msg, &p->io->msg_len);
	util_wipe(enc, sizeof(enc));
	if (r != ERR_OK)
		return r;
	p->phase = C2_PIN_TOKEN;
	r = c2_send(c, p->io);
	/* It held pinHashEnc: wiped, length and all, so it is never sent
	 * again (a resend would be a zero-filled message or, worse, a second
	 * PIN try). */
	c2_msg_wipe(p->io);
	return r;
}

static int
c2_ka_reply(const struct proto_ctx *c, struct c2_pin *p, const uint8_t *body,
    size_t len)
{
	struct ctap2_cp_reply rep;
	uint8_t x[32], y[32];
	int r;

	if (ctap2_parse_cp(body, len, &rep) != ERR_OK || !rep.has_ka) {
		log_msg(c->log, "%s: %s: bad keyAgreement reply", __func__,
		    xport_path(c->x));
		return ERR_PROTO;
	}
	if ((r = pin_agree(p->proto, rep.ka_x, rep.ka_y, x, y, &p->shared)) !=
	    ERR_OK)
		return r == ERR_PARSE ? ERR_PROTO : r;
	memcpy(p->our_x, x, sizeof(x));
	memcpy(p->our_y, y, sizeof(y));
	return c2_pending(c2_send_token_req(c, p, x, y));
}

static int
c2_token_reply(const struct proto_ctx *c, struct c2_pin *p, const uint8_t *body,
    size_t len)
{
	struct ctap2_cp_reply rep;
	int r;

	if (ctap2_parse_cp(body, len, &rep) != ERR_OK ||
	    rep.token_enc == NULL) {
		log_msg(c->log, "%s: %s: bad token reply", __func__,
		    xport_path(c->x));
		return ERR_PROTO;
	}
	/* The shared secret is kept with the token (wiped with it, by
	 * c2_pin_forget): the hmac-secret salt is sent under it (hmac.c). */
	r = pin_decrypt(&p->shared, rep.token_enc, rep.token_enc_len, p->token,
	    sizeof(p->token), &p->token_len);
	if (r != ERR_OK || p->token_len < 16 || p->token_len % 16 != 0) {
		pin_shared_clear(&p->shared);
		util_wipe(p->token, sizeof(p->token));
		p->token_len = 0;
		return ERR_PROTO;
	}
	return ERR_OK;
}

int
c2_pin_step(const struct proto_ctx *c, struct c2_pin *p, const uint8_t *body,
    size_t len)
{
	if (p->phase == C2_PIN_RETRIES)
		return c2_retries_reply(c, p, body, len);
	if (p->phase == C2_PIN_KA)
		return c2_ka_reply(c, p, body, len);
	return c2_token_reply(c, p, body, len);
}

const struct pin_shared *
c2_pin_shared(const struct c2_pin *p, uint8_t x[32], uint8_t y[32])
{
	if (p->token_len == 0 || p->shared.len == 0)
		return NULL;
	memcpy(x, p->our_x, 32);
	memcpy(y, p->our_y, 32);
	return &p->shared;
}

int
c2_pin_auth(const struct c2_pin *p, const uint8_t cdh[PROTO_CDH_LEN],
    uint8_t out[PIN_AUTH_MAX], size_t *out_len, int *proto)
{
	*proto = p->proto;
	return pin_auth_token(
	    p->proto, p->token, p->token_len, cdh, PROTO_CDH_LEN, out, out_len);
}

void
c2_pin_forget(struct c2_pin *p)
{
	pin_shared_clear(&p->shared);
	util_wipe(p->token, sizeof(p->token));
	p->token_len = 0;
	p->rp = NULL;
}

/* getPINRetries (1) or getUVRetries (7): -1 if the key does not say. */
static int
c2_retries(const struct proto_ctx *c, struct c2_pin *p, int sub)
{
	struct ctap2_cp_reply rep;
	struct ctap2_cp cp;
	size_t len, rlen;

	memset(&cp, 0, sizeof(cp));
	cp.proto = p->proto > 0 ? p->proto : 1;
	cp.sub = sub;
	if (ctap2_build_cp(&cp, p->io->msg, &len) != ERR_OK ||
	    c2_call(c, p->io->msg, len, p->io->rx, &rlen, C2_INFO_MS) !=
		ERR_OK ||
	    c2_status(c, p->io->rx, rlen, "retries") != ERR_OK ||
	    ctap2_parse_cp(p->io->rx + 1, rlen - 1, &rep) != ERR_OK)
		return -1;
	return sub == CTAP2_PIN_GET_RETRIES ? rep.pin_retries : rep.uv_retries;
}

bool
c2_pin_refused(int err)
{
	switch (err) {
	case ERR_PIN_INVALID:
	case ERR_PIN_BLOCKED:
	case ERR_PIN_AUTH_BLOCKED:
	case ERR_PIN_NOT_SET:
	case ERR_UV_BLOCKED:
	case ERR_UV_INVALID:
		return true;
	default:
		return false;
	}
}

void
c2_pin_failed(const struct proto_ctx *c, struct c2_pin *p, int err)
{
	char msg[160];
	int n = -1;

	if (err == ERR_PIN_INVALID)
		n = c2_retries(c, p, CTAP2_PIN_GET_RETRIES);
	else if (err == ERR_UV_INVALID)
		n = c2_retries(c, p, CTAP2_PIN_GET_UV_RETRIES);
	if (n >= 0)
		snprintf(msg, sizeof(msg), "%s: %d %s left.", err_str(err), n,
		    n == 1 ? "try" : "tries");
	else
		snprintf(msg, sizeof(msg), "%s.", err_str(err));
	log_msg(c->log, "%s: %s: %s", __func__, xport_path(c->x), msg);
	if (p->cb != NULL && p->cb->tell != NULL)
		p->cb->tell(p->cb->arg, msg);
}
