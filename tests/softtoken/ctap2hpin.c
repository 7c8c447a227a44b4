/* SPDX-License-Identifier: BSD-2-Clause */
/* The host side of the CTAP2 unit tests: ClientPIN through
 * common/crypto/pinproto.h, and GetInfo; see ctap2host.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/cbor.h"
#include "base/err.h"
#include "crypto/pinproto.h"
#include "proto/cose.h"
#include "ctap2host.h"

#define CP_MAX 512

/* The first uint key of the reply map equal to key: a cursor on its
 * value. 0 or -1. */
static int
reply_key(const struct ch *h, uint64_t key, struct cbor_rd *r)
{
	const uint8_t *body;
	size_t n, cnt, i;
	uint64_t k;

	body = ch_body(h, &n);
	if (cbor_check(body, n) != ERR_OK)
		return -1;
	cbor_rd_init(r, body, n);
	if (cbor_get_map(r, &cnt) != ERR_OK)
		return -1;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_uint(r, &k) != ERR_OK)
			return -1;
		if (k == key)
			return 0;
		if (cbor_skip(r) != ERR_OK)
			return -1;
	}
	return -1;
}

static int
simple(struct ch *h, uint64_t sub, uint64_t key, unsigned *v)
{
	struct cbor_rd r;
	uint8_t buf[16];
	struct cbor_wr w;
	size_t n = 0;
	uint64_t x;
	int st;

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_map(&w, 2);
	cbor_put_uint(&w, 1);
	cbor_put_uint(&w, 1);
	cbor_put_uint(&w, 2);
	cbor_put_uint(&w, sub);
	cbor_wr_end(&w, &n);
	if ((st = ch_call(h, 0x06, buf, n)) != 0)
		return st;
	if (reply_key(h, key, &r) != 0 || cbor_get_uint(&r, &x) != ERR_OK)
		return -1;
	*v = (unsigned)x;
	return 0;
}

int
ch_pin_retries(struct ch *h, unsigned *retries)
{
	return simple(h, 1, 3, retries);
}

int
ch_uv_retries(struct ch *h, unsigned *retries)
{
	return simple(h, 7, 5, retries);
}

/* getKeyAgreement and our half: shared secret s, our key ox, oy. */
static int
agree(struct ch *h, int proto, struct pin_shared *s, uint8_t ox[32],
    uint8_t oy[32])
{
	struct cbor_rd r;
	struct cbor_wr w;
	uint8_t buf[16], px[32], py[32];
	size_t n = 0;
	int st;

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_map(&w, 2);
	cbor_put_uint(&w, 1);
	cbor_put_uint(&w, (uint64_t)proto);
	cbor_put_uint(&w, 2);
	cbor_put_uint(&w, 2);
	cbor_wr_end(&w, &n);
	if ((st = ch_call(h, 0x06, buf, n)) != 0)
		return st;
	if (reply_key(h, 1, &r) != 0 || cose_ka_read(&r, px, py) != ERR_OK ||
	    pin_agree(proto, px, py, ox, oy, s) != ERR_OK)
		return -1;
	return 0;
}

static void
put_head(struct cbor_wr *w, size_t entries, int proto, unsigned sub,
    const uint8_t ox[32], const uint8_t oy[32])
{
	cbor_put_map(w, entries);
	cbor_put_uint(w, 1);
	cbor_put_uint(w, (uint64_t)proto);
	cbor_put_uint(w, 2);
	cbor_put_uint(w, sub);
	cbor_put_uint(w, 3);
	cose_ka_write(w, ox, oy);
}

/* enc(LEFT(SHA-256(pin), 16)) */
static int
pin_hash_enc(
    const struct pin_shared *s, const char *pin, uint8_t *out, size_t *n)
{
	uint8_t h[32];

	if (EVP_Digest(pin, strlen(pin), h, NULL, EVP_sha256(), NULL) != 1)
		return -1;
	return pin_encrypt(s, h, 16, out, 48, n) == ERR_OK ? 0 : -1;
}

