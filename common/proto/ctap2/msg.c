/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 requests (command byte | canonical CBOR) and strict reply
 * parsers. Every map is written with its keys in canonical order. Its
 * own file because the bytes on the wire are tested on their own
 * (tests/proto/test_ctap2msg.c, fuzz/fuzz_ctap2.c), apart from the client's
 * state. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "proto/cose.h"
#include "ctap2.h"

static int
finish(struct cbor_wr *w, uint8_t cmd, uint8_t *buf, size_t *len)
{
	size_t n;
	int r;

	if ((r = cbor_wr_end(w, &n)) != ERR_OK)
		return r;
	buf[0] = cmd;
	*len = n + 1;
	return ERR_OK;
}

/* {"up": up, "uv": uv} with the -1 entries left out (rk first). */
static void
put_options(struct cbor_wr *w, int rk, int up, int uv)
{
	cbor_put_map(w, (size_t)(rk >= 0) + (up >= 0) + (uv >= 0));
	if (rk >= 0) {
		cbor_put_str(w, "rk");
		cbor_put_bool(w, rk == 1);
	}
	if (up >= 0) {
		cbor_put_str(w, "up");
		cbor_put_bool(w, up == 1);
	}
	if (uv >= 0) {
		cbor_put_str(w, "uv");
		cbor_put_bool(w, uv == 1);
	}
}

/* GetAssertion's extensions: {"hmac-secret": {1: keyAgreement, 2:
 * saltEnc, 3: saltAuth, 4: pinUvAuthProtocol}} (CTAP 2.1 12.5; key 4
 * only for protocol 2, as 2.0 keys know only protocol 1). */
static void
put_ga_ext(struct cbor_wr *w, const struct ctap2_hmac_in *h)
{
	cbor_put_map(w, 1);
	cbor_put_str(w, "hmac-secret");
	cbor_put_map(w, h->proto != 1 ? 4 : 3);
	cbor_put_uint(w, 1);
	cose_ka_write(w, h->ka_x, h->ka_y);
	cbor_put_uint(w, 2);
	cbor_put_bytes(w, h->salt_enc, h->salt_enc_len);
	cbor_put_uint(w, 3);
	cbor_put_bytes(w, h->salt_auth, h->salt_auth_len);
	if (h->proto != 1) {
		cbor_put_uint(w, 4);
		cbor_put_uint(w, (uint64_t)h->proto);
	}
}

static void
put_descriptor(struct cbor_wr *w, const uint8_t *id, size_t len)
{
	cbor_put_map(w, 2);
	cbor_put_str(w, "id");
	cbor_put_bytes(w, id, len);
	cbor_put_str(w, "type");
	cbor_put_str(w, "public-key");
}

int
ctap2_build_ga(const struct ctap2_ga *ga, uint8_t *buf, size_t *len)
{
	bool opts = ga->up >= 0 || ga->uv >= 0;
	size_t n = ga->cred != NULL ? 1 : ga->nlist, i;
	const struct cred *cr;
	struct cbor_wr w;

	cbor_wr_init(&w, buf + 1, CTAP2_MSG_MAX - 1);
	cbor_put_map(&w,
	    2 + (size_t)(n > 0) + (size_t)(ga->hmac != NULL) + (size_t)opts +
		(ga->pin_auth != NULL ? 2 : 0));
	cbor_put_uint(&w, 1);
	cbor_put_str(&w, ga->rp_id);
	cbor_put_uint(&w, 2);
	cbor_put_bytes(&w, ga->cdh, PROTO_CDH_LEN);
	if (n > 0) {
		cbor_put_uint(&w, 3);
		cbor_put_array(&w, n);
		for (i = 0; i < n; i++) {
			cr = ga->cred != NULL ? ga->cred : ga->list[i];
			put_descriptor(&w, cr->kh, cr->kh_len);
		}
	}
	if (ga->hmac != NULL) {
		cbor_put_uint(&w, 4);
		put_ga_ext(&w, ga->hmac);
	}
	if (opts) {
		cbor_put_uint(&w, 5);
		put_options(&w, -1, ga->up, ga->uv);
	}
	if (ga->pin_auth != NULL) {
		cbor_put_uint(&w, 6);
		cbor_put_bytes(&w, ga->pin_auth, ga->pin_auth_len);
		cbor_put_uint(&w, 7);
		cbor_put_uint(&w, (uint64_t)ga->pin_proto);
	}
	return finish(&w, CTAP2_GET_ASSERTION, buf, len);
}

