/* SPDX-License-Identifier: BSD-2-Clause */
/* Credentials for module tests: registered on a software token through
 * the real device code, written in the three mapping formats. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/authfile.h"
#include "base/b64.h"
#include "device/dev.h"
#include "base/err.h"
#include "modtest.h"
#include "base/util.h"

/* Deadlines, not waits: the token answers at once (--presence now), and
 * the test programs also run under valgrind on a loaded machine
 * (tests/analyze.sh), where 2 s and 5 s ran out; as MT_OK_TIMEOUT. */
#define MT_OPEN_MS 120000
#define MT_REG_MS 120000

int
mt_enroll(const char *path, const char *rp_id, struct cred *out)
{
	static const uint8_t uid[] = "mt-user";
	struct reg_req req;
	struct reg_result res;
	struct dev *d = NULL;
	int r;

	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	memset(out, 0, sizeof(*out));
	req.rp_id = rp_id;
	req.type = COSE_ES256;
	req.presence = true;
	/* a CTAP2 key's MakeCredential needs a user (U2F ignores it) */
	req.user.id = uid;
	req.user.id_len = sizeof(uid) - 1;
	req.user.name = "mt-user";
	req.user.display_name = "mt-user";
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK)
		return r;
	if ((r = dev_open_path(path, NULL, MT_OPEN_MS, &d)) != ERR_OK)
		return r;
	if ((r = dev_register(d, &req, &res, MT_REG_MS)) == ERR_OK) {
		*out = res.cred;
		out->flags |= CRED_PRESENCE;
		memset(&res.cred, 0, sizeof(res.cred));
	}
	reg_result_clear(&res);
	dev_close(&d);
	return r;
}

char *
mt_line(const char *user, const struct cred *c, size_t n)
{
	char *line = NULL, *nl = NULL;

	if (authfile_format_line(user, c, n, &line) != ERR_OK)
		return NULL;
	if (asprintf(&nl, "%s\n", line) < 0)
		nl = NULL;
	free(line);
	return nl;
}

char *
mt_line_old(const char *user, const struct cred *c)
{
	char *kh = NULL, *pk = NULL, *line = NULL;

	if (b64url_encode(c->kh, c->kh_len, &kh) == ERR_OK &&
	    hex_encode(c->pk, c->pk_len, &pk) == ERR_OK &&
	    asprintf(&line, "%s:%s,%s\n", user, kh, pk) < 0)
		line = NULL;
	free(kh);
	free(pk);
	return line;
}

/* A small growing buffer for the SSH wire format. */
struct mt_buf {
	uint8_t p[8192];
	size_t len;
};

static void
mt_put(struct mt_buf *b, const void *p, size_t n)
{
	if (b->len + n > sizeof(b->p))
		abort();
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
mt_put_u32(struct mt_buf *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 8), (uint8_t)v};

	mt_put(b, x, 4);
}

static void
mt_put_str(struct mt_buf *b, const void *p, size_t n)
{
	mt_put_u32(b, (uint32_t)n);
	mt_put(b, p, n);
}

#define MT_SK_TYPE "sk-ecdsa-sha2-nistp256@openssh.com"

static void
mt_sk_pub(struct mt_buf *b, const struct cred *c)
{
	mt_put_str(b, MT_SK_TYPE, strlen(MT_SK_TYPE));
	mt_put_str(b, "nistp256", 8);
	mt_put_str(b, c->pk, c->pk_len);
	mt_put_str(b, "ssh:", 4);
}

char *
mt_sshfile(const struct cred *c, unsigned flags)
{
	static struct mt_buf pub, priv, all;
	char *b64 = NULL, *out = NULL;
	uint8_t f = (uint8_t)flags, pad = 1;
	size_t i, n, o = 0;

	pub.len = priv.len = all.len = 0;
	mt_sk_pub(&pub, c);
	mt_put_u32(&priv, 0x12345678);
	mt_put_u32(&priv, 0x12345678);
	mt_sk_pub(&priv, c);
	mt_put(&priv, &f, 1);
	mt_put_str(&priv, c->kh, c->kh_len);
	mt_put_str(&priv, "", 0);
	mt_put_str(&priv, "test", 4);
	while (priv.len % 8 != 0) {
		mt_put(&priv, &pad, 1);
		pad++;
	}
	mt_put(&all, "openssh-key-v1", 15);
	mt_put_str(&all, "none", 4);
	mt_put_str(&all, "none", 4);
	mt_put_str(&all, "", 0);
	mt_put_u32(&all, 1);
	mt_put_str(&all, pub.p, pub.len);
	mt_put_str(&all, priv.p, priv.len);
	if (b64_encode(all.p, all.len, &b64) != ERR_OK)
		return NULL;
	n = strlen(b64);
	if ((out = malloc(n + n / 70 + 128)) == NULL)
		abort();
	o = (size_t)sprintf(out, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
	for (i = 0; i < n; i += 70)
		o += (size_t)sprintf(out + o, "%.70s\n", b64 + i);
	sprintf(out + o, "-----END OPENSSH PRIVATE KEY-----\n");
	free(b64);
	return out;
}