/* enc(pin padded to 64 bytes) */
static int
new_pin_enc(
    const struct pin_shared *s, const char *pin, uint8_t *out, size_t *n)
{
	uint8_t pad[64];

	memset(pad, 0, sizeof(pad));
	memcpy(pad, pin, strlen(pin) < 64 ? strlen(pin) : 64);
	return pin_encrypt(s, pad, 64, out, 80, n) == ERR_OK ? 0 : -1;
}

int
ch_set_pin(struct ch *h, int proto, const char *pin)
{
	struct pin_shared s;
	struct cbor_wr w;
	uint8_t ox[32], oy[32], enc[80], auth[PIN_AUTH_MAX], buf[CP_MAX];
	size_t en = 0, an = 0, n = 0;
	int st;

	if ((st = agree(h, proto, &s, ox, oy)) != 0)
		return st;
	if (new_pin_enc(&s, pin, enc, &en) != 0 ||
	    pin_auth_shared(&s, enc, en, auth, &an) != ERR_OK)
		return -1;
	cbor_wr_init(&w, buf, sizeof(buf));
	put_head(&w, 5, proto, 3, ox, oy);
	cbor_put_uint(&w, 4);
	cbor_put_bytes(&w, auth, an);
	cbor_put_uint(&w, 5);
	cbor_put_bytes(&w, enc, en);
	cbor_wr_end(&w, &n);
	pin_shared_clear(&s);
	return ch_call(h, 0x06, buf, n);
}

int
ch_change_pin(struct ch *h, int proto, const char *old, const char *pin)
{
	struct pin_shared s;
	struct cbor_wr w;
	uint8_t ox[32], oy[32], enc[80 + 48], auth[PIN_AUTH_MAX], buf[CP_MAX];
	size_t en = 0, hn = 0, an = 0, n = 0;
	int st;

	if ((st = agree(h, proto, &s, ox, oy)) != 0)
		return st;
	if (new_pin_enc(&s, pin, enc, &en) != 0 ||
	    pin_hash_enc(&s, old, enc + en, &hn) != 0 ||
	    pin_auth_shared(&s, enc, en + hn, auth, &an) != ERR_OK)
		return -1;
	cbor_wr_init(&w, buf, sizeof(buf));
	put_head(&w, 6, proto, 4, ox, oy);
	cbor_put_uint(&w, 4);
	cbor_put_bytes(&w, auth, an);
	cbor_put_uint(&w, 5);
	cbor_put_bytes(&w, enc, en);
	cbor_put_uint(&w, 6);
	cbor_put_bytes(&w, enc + en, hn);
	cbor_wr_end(&w, &n);
	pin_shared_clear(&s);
	return ch_call(h, 0x06, buf, n);
}

static int
token_reply(const struct ch *h, const struct pin_shared *s, uint8_t tok[32])
{
	struct cbor_rd r;
	const uint8_t *enc;
	uint8_t out[64];
	size_t n, m = 0;

	if (reply_key(h, 2, &r) != 0 ||
	    cbor_get_bytes(&r, &enc, &n) != ERR_OK ||
	    pin_decrypt(s, enc, n, out, sizeof(out), &m) != ERR_OK || m != 32)
		return -1;
	memcpy(tok, out, 32);
	return 0;
}

