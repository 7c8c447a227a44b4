/* SPDX-License-Identifier: BSD-2-Clause */
/* The host side of the CTAP2 unit tests; see ctap2host.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/cbor.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "crypto/pinproto.h"
#include "proto/attest.h"
#include "proto/authdata.h"
#include "proto/cose.h"
#include "ctap2host.h"

void
ch_config(struct token_config *c)
{
	memset(c, 0, sizeof(*c));
	c->presence = TOKEN_PRESENCE_NOW;
	c->pin_retries = -1;
}

struct token *
ch_token(enum token_ctap2 v, const struct token_config *cfg)
{
	struct token_config c = *cfg;
	struct token *t = NULL;

	c.ctap2 = v;
	if (token_new(&t, &c) != ERR_OK)
		abort();
	return t;
}

void
ch_init(struct ch *h, enum token_ctap2 v, const struct token_config *cfg)
{
	memset(h, 0, sizeof(*h));
	h->t = ch_token(v, cfg);
}

int
ch_call(struct ch *h, uint8_t cmd, const uint8_t *cbor, size_t len)
{
	uint8_t req[REQ_MAX];
	enum token_mode mode = TOKEN_HOLD;
	uint8_t ka = 0;
	int i, r;

	req[0] = cmd;
	if (len > 0)
		memcpy(req + 1, cbor, len);
	h->ka_processing = h->ka_upneeded = h->polls = 0;
	for (i = 0; i < CH_MAX_KEEPALIVES; i++) {
		r = token_cbor(
		    h->t, h->now, mode, req, len + 1, h->rep, &h->rlen, &ka);
		if (r == ERR_OK)
			return h->rlen > 0 ? h->rep[0] : -1;
		if (r != ERR_PENDING)
			return -1;
		h->polls++;
		h->ka_processing += ka == 1;
		h->ka_upneeded += ka == 2;
		h->now += 100;
		if (h->cancel_after > 0 && (int)h->polls >= h->cancel_after)
			mode = TOKEN_CANCEL;
	}
	return -1;
}

const uint8_t *
ch_body(const struct ch *h, size_t *len)
{
	*len = h->rlen > 0 ? h->rlen - 1 : 0;
	return h->rep + 1;
}

void
ch_req_init(struct ch_req *q, const char *rp)
{
	static const int es256[] = {-7, 0};

	memset(q, 0, sizeof(*q));
	q->rp = rp;
	memset(q->cdh, 0xcd, sizeof(q->cdh));
	q->algs = es256;
	q->up = q->uv = q->rk = -1;
}

static size_t
count_opts(const struct ch_req *q)
{
	return (q->rk >= 0 ? 1u : 0u) + (q->up >= 0 ? 1u : 0u) +
	    (q->uv >= 0 ? 1u : 0u);
}

static void
put_opts(struct cbor_wr *w, const struct ch_req *q)
{
	cbor_put_map(w, count_opts(q));
	if (q->rk >= 0) {
		cbor_put_str(w, "rk");
		cbor_put_bool(w, q->rk);
	}
	if (q->up >= 0) {
		cbor_put_str(w, "up");
		cbor_put_bool(w, q->up);
	}
	if (q->uv >= 0) {
		cbor_put_str(w, "uv");
		cbor_put_bool(w, q->uv);
	}
}

static void
put_desc(struct cbor_wr *w, const uint8_t *id, size_t n)
{
	cbor_put_map(w, 2);
	cbor_put_str(w, "id");
	cbor_put_bytes(w, id, n);
	cbor_put_str(w, "type");
	cbor_put_str(w, "public-key");
}

static void
put_list(struct cbor_wr *w, const struct ch_req *q)
{
	size_t i;

	cbor_put_array(w, q->nallow + (q->junk_id != NULL ? 1u : 0u));
	if (q->junk_id != NULL)
		put_desc(w, q->junk_id, q->junk_len);
	for (i = 0; i < q->nallow; i++)
		put_desc(w, q->allow[i]->id, q->allow[i]->id_len);
}

size_t
ch_mc_request(const struct ch_req *q, uint8_t *buf)
{
	struct cbor_wr w;
	size_t n = 0, i, k;

	for (k = 0; q->algs[k] != 0; k++)
		;
	cbor_wr_init(&w, buf, REQ_MAX);
	cbor_put_map(&w,
	    4u + (q->nallow > 0 ? 1u : 0u) + (count_opts(q) > 0 ? 1u : 0u) +
		(q->auth != NULL ? 2u : 0u) + (q->prot > 0 ? 1u : 0u));
	cbor_put_uint(&w, 1);
	cbor_put_bytes(&w, q->cdh, 32);
	cbor_put_uint(&w, 2);
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "id");
	cbor_put_str(&w, q->rp);
	cbor_put_str(&w, "name");
	cbor_put_str(&w, "test");
	cbor_put_uint(&w, 3);
	cbor_put_map(&w, q->display != NULL ? 3 : 2);
	cbor_put_str(&w, "id");
	if (q->user != NULL)
		cbor_put_bytes(&w, q->user, strlen(q->user));
	else
		cbor_put_bytes(&w, "user", 4);
	cbor_put_str(&w, "name");
	cbor_put_str(&w, q->user != NULL ? q->user : "user");
	if (q->display != NULL) {
		cbor_put_str(&w, "displayName");
		cbor_put_str(&w, q->display);
	}
	cbor_put_uint(&w, 4);
	cbor_put_array(&w, k);
	for (i = 0; i < k; i++) {
		cbor_put_map(&w, 2);
		cbor_put_str(&w, "alg");
		cbor_put_int(&w, q->algs[i]);
		cbor_put_str(&w, "type");
		cbor_put_str(&w, "public-key");
	}
	if (q->nallow > 0) {
		cbor_put_uint(&w, 5);
		put_list(&w, q);
	}
	if (q->prot > 0) {
		cbor_put_uint(&w, 6);
		cbor_put_map(&w, 1);
		cbor_put_str(&w, "credProtect");
		cbor_put_uint(&w, (uint64_t)q->prot);
	}
	if (count_opts(q) > 0) {
		cbor_put_uint(&w, 7);
		put_opts(&w, q);
	}
	if (q->auth != NULL) {
		cbor_put_uint(&w, 8);
		cbor_put_bytes(&w, q->auth, q->auth_len);
		cbor_put_uint(&w, 9);
		cbor_put_uint(&w, (uint64_t)q->proto);
	}
	if (cbor_wr_end(&w, &n) != ERR_OK)
		abort();
	return n;
}

/* Check the MakeCredential reply with the host's parsers. */
static int
mc_reply(const struct ch *h, const struct ch_req *q, struct ch_cred *c)
{
	struct cbor_rd r;
	struct authdata ad;
	const uint8_t *body, *adp, *st;
	const char *fmt;
	uint8_t *cert = NULL;
	size_t n, cnt, fn, adn, stn, cert_len = 0;
	uint64_t k;

	body = ch_body(h, &n);
	if (cbor_check(body, n) != ERR_OK)
		return -2;
	cbor_rd_init(&r, body, n);
	if (cbor_get_map(&r, &cnt) != ERR_OK || cnt != 3 ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 1 ||
	    cbor_get_text(&r, &fmt, &fn) != ERR_OK || fn >= sizeof(c->fmt) ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 2 ||
	    cbor_get_bytes(&r, &adp, &adn) != ERR_OK ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 3 ||
	    cbor_get_raw(&r, &st, &stn) != ERR_OK ||
	    authdata_parse(adp, adn, true, &ad) != ERR_OK)
		return -3;
	if (attest_verify(fmt, fn, st, stn, adp, adn, &ad, q->cdh, NULL, &cert,
		&cert_len) != ERR_OK)
		return -4;
	free(cert);
	memcpy(c->fmt, fmt, fn);
	c->fmt[fn] = '\0';
	if (ad.cred_id_len > sizeof(c->id))
		return -5;
	memcpy(c->id, ad.cred_id, ad.cred_id_len);
	c->id_len = ad.cred_id_len;
	c->type = ad.type;
	memcpy(c->pk, ad.pk, ad.pk_len);
	c->pk_len = ad.pk_len;
	c->flags = ad.flags;
	c->counter = ad.counter;
	c->ext_prot = ch_ext_prot(ad.ext, ad.ext_len);
	return 0;
}

