/* SPDX-License-Identifier: BSD-2-Clause */
/* authenticatorData (WebAuthn 6.1), parsed strictly (authdata.h). The
 * shape every protocol's assertion is checked in (U2F fills its results
 * in it too), so it sits in proto/ beside proto.c, not in ctap2/. */
#include "config.h"

#include <string.h>

#include "authdata.h"
#include "base/cbor.h"
#include "base/err.h"
#include "cose.h"

#define RPID_HASH_LEN 32
#define AAGUID_LEN 16
#define FIXED_LEN (RPID_HASH_LEN + 1 + 4) /* rpIdHash | flags | counter */

/* The next CBOR item of p[*pos..len): its span, checked to be one
 * canonical item (base/cbor.h cbor_check). */
static int
next_item(const uint8_t *p, size_t len, size_t *pos, const uint8_t **item,
    size_t *item_len)
{
	struct cbor_rd r;

	cbor_rd_init(&r, p + *pos, len - *pos);
	if (cbor_get_raw(&r, item, item_len) != ERR_OK)
		return ERR_PARSE;
	if (cbor_check(*item, *item_len) != ERR_OK)
		return ERR_PARSE;
	*pos += *item_len;
	return ERR_OK;
}

/* attestedCredentialData at p[*pos..len): aaguid, credential id, key. */
static int
parse_attested(const uint8_t *p, size_t len, size_t *pos, struct authdata *out)
{
	const uint8_t *key;
	struct cbor_rd r;
	size_t key_len, n;
	int rc;

	if (len - *pos < AAGUID_LEN + 2)
		return ERR_PARSE;
	out->aaguid = p + *pos;
	*pos += AAGUID_LEN;
	n = (size_t)p[*pos] << 8 | p[*pos + 1];
	*pos += 2;
	if (n == 0 || n > AUTHDATA_CRED_ID_MAX || len - *pos < n)
		return ERR_PARSE;
	out->cred_id = p + *pos;
	out->cred_id_len = n;
	*pos += n;
	if (*pos == len || next_item(p, len, pos, &key, &key_len) != ERR_OK)
		return ERR_PARSE;
	cbor_rd_init(&r, key, key_len);
	rc = cose_key_read(&r, &out->type, out->pk, &out->pk_len);
	if (rc != ERR_OK)
		return rc; /* ERR_PARSE, ERR_UNSUPPORTED, or ERR_CRYPTO */
	if (!cbor_rd_done(&r))
		return ERR_PARSE;
	out->attested = true;
	return ERR_OK;
}

/* The extensions: one canonical map that ends the input. */
static int
parse_ext(const uint8_t *p, size_t len, size_t *pos, struct authdata *out)
{
	enum cbor_type t;
	struct cbor_rd r;

	if (*pos == len || next_item(p, len, pos, &out->ext, &out->ext_len))
		return ERR_PARSE;
	cbor_rd_init(&r, out->ext, out->ext_len);
	if (cbor_peek(&r, &t) != ERR_OK || t != CBOR_MAP)
		return ERR_PARSE;
	return ERR_OK;
}

int
authdata_parse(
    const uint8_t *p, size_t len, bool want_attested, struct authdata *out)
{
	size_t pos = FIXED_LEN;
	int rc;

	if (out == NULL)
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	if (p == NULL || len < FIXED_LEN)
		return ERR_PARSE;
	out->rpid_hash = p;
	out->flags = p[RPID_HASH_LEN];
	out->counter = (uint32_t)p[33] << 24 | (uint32_t)p[34] << 16 |
	    (uint32_t)p[35] << 8 | p[36];
	if (((out->flags & AUTHDATA_AT) != 0) != want_attested)
		goto bad;
	if (want_attested && (rc = parse_attested(p, len, &pos, out)) != ERR_OK)
		goto fail;
	if ((out->flags & AUTHDATA_ED) &&
	    parse_ext(p, len, &pos, out) != ERR_OK)
		goto bad;
	if (pos != len)
		goto bad; /* bytes that no flag announced */
	return ERR_OK;
bad:
	rc = ERR_PARSE;
fail:
	memset(out, 0, sizeof(*out));
	return rc;
}