void
ctap2_build_bare(uint8_t cmd, uint8_t *buf, size_t *len)
{
	buf[0] = cmd;
	*len = 1;
}

static void
put_user(struct cbor_wr *w, const struct proto_user *u)
{
	cbor_put_map(w, 3);
	cbor_put_str(w, "id");
	cbor_put_bytes(w, u->id, u->id_len);
	cbor_put_str(w, "name");
	cbor_put_str(w, u->name);
	cbor_put_str(w, "displayName");
	cbor_put_str(w, u->display_name);
}

/* MakeCredential's extensions: credProtect, hmac-secret (in canonical
 * order: same length, "c" < "h"). */
static void
put_mc_ext(struct cbor_wr *w, const struct reg_req *req)
{
	cbor_put_map(
	    w, (size_t)(req->cred_protect > 0) + (size_t)req->hmac_secret);
	if (req->cred_protect > 0) {
		cbor_put_str(w, "credProtect");
		cbor_put_uint(w, (uint64_t)req->cred_protect);
	}
	if (req->hmac_secret) {
		cbor_put_str(w, "hmac-secret");
		cbor_put_bool(w, true);
	}
}

static void
put_exclude(struct cbor_wr *w, const struct reg_req *req)
{
	size_t i, n = 0;

	for (i = 0; i < req->nexclude; i++)
		if (req->exclude[i].kh_len > 0)
			n++;
	cbor_put_array(w, n);
	for (i = 0; i < req->nexclude; i++)
		if (req->exclude[i].kh_len > 0)
			put_descriptor(
			    w, req->exclude[i].kh, req->exclude[i].kh_len);
}

int
ctap2_build_mc(const struct ctap2_mc *mc, uint8_t *buf, size_t *len)
{
	const struct reg_req *req = mc->req;
	bool excl = req->nexclude > 0, opts = mc->rk >= 0 || mc->uv >= 0;
	bool ext = req->cred_protect > 0 || req->hmac_secret;
	struct cbor_wr w;

	if (req->user.id == NULL || req->user.name == NULL ||
	    req->user.display_name == NULL ||
	    req->cred_protect > CTAP2_CRED_PROTECT_MAX || req->cred_protect < 0)
		return ERR_INVAL;
	cbor_wr_init(&w, buf + 1, CTAP2_MSG_MAX - 1);
	cbor_put_map(&w,
	    4 + (size_t)excl + (size_t)ext + (size_t)opts +
		(mc->pin_auth != NULL ? 2 : 0));
	cbor_put_uint(&w, 1);
	cbor_put_bytes(&w, req->cdh, PROTO_CDH_LEN);
	cbor_put_uint(&w, 2);
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "id");
	cbor_put_str(&w, req->rp_id);
	cbor_put_str(&w, "name");
	cbor_put_str(&w, mc->rp_name != NULL ? mc->rp_name : req->rp_id);
	cbor_put_uint(&w, 3);
	put_user(&w, &req->user);
	cbor_put_uint(&w, 4);
	cbor_put_array(&w, 1);
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "alg");
	cbor_put_int(&w, req->type);
	cbor_put_str(&w, "type");
	cbor_put_str(&w, "public-key");
	if (excl) {
		cbor_put_uint(&w, 5);
		put_exclude(&w, req);
	}
	if (ext) {
		cbor_put_uint(&w, 6);
		put_mc_ext(&w, req);
	}
	if (opts) {
		cbor_put_uint(&w, 7);
		put_options(&w, mc->rk, -1, mc->uv);
	}
	if (mc->pin_auth != NULL) {
		cbor_put_uint(&w, 8);
		cbor_put_bytes(&w, mc->pin_auth, mc->pin_auth_len);
		cbor_put_uint(&w, 9);
		cbor_put_uint(&w, (uint64_t)mc->pin_proto);
	}
	return finish(&w, CTAP2_MAKE_CREDENTIAL, buf, len);
}

