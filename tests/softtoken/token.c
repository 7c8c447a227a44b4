/* SPDX-License-Identifier: BSD-2-Clause */
/* Software U2F authenticator: APDU processing and keys (the state file
 * is tokstate.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"
#include "token.h"
#include "token_int.h"

/* A parsed APDU: pointers into the caller's buffer. */
struct apdu {
	uint8_t ins;
	uint8_t p1;
	const uint8_t *data;
	size_t len;
};

static const char *const fault_names[] = {"wrong-cid", "short-init",
    "bcnt-too-large", "seq-out-of-order", "missing-continuation",
    "endless-keepalive", "error-frames", "burst", "vanish", "garbage-reply",
    "bad-signature", "wrong-signature", "presence-flag-clear",
    "counter-backwards", "cbor-garbage", "cbor-noncanonical",
    "cbor-wrong-status", "uv-lie", "uv-skip", "cbor-oversized",
    "endless-processing", "getinfo-garbage", "card-stall", "card-bad-sw",
    "card-truncated", "card-remove", "card-wrong-select", "card-endless-61",
    "attest-bad-ou", NULL};

const char *const *
token_fault_names(void)
{
	return fault_names;
}

int
token_fault_parse(const char *name, unsigned *bit)
{
	size_t i;

	for (i = 0; fault_names[i] != NULL; i++) {
		if (strcmp(name, fault_names[i]) == 0) {
			*bit = 1u << i;
			return ERR_OK;
		}
	}
	return ERR_INVAL;
}

unsigned
token_faults(const struct token *t)
{
	return t->faults;
}

uint32_t
token_counter(const struct token *t)
{
	return t->counter;
}

const uint8_t *
token_attest_cert(const struct token *t, size_t *len)
{
	*len = t->cert_len;
	return t->cert;
}

void
token_logf(struct token *t, const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	if (t->log == NULL)
		return;
	if (t->log_time && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		fprintf(
		    t->log, "%lld.%09ld ", (long long)ts.tv_sec, ts.tv_nsec);
	va_start(ap, fmt);
	vfprintf(t->log, fmt, ap);
	va_end(ap);
	fflush(t->log);
}

void
token_log_line(struct token *t, const char *line)
{
	token_logf(t, "%s\n", line);
}

static void
log_apdu(struct token *t, const struct apdu *a, unsigned sw)
{
	token_logf(t, "ins=%02x p1=%02x sw=%04x\n", a->ins, a->p1, sw);
}

/* ---- keys and certificate ---- */

static int
make_cert(EVP_PKEY *pkey, bool bad_ou, uint8_t **der, size_t *der_len)
{
	X509 *x = NULL;
	X509_NAME *name = NULL;
	unsigned char *buf = NULL;
	uint64_t serial;
	int n, r = ERR_CRYPTO;

	if (util_random(&serial, sizeof(serial)) != ERR_OK)
		return ERR_RANDOM;
	if ((x = X509_new()) == NULL || (name = X509_NAME_new()) == NULL)
		goto fail;
	if (X509_set_version(x, X509_VERSION_3) != 1 ||
	    ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), serial >> 1) !=
		1 ||
	    X509_gmtime_adj(X509_getm_notBefore(x), -86400) == NULL ||
	    X509_gmtime_adj(X509_getm_notAfter(x), 20L * 365 * 86400) == NULL ||
	    ctap2_cert_name(name, bad_ou) != ERR_OK ||
	    X509_set_subject_name(x, name) != 1 ||
	    X509_set_issuer_name(x, name) != 1 ||
	    X509_set_pubkey(x, pkey) != 1 || ctap2_cert_exts(x) != ERR_OK ||
	    X509_sign(x, pkey, EVP_sha256()) == 0)
		goto fail;
	if ((n = i2d_X509(x, &buf)) <= 0 || n > CERT_MAX)
		goto fail;
	*der = buf;
	*der_len = (size_t)n;
	buf = NULL;
	r = ERR_OK;
fail:
	OPENSSL_free(buf);
	X509_NAME_free(name);
	X509_free(x);
	return r;
}

