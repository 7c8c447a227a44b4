/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 authenticator of the software token: one CTAPHID_CBOR request
 * (command byte || CBOR map) in, status byte || CBOR out. Dispatch,
 * GetInfo, Selection and Reset, presence and the simulated built-in UV
 * (both may leave a request pending: the CTAPHID side holds it and sends
 * KEEPALIVE), the CTAP2 fault modes, and the CTAP2 part of the state
 * file. MakeCredential and GetAssertion are ctap2op.c, ClientPIN
 * ctap2pin.c. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/ec.h>

#include "base/cbor.h"
#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token_int.h"

enum {
	CMD_MAKE_CRED = 0x01,
	CMD_GET_ASSERT = 0x02,
	CMD_GET_INFO = 0x04,
	CMD_CLIENT_PIN = 0x06,
	CMD_RESET = 0x07,
	CMD_GET_NEXT = 0x08,
	CMD_SELECTION = 0x0B
};

#define OVERSIZED_CLAIM 0x100000u /* a byte string "of 1 MiB" */

const uint8_t ctap2_aaguid[16] = {0x70, 0x61, 0x6d, 0x5f, 0x75, 0x32, 0x66,
    0x20, 0x73, 0x6f, 0x66, 0x74, 0x74, 0x6f, 0x6b, 0x01};

int
token_has_ctap2(const struct token *t)
{
	return t->c2->version != TOKEN_CTAP2_OFF;
}

int
token_has_u2f(const struct token *t)
{
	return t->c2->u2f;
}

int
ctap2_new(struct ctap2 **out, const struct token_config *cfg)
{
	struct ctap2 *c;

	*out = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ERR_NOMEM;
	c->version = cfg->ctap2;
	c->u2f = !cfg->u2f_off && !cfg->always_uv;
	c->uv = cfg->uv;
	c->always_uv = cfg->always_uv;
	c->hmac = cfg->hmac_off == 0 ? 1 : cfg->hmac_off == 2 ? 2 : 0;
	c->attest = cfg->attest;
	c->max_list = cfg->max_list > 0       ? (unsigned)cfg->max_list
	    : c->version >= TOKEN_CTAP2_21PRE ? 8u
					      : 0u;
	c->pin_retries = cfg->pin_retries < 0 ? CTAP2_PIN_RETRIES_MAX
					      : (unsigned)cfg->pin_retries;
	c->uv_retries = CTAP2_UV_RETRIES_MAX;
	c->op_start = -1;
	c->rk_slots = cfg->rk_slots > 0 ? (unsigned)cfg->rk_slots
					: CTAP2_RK_SLOTS_DEFAULT;
	if ((c->ka = EVP_EC_gen("P-256")) == NULL) {
		free(c);
		return ERR_CRYPTO;
	}
	*out = c;
	return ERR_OK;
}

void
ctap2_free(struct ctap2 **cp)
{
	struct ctap2 *c = *cp;

	if (c == NULL)
		return;
	EVP_PKEY_free(c->ka);
	ctap2_rk_clear(c);
	util_freezero(c, sizeof(*c));
	*cp = NULL;
}

/* ---- waiting for the user ---- */

int
ctap2_presence(struct token *t, int64_t now, enum token_mode mode)
{
	struct ctap2 *c = t->c2;

	if (mode == TOKEN_CANCEL) {
		t->touch_start = -1; /* the next request waits anew */
		return ST_KEEPALIVE_CANCEL;
	}
	if (c->op_start < 0)
		c->op_start = now;
	if (token_presence_granted(t, now))
		return ST_OK;
	if (now - c->op_start >= CTAP2_UP_TIMEOUT_MS) {
		t->touch_start = -1;
		return ST_USER_ACTION_TIMEOUT;
	}
	c->keepalive = 2; /* UPNEEDED */
	return ST_PENDING;
}

int
ctap2_builtin_uv(struct token *t, int64_t now, enum token_mode mode)
{
	struct ctap2 *c = t->c2;

	if (mode == TOKEN_CANCEL)
		return ST_KEEPALIVE_CANCEL;
	if (c->uv == TOKEN_UV_NONE)
		return ST_NOT_ALLOWED;
	if (c->uv_state == UV_PASSED)
		return ST_OK;
	if (c->uv_retries == 0)
		return ST_UV_BLOCKED;
	if (c->uv_state == UV_IDLE) {
		c->uv_state = UV_RUNNING;
		c->uv_start = now;
	}
	if (now - c->uv_start < CTAP2_UV_MS) {
		c->keepalive = 1; /* PROCESSING */
		return ST_PENDING;
	}
	c->uv_state = UV_IDLE;
	token_log_line(t, c->uv == TOKEN_UV_OK ? "uv ok" : "uv bad");
	if (c->uv == TOKEN_UV_OK) {
		c->uv_retries = CTAP2_UV_RETRIES_MAX;
		c->uv_state = UV_PASSED;
		return token_save_state(t) == ERR_OK ? ST_OK : ST_OTHER;
	}
	c->uv_retries--;
	if (token_save_state(t) != ERR_OK)
		return ST_OTHER;
	return c->uv_retries == 0 ? ST_UV_BLOCKED : ST_UV_INVALID;
}