int
ctap2_build_cp(const struct ctap2_cp *cp, uint8_t *buf, size_t *len)
{
	bool ka = cp->ka_x != NULL, hash = cp->pin_hash_enc != NULL;
	bool perms = cp->perms != 0, rp = cp->rp_id != NULL;
	struct cbor_wr w;

	cbor_wr_init(&w, buf + 1, CTAP2_MSG_MAX - 1);
	cbor_put_map(
	    &w, 2 + (size_t)ka + (size_t)hash + (size_t)perms + (size_t)rp);
	cbor_put_uint(&w, 1);
	cbor_put_uint(&w, (uint64_t)cp->proto);
	cbor_put_uint(&w, 2);
	cbor_put_uint(&w, (uint64_t)cp->sub);
	if (ka) {
		cbor_put_uint(&w, 3);
		cose_ka_write(&w, cp->ka_x, cp->ka_y);
	}
	if (hash) {
		cbor_put_uint(&w, 6);
		cbor_put_bytes(&w, cp->pin_hash_enc, cp->pin_hash_enc_len);
	}
	if (perms) {
		cbor_put_uint(&w, 9);
		cbor_put_uint(&w, cp->perms);
	}
	if (rp) {
		cbor_put_uint(&w, 10);
		cbor_put_str(&w, cp->rp_id);
	}
	return finish(&w, CTAP2_CLIENT_PIN, buf, len);
}

/* Open a reply map after checking the whole reply. */
static int
reply_map(const uint8_t *p, size_t len, struct cbor_rd *r, size_t *n)
{
	if (cbor_check(p, len) != ERR_OK)
		return ERR_PROTO;
	cbor_rd_init(r, p, len);
	return cbor_get_map(r, n) == ERR_OK ? ERR_OK : ERR_PROTO;
}

static int
cp_field(struct cbor_rd *r, uint64_t key, struct ctap2_cp_reply *out)
{
	uint64_t v;

	switch (key) {
	case 1:
		if (cose_ka_read(r, out->ka_x, out->ka_y) != ERR_OK)
			return ERR_PROTO;
		out->has_ka = true;
		return ERR_OK;
	case 2:
		return cbor_get_bytes(
			   r, &out->token_enc, &out->token_enc_len) == ERR_OK
		    ? ERR_OK
		    : ERR_PROTO;
	case 3:
	case 5:
		if (cbor_get_uint(r, &v) != ERR_OK || v > 255)
			return ERR_PROTO;
		if (key == 3)
			out->pin_retries = (int)v;
		else
			out->uv_retries = (int)v;
		return ERR_OK;
	default:
		return cbor_skip(r) == ERR_OK ? ERR_OK : ERR_PROTO;
	}
}

int
ctap2_parse_cp(const uint8_t *p, size_t len, struct ctap2_cp_reply *out)
{
	struct cbor_rd r;
	uint64_t key;
	size_t n, i;
	int rc;

	memset(out, 0, sizeof(*out));
	out->pin_retries = out->uv_retries = -1;
	if ((rc = reply_map(p, len, &r, &n)) != ERR_OK)
		return rc;
	for (i = 0; i < n; i++) {
		if (cbor_get_uint(&r, &key) != ERR_OK)
			return ERR_PROTO;
		if ((rc = cp_field(&r, key, out)) != ERR_OK)
			return rc;
	}
	return ERR_OK;
}

/* {"id": bytes, "type": text}: the id (other keys skipped). */
static int
read_descriptor(struct cbor_rd *r, const uint8_t **id, size_t *len)
{
	size_t n, i;

	*id = NULL;
	if (cbor_get_map(r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_take_text_key(r, "id")) {
			if (cbor_get_bytes(r, id, len) != ERR_OK)
				return ERR_PROTO;
		} else if (cbor_skip(r) != ERR_OK || cbor_skip(r) != ERR_OK) {
			return ERR_PROTO;
		}
	}
	return *id != NULL ? ERR_OK : ERR_PROTO;
}

