/* SPDX-License-Identifier: BSD-2-Clause */
/* Sealed login secrets (secret.h): the record format, finding a user's
 * record for a credential, sealing and opening one, and replacing it in
 * a secrets file's text. Its own file because it is the one format of
 * the secrets file, shared by the module (which opens records) and
 * pamu2fcfg (which writes them); the crypto is crypto/seal.c. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "base/util.h"
#include "crypto/seal.h"
#include "secret.h"

#define SECRET_FIELDS 6
#define SECRET_USER_MAX 256
#define SECRET_KH_MAX 1024

void
secret_rec_clear(struct secret_rec *r)
{
	free(r->user);
	free(r->kh);
	free(r->salt);
	free(r->nonce);
	free(r->sealed);
	memset(r, 0, sizeof(*r));
}

static bool
secret_user_ok(const char *user)
{
	size_t n = strlen(user), i;

	if (n == 0 || n > SECRET_USER_MAX)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)user[i] <= ' ' || user[i] == ':' ||
		    user[i] == 0x7f)
			return false;
	return true;
}

/* Split a line (no '\n') into its six fields, in place. */
static int
secret_split(char *s, char *f[SECRET_FIELDS])
{
	size_t i;
	char *sp;

	for (i = 0; i < SECRET_FIELDS; i++) {
		f[i] = s;
		sp = strchr(s, ' ');
		if ((sp == NULL) != (i == SECRET_FIELDS - 1) || *s == ' ' ||
		    *s == '\0')
			return ERR_PARSE;
		if (sp != NULL) {
			*sp = '\0';
			s = sp + 1;
		}
	}
	return strcmp(f[0], SECRET_MAGIC) == 0 ? ERR_OK : ERR_PARSE;
}

/* Parse one record line (a copy, without '\n'). */
static int
secret_parse(char *s, struct secret_rec *r)
{
	char *f[SECRET_FIELDS];

	memset(r, 0, sizeof(*r));
	if (secret_split(s, f) != ERR_OK || !secret_user_ok(f[1]) ||
	    (r->user = strdup(f[1])) == NULL ||
	    b64_decode(f[2], strlen(f[2]), &r->kh, &r->kh_len) != ERR_OK ||
	    b64_decode(f[3], strlen(f[3]), &r->salt, &r->salt_len) != ERR_OK ||
	    b64_decode(f[4], strlen(f[4]), &r->nonce, &r->nonce_len) !=
		ERR_OK ||
	    b64_decode(f[5], strlen(f[5]), &r->sealed, &r->sealed_len) !=
		ERR_OK ||
	    r->kh_len == 0 || r->kh_len > SECRET_KH_MAX ||
	    r->salt_len != SECRET_SALT_LEN || r->nonce_len != SEAL_NONCE_LEN ||
	    r->sealed_len < SEAL_TAG_LEN ||
	    r->sealed_len > SECRET_MAX + SEAL_TAG_LEN) {
		secret_rec_clear(r);
		return ERR_PARSE;
	}
	return ERR_OK;
}

static bool
secret_is_for(const struct secret_rec *r, const char *user, const uint8_t *kh,
    size_t kh_len)
{
	return strcmp(r->user, user) == 0 && r->kh_len == kh_len &&
	    memcmp(r->kh, kh, kh_len) == 0;
}