static int
fresh_keys(struct token *t)
{
	int r;

	if ((r = util_random(t->master, sizeof(t->master))) != ERR_OK)
		return r;
	if ((t->att = EVP_EC_gen("P-256")) == NULL)
		return ERR_CRYPTO;
	t->counter = 0;
	return make_cert(
	    t->att, (t->faults & FAULT_ATTEST_OU) != 0, &t->cert, &t->cert_len);
}

int
token_ec_from_priv(const uint8_t priv[32], EVP_PKEY **out)
{
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BIGNUM *bn = NULL;
	int r = ERR_CRYPTO;

	*out = NULL;
	if ((bn = BN_secure_new()) == NULL || BN_bin2bn(priv, 32, bn) == NULL ||
	    (bld = OSSL_PARAM_BLD_new()) == NULL ||
	    OSSL_PARAM_BLD_push_utf8_string(
		bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1 ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, bn) != 1 ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_KEYPAIR, params) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_clear_free(bn);
	return r;
}

int
token_ec_sign(EVP_PKEY *pkey, const uint8_t *msg, size_t len, uint8_t *sig,
    size_t *siglen)
{
	EVP_MD_CTX *ctx = NULL;
	int r = ERR_CRYPTO;

	*siglen = SIG_MAX;
	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, pkey) != 1 ||
	    EVP_DigestSign(ctx, sig, siglen, msg, len) != 1)
		goto fail;
	r = ERR_OK;
fail:
	EVP_MD_CTX_free(ctx);
	return r;
}

/* ---- key handles: nonce || AES-256-GCM(priv || app) || tag ---- */

static int
kh_wrap(const struct token *t, const uint8_t priv[32], const uint8_t *app,
    uint8_t kh[TOKEN_KH_LEN])
{
	EVP_CIPHER_CTX *ctx = NULL;
	uint8_t pt[64];
	int n = 0, r = ERR_CRYPTO;

	memcpy(pt, priv, 32);
	memcpy(pt + 32, app, PARAM_LEN);
	if ((r = util_random(kh, NONCE_LEN)) != ERR_OK)
		goto fail;
	r = ERR_CRYPTO;
	if ((ctx = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, t->master, kh) !=
		1 ||
	    EVP_EncryptUpdate(ctx, kh + NONCE_LEN, &n, pt, 64) != 1 ||
	    n != 64 || EVP_EncryptFinal_ex(ctx, kh + NONCE_LEN + 64, &n) != 1 ||
	    EVP_CIPHER_CTX_ctrl(
		ctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, kh + NONCE_LEN + 64) != 1)
		goto fail;
	r = ERR_OK;
fail:
	util_wipe(pt, sizeof(pt));
	EVP_CIPHER_CTX_free(ctx);
	return r;
}

/* ERR_WRONG_KH unless kh was made by this token for app. */
static int
kh_unwrap(const struct token *t, const uint8_t *kh, size_t len,
    const uint8_t *app, uint8_t priv[32])
{
	EVP_CIPHER_CTX *ctx = NULL;
	uint8_t pt[64], tag[TAG_LEN];
	int n = 0, r = ERR_WRONG_KH;

	if (len != TOKEN_KH_LEN)
		return ERR_WRONG_KH;
	memcpy(tag, kh + NONCE_LEN + 64, TAG_LEN);
	if ((ctx = EVP_CIPHER_CTX_new()) == NULL ||
	    EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, t->master, kh) !=
		1 ||
	    EVP_DecryptUpdate(ctx, pt, &n, kh + NONCE_LEN, 64) != 1 ||
	    n != 64 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, TAG_LEN, tag) != 1 ||
	    EVP_DecryptFinal_ex(ctx, pt + 64, &n) != 1)
		goto fail;
	if (CRYPTO_memcmp(pt + 32, app, PARAM_LEN) != 0)
		goto fail;
	memcpy(priv, pt, 32);
	r = ERR_OK;
fail:
	util_wipe(pt, sizeof(pt));
	EVP_CIPHER_CTX_free(ctx);
	return r;
}

/* ---- lifecycle ---- */

