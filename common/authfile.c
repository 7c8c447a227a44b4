#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authfile.h"
#include "b64.h"
#include "err.h"
#include "util.h"

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
#define AF_MAX_FIELDS 4

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

/* Decode a non-empty, bounded field; anything but ERR_NOMEM is ERR_PARSE. */
static int
decode_field(
    decoder_fn dec, const struct field *f, uint8_t **out, size_t *outlen)
{
	int r;

	if (f->len == 0 || f->len > AF_FIELD_MAX)
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
	case COSE_EDDSA:
		return c->pk_len == AF_EDDSA_PK ? ERR_OK : ERR_PARSE;
	case COSE_RS256:
		return ERR_OK; /* raw bytes as stored, length already > 0 */
	default:
		return ERR_PARSE;
	}
}

/* KH,PK,Type,Options */
static int
parse_current(const struct field *f, struct cred *c)
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
	else if (nf == 4)
		r = parse_current(f, c);
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

/* Empty, only blanks, or a comment (first non-blank character '#'). */
static int
line_is_skipped(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		continue;
	return i == len || s[i] == '#';
}

static int
user_is_valid(const char *user)
{
	return user != NULL && user[0] != '\0' &&
	    strpbrk(user, ":\r\n") == NULL;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The name field s (len bytes) equals user (ulen bytes) once the spaces
 * and tabs around it are dropped. */
static int
name_is_trimmed(const char *s, size_t len, const char *user, size_t ulen)
{
	while (len > 0 && is_blank(s[0])) {
		s++;
		len--;
	}
	while (len > 0 && is_blank(s[len - 1]))
		len--;
	return len == ulen && memcmp(s, user, len) == 0;
}

/* One line (without '\n', without NUL bytes: the caller checked) of the
 * file: a negative error, 0 when it is not the user's line, 1 when it is
 * (its credentials then replace *creds). Other users' lines cost a short
 * memchr and a length compare: a central file may have a million. */
static int
find_in_line(const char *s, size_t len, const char *user, size_t ulen,
    struct cred **creds, size_t *n)
{
	const char *colon;
	char *u = NULL;
	struct cred *list = NULL;
	size_t cnt = 0, nlen;
	int r;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	/* Most lines start with a name: look closer only otherwise. */
	if ((len == 0 || is_blank(s[0]) || s[0] == '#') &&
	    line_is_skipped(s, len))
		return 0;
	if ((colon = memchr(s, ':', len)) == NULL)
		return ERR_PARSE; /* could be anybody's line */
	nlen = (size_t)(colon - s);
	if (nlen != ulen || memcmp(s, user, ulen) != 0) {
		/* another user's: not parsed, unless it only differs in
		 * blanks around the name (meant for the user?) */
		if (nlen > 0 && (is_blank(s[0]) || is_blank(s[nlen - 1])) &&
		    name_is_trimmed(s, nlen, user, ulen))
			return ERR_PARSE;
		return 0;
	}
	if ((r = authfile_parse_line(s, len, &u, &list, &cnt)) != ERR_OK)
		return r;
	free(u);
	cred_free_list(*creds, *n);
	*creds = list;
	*n = cnt;
	return 1;
}

int
authfile_scan_init(struct authfile_scan *sc, const char *user)
{
	memset(sc, 0, sizeof(*sc));
	if (!user_is_valid(user))
		return sc->err = ERR_INVAL;
	sc->user = user;
	sc->ulen = strlen(user);
	return ERR_OK;
}

/* Any line but the common case below: s (len bytes, no '\n'); has_nul
 * when it holds a NUL byte. The first error is kept, with the line
 * number for ERR_PARSE. */
static int
scan_one(struct authfile_scan *sc, const char *s, size_t len, int has_nul)
{
	int r;

	if (has_nul)
		r = ERR_PARSE;
	else
		r = find_in_line(
		    s, len, sc->user, sc->ulen, &sc->creds, &sc->n);
	if (r < 0) {
		if (r == ERR_PARSE)
			sc->bad_line = sc->lineno;
		return sc->err = r;
	}
	sc->found |= r;
	return ERR_OK;
}

/* The next line. The common case first, cheaply, without a call that
 * needs a stack frame: "name:..." of another user, the name neither
 * starting nor ending with a blank (a '\r' ending the line is not ':'
 * and changes nothing here). */
static inline int
scan_line(struct authfile_scan *sc, const char *s, size_t len, int has_nul)
{
	const char *colon;
	size_t nlen;

	sc->lineno++;
	if (!has_nul && len > 0 && !is_blank(s[0]) && s[0] != '#' &&
	    (colon = memchr(s, ':', len)) != NULL) {
		nlen = (size_t)(colon - s);
		if ((nlen != sc->ulen || memcmp(s, sc->user, nlen) != 0) &&
		    (nlen == 0 || !is_blank(s[nlen - 1])))
			return ERR_OK;
	}
	return scan_one(sc, s, len, has_nul);
}

int
authfile_scan_lines(struct authfile_scan *sc, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl, *stop;

	if (sc->err != ERR_OK)
		return sc->err;
	if (len == 0)
		return ERR_OK;
	if (buf == NULL)
		return sc->err = ERR_INVAL;
	/* One scan for NUL bytes over the whole piece, not one per line:
	 * the line that holds the first one (ends after it) is malformed. */
	if ((stop = memchr(buf, '\0', len)) == NULL)
		stop = end;
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (scan_line(sc, p, (size_t)(nl - p), nl > stop) != ERR_OK)
			return sc->err;
		p = nl + 1;
	}
	return ERR_OK;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define AF_BLOCK 128

/* Bit i set when b[i] may be '\n' or NUL, for the 64 bytes at b: when it
 * has no bit outside those of '\n' (0x0a). 0x02 and 0x08 too, which the
 * caller skips: one operation less per 32 bytes than two compares. */
__attribute__((target("avx2,bmi"))) static inline uint64_t
stops64(const char *b)
{
	const __m256i other = _mm256_set1_epi8((char)~'\n');
	const __m256i z = _mm256_setzero_si256();
	uint32_t lo, hi;

	lo = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_and_si256(
		_mm256_loadu_si256((const __m256i *)(const void *)b), other),
	    z));
	hi = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_and_si256(
		_mm256_loadu_si256((const __m256i *)(const void *)(b + 32)),
		other),
	    z));
	return (uint64_t)hi << 32 | lo;
}

