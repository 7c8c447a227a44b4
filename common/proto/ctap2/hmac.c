/* SPDX-License-Identifier: BSD-2-Clause */
/* The hmac-secret extension of GetAssertion (CTAP 2.1 12.5), the
 * client's side: the salt encrypted under a PIN protocol's shared secret
 * (1 or 2) with saltAuth, and the output decrypted and length-checked.
 * The shared secret is the PIN session's (pin.c keeps it with the token),
 * so a PIN or built-in UV login costs no extra exchange; only a CTAP 2.0
 * key verified with the uv option has no session, and a getKeyAgreement
 * of its own is made for it. The extension is asked only of keys whose
 * GetInfo lists it and only with the user verified, since the output is
 * what unseals the login secret (issue 30). Its own file because it is
 * the one part of the client that handles the extension's secrets: all
 * of them (shared secret, salt, output) are wiped here. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "crypto/crypto.h"
#include "proto/authdata.h"
#include "client.h"

void
c2_hmac_reset(struct c2_hmac *h)
{
	bool off = h->off;

	util_wipe(h, sizeof(*h));
	h->off = off;
}

void
c2_hmac_clear(struct c2_hmac *h)
{
	util_wipe(h, sizeof(*h));
}

bool
c2_hmac_refused(const struct proto_ctx *c, struct c2_hmac *h, int r)
{
	if (!h->asked || h->off || (r != ERR_PROTO && r != ERR_UNSUPPORTED))
		return false;
	log_msg(c->log,
	    "%s: %s: the key refused the request with hmac-secret (%s): "
	    "asked again without it",
	    __func__, xport_path(c->x), err_str(r));
	h->off = true;
	return true;
}

/* A getKeyAgreement of our own (no PIN session: the uv option). */
static int
c2_hmac_agree(
    const struct proto_ctx *c, struct c2_hmac *h, int proto, struct c2_io *io)
{
	struct ctap2_cp_reply rep;
	struct ctap2_cp cp;
	size_t len = 0, rlen = 0;
	int r;

	memset(&cp, 0, sizeof(cp));
	cp.proto = proto;
	cp.sub = CTAP2_PIN_GET_KA;
	if ((r = ctap2_build_cp(&cp, io->msg, &len)) != ERR_OK ||
	    (r = c2_call(c, io->msg, len, io->rx, &rlen, C2_INFO_MS)) !=
		ERR_OK ||
	    (r = c2_status(c, io->rx, rlen, "getKeyAgreement")) != ERR_OK)
		return r;
	if (ctap2_parse_cp(io->rx + 1, rlen - 1, &rep) != ERR_OK || !rep.has_ka)
		return ERR_PROTO;
	r = pin_agree(proto, rep.ka_x, rep.ka_y, h->x, h->y, &h->shared);
	return r == ERR_PARSE ? ERR_PROTO : r;
}

/* The shared secret for the salt: the PIN session's, or our own. */
static int
c2_hmac_shared(const struct proto_ctx *c, struct c2_hmac *h,
    const struct ctap2_info *info, const struct c2_pin *pin, enum c2_how how,
    struct c2_io *io)
{
	const struct pin_shared *s;

	if (c2_how_token(how)) {
		if ((s = c2_pin_shared(pin, h->x, h->y)) == NULL)
			return ERR_PROTO;
		h->shared = *s;
		return ERR_OK;
	}
	return c2_hmac_agree(
	    c, h, info->npin_protos > 0 ? info->pin_protos[0] : 1, io);
}

int
c2_hmac_input(const struct proto_ctx *c, struct c2_hmac *h,
    const struct ctap2_info *info, const struct c2_pin *pin, enum c2_how how,
    const uint8_t *salt, struct c2_io *io, struct ctap2_hmac_in *in)
{
	int r;

	c2_hmac_reset(h);
	if (salt == NULL || how == C2_HOW_NONE || h->off ||
	    !(info->exts & CTAP2_EXT_HMAC_SECRET))
		return ERR_OK;
	if ((r = c2_hmac_shared(c, h, info, pin, how, io)) != ERR_OK ||
	    (r = pin_encrypt(&h->shared, salt, CTAP2_HMAC_SALT_LEN, h->salt_enc,
		 sizeof(h->salt_enc), &h->salt_enc_len)) != ERR_OK ||
	    (r = pin_auth_shared(&h->shared, h->salt_enc, h->salt_enc_len,
		 h->salt_auth, &h->salt_auth_len)) != ERR_OK) {
		log_msg(c->log, "%s: %s: no hmac-secret input (%s)", __func__,
		    xport_path(c->x), err_str(r));
		c2_hmac_reset(h);
		return r;
	}
	in->ka_x = h->x;
	in->ka_y = h->y;
	in->salt_enc = h->salt_enc;
	in->salt_enc_len = h->salt_enc_len;
	in->salt_auth = h->salt_auth;
	in->salt_auth_len = h->salt_auth_len;
	in->proto = h->shared.proto;
	h->asked = true;
	return ERR_OK;
}

/* Decrypt enc[0..n) into as->hmac_secret: one output exactly. */
static int
c2_hmac_open(
    const struct c2_hmac *h, const uint8_t *enc, size_t n, struct assertion *as)
{
	uint8_t out[2 * CTAP2_HMAC_SALT_LEN];
	size_t len = 0;
	int r;

	r = pin_decrypt(&h->shared, enc, n, out, sizeof(out), &len);
	if (r == ERR_OK && len != CTAP2_HMAC_SALT_LEN)
		r = ERR_PROTO;
	if (r == ERR_OK) {
		memcpy(as->hmac_secret, out, CTAP2_HMAC_SALT_LEN);
		as->hmac_secret_len = CTAP2_HMAC_SALT_LEN;
	}
	util_wipe(out, sizeof(out));
	return r == ERR_OK ? ERR_OK : ERR_PROTO;
}

void
c2_hmac_output(const struct proto_ctx *c, struct c2_hmac *h,
    const uint8_t *authdata, size_t len, struct assertion *as)
{
	struct authdata ad;
	const uint8_t *enc = NULL;
	size_t n = 0;
	bool on = false;

	as->hmac_secret_len = 0;
	if (!h->asked)
		goto out;
	if (authdata_parse(authdata, len, false, &ad) != ERR_OK ||
	    ctap2_ext_hmac_secret(ad.ext, ad.ext_len, &enc, &n, &on) !=
		ERR_OK) {
		log_msg(c->log, "%s: %s: malformed authData extensions",
		    __func__, xport_path(c->x));
		goto out;
	}
	if (enc == NULL) {
		log_msg(c->log, "%s: %s: hmac-secret asked for, none given",
		    __func__, xport_path(c->x));
		goto out;
	}
	if (c2_hmac_open(h, enc, n, as) != ERR_OK)
		log_msg(c->log, "%s: %s: hmac-secret output of %zu bytes: bad",
		    __func__, xport_path(c->x), n);
out:
	c2_hmac_reset(h);
}