int
ch_make_cred(struct ch *h, const struct ch_req *q, struct ch_cred *c)
{
	uint8_t buf[REQ_MAX];
	int st;

	memset(c, 0, sizeof(*c));
	st = ch_call(h, 0x01, buf, ch_mc_request(q, buf));
	if (st != 0)
		return st;
	return mc_reply(h, q, c) == 0 ? 0 : -1;
}

size_t
ch_ga_request(const struct ch_req *q, uint8_t *buf)
{
	struct cbor_wr w;
	size_t n = 0;

	cbor_wr_init(&w, buf, REQ_MAX);
	cbor_put_map(&w,
	    2u + (q->nallow + (q->junk_id != NULL) > 0 ? 1u : 0u) +
		(count_opts(q) > 0 ? 1u : 0u) + (q->auth != NULL ? 2u : 0u));
	cbor_put_uint(&w, 1);
	cbor_put_str(&w, q->rp);
	cbor_put_uint(&w, 2);
	cbor_put_bytes(&w, q->cdh, 32);
	if (q->nallow + (q->junk_id != NULL) > 0) {
		cbor_put_uint(&w, 3);
		put_list(&w, q);
	}
	if (count_opts(q) > 0) {
		cbor_put_uint(&w, 5);
		put_opts(&w, q);
	}
	if (q->auth != NULL) {
		cbor_put_uint(&w, 6);
		cbor_put_bytes(&w, q->auth, q->auth_len);
		cbor_put_uint(&w, 7);
		cbor_put_uint(&w, (uint64_t)q->proto);
	}
	if (cbor_wr_end(&w, &n) != ERR_OK)
		abort();
	return n;
}

