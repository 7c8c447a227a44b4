/* SPDX-License-Identifier: BSD-2-Clause */
/* One mapping ("authfile") line, parsed and formatted, from memory
 * (authfile.h): the current format and pam-u2f 1.0's, key handles,
 * public keys, types and options. The scanning of a whole file for a
 * user's line is authscan.c; this file knows one line only, so the
 * module, pamu2fcfg and authcmd= output share one line parser. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authfile.h"
#include "authfile_int.h"
#include "base/b64.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "base/util.h"

/* Longest base64 or hex field accepted: bounds what a hostile line can
 * make us allocate per field. */
#define AF_FIELD_MAX 4096
/* U2F carries the key handle length in one byte. */
#define AF_KH_MAX_ES256 255
/* WebAuthn caps credential IDs at 1023 bytes. */
#define AF_KH_MAX 1023
#define AF_ES256_XY 64
#define AF_ES256_POINT 65
#define AF_EDDSA_PK 32
#define AF_OLD_PKHEX 130
#define AF_MAX_FIELDS 5
/* The evidence field (attestation statement, certificate chain, authData):
 * base64 of at most AF_EVIDENCE_MAX bytes. */
#define AF_EVIDENCE_MAX 12288
#define AF_EVIDENCE_FIELD_MAX (4 * (AF_EVIDENCE_MAX / 3))
#define AF_EVIDENCE_TAG "att=" /* the field starts with it */
#define AF_EVIDENCE_TAG_LEN 4

struct field {
	const char *p;
	size_t len;
};

/* Split s on commas into at most AF_MAX_FIELDS fields; *nf is how many
 * there are, or AF_MAX_FIELDS + 1 when there are more. */
static void
split_fields(const char *s, size_t len, struct field *f, size_t *nf)
{
	const char *end = s + len, *c;
	size_t i = 0;

	for (;;) {
		c = memchr(s, ',', (size_t)(end - s));
		if (i == AF_MAX_FIELDS) {
			*nf = AF_MAX_FIELDS + 1;
			return;
		}
		f[i].p = s;
		f[i].len = c != NULL ? (size_t)(c - s) : (size_t)(end - s);
		i++;
		if (c == NULL)
			break;
		s = c + 1;
	}
	*nf = i;
}

static int
field_is(const struct field *f, const char *s)
{
	return f->len == strlen(s) && memcmp(f->p, s, f->len) == 0;
}

/* ASCII case-insensitive comparison, independent of the locale. */
static int
field_is_nocase(const struct field *f, const char *s)
{
	size_t i;
	char c;

	if (f->len != strlen(s))
		return 0;
	for (i = 0; i < f->len; i++) {
		c = f->p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != s[i])
			return 0;
	}
	return 1;
}

typedef int (*decoder_fn)(const char *, size_t, uint8_t **, size_t *);

/* Decode a non-empty field of at most max characters; anything but
 * ERR_NOMEM is ERR_PARSE. */
static int
decode_field_max(decoder_fn dec, const struct field *f, size_t max,
    uint8_t **out, size_t *outlen)
{
	int r;

	if (f->len == 0 || f->len > max)
		return ERR_PARSE;
	if ((r = dec(f->p, f->len, out, outlen)) != ERR_OK)
		return r == ERR_NOMEM ? r : ERR_PARSE;
	if (*outlen == 0) {
		free(*out);
		*out = NULL;
		return ERR_PARSE;
	}
	return ERR_OK;
}

static int
decode_field(
    decoder_fn dec, const struct field *f, uint8_t **out, size_t *outlen)
{
	return decode_field_max(dec, f, AF_FIELD_MAX, out, outlen);
}

static int
parse_type(const struct field *f, int *type)
{
	if (field_is_nocase(f, "es256"))
		*type = COSE_ES256;
	else if (field_is_nocase(f, "eddsa"))
		*type = COSE_EDDSA;
	else if (field_is_nocase(f, "rs256"))
		*type = COSE_RS256;
	else
		return ERR_PARSE;
	return ERR_OK;
}