/* ---- GetInfo ---- */

struct opt {
	const char *name;
	bool v;
};

/* The options map, in canonical order (shorter names first, then
 * bytewise: the table is written that way). */
static void
put_options(const struct ctap2 *c, struct cbor_wr *w)
{
	struct opt o[8];
	size_t n = 0, i;
	int v21 = c->version == TOKEN_CTAP2_21;

	o[n++] = (struct opt){"rk", true};
	o[n++] = (struct opt){"up", true};
	if (c->uv != TOKEN_UV_NONE)
		o[n++] = (struct opt){"uv", true};
	if (c->always_uv)
		o[n++] = (struct opt){"alwaysUv", true};
	o[n++] = (struct opt){"clientPin", c->pin_set != 0};
	if (v21)
		o[n++] = (struct opt){"pinUvAuthToken", true};
	if (v21 && !c->always_uv)
		o[n++] = (struct opt){"makeCredUvNotRqd", true};
	cbor_put_map(w, n);
	for (i = 0; i < n; i++) {
		cbor_put_str(w, o[i].name);
		cbor_put_bool(w, o[i].v);
	}
}

static void
put_versions(const struct ctap2 *c, struct cbor_wr *w)
{
	size_t n = 1 + (c->u2f ? 1u : 0u) +
	    (c->version >= TOKEN_CTAP2_21PRE ? 1u : 0u) +
	    (c->version >= TOKEN_CTAP2_21 ? 1u : 0u);

	cbor_put_array(w, n);
	if (c->u2f)
		cbor_put_str(w, "U2F_V2");
	cbor_put_str(w, "FIDO_2_0");
	if (c->version >= TOKEN_CTAP2_21PRE)
		cbor_put_str(w, "FIDO_2_1_PRE");
	if (c->version >= TOKEN_CTAP2_21)
		cbor_put_str(w, "FIDO_2_1");
}

static void
put_algorithms(struct cbor_wr *w)
{
	static const int algs[] = {COSE_ES256, COSE_EDDSA, COSE_RS256};
	size_t i;

	cbor_put_array(w, 3);
	for (i = 0; i < 3; i++) {
		cbor_put_map(w, 2);
		cbor_put_str(w, "alg");
		cbor_put_int(w, algs[i]);
		cbor_put_str(w, "type");
		cbor_put_str(w, "public-key");
	}
}

static int
get_info(const struct ctap2 *c, struct cbor_wr *w)
{
	int pre = c->version >= TOKEN_CTAP2_21PRE;
	int v21 = c->version == TOKEN_CTAP2_21;

	cbor_put_map(w,
	    6u + (c->max_list > 0 ? 1u : 0u) + (pre ? 1u : 0u) +
		(v21 ? 3u : 0u));
	cbor_put_uint(w, 1);
	put_versions(c, w);
	cbor_put_uint(w, 2); /* extensions */
	cbor_put_array(w, c->hmac ? 2 : 1);
	cbor_put_str(w, "credProtect");
	if (c->hmac)
		cbor_put_str(w, "hmac-secret");
	cbor_put_uint(w, 3);
	cbor_put_bytes(w, ctap2_aaguid, sizeof(ctap2_aaguid));
	cbor_put_uint(w, 4);
	put_options(c, w);
	cbor_put_uint(w, 5);
	cbor_put_uint(w, CTAP2_REPLY_MAX); /* maxMsgSize */
	cbor_put_uint(w, 6);
	if (pre) {
		cbor_put_array(w, 2);
		cbor_put_uint(w, 2);
	} else
		cbor_put_array(w, 1);
	cbor_put_uint(w, 1);
	if (c->max_list > 0) {
		cbor_put_uint(w, 7); /* maxCredentialCountInList */
		cbor_put_uint(w, c->max_list);
	}
	if (pre) {
		cbor_put_uint(w, 8); /* maxCredentialIdLength */
		cbor_put_uint(w, CTAP2_CRED_MAX);
	}
	if (v21) {
		cbor_put_uint(w, 9);
		cbor_put_array(w, 1);
		cbor_put_str(w, "usb");
		cbor_put_uint(w, 10);
		put_algorithms(w);
		cbor_put_uint(w, 0x14); /* remainingDiscoverableCredentials */
		cbor_put_uint(w, ctap2_rk_remaining(c));
	}
	return ST_OK;
}

