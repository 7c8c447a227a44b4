/* SPDX-License-Identifier: BSD-2-Clause */
/* Mapping ("authfile") lines: parse and format, from memory only.
 * Formats (see man/pam_u2f.8):
 *   current  user:KH,PK,Type,Options[,att=Ev][:KH,PK,Type,Options...]
 *            KH standard base64 (or "*"), PK standard base64 of the raw key
 *            (es256: 64 bytes x||y), Type es256|eddsa|rs256 (any case),
 *            Options a subset of +presence +verification +pin (may be empty),
 *            Ev (optional) standard base64 of the attestation
 *            evidence pamu2fcfg stores under a policy (proto/evidence.h;
 *            opaque here, kept in struct cred's att)
 *   old 1.0  user:KH,PKHEX[:KH,PKHEX...]  KH URL-safe base64 without
 *            padding, PKHEX 130 hex digits of the 65-byte point; such
 *            credentials get CRED_APPID | CRED_PRESENCE and type es256.
 * Blank lines and lines starting with '#' are skipped. */
#ifndef PU_AUTHFILE_H
#define PU_AUTHFILE_H

#include <stddef.h>

#include "base/cred.h"

/* Find user's credentials in a whole file held in memory (buf, len; need
 * not be NUL-terminated). The user's last line counts. Lines of any
 * length; CRLF tolerated. Returns ERR_OK with the list (n may be 0 for a
 * line with no credentials: "user:" ), ERR_NOT_FOUND when the user has no
 * line, ERR_PARSE with *bad_line (1-based) for a NUL byte or a malformed
 * line that could be the user's. Never logs.
 * Details (fail closed):
 * - "user:" (nothing after the colon) is ERR_OK with *n == 0 and *creds
 *   NULL: the user is listed but has no credential. The caller must treat
 *   that as "cannot authenticate", never as success. "user" alone (no
 *   colon) is ERR_PARSE.
 * - Blank lines (empty or only spaces/tabs) and lines whose first
 *   non-blank character is '#' are skipped; one trailing '\r' is dropped.
 * - A NUL byte anywhere is ERR_PARSE whoever's line it is. A line
 *   without ':' is ERR_PARSE when it could be the user's (after leading
 *   blanks it starts with the user's name: "alice", "alice KH,PK");
 *   any other is skipped (as by pam-u2f; authfile_scan counts them for
 *   the caller to log). Other users' lines are otherwise not parsed.
 * - The user name (before the first ':') is compared byte for byte; a
 *   line whose name differs from the user's only in surrounding spaces or
 *   tabs (" alice:...") is ERR_PARSE rather than silently someone else's.
 *   Every line of the user is parsed; any malformed one is ERR_PARSE even
 *   if a later line would replace it. An empty credential ("user::X",
 *   "user:X:") is malformed.
 * - A credential has 2 comma-separated fields (old format) or 4 or 5
 *   (current; the fifth, "att=" and the evidence, decodes to 1 to 12288
 *   bytes);
 *   anything else is ERR_PARSE. Base64 and hex fields are limited to 4096
 *   characters; key handles to 255 bytes for es256 (U2F) and 1023 bytes
 *   otherwise; es256 public keys decode to 64 bytes (stored in struct cred
 *   as the 65-byte point 04||x||y), eddsa to 32, rs256 to any non-zero
 *   length (kept as given). Options are case-sensitive, each at most once.
 * - user "" or containing ':', '\r' or '\n' is ERR_INVAL. */
int authfile_find(const char *buf, size_t len, const char *user,
    struct cred **creds, size_t *n, size_t *bad_line);
/* The same search fed piece by piece (a file read in bounded chunks):
 * authfile_scan_init (ERR_INVAL for a bad user name), then
 * authfile_scan_lines with each piece in file order, every piece made of
 * whole lines (only the last piece may lack its final '\n'), then
 * authfile_scan_end, which returns what authfile_find would have
 * returned for the concatenation of the pieces, with the same *bad_line,
 * and frees everything on failure (called again, or with NULL outputs,
 * it only frees). The first error is sticky: authfile_scan_lines returns
 * it again and reads nothing more. authfile_scan_lines_nt is the same
 * for a piece with buf[len] == '\0' (ERR_INVAL otherwise), cheaper per
 * line: one pass finds both the end of a line and any NUL byte in it
 * (128 bytes at a time with AVX2), and other users' lines are told apart
 * without a call. */
struct authfile_scan {
	const char *user;
	size_t ulen;
	size_t lineno;
	size_t bad_line;
	struct cred *creds;
	size_t n;
	int found;
	int err;
	size_t nskipped;     /* lines without a colon, not the user's */
	size_t skipped_line; /* the first of them (1-based), 0 if none */
};
int authfile_scan_init(struct authfile_scan *sc, const char *user);
int authfile_scan_lines(struct authfile_scan *sc, const char *buf, size_t len);
int authfile_scan_lines_nt(
    struct authfile_scan *sc, const char *buf, size_t len);
int authfile_scan_end(
    struct authfile_scan *sc, struct cred **creds, size_t *n, size_t *bad_line);
/* Parse one line without its newline (no comment or blank handling; a
 * trailing '\r' is part of the line); *user is malloc'd. ERR_PARSE for a
 * NUL byte, no ':' or an empty user name. */
int authfile_parse_line(
    const char *line, size_t len, char **user, struct cred **creds, size_t *n);
/* "KH,PK,es256,+presence" in the current format; caller frees. Options
 * in the order +presence+verification+pin; CRED_RESIDENT writes "*".
 * ERR_INVAL for a credential the current format cannot hold (CRED_APPID,
 * an es256 key that is not a 65-byte 04 point, a bad length). */
int authfile_format_cred(const struct cred *c, char **out);
/* "user:cred1:cred2" in the current format, no newline; "user:" when
 * n == 0. ERR_INVAL for a user name that would not parse back (empty,
 * with ':', '\r' or '\n', or starting a comment or blank line). */
int authfile_format_line(
    const char *user, const struct cred *creds, size_t n, char **out);

#endif