/* "" or a concatenation of +presence, +verification, +pin, each once. */
static int
parse_options(const struct field *f, unsigned *flags)
{
	static const struct {
		const char *name;
		unsigned flag;
	} opts[] = {
	    {"+presence", CRED_PRESENCE},
	    {"+verification", CRED_VERIFICATION},
	    {"+pin", CRED_PIN},
	};
	struct field rest = *f;
	size_t i, n = 0;

	while (rest.len > 0) {
		for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			n = strlen(opts[i].name);
			if (rest.len >= n &&
			    memcmp(rest.p, opts[i].name, n) == 0 &&
			    (rest.len == n || rest.p[n] == '+'))
				break;
		}
		if (i == sizeof(opts) / sizeof(opts[0]) ||
		    (*flags & opts[i].flag) != 0)
			return ERR_PARSE;
		*flags |= opts[i].flag;
		rest.p += n;
		rest.len -= n;
	}
	return ERR_OK;
}

/* Check the decoded public key length for the type; es256 x||y becomes
 * the 65-byte point 04||x||y. */
static int
fix_pk(struct cred *c)
{
	uint8_t *pt = NULL;

	switch (c->type) {
	case COSE_ES256:
		if (c->pk_len != AF_ES256_XY)
			return ERR_PARSE;
		if ((pt = malloc(AF_ES256_POINT)) == NULL)
			return ERR_NOMEM;
		pt[0] = 0x04;
		memcpy(pt + 1, c->pk, AF_ES256_XY);
		util_freezero(c->pk, c->pk_len);
		c->pk = pt;
		c->pk_len = AF_ES256_POINT;
		return ERR_OK;
	case COSE_EDDSA: /* a point on the curve, not only 32 bytes */
		return c->pk_len == AF_EDDSA_PK ? edpoint_check(c->pk)
						: ERR_PARSE;
	case COSE_RS256:
		return ERR_OK; /* raw bytes as stored, length already > 0 */
	default:
		return ERR_PARSE;
	}
}

/* att=BASE64: the evidence, opaque here. */
static int
parse_att(const struct field *f, struct cred *c)
{
	struct field b64 = *f;

	if (f->len < AF_EVIDENCE_TAG_LEN ||
	    memcmp(f->p, AF_EVIDENCE_TAG, AF_EVIDENCE_TAG_LEN) != 0)
		return ERR_PARSE;
	b64.p += AF_EVIDENCE_TAG_LEN;
	b64.len -= AF_EVIDENCE_TAG_LEN;
	return decode_field_max(
	    b64_decode, &b64, AF_EVIDENCE_FIELD_MAX, &c->att, &c->att_len);
}

/* KH,PK,Type,Options[,att=Evidence] (nf 4 or 5) */
static int
parse_current(const struct field *f, size_t nf, struct cred *c)
{
	size_t khmax;
	int r;

	if ((r = parse_type(&f[2], &c->type)) != ERR_OK ||
	    (r = parse_options(&f[3], &c->flags)) != ERR_OK)
		return r;
	if (field_is(&f[0], "*"))
		c->flags |= CRED_RESIDENT;
	else if ((r = decode_field(b64_decode, &f[0], &c->kh, &c->kh_len)) !=
	    ERR_OK)
		return r;
	khmax = c->type == COSE_ES256 ? AF_KH_MAX_ES256 : AF_KH_MAX;
	if (c->kh_len > khmax)
		return ERR_PARSE;
	if ((r = decode_field(b64_decode, &f[1], &c->pk, &c->pk_len)) != ERR_OK)
		return r;
	if (nf == AF_MAX_FIELDS && (r = parse_att(&f[4], c)) != ERR_OK)
		return r;
	return fix_pk(c);
}

/* Old 1.0 format: KH (URL-safe base64, no padding),PKHEX (65-byte point) */
static int
parse_old(const struct field *f, struct cred *c)
{
	int r;

	c->type = COSE_ES256;
	c->flags = CRED_APPID | CRED_PRESENCE;
	if ((r = decode_field(b64url_decode, &f[0], &c->kh, &c->kh_len)) !=
	    ERR_OK)
		return r;
	if (c->kh_len > AF_KH_MAX_ES256 || f[1].len != AF_OLD_PKHEX)
		return ERR_PARSE;
	if ((r = decode_field(hex_decode, &f[1], &c->pk, &c->pk_len)) != ERR_OK)
		return r;
	if (c->pk_len != AF_ES256_POINT || c->pk[0] != 0x04)
		return ERR_PARSE;
	return ERR_OK;
}

