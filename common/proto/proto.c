/* SPDX-License-Identifier: BSD-2-Clause */
/* What every protocol shares: the one assertion check, what a credential
 * needs, and freeing results. Its own file, above u2f/ and ctap2/,
 * because manual mode and both protocols call the same check. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "crypto/crypto.h"
#include "proto.h"

void
reg_result_clear(struct reg_result *r)
{
	if (r == NULL)
		return;
	cred_clear(&r->cred);
	util_freezero(r->cert, r->cert_len);
	util_freezero(r->authdata, r->authdata_len);
	free(r->evidence);
	memset(r, 0, sizeof(*r));
}

void
assertion_clear(struct assertion *a)
{
	if (a == NULL)
		return;
	util_freezero(a->cred_id, a->cred_id_len);
	util_freezero(a->user_handle, a->user_handle_len);
	util_freezero(a->authdata, a->authdata_len);
	util_freezero(a->sig, a->sig_len);
	a->cred_id = a->user_handle = a->authdata = a->sig = NULL;
	a->cred_id_len = a->user_handle_len = a->authdata_len = a->sig_len = 0;
	util_wipe(a->hmac_secret, sizeof(a->hmac_secret));
	a->hmac_secret_len = 0;
}

int
proto_cred_supported(const struct cred *c, const char **why)
{
	*why = NULL;
	if (cred_type_name(c->type) == NULL)
		*why = "an unknown key type";
	return *why == NULL ? ERR_OK : ERR_UNSUPPORTED;
}

/* -1 unset, 0, 1 from a module argument, with the credential's flag
 * winning over 0 (pam-u2f's parse_opts). */
static int
proto_opt(int arg, bool flag)
{
	if (arg == 1 || flag)
		return 1;
	return arg == 0 ? 0 : -1;
}

void
proto_cred_opts(
    const struct assert_req *req, const struct cred *c, struct cred_opts *o)
{
	o->up = req->presence || (c->flags & CRED_PRESENCE) ? 1 : 0;
	o->uv = proto_opt(req->userverification,
	    (c->flags & CRED_VERIFICATION) != 0 || req->uv);
	o->pin = proto_opt(req->pinverification, (c->flags & CRED_PIN) != 0);
}

static int
proto_verify_sig(const struct cred *c, const uint8_t *authdata,
    size_t authdata_len, const uint8_t cdh[PROTO_CDH_LEN], const uint8_t *sig,
    size_t sig_len)
{
	uint8_t *msg = NULL;
	int r;

	/* crypto_verify takes a 64-byte ES256 key too; a credential's is
	 * the 65-byte point. Other algorithms: crypto_verify's answer. */
	if (c->pk == NULL || (c->type == COSE_ES256 && c->pk_len != 65))
		return ERR_UNSUPPORTED;
	if ((msg = malloc(authdata_len + PROTO_CDH_LEN)) == NULL)
		return ERR_NOMEM;
	memcpy(msg, authdata, authdata_len);
	memcpy(msg + authdata_len, cdh, PROTO_CDH_LEN);
	r = crypto_verify(c->type, c->pk, c->pk_len, msg,
	    authdata_len + PROTO_CDH_LEN, sig, sig_len);
	util_freezero(msg, authdata_len + PROTO_CDH_LEN);
	return r == ERR_PARSE ? ERR_VERIFY : r;
}

int
proto_check_assertion(const struct cred *c,
    const uint8_t rpid_hash[PROTO_RPID_HASH], const uint8_t cdh[PROTO_CDH_LEN],
    bool presence, const uint8_t *authdata, size_t authdata_len,
    const uint8_t *sig, size_t sig_len, uint8_t *flags, uint32_t *counter)
{
	int r;

	if (c == NULL || rpid_hash == NULL || authdata == NULL || sig == NULL)
		return ERR_INVAL;
	if (authdata_len < PROTO_AUTHDATA_MIN)
		return ERR_PARSE;
	if (memcmp(rpid_hash, authdata, PROTO_RPID_HASH) != 0)
		return ERR_MISMATCH; /* signed for another relying party */
	if ((r = proto_verify_sig(
		 c, authdata, authdata_len, cdh, sig, sig_len)) != ERR_OK)
		return r;
	if (presence && (authdata[32] & PROTO_UP) == 0)
		return ERR_NO_PRESENCE;
	*flags = authdata[32];
	*counter = (uint32_t)authdata[33] << 24 | (uint32_t)authdata[34] << 16 |
	    (uint32_t)authdata[35] << 8 | authdata[36];
	return ERR_OK;
}