/* Where the ends of lines are: the stops ('\n' or NUL) not yet used of
 * the 128 bytes at blk are the bits of m[0] (the first 64) and m[1];
 * left whole 128-byte blocks from blk on are readable. */
struct af_blocks {
	const char *blk;
	size_t left;
	uint64_t m[2];
};

/* From the line at p on, skip the lines that are plainly another user's
 * (see scan_line), while their ends are in whole blocks; without a call,
 * so that everything stays in registers. A comment with a colon is
 * skipped here too, as find_in_line would. Returns the first line not
 * skipped, with *nlp its end, or NULL when that is past the whole
 * blocks. The user's name is compared only when the first character and
 * the length match: such lines are left to scan_line. lim: 32 bytes are
 * readable from a line starting no later. */
__attribute__((target("avx2,bmi"))) static const char *
skip_others(const char *p, const char *lim, const struct authfile_scan *sc,
    struct af_blocks *b, size_t *skipped, const char **nlp)
{
	const __m256i colon = _mm256_set1_epi8(':');
	const char *blk = b->blk, *nl = NULL;
	size_t left = b->left, n = 0, nlen;
	uint64_t m0 = b->m[0], m1 = b->m[1];
	uint32_t cm;

	for (;;) {
		while ((m0 | m1) == 0 && left > 1) {
			blk += AF_BLOCK;
			left--;
			m0 = stops64(blk);
			m1 = stops64(blk + AF_BLOCK / 2);
		}
		if (m0 != 0) {
			nl = blk + __builtin_ctzll(m0);
			m0 &= m0 - 1;
		} else if (m1 != 0) {
			nl = blk + AF_BLOCK / 2 + __builtin_ctzll(m1);
			m1 &= m1 - 1;
		} else {
			nl = NULL;
			break;
		}
		if (*nl != '\n') {
			if (*nl != '\0')
				continue; /* 0x02 or 0x08: not a stop */
			break;
		}
		if (p > lim || is_blank(p[0]))
			break;
		cm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
		    _mm256_loadu_si256((const __m256i *)(const void *)p),
		    colon));
		/* no colon in the line (or past 32 bytes), or a name that
		 * might be the user's, or ends with a blank */
		if (cm == 0 ||
		    (nlen = (unsigned)__builtin_ctz(cm)) >= (size_t)(nl - p) ||
		    (nlen == sc->ulen && p[0] == sc->user[0]) ||
		    (nlen > 0 && is_blank(p[nlen - 1])))
			break;
		n++;
		p = nl + 1;
	}
	b->blk = blk;
	b->left = left;
	b->m[0] = m0;
	b->m[1] = m1;
	*skipped += n;
	*nlp = nl;
	return p;
}