int
token_new(struct token **out, const struct token_config *cfg)
{
	struct token *t = NULL;
	int r = ERR_NOMEM;

	*out = NULL;
	if ((t = calloc(1, sizeof(*t))) == NULL)
		goto fail;
	t->presence = cfg->presence;
	t->after_ms = cfg->after_ms;
	t->probe_sign = cfg->probe_sign;
	t->faults = cfg->faults;
	t->log = cfg->log;
	t->log_time = cfg->log_time;
	t->touch_start = -1;
	if (cfg->state_path != NULL &&
	    (t->state_path = strdup(cfg->state_path)) == NULL)
		goto fail;
	if ((r = ctap2_new(&t->c2, cfg)) != ERR_OK)
		goto fail;
	r = t->state_path != NULL ? token_load_state(t) : ERR_NOT_FOUND;
	if (r == ERR_NOT_FOUND) {
		if ((r = fresh_keys(t)) != ERR_OK)
			goto fail;
	} else if (r != ERR_OK)
		goto fail;
	if ((r = token_attest_load(t, cfg)) != ERR_OK)
		goto fail;
	/* --pin sets the PIN unless the state already has one */
	if (cfg->pin != NULL && !t->c2->pin_set &&
	    (r = ctap2_pin_set_initial(t->c2, cfg->pin)) != ERR_OK)
		goto fail;
	if ((r = token_save_state(t)) != ERR_OK)
		goto fail;
	*out = t;
	t = NULL;
	r = ERR_OK;
fail:
	token_free(&t);
	return r;
}

void
token_free(struct token **tp)
{
	struct token *t = *tp;

	if (t == NULL)
		return;
	EVP_PKEY_free(t->att);
	token_attest_clear(t);
	ctap2_free(&t->c2);
	free(t->cert);
	free(t->state_path);
	util_wipe(t->master, sizeof(t->master));
	free(t);
	*tp = NULL;
}

/* ---- APDU processing ---- */

static int
presence_policy(struct token *t, int64_t now)
{
	switch (t->presence) {
	case TOKEN_PRESENCE_NOW:
		return 1;
	case TOKEN_PRESENCE_AFTER:
		if (t->touch_start < 0)
			t->touch_start = now;
		if (now - t->touch_start < t->after_ms)
			return 0;
		t->touch_start = -1;
		return 1;
	default:
		return 0;
	}
}

/* A granted request consumes a touch: the log says "touch". */
int
token_presence_granted(struct token *t, int64_t now)
{
	if (!presence_policy(t, now))
		return 0;
	token_log_line(t, "touch");
	return 1;
}

/* SW 6985, ERR_PENDING, or 0 if presence is granted. */
static int
need_presence(struct token *t, int64_t now, enum token_mode mode)
{
	if (mode == TOKEN_CANCEL)
		return TOKEN_SW_PRESENCE;
	if (token_presence_granted(t, now))
		return 0;
	return mode == TOKEN_HOLD ? ERR_PENDING : TOKEN_SW_PRESENCE;
}

/* 0 on success, else the SW to answer. Accepts extended and short form. */
static int
parse_apdu(const uint8_t *p, size_t len, struct apdu *a)
{
	size_t lc, hdr, extra_max;

	memset(a, 0, sizeof(*a));
	a->ins = len > 1 ? p[1] : 0;
	a->p1 = len > 2 ? p[2] : 0;
	if (len < 4)
		return TOKEN_SW_WRONG_LENGTH;
	if (p[0] != 0)
		return TOKEN_SW_CLA;
	if (len == 4 || len == 5 || len == 7)
		return 0; /* no data, maybe Le */
	if (p[4] == 0) {
		lc = (size_t)p[5] << 8 | p[6];
		hdr = 7;
		extra_max = 2;
	} else {
		lc = p[4];
		hdr = 5;
		extra_max = 1;
	}
	if (len < hdr + lc ||
	    (len - hdr - lc != 0 && len - hdr - lc != extra_max))
		return TOKEN_SW_WRONG_LENGTH;
	a->data = p + hdr;
	a->len = lc;
	return 0;
}