/* ---- Reset, Selection ---- */

static int
reset(struct token *t, int64_t now, enum token_mode mode)
{
	struct ctap2 *c = t->c2;
	EVP_PKEY *ka;
	int st;

	if ((st = ctap2_presence(t, now, mode)) != ST_OK)
		return st;
	if ((ka = EVP_EC_gen("P-256")) == NULL ||
	    util_random(t->master, sizeof(t->master)) != ERR_OK) {
		EVP_PKEY_free(ka);
		return ST_OTHER;
	}
	EVP_PKEY_free(c->ka);
	c->ka = ka;
	c->pin_set = 0;
	util_wipe(c->pin_hash, sizeof(c->pin_hash));
	c->pin_retries = CTAP2_PIN_RETRIES_MAX;
	c->uv_retries = CTAP2_UV_RETRIES_MAX;
	c->pin_fails = 0;
	c->puat_valid = 0;
	ctap2_rk_clear(c);
	return token_save_state(t) == ERR_OK ? ST_OK : ST_OTHER;
}

static int
dispatch(struct token *t, int64_t now, enum token_mode mode, uint8_t cmd,
    const struct ctap2_req *q, struct cbor_wr *w)
{
	enum token_ctap2 v = t->c2->version;

	switch (cmd) {
	case CMD_MAKE_CRED:
		return ctap2_make_credential(t, now, mode, q, w);
	case CMD_GET_ASSERT:
		return ctap2_get_assertion(t, now, mode, q, w);
	case CMD_GET_NEXT:
		return ctap2_get_next_assertion(t, now, w);
	case CMD_GET_INFO:
		return get_info(t->c2, w);
	case CMD_CLIENT_PIN:
		return ctap2_client_pin(t, now, mode, q, w);
	case CMD_RESET:
		return reset(t, now, mode);
	case CMD_SELECTION:
		if (v != TOKEN_CTAP2_21)
			return ST_INVALID_COMMAND;
		return ctap2_presence(t, now, mode);
	default:
		return ST_INVALID_COMMAND;
	}
}

/* ---- faults on replies ---- */

/* Swap the first two entries of the reply's map. */
static void
swap_first_entries(uint8_t *body, size_t len)
{
	struct cbor_rd r;
	const uint8_t *k1, *v1, *k2, *v2;
	size_t cnt, nk1, nv1, nk2, nv2, a, b;
	uint8_t tmp[CTAP2_REPLY_MAX];

	cbor_rd_init(&r, body, len);
	if (cbor_get_map(&r, &cnt) != ERR_OK || cnt < 2 ||
	    cbor_get_raw(&r, &k1, &nk1) != ERR_OK ||
	    cbor_get_raw(&r, &v1, &nv1) != ERR_OK ||
	    cbor_get_raw(&r, &k2, &nk2) != ERR_OK ||
	    cbor_get_raw(&r, &v2, &nv2) != ERR_OK)
		return;
	a = nk1 + nv1;
	b = nk2 + nv2;
	memcpy(tmp, k2, b);
	memcpy(tmp + b, k1, a);
	memcpy(body + (k1 - body), tmp, a + b);
}

static size_t
oversize(uint8_t *rep)
{
	static const uint8_t head[] = {0x00, 0xa1, 0x01, 0x5a, 0x00,
	    (uint8_t)(OVERSIZED_CLAIM >> 16), 0x00, 0x00};
	size_t i;

	memcpy(rep, head, sizeof(head));
	for (i = sizeof(head); i < CTAP2_REPLY_MAX; i++)
		rep[i] = (uint8_t)i;
	return CTAP2_REPLY_MAX;
}

static void
apply_faults(const struct token *t, uint8_t *rep, size_t *rlen)
{
	unsigned f = t->faults;
	size_t n = *rlen - 1;

	if (rep[0] != ST_OK)
		return;
	if (f & FAULT_CBOR_OVERSIZED)
		*rlen = oversize(rep);
	if (f & FAULT_CBOR_NONCANON)
		swap_first_entries(rep + 1, n);
	if ((f & FAULT_CBOR_GARBAGE) && n > 0)
		*rlen = 1 + n / 2; /* an item cut short is never complete */
	else if (f & FAULT_CBOR_GARBAGE)
		rep[(*rlen)++] = 0xff; /* a lone break code */
	if (f & FAULT_CBOR_STATUS)
		rep[0] = ST_OTHER;
}

