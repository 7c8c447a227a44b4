/* SPDX-License-Identifier: BSD-2-Clause */
/* The hmac-secret extension of the software token's GetAssertion (CTAP
 * 2.1 12.5): the platform sends its key agreement key, saltEnc =
 * encrypt(shared, salt1 [| salt2]), saltAuth = authenticate(shared,
 * saltEnc) and the PIN protocol; the token answers output_i =
 * HMAC-SHA-256(CredRandom, salt_i), encrypted under the same shared
 * secret, in the authData extensions. CredRandom is the credential's own,
 * one with UV and one without: HMAC-SHA-256(master key, "hmac-secret" |
 * uv | credential id), so it needs no storage and no two credentials
 * share one. Its own file because it is one extension with its own
 * secrets, beside the PIN protocols (ctap2pinx.c) it borrows. */
#include "config.h"

#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

/* The input map {1: keyAgreement, 2: saltEnc, 3: saltAuth, 4: proto}. */
struct hin {
	struct ctap2_shared s;
	const uint8_t *enc, *auth;
	size_t enc_len, auth_len;
};

/* Find "hmac-secret" in the extensions map at key 4: 1 with r on its
 * value, 0 when absent, or a status < 0 as -st. */
static int
find_input(const struct ctap2_req *q, struct cbor_rd *r)
{
	size_t cnt, i;

	if (!ctap2_req_has(q, 4))
		return 0;
	ctap2_req_rd(q, 4, r);
	if (cbor_get_map(r, &cnt) != ERR_OK)
		return -ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_take_text_key(r, "hmac-secret"))
			return 1;
		if (cbor_skip(r) != ERR_OK || cbor_skip(r) != ERR_OK)
			return -ST_INVALID_CBOR;
	}
	return 0;
}

/* Read the input map; the key agreement is done once the protocol is
 * known (key 4 comes after key 1, so the key is read on a copy). */
static int
read_input(const struct ctap2 *c, struct cbor_rd *r, struct hin *h)
{
	struct cbor_rd ka;
	size_t cnt, i;
	uint64_t key, proto = 1;
	int got_ka = 0;

	if (cbor_get_map(r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_uint(r, &key) != ERR_OK)
			return ST_CBOR_UNEXPECTED_TYPE;
		if (key == 1) {
			ka = *r;
			got_ka = 1;
			if (cbor_skip(r) != ERR_OK)
				return ST_INVALID_CBOR;
		} else if (key == 2 || key == 3) {
			if (cbor_get_bytes(r, key == 2 ? &h->enc : &h->auth,
				key == 2 ? &h->enc_len : &h->auth_len) !=
			    ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
		} else if (key == 4) {
			if (cbor_get_uint(r, &proto) != ERR_OK)
				return ST_CBOR_UNEXPECTED_TYPE;
		} else if (cbor_skip(r) != ERR_OK)
			return ST_INVALID_CBOR;
	}
	if (!got_ka || h->enc == NULL || h->auth == NULL)
		return ST_MISSING_PARAMETER;
	if (proto != 1 && (proto != 2 || c->version < TOKEN_CTAP2_21PRE))
		return ST_INVALID_PARAMETER;
	return ctap2_pin_shared_rd(c, &ka, (int)proto, &h->s);
}

/* CredRandom of the credential id, with UV or without. */
static int
cred_random(const struct token *t, const uint8_t *id, size_t id_len, int uv,
    uint8_t out[32])
{
	uint8_t msg[11 + 1 + CTAP2_CRED_MAX];
	unsigned int n = 0;

	if (id_len > CTAP2_CRED_MAX)
		return ST_OTHER;
	memcpy(msg, "hmac-secret", 11);
	msg[11] = (uint8_t)(uv != 0);
	memcpy(msg + 12, id, id_len);
	if (HMAC(EVP_sha256(), t->master, sizeof(t->master), msg, 12 + id_len,
		out, &n) == NULL ||
	    n != 32)
		return ST_OTHER;
	return ST_OK;
}

/* output_i = HMAC(CredRandom, salt_i), encrypted into enc. */
static int
outputs(const struct token *t, const struct hin *h, const uint8_t *id,
    size_t id_len, int uv, uint8_t *enc, size_t *enc_len)
{
	uint8_t salt[64 + 16], cr[32], out[64];
	size_t n = 0, i;
	unsigned int m = 0;
	int st = ST_INVALID_LENGTH;

	if (h->enc_len > 16 + 64 ||
	    ctap2_pin_decrypt(&h->s, h->enc, h->enc_len, salt, &n) != ERR_OK ||
	    (n != 32 && n != 64))
		goto out;
	if ((st = cred_random(t, id, id_len, uv, cr)) != ST_OK)
		goto out;
	for (i = 0; i < n; i += 32) {
		if (HMAC(EVP_sha256(), cr, 32, salt + i, 32, out + i, &m) ==
		    NULL) {
			st = ST_OTHER;
			goto out;
		}
	}
	st = ctap2_pin_encrypt(&h->s, out, n, enc, enc_len) == ERR_OK
	    ? ST_OK
	    : ST_OTHER;
out:
	util_wipe(salt, sizeof(salt));
	util_wipe(cr, sizeof(cr));
	util_wipe(out, sizeof(out));
	return st;
}

int
ctap2_hmac_get(struct token *t, const struct ctap2_req *q,
    const struct ctap2_key *k, const uint8_t *id, size_t id_len, int uv,
    uint8_t ext[CTAP2_HMAC_EXT_MAX], size_t *ext_len)
{
	struct cbor_rd r;
	struct cbor_wr w;
	struct hin h;
	uint8_t enc[16 + 64];
	size_t enc_len = 0;
	int st;

	*ext_len = 0;
	memset(&h, 0, sizeof(h));
	if ((st = find_input(q, &r)) <= 0)
		return -st;
	if (t->c2->hmac == 2)
		return ST_INVALID_PARAMETER; /* --hmac-secret refuse */
	if (!t->c2->hmac || !k->hmac)
		return ST_OK; /* ignored, as for a credential made without */
	if ((st = read_input(t->c2, &r, &h)) != ST_OK)
		goto out;
	st = ST_PIN_AUTH_INVALID;
	if (!ctap2_pin_verify(h.s.proto, h.s.hmac, h.enc, h.enc_len, NULL, 0,
		h.auth, h.auth_len))
		goto out;
	if ((st = outputs(t, &h, id, id_len, uv, enc, &enc_len)) != ST_OK)
		goto out;
	cbor_wr_init(&w, ext, CTAP2_HMAC_EXT_MAX);
	cbor_put_map(&w, 1);
	cbor_put_str(&w, "hmac-secret");
	cbor_put_bytes(&w, enc, enc_len);
	st = cbor_wr_end(&w, ext_len) == ERR_OK ? ST_OK : ST_OTHER;
out:
	util_wipe(&h, sizeof(h));
	util_wipe(enc, sizeof(enc));
	return st;
}