/* Sign msg (which it may change), applying the signature faults. */
static int
sign_faulty(const struct token *t, EVP_PKEY *key, uint8_t *msg, size_t n,
    uint8_t *sig, size_t *siglen)
{
	int r;

	if (t->faults & FAULT_WRONG_SIG)
		msg[1] ^= 0x01; /* a valid signature over other data */
	if ((r = token_ec_sign(key, msg, n, sig, siglen)) != ERR_OK)
		return r;
	if ((t->faults & FAULT_BAD_SIG) && *siglen > 8)
		*siglen -= 5;
	return ERR_OK;
}

static int
new_user_key(EVP_PKEY **key, uint8_t priv[32], uint8_t point[POINT_LEN])
{
	BIGNUM *bn = NULL;
	size_t plen = 0;
	int r = ERR_CRYPTO;

	if ((*key = EVP_EC_gen("P-256")) == NULL ||
	    EVP_PKEY_get_bn_param(*key, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1 ||
	    BN_bn2binpad(bn, priv, 32) != 32 ||
	    EVP_PKEY_get_octet_string_param(
		*key, OSSL_PKEY_PARAM_PUB_KEY, point, POINT_LEN, &plen) != 1 ||
	    plen != POINT_LEN || point[0] != 0x04)
		goto fail;
	r = ERR_OK;
fail:
	BN_clear_free(bn);
	return r;
}

/* REGISTER: challenge(32) || app(32). */
static int
do_register(struct token *t, int64_t now, enum token_mode mode,
    const struct apdu *a, uint8_t *rep, size_t *n)
{
	EVP_PKEY *key = NULL;
	uint8_t priv[32], point[POINT_LEN], kh[TOKEN_KH_LEN];
	uint8_t msg[1 + 2 * PARAM_LEN + TOKEN_KH_LEN + POINT_LEN];
	size_t siglen = 0;
	int r;

	if (a->len != 2 * PARAM_LEN)
		return TOKEN_SW_WRONG_LENGTH;
	if ((r = need_presence(t, now, mode)) != 0)
		return r;
	r = SW_INTERNAL;
	if (new_user_key(&key, priv, point) != ERR_OK ||
	    kh_wrap(t, priv, a->data + PARAM_LEN, kh) != ERR_OK)
		goto fail;
	msg[0] = 0x00;
	memcpy(msg + 1, a->data + PARAM_LEN, PARAM_LEN);
	memcpy(msg + 1 + PARAM_LEN, a->data, PARAM_LEN);
	memcpy(msg + 1 + 2 * PARAM_LEN, kh, TOKEN_KH_LEN);
	memcpy(msg + 1 + 2 * PARAM_LEN + TOKEN_KH_LEN, point, POINT_LEN);
	rep[0] = 0x05;
	memcpy(rep + 1, point, POINT_LEN);
	rep[1 + POINT_LEN] = TOKEN_KH_LEN;
	memcpy(rep + 2 + POINT_LEN, kh, TOKEN_KH_LEN);
	*n = 2 + POINT_LEN + TOKEN_KH_LEN;
	memcpy(rep + *n, t->cert, t->cert_len);
	*n += t->cert_len;
	if (sign_faulty(t, t->att, msg, sizeof(msg), rep + *n, &siglen) !=
	    ERR_OK)
		goto fail;
	*n += siglen;
	r = TOKEN_SW_OK;
fail:
	if (r != TOKEN_SW_OK)
		*n = 0;
	util_wipe(priv, sizeof(priv));
	EVP_PKEY_free(key);
	return r;
}

/* Flags, counter and signature of an authentication reply. */
static int
auth_sign(struct token *t, const struct apdu *a, EVP_PKEY *key, uint8_t flags,
    uint8_t *rep, size_t *n)
{
	uint8_t msg[PARAM_LEN + 1 + 4 + PARAM_LEN];
	uint32_t ctr;
	size_t siglen = 0;

	t->counter++;
	if (token_save_state(t) != ERR_OK)
		return SW_INTERNAL;
	ctr = t->counter;
	if (t->faults & FAULT_COUNTER_BACK)
		ctr = 1000000u - t->counter;
	if (t->faults & FAULT_NO_PRESENCE_FLAG)
		flags = 0;
	rep[0] = flags;
	rep[1] = (uint8_t)(ctr >> 24);
	rep[2] = (uint8_t)(ctr >> 16);
	rep[3] = (uint8_t)(ctr >> 8);
	rep[4] = (uint8_t)ctr;
	memcpy(msg, a->data + PARAM_LEN, PARAM_LEN);
	memcpy(msg + PARAM_LEN, rep, 5);
	memcpy(msg + PARAM_LEN + 5, a->data, PARAM_LEN);
	if (sign_faulty(t, key, msg, sizeof(msg), rep + 5, &siglen) != ERR_OK)
		return SW_INTERNAL;
	*n = 5 + siglen;
	return TOKEN_SW_OK;
}

/* AUTHENTICATE: challenge(32) || app(32) || L || key handle(L). */
static int
do_authenticate(struct token *t, int64_t now, enum token_mode mode,
    const struct apdu *a, uint8_t *rep, size_t *n)
{
	EVP_PKEY *key = NULL;
	uint8_t priv[32];
	uint8_t flags = 0x00;
	int r;

	if (a->len < 2 * PARAM_LEN + 1 ||
	    a->len != 2 * PARAM_LEN + 1 + (size_t)a->data[2 * PARAM_LEN])
		return TOKEN_SW_WRONG_LENGTH;
	if (a->p1 != 0x03 && a->p1 != 0x07 && a->p1 != 0x08)
		return TOKEN_SW_WRONG_P1P2;
	if (kh_unwrap(t, a->data + 2 * PARAM_LEN + 1, a->data[2 * PARAM_LEN],
		a->data + PARAM_LEN, priv) != ERR_OK)
		return TOKEN_SW_WRONG_DATA;
	if (a->p1 == 0x07 && !t->probe_sign) {
		r = TOKEN_SW_PRESENCE;
		goto fail;
	}
	if (a->p1 == 0x03) {
		if ((r = need_presence(t, now, mode)) != 0)
			goto fail;
		flags = 0x01;
	}
	r = SW_INTERNAL;
	if (token_ec_from_priv(priv, &key) != ERR_OK)
		goto fail;
	r = auth_sign(t, a, key, flags, rep, n);
fail:
	util_wipe(priv, sizeof(priv));
	EVP_PKEY_free(key);
	return r;
}

static int
dispatch(struct token *t, int64_t now, enum token_mode mode,
    const struct apdu *a, uint8_t *rep, size_t *n)
{
	switch (a->ins) {
	case 0x01:
		return do_register(t, now, mode, a, rep, n);
	case 0x02:
		return do_authenticate(t, now, mode, a, rep, n);
	case 0x03:
		if (a->len != 0)
			return TOKEN_SW_WRONG_LENGTH;
		memcpy(rep, "U2F_V2", 6);
		*n = 6;
		return TOKEN_SW_OK;
	default:
		return TOKEN_SW_INS;
	}
}

int
token_apdu(struct token *t, int64_t now_ms, enum token_mode mode,
    const uint8_t *apdu, size_t len, uint8_t *rep, size_t *rlen)
{
	struct apdu a;
	size_t n = 0;
	int sw;

	*rlen = 0;
	t->c2->next.active = 0; /* GetNextAssertion ends here too */
	if ((sw = parse_apdu(apdu, len, &a)) == 0)
		sw = dispatch(t, now_ms, mode, &a, rep, &n);
	if (sw == ERR_PENDING)
		return ERR_PENDING;
	if (sw != TOKEN_SW_OK)
		n = 0;
	if ((t->faults & FAULT_GARBAGE_REPLY) && sw == TOKEN_SW_OK &&
	    a.ins != 0x03 && util_random(rep, n) != ERR_OK)
		return ERR_RANDOM;
	rep[n] = (uint8_t)((unsigned)sw >> 8);
	rep[n + 1] = (uint8_t)sw;
	*rlen = n + 2;
	log_apdu(t, &a, (unsigned)sw);
	return ERR_OK;
}
