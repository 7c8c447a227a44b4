/* SPDX-License-Identifier: BSD-2-Clause */
/* The SSHSIG challenge and the check of a FIDO key's signature over it
 * (sshsig.h). Its own file: the one place that decides what an agent's
 * signature must say before sshauth_run calls it a success. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sshsig.h"
#include "wire.h"
#include "base/cred.h"
#include "base/err.h"
#include "base/util.h"
#include "crypto/crypto.h"

#define SSHSIG_NAME_MAX 1024 /* user, service or host name */
#define SSHSIG_CHAL_MAX 4096
#define ED25519_SIG_LEN 64
#define P256_SCALAR_LEN 32
#define DER_SIG_MAX (2 + 2 * (2 + P256_SCALAR_LEN + 1))

void
sshsig_chal_clear(struct sshsig_chal *c)
{
	if (c == NULL)
		return;
	util_freezero(c->msg, c->msg_len);
	util_freezero(c->data, c->data_len);
	memset(c, 0, sizeof(*c));
}

int
sshsig_data(
    const char *ns, const uint8_t *msg, size_t msg_len, struct sshsig_chal *c)
{
	uint8_t h[CRYPTO_SHA512_LEN];
	struct wire w;
	int r;

	if ((r = crypto_sha512(msg, msg_len, h)) != ERR_OK)
		return r;
	wire_init(&w, SSHSIG_CHAL_MAX);
	wire_put_raw(&w, SSHSIG_MAGIC, strlen(SSHSIG_MAGIC));
	wire_put_cstring(&w, ns);
	wire_put_cstring(&w, "");
	wire_put_cstring(&w, SSHAUTH_HASHALG);
	wire_put_string(&w, h, sizeof(h));
	util_wipe(h, sizeof(h));
	if (w.err != ERR_OK) {
		r = w.err;
		wire_clear(&w);
		return r;
	}
	c->data = w.p;
	c->data_len = w.len;
	return ERR_OK;
}

static int
name_ok(const char *s)
{
	return s != NULL && strnlen(s, SSHSIG_NAME_MAX + 1) <= SSHSIG_NAME_MAX;
}

int
sshsig_chal_new(const char *user, const char *service, const char *host,
    uint64_t t, struct sshsig_chal *c)
{
	uint8_t nonce[SSHSIG_NONCE_LEN];
	struct wire w;
	int r;

	if (c == NULL)
		return ERR_INVAL;
	memset(c, 0, sizeof(*c));
	if (!name_ok(user) || !name_ok(service) || !name_ok(host))
		return ERR_INVAL;
	if ((r = util_random(nonce, sizeof(nonce))) != ERR_OK)
		return r;
	wire_init(&w, SSHSIG_CHAL_MAX);
	wire_put_cstring(&w, SSHSIG_MSG_TAG);
	wire_put_string(&w, nonce, sizeof(nonce));
	wire_put_cstring(&w, user);
	wire_put_cstring(&w, service);
	wire_put_cstring(&w, host);
	wire_put_u64(&w, t);
	util_wipe(nonce, sizeof(nonce));
	if ((r = w.err) != ERR_OK) {
		wire_clear(&w);
		return r;
	}
	c->msg = w.p;
	c->msg_len = w.len;
	if ((r = sshsig_data(SSHAUTH_NAMESPACE, c->msg, c->msg_len, c)) !=
	    ERR_OK)
		sshsig_chal_clear(c);
	return r;
}

/* One mpint of an ECDSA signature as a DER INTEGER: positive, minimal,
 * at most 32 bytes of magnitude (the same two's-complement bytes). */
static int
put_der_int(struct rbuf *rb, struct wire *w)
{
	const uint8_t *p;
	size_t n;

	if (wire_get_string(rb, &p, &n) != ERR_OK || n == 0 ||
	    n > P256_SCALAR_LEN + 1 || (p[0] & 0x80) != 0 ||
	    (n > 1 && p[0] == 0 && (p[1] & 0x80) == 0) ||
	    (n == P256_SCALAR_LEN + 1 && p[0] != 0) || (n == 1 && p[0] == 0))
		return ERR_AGENT_REPLY;
	wire_put_u8(w, 0x02);
	wire_put_u8(w, (uint8_t)n);
	wire_put_raw(w, p, n);
	return ERR_OK;
}

