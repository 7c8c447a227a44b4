/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH security-key private key files (sshkey.h): the armour, the
 * openssh-key-v1 blob and the one sk-ecdsa or sk-ed25519 key in it, as a
 * credential. Its own file because it is the one source of credentials
 * in OpenSSH's format (sshformat), with its own framing and checks. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "base/bytereader.h"
#include "sshkey.h"
#include "ssh/wire.h"
#include "base/util.h"

/* Formats: OpenSSH PROTOCOL.key (container) and PROTOCOL.u2f (sk keys). */
#define SK_BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----"
#define SK_END "-----END OPENSSH PRIVATE KEY-----"
#define SK_MAGIC "openssh-key-v1" /* followed by a NUL byte */
#define SK_FILE_MAX 16384         /* far above any sk key file */
#define SK_BLOCK 8                /* block size of cipher "none" */
#define SK_ECDSA "sk-ecdsa-sha2-nistp256@openssh.com"
#define SK_ED25519 "sk-ssh-ed25519@openssh.com"
#define SK_CURVE "nistp256"
#define SK_APP "ssh:"
#define SK_POINT_LEN 65
#define SK_ED25519_LEN 32
#define SK_KH_MAX_ES256 255 /* U2F: one length byte */
#define SK_KH_MAX 1023      /* WebAuthn credential ID limit */
#define SK_FLAG_UP 0x01     /* SSH_SK_USER_PRESENCE_REQD */
#define SK_FLAG_UV 0x04     /* SSH_SK_USER_VERIFICATION_REQD */

/* The public part of a key, pointing into the decoded blob. */
struct sk_pub {
	int type;
	const uint8_t *pk;
	size_t pk_len;
	const uint8_t *app;
	size_t app_len;
};

/* Key type, key (curve name and point, or ed25519 key), application:
 * the fields shared by the public blob and the private key. */
static int
get_pub(struct rbuf *rb, struct sk_pub *k)
{
	const uint8_t *t;
	size_t tlen;

	if (wire_get_string(rb, &t, &tlen) != ERR_OK)
		return ERR_PARSE;
	if (wire_bytes_are(t, tlen, SK_ECDSA)) {
		k->type = COSE_ES256;
		if (wire_get_string_is(rb, SK_CURVE) != ERR_OK ||
		    wire_get_string(rb, &k->pk, &k->pk_len) != ERR_OK ||
		    k->pk_len != SK_POINT_LEN || k->pk[0] != 0x04)
			return ERR_PARSE;
	} else if (wire_bytes_are(t, tlen, SK_ED25519)) {
		k->type = COSE_EDDSA;
		if (wire_get_string(rb, &k->pk, &k->pk_len) != ERR_OK ||
		    k->pk_len != SK_ED25519_LEN ||
		    edpoint_check(k->pk) != ERR_OK)
			return ERR_PARSE;
	} else
		return ERR_PARSE;
	if (wire_get_string(rb, &k->app, &k->app_len) != ERR_OK ||
	    !wire_bytes_are(k->app, k->app_len, SK_APP))
		return ERR_PARSE;
	return ERR_OK;
}

static int
same_pub(const struct sk_pub *a, const struct sk_pub *b)
{
	return a->type == b->type && a->pk_len == b->pk_len &&
	    memcmp(a->pk, b->pk, a->pk_len) == 0 && a->app_len == b->app_len &&
	    memcmp(a->app, b->app, a->app_len) == 0;
}

static int
dup_bytes(const uint8_t *p, size_t len, uint8_t **out)
{
	if ((*out = malloc(len)) == NULL)
		return ERR_NOMEM;
	memcpy(*out, p, len);
	return ERR_OK;
}

/* Comment, then padding 1, 2, 3... up to the block size. */
static int
check_tail(struct rbuf *rb)
{
	const uint8_t *p;
	size_t len, i;
	uint8_t b;

	if (wire_get_string(rb, &p, &len) != ERR_OK ||
	    rbuf_left(rb) >= SK_BLOCK)
		return ERR_PARSE;
	for (i = 1; rbuf_left(rb) > 0; i++)
		if (rbuf_get_u8(rb, &b) != ERR_OK || b != i)
			return ERR_PARSE;
	return ERR_OK;
}

