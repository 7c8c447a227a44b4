/* SPDX-License-Identifier: BSD-2-Clause */
/* The host side of the resident-credential tests: GetAssertion without
 * an allowList and GetNextAssertion replies, read with the project's
 * strict CBOR reader and authData parser, signatures checked with
 * crypto/crypto.h; the credProtect extension output. */
#include "config.h"

#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "proto/authdata.h"
#include "ctap2host.h"

int
ch_ext_prot(const uint8_t *ext, size_t len)
{
	struct cbor_rd r;
	size_t n, i;
	uint64_t v;
	int prot = 0;

	if (ext == NULL)
		return 0;
	cbor_rd_init(&r, ext, len);
	if (cbor_get_map(&r, &n) != ERR_OK)
		return -1;
	for (i = 0; i < n; i++) {
		if (cbor_take_text_key(&r, "credProtect")) {
			if (cbor_get_uint(&r, &v) != ERR_OK || v < 1 || v > 3)
				return -1;
			prot = (int)v;
		} else if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK)
			return -1;
	}
	return prot;
}

static int
read_user(struct cbor_rd *r, struct ch_asr *a)
{
	const uint8_t *p;
	size_t m, i, n;

	if (cbor_get_map(r, &m) != ERR_OK)
		return -1;
	for (i = 0; i < m; i++) {
		if (cbor_take_text_key(r, "id")) {
			if (cbor_get_bytes(r, &p, &n) != ERR_OK ||
			    n > sizeof(a->uid) || n == 0)
				return -1;
			memcpy(a->uid, p, n);
			a->uid_len = n;
		} else if (cbor_take_text_key(r, "name")) {
			a->has_name = 1;
			if (cbor_skip(r) != ERR_OK)
				return -1;
		} else if (cbor_take_text_key(r, "displayName")) {
			a->has_display = 1;
			if (cbor_skip(r) != ERR_OK)
				return -1;
		} else
			return -1; /* nothing else is expected */
	}
	return a->uid_len > 0 ? 0 : -1;
}

/* The credential of creds[] that the reply's id names. */
static const struct ch_cred *
which(struct cbor_rd *r, const struct ch_cred *const *creds, size_t n)
{
	const uint8_t *id;
	size_t m, idn, i;

	if (cbor_get_map(r, &m) != ERR_OK || m != 2 ||
	    !cbor_take_text_key(r, "id") ||
	    cbor_get_bytes(r, &id, &idn) != ERR_OK ||
	    !cbor_take_text_key(r, "type") || cbor_skip(r) != ERR_OK)
		return NULL;
	for (i = 0; i < n; i++)
		if (creds[i]->id_len == idn &&
		    memcmp(creds[i]->id, id, idn) == 0)
			return creds[i];
	return NULL;
}

static int
asr_reply(const struct ch *h, const struct ch_req *q,
    const struct ch_cred *const *creds, size_t n, struct ch_asr *a)
{
	struct cbor_rd r;
	struct authdata ad;
	const uint8_t *body, *adp = NULL, *sig = NULL;
	uint8_t msg[37 + 32];
	size_t len, cnt, i, adn = 0, sn = 0;
	uint64_t k;

	body = ch_body(h, &len);
	if (cbor_check(body, len) != ERR_OK)
		return -2;
	cbor_rd_init(&r, body, len);
	if (cbor_get_map(&r, &cnt) != ERR_OK)
		return -3;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_uint(&r, &k) != ERR_OK)
			return -3;
		if (k == 1 && (a->cred = which(&r, creds, n)) == NULL)
			return -4;
		if ((k == 2 && cbor_get_bytes(&r, &adp, &adn) != ERR_OK) ||
		    (k == 3 && cbor_get_bytes(&r, &sig, &sn) != ERR_OK) ||
		    (k == 4 && read_user(&r, a) != 0) ||
		    (k == 5 && cbor_get_uint(&r, &a->count) != ERR_OK) ||
		    k == 0 || k > 5)
			return -3;
	}
	if (a->cred == NULL || adp == NULL || sig == NULL ||
	    authdata_parse(adp, adn, false, &ad) != ERR_OK || adn != 37)
		return -3;
	memcpy(msg, adp, 37);
	memcpy(msg + 37, q->cdh, 32);
	if (crypto_verify(a->cred->type, a->cred->pk, a->cred->pk_len, msg,
		sizeof(msg), sig, sn) != ERR_OK)
		return -5;
	a->flags = ad.flags;
	a->counter = ad.counter;
	return 0;
}

int
ch_assert_any(struct ch *h, uint8_t cmd, const struct ch_req *q,
    const struct ch_cred *const *creds, size_t n, struct ch_asr *a)
{
	uint8_t buf[REQ_MAX];
	int st;

	memset(a, 0, sizeof(*a));
	st = cmd == 0x02 ? ch_call(h, cmd, buf, ch_ga_request(q, buf))
			 : ch_call(h, cmd, NULL, 0);
	if (st != 0)
		return st;
	return asr_reply(h, q, creds, n, a) == 0 ? 0 : -1;
}