/* The ECDSA signature (mpint r, mpint s) as DER for crypto_verify. */
static int
ecdsa_der(const uint8_t *sig, size_t len, uint8_t *der, size_t *der_len)
{
	struct wire w;
	struct rbuf rb;
	int r;

	rbuf_init(&rb, sig, len);
	wire_init(&w, DER_SIG_MAX);
	wire_put_u8(&w, 0x30);
	wire_put_u8(&w, 0); /* the length, below */
	if ((r = put_der_int(&rb, &w)) != ERR_OK ||
	    (r = put_der_int(&rb, &w)) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK || w.err != ERR_OK) {
		wire_clear(&w);
		return r != ERR_OK ? r : ERR_AGENT_REPLY;
	}
	w.p[1] = (uint8_t)(w.len - 2);
	memcpy(der, w.p, w.len);
	*der_len = w.len;
	wire_clear(&w);
	return ERR_OK;
}

/* SHA256(application) || flags || counter || SHA256(data). */
static int
signed_bytes(const struct sshpub *k, const uint8_t *data, size_t data_len,
    uint8_t flags, uint32_t counter, uint8_t out[69])
{
	int r;

	if ((r = crypto_sha256(k->application, strlen(k->application), out)) !=
	    ERR_OK)
		return r;
	out[32] = flags;
	out[33] = (uint8_t)(counter >> 24);
	out[34] = (uint8_t)(counter >> 16);
	out[35] = (uint8_t)(counter >> 8);
	out[36] = (uint8_t)counter;
	return crypto_sha256(data, data_len, out + 37);
}

/* crypto_verify of the inner signature, by key type. */
static int
check(const struct sshpub *k, const uint8_t *inner, size_t inner_len,
    const uint8_t msg[69])
{
	uint8_t der[DER_SIG_MAX];
	size_t der_len = 0;
	int r;

	if (k->type == SSHPUB_SK_ED25519) {
		if (inner_len != ED25519_SIG_LEN)
			return ERR_AGENT_REPLY;
		return crypto_verify(
		    COSE_EDDSA, k->pk, k->pk_len, msg, 69, inner, inner_len);
	}
	if ((r = ecdsa_der(inner, inner_len, der, &der_len)) != ERR_OK)
		return r;
	return crypto_verify(
	    COSE_ES256, k->pk, k->pk_len, msg, 69, der, der_len);
}

int
sshsig_verify(const struct sshpub *k, const uint8_t *data, size_t data_len,
    const uint8_t *sig, size_t sig_len, uint8_t *flags, uint32_t *counter)
{
	const char *name;
	const uint8_t *inner;
	size_t inner_len;
	struct rbuf rb;
	uint8_t f, msg[69];
	uint32_t ctr;
	int r;

	if (k == NULL || k->application == NULL || data == NULL ||
	    (sig == NULL && sig_len > 0) || flags == NULL || counter == NULL)
		return ERR_INVAL;
	name = k->type == SSHPUB_SK_ECDSA ? SSHPUB_ECDSA_NAME
					  : SSHPUB_ED25519_NAME;
	rbuf_init(&rb, sig, sig_len);
	if (wire_get_string_is(&rb, name) != ERR_OK ||
	    wire_get_string(&rb, &inner, &inner_len) != ERR_OK ||
	    rbuf_get_u8(&rb, &f) != ERR_OK ||
	    rbuf_get_u32be(&rb, &ctr) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_AGENT_REPLY;
	if ((r = signed_bytes(k, data, data_len, f, ctr, msg)) == ERR_OK &&
	    (r = check(k, inner, inner_len, msg)) == ERR_OK) {
		*flags = f;
		*counter = ctr;
	}
	util_wipe(msg, sizeof(msg));
	return r;
}

int
sshsig_flags_ok(const struct sshpub *k, bool need_uv, uint8_t flags)
{
	if (!k->no_touch_required && (flags & SSHSK_FLAG_UP) == 0)
		return ERR_NO_PRESENCE;
	if ((need_uv || k->verify_required) && (flags & SSHSK_FLAG_UV) == 0)
		return ERR_NO_UV;
	return ERR_OK;
}
