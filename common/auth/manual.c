/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode, the pure parts: the challenge lines `fido2-assert -G`
 * reads, and checking the four lines it prints back against the
 * credential (proto_check_assertion, the same check as a plugged-in
 * key's). No PAM and no I/O, so that pamu2fcfg, the module and the unit
 * tests share it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "manual.h"
#include "base/bytereader.h"
#include "base/util.h"

#define MANUAL_FIELD_MAX 4096 /* longest base64 line we decode */

int
manual_challenge(const uint8_t cdh[PROTO_CDH_LEN], const char *rp_id,
    const struct cred *c, char **out)
{
	char *cdh64 = NULL, *kh64 = NULL;
	int r;

	*out = NULL;
	if (rp_id == NULL || c == NULL || c->kh == NULL || c->kh_len == 0 ||
	    strchr(rp_id, '\n') != NULL)
		return ERR_INVAL;
	if ((r = b64_encode(cdh, PROTO_CDH_LEN, &cdh64)) != ERR_OK ||
	    (r = b64_encode(c->kh, c->kh_len, &kh64)) != ERR_OK)
		goto fail;
	if (asprintf(out, "%s\n%s\n%s\n", cdh64, rp_id, kh64) < 0) {
		*out = NULL;
		r = ERR_NOMEM;
		goto fail;
	}
	r = ERR_OK;
fail:
	free(cdh64);
	free(kh64);
	return r;
}

/* The line without surrounding blanks, CR or LF. */
static void
manual_trim(const char *s, const char **p, size_t *len)
{
	size_t n = strlen(s);

	while (n > 0 && strchr(" \t\r\n", s[0]) != NULL) {
		s++;
		n--;
	}
	while (n > 0 && strchr(" \t\r\n", s[n - 1]) != NULL)
		n--;
	*p = s;
	*len = n;
}

static int
manual_b64(const char *line, uint8_t **out, size_t *outlen)
{
	const char *p;
	size_t n;
	int r;

	*out = NULL;
	if (line == NULL)
		return ERR_PARSE;
	manual_trim(line, &p, &n);
	if (n == 0 || n > MANUAL_FIELD_MAX)
		return ERR_PARSE;
	r = b64_decode(p, n, out, outlen);
	return r == ERR_OK || r == ERR_NOMEM ? r : ERR_PARSE;
}

/* A CBOR byte string (major type 2) holding exactly the U2F authdata. */
static int
manual_authdata(
    const uint8_t *cbor, size_t len, uint8_t ad[MANUAL_AUTHDATA_LEN])
{
	struct rbuf rb;
	uint8_t hdr = 0, b = 0;
	uint16_t w = 0;
	size_t n;

	rbuf_init(&rb, cbor, len);
	if (rbuf_get_u8(&rb, &hdr) != ERR_OK || (hdr & 0xe0) != 0x40)
		return ERR_PARSE;
	if ((hdr & 0x1f) < 24)
		n = hdr & 0x1f;
	else if (hdr == 0x58 && rbuf_get_u8(&rb, &b) == ERR_OK)
		n = b;
	else if (hdr == 0x59 && rbuf_get_u16be(&rb, &w) == ERR_OK)
		n = w;
	else
		return ERR_PARSE;
	if (n != MANUAL_AUTHDATA_LEN ||
	    rbuf_get_bytes(&rb, ad, MANUAL_AUTHDATA_LEN) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_PARSE;
	return ERR_OK;
}

static int
manual_check_echo(const uint8_t cdh[PROTO_CDH_LEN], const char *rp_id,
    const struct manual_answer *a)
{
	uint8_t *got = NULL;
	size_t got_len = 0, n;
	const char *p;
	int r;

	if ((r = manual_b64(a->cdh, &got, &got_len)) != ERR_OK)
		return r;
	r = got_len == PROTO_CDH_LEN && memcmp(got, cdh, PROTO_CDH_LEN) == 0
	    ? ERR_OK
	    : ERR_MISMATCH;
	free(got);
	if (r != ERR_OK)
		return r;
	if (a->rp_id == NULL)
		return ERR_PARSE;
	manual_trim(a->rp_id, &p, &n);
	if (n != strlen(rp_id) || memcmp(p, rp_id, n) != 0)
		return ERR_MISMATCH;
	return ERR_OK;
}

const char *
manual_flags(const struct cred_opts *o)
{
	bool uv = o->uv == 1 || o->pin == 1;

	if (o->up == 1)
		return uv ? "-p -v" : "-p";
	return uv ? "-v" : "";
}

/* The UV flag, when a key would have been asked to verify the user (the
 * PIN or built-in UV; CVE-2021-31924). */
static int
manual_check_uv(const struct cred_opts *o, uint8_t flags)
{
	if ((o->uv == 1 || o->pin == 1) && (flags & PROTO_UV) == 0)
		return ERR_NO_UV;
	return ERR_OK;
}

int
manual_verify(const uint8_t cdh[PROTO_CDH_LEN], const char *rp_id,
    const struct cred *c, const struct cred_opts *o,
    const struct manual_answer *a, struct assertion *out)
{
	uint8_t ad[MANUAL_AUTHDATA_LEN], hash[CRYPTO_SHA256_LEN];
	uint8_t *cbor = NULL, *sig = NULL;
	size_t cbor_len = 0, sig_len = 0;
	int r;

	if (c == NULL || rp_id == NULL || o == NULL || a == NULL || out == NULL)
		return ERR_INVAL;
	if (c->type != COSE_ES256 || c->pk == NULL || c->pk_len != 65)
		return ERR_UNSUPPORTED;
	if ((r = manual_check_echo(cdh, rp_id, a)) != ERR_OK)
		goto fail;
	if ((r = manual_b64(a->authdata, &cbor, &cbor_len)) != ERR_OK ||
	    (r = manual_authdata(cbor, cbor_len, ad)) != ERR_OK ||
	    (r = manual_b64(a->sig, &sig, &sig_len)) != ERR_OK)
		goto fail;
	if ((r = crypto_sha256(rp_id, strlen(rp_id), hash)) != ERR_OK)
		goto fail;
	/* The check every protocol's assertions go through. */
	if ((r = proto_check_assertion(c, hash, cdh, o->up == 1, ad, sizeof(ad),
		 sig, sig_len, &out->flags, &out->counter)) != ERR_OK)
		goto fail;
	r = manual_check_uv(o, out->flags);
fail:
	free(cbor);
	free(sig);
	util_wipe(ad, sizeof(ad));
	return r;
}