int
ch_get_token(struct ch *h, int proto, unsigned sub, const char *pin,
    unsigned perm, const char *rp, uint8_t token[32])
{
	struct pin_shared s;
	struct cbor_wr w;
	uint8_t ox[32], oy[32], enc[48], buf[CP_MAX];
	size_t en = 0, n = 0;
	int st;

	if ((st = agree(h, proto, &s, ox, oy)) != 0)
		return st;
	if (sub != 6 && pin_hash_enc(&s, pin, enc, &en) != 0)
		return -1;
	cbor_wr_init(&w, buf, sizeof(buf));
	put_head(&w,
	    3u + (sub != 6 ? 1u : 0u) + (perm != 0 ? 1u : 0u) +
		(rp != NULL ? 1u : 0u),
	    proto, sub, ox, oy);
	if (sub != 6) {
		cbor_put_uint(&w, 6);
		cbor_put_bytes(&w, enc, en);
	}
	if (perm != 0) {
		cbor_put_uint(&w, 9);
		cbor_put_uint(&w, perm);
	}
	if (rp != NULL) {
		cbor_put_uint(&w, 10);
		cbor_put_str(&w, rp);
	}
	cbor_wr_end(&w, &n);
	if ((st = ch_call(h, 0x06, buf, n)) == 0)
		st = token_reply(h, &s, token);
	pin_shared_clear(&s);
	return st;
}

size_t
ch_auth(
    int proto, const uint8_t token[32], const uint8_t cdh[32], uint8_t out[32])
{
	size_t n = 0;

	if (pin_auth_token(proto, token, 32, cdh, 32, out, &n) != ERR_OK)
		abort();
	return n;
}

static void
info_options(struct cbor_rd *r, struct ch_info *in)
{
	size_t cnt, i;
	bool b;

	if (cbor_get_map(r, &cnt) != ERR_OK)
		return;
	for (i = 0; i < cnt; i++) {
		int *dst = cbor_take_text_key(r, "clientPin")
		    ? &in->opt_clientpin
		    : cbor_take_text_key(r, "uv")       ? &in->opt_uv
		    : cbor_take_text_key(r, "alwaysUv") ? &in->opt_alwaysuv
		    : cbor_take_text_key(r, "pinUvAuthToken") ? &in->opt_puat
		    : cbor_take_text_key(r, "rk")             ? &in->opt_rk
							      : NULL;
		if (dst == NULL && cbor_skip(r) != ERR_OK)
			return;
		if (cbor_get_bool(r, &b) == ERR_OK && dst != NULL)
			*dst = b;
	}
}

int
ch_get_info(struct ch *h, struct ch_info *in)
{
	struct cbor_rd r;
	const char *s;
	size_t cnt, i, n;
	uint64_t p;
	int st;

	memset(in, 0, sizeof(*in));
	in->opt_clientpin = in->opt_uv = in->opt_alwaysuv = -1;
	in->opt_puat = in->opt_rk = -1;
	if ((st = ch_call(h, 0x04, NULL, 0)) != 0)
		return st;
	if (reply_key(h, 1, &r) != 0 || cbor_get_array(&r, &cnt) != ERR_OK ||
	    cnt > 4)
		return -1;
	for (i = 0; i < cnt; i++) {
		if (cbor_get_text(&r, &s, &n) != ERR_OK || n >= 16)
			return -1;
		memcpy(in->versions[i], s, n);
	}
	in->nversions = cnt;
	if (reply_key(h, 4, &r) != 0)
		return -1;
	info_options(&r, in);
	if (reply_key(h, 6, &r) != 0 || cbor_get_array(&r, &cnt) != ERR_OK ||
	    cnt > 2)
		return -1;
	for (i = 0; i < cnt; i++)
		if (cbor_get_uint(&r, &p) == ERR_OK)
			in->protos[in->nprotos++] = (unsigned)p;
	in->rk_remaining = -1;
	if (reply_key(h, 0x14, &r) == 0 && cbor_get_uint(&r, &p) == ERR_OK)
		in->rk_remaining = (long)p;
	if (reply_key(h, 2, &r) == 0 && cbor_get_array(&r, &cnt) == ERR_OK)
		for (i = 0; i < cnt; i++)
			if (cbor_get_text(&r, &s, &n) == ERR_OK && n == 11 &&
			    memcmp(s, "credProtect", 11) == 0)
				in->ext_credprotect = 1;
	return 0;
}