/* One credential; on error *c is cleared. */
static int
parse_cred(const char *s, size_t len, struct cred *c)
{
	struct field f[AF_MAX_FIELDS];
	size_t nf;
	int r;

	memset(c, 0, sizeof(*c));
	split_fields(s, len, f, &nf);
	if (nf == 2)
		r = parse_old(f, c);
	else if (nf == 4 || nf == 5)
		r = parse_current(f, nf, c);
	else
		r = ERR_PARSE;
	if (r != ERR_OK)
		cred_clear(c);
	return r;
}

/* Make room for one more credential in *list (grown by doubling, so a
 * line of many tiny bad credentials fails before it allocates much). */
static int
reserve(struct cred **list, size_t used, size_t *cap)
{
	struct cred *nl;
	size_t ncap;

	if (used < *cap)
		return ERR_OK;
	ncap = *cap == 0 ? 4 : 2 * *cap;
	if (ncap > SIZE_MAX / sizeof(**list))
		return ERR_NOMEM;
	if ((nl = realloc(*list, ncap * sizeof(**list))) == NULL)
		return ERR_NOMEM;
	*list = nl;
	*cap = ncap;
	return ERR_OK;
}

/* Parse the credentials after the user's colon: "" or cred[:cred...]. */
static int
parse_creds(const char *s, size_t len, struct cred **creds, size_t *n)
{
	struct cred *list = NULL;
	const char *end = s + len, *c = s;
	size_t cap = 0, used = 0;
	int r;

	*creds = NULL;
	*n = 0;
	if (len == 0)
		return ERR_OK;
	for (;;) {
		if ((c = memchr(s, ':', (size_t)(end - s))) == NULL)
			c = end;
		if ((r = reserve(&list, used, &cap)) != ERR_OK ||
		    (r = parse_cred(s, (size_t)(c - s), &list[used])) != ERR_OK)
			goto fail;
		used++;
		if (c == end)
			break;
		s = c + 1;
	}
	*creds = list;
	*n = used;
	list = NULL;
	used = 0;
	r = ERR_OK;
fail:
	cred_free_list(list, used);
	return r;
}