static void
log_cbor(struct token *t, uint8_t cmd, uint8_t status)
{
	token_logf(t, "cbor cmd=%02x status=%02x\n", cmd, status);
}

/* The request ended: forget what it was waiting for. */
static void
op_done(struct ctap2 *c)
{
	c->op_start = -1;
	c->uv_state = UV_IDLE;
	c->keepalive = 0;
}

static int
endless(const struct token *t, uint8_t cmd)
{
	return (t->faults & FAULT_ENDLESS_PROCESSING) &&
	    (cmd == CMD_MAKE_CRED || cmd == CMD_GET_ASSERT);
}

int
token_cbor(struct token *t, int64_t now_ms, enum token_mode mode,
    const uint8_t *req, size_t len, uint8_t *rep, size_t *rlen,
    uint8_t *keepalive)
{
	struct ctap2_req q;
	struct cbor_wr w;
	size_t n = 0;
	int st;

	*rlen = 0;
	*keepalive = 0;
	if (len > 0 && endless(t, req[0])) {
		*keepalive = 1;
		return ERR_PENDING;
	}
	if (len == 0 || req[0] != CMD_GET_NEXT)
		t->c2->next.active = 0; /* any other command ends it */
	cbor_wr_init(&w, rep + 1, CTAP2_REPLY_MAX - 1);
	if (len == 0)
		st = ST_INVALID_LENGTH;
	else if ((st = ctap2_req_parse(req + 1, len - 1, &q)) == ST_OK)
		st = dispatch(t, now_ms, mode, req[0], &q, &w);
	if (st == ST_PENDING) {
		*keepalive = t->c2->keepalive;
		return ERR_PENDING;
	}
	op_done(t->c2);
	if (st == ST_OK && cbor_wr_end(&w, &n) != ERR_OK)
		st = ST_OTHER;
	rep[0] = (uint8_t)st;
	*rlen = st == ST_OK ? 1 + n : 1;
	if (len > 0 && req[0] != CMD_GET_INFO)
		apply_faults(t, rep, rlen);
	else if ((t->faults & FAULT_GETINFO_GARBAGE) && *rlen > 2)
		*rlen = 1 + (*rlen - 1) / 2; /* claims CBOR, GetInfo fails */
	log_cbor(t, len > 0 ? req[0] : 0, rep[0]);
	return ERR_OK;
}

/* ---- state file lines ---- */

void
ctap2_state_write(const struct ctap2 *c, FILE *f)
{
	size_t i;

	if (c->pin_set) {
		fprintf(f, "pin-hash ");
		for (i = 0; i < sizeof(c->pin_hash); i++)
			fprintf(f, "%02x", c->pin_hash[i]);
		fprintf(f, "\n");
	}
	fprintf(f, "pin-retries %u\nuv-retries %u\n", c->pin_retries,
	    c->uv_retries);
	ctap2_rk_write(c, f);
}

static int
small_uint(const char *v, unsigned max, unsigned *out)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno != 0 || *v < '0' || *v > '9' || *end != '\0' || x > max)
		return ERR_PARSE;
	*out = (unsigned)x;
	return ERR_OK;
}

int
ctap2_state_line(struct ctap2 *c, const char *name, const char *v)
{
	unsigned b;
	size_t i;

	if (strcmp(name, "pin-retries") == 0)
		return small_uint(v, CTAP2_PIN_RETRIES_MAX, &c->pin_retries);
	if (strcmp(name, "uv-retries") == 0)
		return small_uint(v, CTAP2_UV_RETRIES_MAX, &c->uv_retries);
	if (strcmp(name, "rk") == 0)
		return ctap2_rk_line(c, v);
	if (strcmp(name, "pin-hash") != 0)
		return ERR_NOT_FOUND;
	if (strlen(v) != 2 * sizeof(c->pin_hash))
		return ERR_PARSE;
	for (i = 0; i < sizeof(c->pin_hash); i++) {
		if (sscanf(v + 2 * i, "%2x", &b) != 1)
			return ERR_PARSE;
		c->pin_hash[i] = (uint8_t)b;
	}
	c->pin_set = 1;
	return ERR_OK;
}