/* The private section: checkints, the key, comment, padding. */
static int
parse_priv(
    const uint8_t *p, size_t len, const struct sk_pub *pub, struct cred *out)
{
	struct rbuf rb;
	struct sk_pub k;
	struct cred c;
	const uint8_t *kh, *reserved;
	size_t kh_len, res_len;
	uint32_t check1, check2;
	uint8_t flags;
	int r;

	memset(&c, 0, sizeof(c));
	rbuf_init(&rb, p, len);
	if (len % SK_BLOCK != 0 || rbuf_get_u32be(&rb, &check1) != ERR_OK ||
	    rbuf_get_u32be(&rb, &check2) != ERR_OK || check1 != check2 ||
	    get_pub(&rb, &k) != ERR_OK || !same_pub(&k, pub) ||
	    rbuf_get_u8(&rb, &flags) != ERR_OK ||
	    wire_get_string(&rb, &kh, &kh_len) != ERR_OK ||
	    wire_get_string(&rb, &reserved, &res_len) != ERR_OK ||
	    check_tail(&rb) != ERR_OK)
		return ERR_PARSE;
	if (kh_len == 0 ||
	    kh_len > (k.type == COSE_ES256 ? SK_KH_MAX_ES256 : SK_KH_MAX))
		return ERR_PARSE;
	c.type = k.type;
	c.flags = ((flags & SK_FLAG_UP) ? CRED_PRESENCE : 0) |
	    ((flags & SK_FLAG_UV) ? CRED_VERIFICATION : 0);
	c.kh_len = kh_len;
	c.pk_len = k.pk_len;
	if ((r = dup_bytes(kh, kh_len, &c.kh)) != ERR_OK ||
	    (r = dup_bytes(k.pk, k.pk_len, &c.pk)) != ERR_OK) {
		cred_clear(&c);
		return r;
	}
	*out = c;
	return ERR_OK;
}

/* The binary container: magic, cipher, kdf, one public key, private. */
static int
parse_blob(const uint8_t *p, size_t len, struct cred *out)
{
	struct rbuf rb, pubrb;
	struct sk_pub pub;
	const uint8_t *kdfopt, *pubp, *priv;
	size_t kdfopt_len, pub_len, priv_len;
	uint32_t nkeys;
	int r;

	rbuf_init(&rb, p, len);
	if (rbuf_get_ref(&rb, &pubp, sizeof(SK_MAGIC)) != ERR_OK ||
	    memcmp(pubp, SK_MAGIC, sizeof(SK_MAGIC)) != 0 ||
	    wire_get_string_is(&rb, "none") != ERR_OK ||
	    wire_get_string_is(&rb, "none") != ERR_OK ||
	    wire_get_string(&rb, &kdfopt, &kdfopt_len) != ERR_OK ||
	    kdfopt_len != 0 || rbuf_get_u32be(&rb, &nkeys) != ERR_OK ||
	    nkeys != 1 || wire_get_string(&rb, &pubp, &pub_len) != ERR_OK ||
	    wire_get_string(&rb, &priv, &priv_len) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_PARSE;
	rbuf_init(&pubrb, pubp, pub_len);
	if (get_pub(&pubrb, &pub) != ERR_OK ||
	    rbuf_expect_end(&pubrb) != ERR_OK)
		return ERR_PARSE;
	if ((r = parse_priv(priv, priv_len, &pub, out)) != ERR_OK)
		return r;
	return ERR_OK;
}

/* Next line of [*p, end) without its "\n" or "\r\n"; advances *p. */
static void
next_line(const char **p, const char *end, const char **line, size_t *len)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));

	*line = *p;
	*len = (size_t)((nl != NULL ? nl : end) - *p);
	*p = nl != NULL ? nl + 1 : end;
	if (*len > 0 && (*line)[*len - 1] == '\r')
		(*len)--;
}

static int
line_is(const char *line, size_t len, const char *want)
{
	return len == strlen(want) && memcmp(line, want, len) == 0;
}

/* Strip the armour: BEGIN line, base64 lines, END line, then nothing but
 * empty lines. Returns the concatenated base64 text (NUL-terminated). */
static int
unarmor(const char *buf, size_t len, char **text, size_t *tlen)
{
	const char *p = buf, *end = buf + len, *line;
	char *t = NULL;
	size_t n, used = 0;
	int state = 0; /* 0 before BEGIN, 1 body, 2 after END */
	int bad = 0;

	if ((t = malloc(len + 1)) == NULL)
		return ERR_NOMEM;
	while (p < end && !bad) {
		next_line(&p, end, &line, &n);
		if (state == 0 && line_is(line, n, SK_BEGIN))
			state = 1;
		else if (state == 1 && line_is(line, n, SK_END))
			state = 2;
		else if (state == 1) {
			memcpy(t + used, line, n);
			used += n;
		} else if (state != 2 || n != 0)
			bad = 1;
	}
	if (bad || state != 2) {
		util_freezero(t, len + 1);
		return ERR_PARSE;
	}
	t[used] = '\0';
	*text = t;
	*tlen = used;
	return ERR_OK;
}

int
sshkey_parse(const char *buf, size_t len, struct cred *out)
{
	char *text = NULL;
	uint8_t *blob = NULL;
	size_t tlen = 0, blen = 0;
	int r;

	if (out == NULL || (buf == NULL && len > 0))
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	if (len == 0 || len > SK_FILE_MAX || memchr(buf, '\0', len) != NULL)
		return ERR_PARSE;
	if ((r = unarmor(buf, len, &text, &tlen)) != ERR_OK)
		goto fail;
	if ((r = b64_decode(text, tlen, &blob, &blen)) != ERR_OK) {
		if (r != ERR_NOMEM)
			r = ERR_PARSE;
		goto fail;
	}
	r = parse_blob(blob, blen, out);
fail:
	util_freezero(text, len + 1);
	util_freezero(blob, blen);
	return r;
}
