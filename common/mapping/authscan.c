/* SPDX-License-Identifier: BSD-2-Clause */
/* Finding a user's line in a mapping file: the whole file
 * (authfile_find) or piece by piece (authfile_scan_*), with an AVX2 path
 * for central files of a million lines. Lines are parsed by authfile.c. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authfile.h"
#include "authfile_int.h"
#include "base/err.h"
#include "sshline.h"

#define AF_SKIPPED 2 /* find_in_line: a line without a colon, not ours */

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

/* A line without a colon (s, len bytes, no '\r' at the end) could be
 * the user's when, after leading blanks, it starts with the user's name
 * ("alice", "alice KH,PK", "aliceKH,PK"): then it fails the user. */
static int
nocolon_is_users(const char *s, size_t len, const char *user, size_t ulen)
{
	while (len > 0 && is_blank(s[0])) {
		s++;
		len--;
	}
	return len >= ulen && memcmp(s, user, ulen) == 0;
}

/* One line (without '\n', without NUL bytes: the caller checked) of the
 * file: a negative error, 0 when it is not the user's line, 1 when it is
 * (its credentials then replace *creds), 2 when it has no colon and is
 * not the user's (skipped, for the caller to log). Other users' lines
 * cost a short memchr and a length compare: a central file may have a
 * million. */
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
	    authfile_line_skipped(s, len))
		return 0;
	/* remote=agent's lines (sshline.h) are no user's here */
	if (len > 0 && (s[0] == '@' || is_blank(s[0])) &&
	    sshline_is_mark(s, len))
		return 0;
	if ((colon = memchr(s, ':', len)) == NULL)
		return nocolon_is_users(s, len, user, ulen) ? ERR_PARSE
							    : AF_SKIPPED;
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
	if (!authfile_user_ok(user))
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
	if (r == AF_SKIPPED) {
		if (sc->nskipped++ == 0)
			sc->skipped_line = sc->lineno;
		return ERR_OK;
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

/* The line at *p (NUL-terminated piece ending at end), which ends at nl
 * if known: scanned, and *p moved past it. One pass (strchrnul) finds the
 * end of the line or a NUL byte in it: stopping at a NUL before end means
 * the line holds one. */
static inline int
scan_to_eol(
    struct authfile_scan *sc, const char **p, const char *end, const char *nl)
{
	if (nl == NULL)
		nl = strchrnul(*p, '\n');
	if (scan_line(sc, *p, (size_t)(nl - *p), nl < end && *nl == '\0') !=
	    ERR_OK)
		return sc->err;
	*p = nl + 1;
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
		if (scan_to_eol(sc, &p, end, nl) != ERR_OK)
			return sc->err;
	}
	return ERR_OK;
}
#endif

int
authscan_avx2_ok(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
#else
	return 0;
#endif
}

int
authfile_scan_lines_nt_path(struct authfile_scan *sc, const char *buf,
    size_t len, enum authscan_path path)
{
	const char *p = buf, *end = buf + len;

	if (sc->err != ERR_OK)
		return sc->err;
	if (path == AUTHSCAN_AVX2 && !authscan_avx2_ok())
		return sc->err = ERR_UNSUPPORTED;
	if (len == 0)
		return ERR_OK;
	if (buf == NULL || buf[len] != '\0')
		return sc->err = ERR_INVAL;
#if defined(__x86_64__) && defined(__GNUC__)
	if (path != AUTHSCAN_PORTABLE && authscan_avx2_ok())
		return scan_nt_avx2(sc, buf, len);
#endif
	while (p < end)
		if (scan_to_eol(sc, &p, end, NULL) != ERR_OK)
			return sc->err;
	return ERR_OK;
}

int
authfile_scan_lines_nt(struct authfile_scan *sc, const char *buf, size_t len)
{
	return authfile_scan_lines_nt_path(sc, buf, len, AUTHSCAN_AUTO);
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
	    (buf == NULL && len > 0) || !authfile_user_ok(user))
		return ERR_INVAL;
	*creds = NULL;
	*n = 0;
	*bad_line = 0;
	(void)authfile_scan_init(&sc, user);
	(void)authfile_scan_lines(&sc, buf, len);
	return authfile_scan_end(&sc, creds, n, bad_line);
}