static int
ga_field(struct cbor_rd *r, uint64_t key, struct ctap2_ga_reply *out)
{
	uint64_t v;

	switch (key) {
	case 1:
		return read_descriptor(r, &out->cred_id, &out->cred_id_len);
	case 2:
		return cbor_get_bytes(r, &out->authdata, &out->authdata_len) ==
			ERR_OK
		    ? ERR_OK
		    : ERR_PROTO;
	case 3:
		return cbor_get_bytes(r, &out->sig, &out->sig_len) == ERR_OK
		    ? ERR_OK
		    : ERR_PROTO;
	case 4:
		return read_descriptor(r, &out->user_id, &out->user_id_len);
	case 5:
		if (cbor_get_uint(r, &v) != ERR_OK || v < 1 || v > CTAP2_RK_MAX)
			return ERR_PROTO;
		out->ncreds = (size_t)v;
		return ERR_OK;
	default:
		return cbor_skip(r) == ERR_OK ? ERR_OK : ERR_PROTO;
	}
}

int
ctap2_parse_ga(const uint8_t *p, size_t len, struct ctap2_ga_reply *out)
{
	struct cbor_rd r;
	uint64_t key;
	size_t n, i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = reply_map(p, len, &r, &n)) != ERR_OK)
		return rc;
	for (i = 0; i < n; i++) {
		if (cbor_get_uint(&r, &key) != ERR_OK)
			return ERR_PROTO;
		if ((rc = ga_field(&r, key, out)) != ERR_OK)
			return rc;
	}
	if (out->authdata == NULL || out->sig == NULL || out->sig_len == 0)
		return ERR_PROTO;
	return ERR_OK;
}

int
ctap2_parse_mc(const uint8_t *p, size_t len, struct ctap2_mc_reply *out)
{
	struct cbor_rd r;
	uint64_t key;
	size_t n, i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = reply_map(p, len, &r, &n)) != ERR_OK)
		return rc;
	for (i = 0; i < n; i++) {
		if (cbor_get_uint(&r, &key) != ERR_OK)
			return ERR_PROTO;
		if (key == 1)
			rc = cbor_get_text(&r, &out->fmt, &out->fmt_len);
		else if (key == 2)
			rc = cbor_get_bytes(
			    &r, &out->authdata, &out->authdata_len);
		else if (key == 3)
			rc = cbor_get_raw(&r, &out->attstmt, &out->attstmt_len);
		else
			rc = cbor_skip(&r);
		if (rc != ERR_OK)
			return ERR_PROTO;
	}
	if (out->fmt == NULL || out->authdata == NULL || out->attstmt == NULL)
		return ERR_PROTO;
	return ERR_OK;
}

int
ctap2_ext_cred_protect(const uint8_t *ext, size_t len, int *level)
{
	struct cbor_rd r;
	uint64_t v;
	size_t n, i;

	*level = 0;
	if (ext == NULL)
		return ERR_OK;
	cbor_rd_init(&r, ext, len);
	if (cbor_get_map(&r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_take_text_key(&r, "credProtect")) {
			if (cbor_get_uint(&r, &v) != ERR_OK || v < 1 ||
			    v > CTAP2_CRED_PROTECT_MAX)
				return ERR_PROTO;
			*level = (int)v;
		} else if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK) {
			return ERR_PROTO;
		}
	}
	return ERR_OK;
}

int
ctap2_ext_hmac_secret(
    const uint8_t *ext, size_t len, const uint8_t **p, size_t *n, bool *on)
{
	struct cbor_rd r;
	enum cbor_type t;
	size_t cnt, i;

	*p = NULL;
	*n = 0;
	*on = false;
	if (ext == NULL)
		return ERR_OK;
	cbor_rd_init(&r, ext, len);
	if (cbor_get_map(&r, &cnt) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < cnt; i++) {
		if (!cbor_take_text_key(&r, "hmac-secret")) {
			if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK)
				return ERR_PROTO;
			continue;
		}
		if (cbor_peek(&r, &t) != ERR_OK)
			return ERR_PROTO;
		if (t == CBOR_BYTES) {
			if (cbor_get_bytes(&r, p, n) != ERR_OK)
				return ERR_PROTO;
		} else if (cbor_get_bool(&r, on) != ERR_OK) {
			return ERR_PROTO;
		}
	}
	return ERR_OK;
}