int
authfile_parse_line(
    const char *line, size_t len, char **user, struct cred **creds, size_t *n)
{
	const char *colon;
	char *u = NULL;
	size_t ulen;
	int r;

	if (user == NULL || creds == NULL || n == NULL ||
	    (line == NULL && len > 0))
		return ERR_INVAL;
	*user = NULL;
	*creds = NULL;
	*n = 0;
	if (len == 0 || memchr(line, '\0', len) != NULL)
		return ERR_PARSE;
	if ((colon = memchr(line, ':', len)) == NULL || colon == line)
		return ERR_PARSE;
	ulen = (size_t)(colon - line);
	if ((u = malloc(ulen + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(u, line, ulen);
	u[ulen] = '\0';
	if ((r = parse_creds(colon + 1, len - ulen - 1, creds, n)) != ERR_OK)
		goto fail;
	*user = u;
	u = NULL;
	r = ERR_OK;
fail:
	free(u);
	return r;
}

int
authfile_line_skipped(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		continue;
	return i == len || s[i] == '#';
}

int
authfile_user_ok(const char *user)
{
	return user != NULL && user[0] != '\0' &&
	    strpbrk(user, ":\r\n") == NULL;
}

/* Base64 of the stored public key: es256 drops the leading 04. */
static int
format_pk(const struct cred *c, char **out)
{
	switch (c->type) {
	case COSE_ES256:
		if (c->pk_len != AF_ES256_POINT || c->pk[0] != 0x04)
			return ERR_INVAL;
		return b64_encode(c->pk + 1, AF_ES256_XY, out);
	case COSE_EDDSA:
		if (c->pk_len != AF_EDDSA_PK)
			return ERR_INVAL;
		return b64_encode(c->pk, c->pk_len, out);
	case COSE_RS256:
		if (c->pk_len == 0)
			return ERR_INVAL;
		return b64_encode(c->pk, c->pk_len, out);
	default:
		return ERR_INVAL;
	}
}

static int
format_kh(const struct cred *c, char **out)
{
	size_t khmax = c->type == COSE_ES256 ? AF_KH_MAX_ES256 : AF_KH_MAX;

	if (c->flags & CRED_RESIDENT) {
		if (c->kh_len != 0)
			return ERR_INVAL;
		*out = strdup("*");
		return *out != NULL ? ERR_OK : ERR_NOMEM;
	}
	if (c->kh == NULL || c->kh_len == 0 || c->kh_len > khmax)
		return ERR_INVAL;
	return b64_encode(c->kh, c->kh_len, out);
}

/* The evidence field's text, "" when the credential has none. */
static int
format_att(const struct cred *c, char **out)
{
	if (c->att == NULL) {
		*out = strdup("");
		return *out != NULL ? ERR_OK : ERR_NOMEM;
	}
	if (c->att_len == 0 || c->att_len > AF_EVIDENCE_MAX)
		return ERR_INVAL;
	return b64_encode(c->att, c->att_len, out);
}

int
authfile_format_cred(const struct cred *c, char **out)
{
	const unsigned known =
	    CRED_PRESENCE | CRED_VERIFICATION | CRED_PIN | CRED_RESIDENT;
	char *kh = NULL, *pk = NULL, *att = NULL, *s = NULL;
	size_t sz;
	int r;

	if (out == NULL)
		return ERR_INVAL;
	*out = NULL;
	/* CRED_APPID cannot be expressed in the current format. */
	if (c == NULL || (c->flags & ~known) != 0 || c->pk == NULL ||
	    cred_type_name(c->type) == NULL)
		return ERR_INVAL;
	if ((r = format_kh(c, &kh)) != ERR_OK ||
	    (r = format_pk(c, &pk)) != ERR_OK ||
	    (r = format_att(c, &att)) != ERR_OK)
		goto fail;
	sz = strlen(kh) + strlen(pk) + strlen(att) + 64;
	if ((s = malloc(sz)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	snprintf(s, sz, "%s,%s,%s,%s%s%s%s%s", kh, pk, cred_type_name(c->type),
	    (c->flags & CRED_PRESENCE) ? "+presence" : "",
	    (c->flags & CRED_VERIFICATION) ? "+verification" : "",
	    (c->flags & CRED_PIN) ? "+pin" : "",
	    att[0] != '\0' ? "," AF_EVIDENCE_TAG : "", att);
	*out = s;
	r = ERR_OK;
fail:
	free(kh);
	free(pk);
	free(att);
	return r;
}

/* Append n bytes of s to the growing string *buf (length *len). */
static int
append(char **buf, size_t *len, const char *s, size_t n)
{
	char *nb;

	if (n > SIZE_MAX - *len - 1)
		return ERR_TOO_BIG;
	if ((nb = realloc(*buf, *len + n + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(nb + *len, s, n);
	*len += n;
	nb[*len] = '\0';
	*buf = nb;
	return ERR_OK;
}

int
authfile_format_line(
    const char *user, const struct cred *creds, size_t n, char **out)
{
	char *line = NULL, *one = NULL;
	size_t len = 0, i;
	int r;

	if (out == NULL)
		return ERR_INVAL;
	*out = NULL;
	if (!authfile_user_ok(user) ||
	    authfile_line_skipped(user, strlen(user)) ||
	    (creds == NULL && n > 0))
		return ERR_INVAL;
	if ((r = append(&line, &len, user, strlen(user))) != ERR_OK ||
	    (r = append(&line, &len, ":", 1)) != ERR_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		if ((r = authfile_format_cred(&creds[i], &one)) != ERR_OK ||
		    (i > 0 && (r = append(&line, &len, ":", 1)) != ERR_OK) ||
		    (r = append(&line, &len, one, strlen(one))) != ERR_OK)
			goto fail;
		free(one);
		one = NULL;
	}
	*out = line;
	line = NULL;
	r = ERR_OK;
fail:
	free(one);
	free(line);
	return r;
}