/* Line n of buf (p, its length without '\n'), copied for parsing. */
static int
secret_line(const char *p, size_t n, struct secret_rec *r)
{
	char *s;
	int ret;

	if ((s = malloc(n + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(s, p, n);
	s[n] = '\0';
	ret = memchr(s, '\0', n) != NULL ? ERR_PARSE : secret_parse(s, r);
	free(s);
	return ret;
}

int
secret_find(const char *buf, size_t len, const char *user, const uint8_t *kh,
    size_t kh_len, struct secret_rec *out, size_t *line)
{
	struct secret_rec r;
	const char *p = buf, *end = buf + len, *nl;
	size_t n;
	int ret = ERR_NOT_FOUND, e;

	memset(out, 0, sizeof(*out));
	for (*line = 1; p < end; p = nl + 1, (*line)++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n == 0 || p[0] == '#')
			continue;
		if ((e = secret_line(p, n, &r)) != ERR_OK) {
			secret_rec_clear(out);
			return e;
		}
		if (secret_is_for(&r, user, kh, kh_len)) {
			secret_rec_clear(out);
			*out = r;
			ret = ERR_OK;
		} else
			secret_rec_clear(&r);
	}
	*line = 0;
	return ret;
}

/* The associated data: magic 0 user 0 kh salt (malloc'd). */
static int
secret_aad(const char *user, const uint8_t *kh, size_t kh_len,
    const uint8_t *salt, uint8_t **out, size_t *len)
{
	size_t m = sizeof(SECRET_MAGIC), u = strlen(user) + 1;

	*len = m + u + kh_len + SECRET_SALT_LEN;
	if ((*out = malloc(*len)) == NULL)
		return ERR_NOMEM;
	memcpy(*out, SECRET_MAGIC, m);
	memcpy(*out + m, user, u);
	memcpy(*out + m + u, kh, kh_len);
	memcpy(*out + m + u + kh_len, salt, SECRET_SALT_LEN);
	return ERR_OK;
}

/* The record line from its binary fields. */
static int
secret_format(const char *user, const uint8_t *kh, size_t kh_len,
    const uint8_t *salt, const uint8_t *nonce, const uint8_t *ct, size_t ct_len,
    char **line)
{
	char *f[4] = {NULL, NULL, NULL, NULL};
	int r;

	*line = NULL;
	if ((r = b64_encode(kh, kh_len, &f[0])) == ERR_OK &&
	    (r = b64_encode(salt, SECRET_SALT_LEN, &f[1])) == ERR_OK &&
	    (r = b64_encode(nonce, SEAL_NONCE_LEN, &f[2])) == ERR_OK &&
	    (r = b64_encode(ct, ct_len, &f[3])) == ERR_OK &&
	    asprintf(line, "%s %s %s %s %s %s\n", SECRET_MAGIC, user, f[0],
		f[1], f[2], f[3]) < 0) {
		*line = NULL;
		r = ERR_NOMEM;
	}
	free(f[0]);
	free(f[1]);
	free(f[2]);
	free(f[3]);
	return r;
}

int
secret_seal(const char *user, const uint8_t *kh, size_t kh_len,
    const uint8_t salt[SECRET_SALT_LEN], const uint8_t hmac[32],
    const char *secret, size_t len, char **line)
{
	uint8_t key[SEAL_KEY_LEN], nonce[SEAL_NONCE_LEN];
	uint8_t ct[SECRET_MAX + SEAL_TAG_LEN], *aad = NULL;
	size_t aad_len = 0, ct_len = 0;
	int r;

	*line = NULL;
	if (!secret_user_ok(user) || kh_len == 0 || kh_len > SECRET_KH_MAX)
		return ERR_INVAL;
	if (len > SECRET_MAX)
		return ERR_TOO_BIG;
	if ((r = util_random(nonce, sizeof(nonce))) != ERR_OK ||
	    (r = secret_aad(user, kh, kh_len, salt, &aad, &aad_len)) !=
		ERR_OK ||
	    (r = seal_derive(hmac, kh, kh_len, key)) != ERR_OK ||
	    (r = seal_encrypt(key, nonce, aad, aad_len, (const uint8_t *)secret,
		 len, ct, sizeof(ct), &ct_len)) != ERR_OK)
		goto out;
	r = secret_format(user, kh, kh_len, salt, nonce, ct, ct_len, line);
out:
	util_wipe(key, sizeof(key));
	util_wipe(ct, sizeof(ct));
	free(aad);
	return r;
}

int
secret_unseal(const struct secret_rec *rec, const char *user, const uint8_t *kh,
    size_t kh_len, const uint8_t hmac[32], char *out, size_t cap, size_t *len)
{
	uint8_t key[SEAL_KEY_LEN], *aad = NULL;
	size_t aad_len = 0;
	int r;

	*len = 0;
	if (cap < SECRET_MAX + 1 || rec->salt_len != SECRET_SALT_LEN ||
	    rec->nonce_len != SEAL_NONCE_LEN)
		return ERR_PARSE;
	if ((r = secret_aad(user, kh, kh_len, rec->salt, &aad, &aad_len)) !=
		ERR_OK ||
	    (r = seal_derive(hmac, kh, kh_len, key)) != ERR_OK ||
	    (r = seal_decrypt(key, rec->nonce, aad, aad_len, rec->sealed,
		 rec->sealed_len, (uint8_t *)out, cap - 1, len)) != ERR_OK)
		goto out;
	if (memchr(out, '\0', *len) != NULL)
		r = ERR_PARSE; /* a secret PAM could not carry */
	else
		out[*len] = '\0';
out:
	if (r != ERR_OK) {
		util_wipe(out, cap);
		*len = 0;
	}
	util_wipe(key, sizeof(key));
	free(aad);
	return r;
}

int
secret_put(const char *buf, size_t len, const char *user, const uint8_t *kh,
    size_t kh_len, const char *line, char **out, size_t *out_len)
{
	struct secret_rec r;
	const char *p = buf, *end = buf + len, *nl;
	size_t n, ll = strlen(line), o = 0;

	if ((*out = malloc(len + ll + 2)) == NULL)
		return ERR_NOMEM;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[0] != '#' && secret_line(p, n, &r) == ERR_OK) {
			bool mine = secret_is_for(&r, user, kh, kh_len);

			secret_rec_clear(&r);
			if (mine)
				continue;
		}
		memcpy(*out + o, p, n);
		o += n;
		(*out)[o++] = '\n';
	}
	memcpy(*out + o, line, ll);
	*out_len = o + ll;
	return ERR_OK;
}