/* authfile_scan_lines_nt with AVX2: 128 bytes at a time, then strchrnul
 * for the last, partial, block. */
__attribute__((target("avx2,bmi"))) static int
scan_nt_avx2(struct authfile_scan *sc, const char *buf, size_t len)
{
	struct af_blocks b;
	const char *p = buf, *end = buf + len, *lim, *nl;

	b.blk = buf;
	b.left = len / AF_BLOCK;
	b.m[0] = b.left > 0 ? stops64(buf) : 0;
	b.m[1] = b.left > 0 ? stops64(buf + AF_BLOCK / 2) : 0;
	lim = b.left > 0 ? end - 32 : buf;
	while (p < end) {
		p = skip_others(p, lim, sc, &b, &sc->lineno, &nl);
		if (p >= end)
			break;
		if (nl == NULL)
			nl = strchrnul(p, '\n');
		if (scan_line(sc, p, (size_t)(nl - p),
			nl < end && *nl == '\0') != ERR_OK)
			return sc->err;
		p = nl + 1;
	}
	return ERR_OK;
}
#endif

int
authfile_scan_lines_nt(struct authfile_scan *sc, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;

	if (sc->err != ERR_OK)
		return sc->err;
	if (len == 0)
		return ERR_OK;
	if (buf == NULL || buf[len] != '\0')
		return sc->err = ERR_INVAL;
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi"))
		return scan_nt_avx2(sc, buf, len);
#endif
	while (p < end) {
		/* One pass finds the end of the line or a NUL byte in it:
		 * stopping at a NUL before buf[len] means the line holds
		 * one. */
		nl = strchrnul(p, '\n');
		if (scan_line(sc, p, (size_t)(nl - p),
			nl < end && *nl == '\0') != ERR_OK)
			return sc->err;
		p = nl + 1;
	}
	return ERR_OK;
}

int
authfile_scan_end(
    struct authfile_scan *sc, struct cred **creds, size_t *n, size_t *bad_line)
{
	int r = sc->err;

	if (r == ERR_OK && (creds == NULL || n == NULL || bad_line == NULL))
		r = ERR_INVAL;
	if (r == ERR_OK && !sc->found)
		r = ERR_NOT_FOUND;
	if (creds != NULL)
		*creds = r == ERR_OK ? sc->creds : NULL;
	if (n != NULL)
		*n = r == ERR_OK ? sc->n : 0;
	if (bad_line != NULL)
		*bad_line = r == ERR_PARSE ? sc->bad_line : 0;
	if (r != ERR_OK)
		cred_free_list(sc->creds, sc->n);
	sc->creds = NULL;
	sc->n = 0;
	return r;
}

/* A wrapper of the scan above: one piece, the whole file. */
int
authfile_find(const char *buf, size_t len, const char *user,
    struct cred **creds, size_t *n, size_t *bad_line)
{
	struct authfile_scan sc;

	if (creds == NULL || n == NULL || bad_line == NULL ||
	    (buf == NULL && len > 0) || !user_is_valid(user))
		return ERR_INVAL;
	*creds = NULL;
	*n = 0;
	*bad_line = 0;
	(void)authfile_scan_init(&sc, user);
	(void)authfile_scan_lines(&sc, buf, len);
	return authfile_scan_end(&sc, creds, n, bad_line);
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

int
authfile_format_cred(const struct cred *c, char **out)
{
	const unsigned known =
	    CRED_PRESENCE | CRED_VERIFICATION | CRED_PIN | CRED_RESIDENT;
	char *kh = NULL, *pk = NULL, *s = NULL;
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
	    (r = format_pk(c, &pk)) != ERR_OK)
		goto fail;
	sz = strlen(kh) + strlen(pk) + 64;
	if ((s = malloc(sz)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	snprintf(s, sz, "%s,%s,%s,%s%s%s", kh, pk, cred_type_name(c->type),
	    (c->flags & CRED_PRESENCE) ? "+presence" : "",
	    (c->flags & CRED_VERIFICATION) ? "+verification" : "",
	    (c->flags & CRED_PIN) ? "+pin" : "");
	*out = s;
	r = ERR_OK;
fail:
	free(kh);
	free(pk);
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
	if (!user_is_valid(user) || line_is_skipped(user, strlen(user)) ||
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