static int
ga_reply(const struct ch *h, const struct ch_req *q, const struct ch_cred *c,
    uint8_t *flags, uint32_t *counter)
{
	struct cbor_rd r;
	struct authdata ad;
	const uint8_t *body, *adp, *sig, *id;
	uint8_t msg[37 + 32];
	size_t n, cnt, adn, sn, idn, m;
	uint64_t k;

	body = ch_body(h, &n);
	if (cbor_check(body, n) != ERR_OK)
		return -2;
	cbor_rd_init(&r, body, n);
	if (cbor_get_map(&r, &cnt) != ERR_OK || cnt != 3 ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 1 ||
	    cbor_get_map(&r, &m) != ERR_OK || m != 2 ||
	    !cbor_take_text_key(&r, "id") ||
	    cbor_get_bytes(&r, &id, &idn) != ERR_OK ||
	    !cbor_take_text_key(&r, "type") || cbor_skip(&r) != ERR_OK ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 2 ||
	    cbor_get_bytes(&r, &adp, &adn) != ERR_OK ||
	    cbor_get_uint(&r, &k) != ERR_OK || k != 3 ||
	    cbor_get_bytes(&r, &sig, &sn) != ERR_OK ||
	    authdata_parse(adp, adn, false, &ad) != ERR_OK || adn != 37)
		return -3;
	if (idn != c->id_len || memcmp(id, c->id, idn) != 0)
		return -4;
	memcpy(msg, adp, 37);
	memcpy(msg + 37, q->cdh, 32);
	if (crypto_verify(
		c->type, c->pk, c->pk_len, msg, sizeof(msg), sig, sn) != ERR_OK)
		return -5;
	*flags = ad.flags;
	*counter = ad.counter;
	return 0;
}

int
ch_get_assert(struct ch *h, const struct ch_req *q, const struct ch_cred *c,
    uint8_t *flags, uint32_t *counter)
{
	uint8_t buf[REQ_MAX];
	int st;

	st = ch_call(h, 0x02, buf, ch_ga_request(q, buf));
	if (st != 0)
		return st;
	return ga_reply(h, q, c, flags, counter) == 0 ? 0 : -1;
}
