/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation evidence: what a registration proved about the key, kept
 * with the credential (the mapping line's fifth field, struct cred's
 * att) so that it can be checked again at every login. It is the
 * registration's attestation object plus what its signature covers, as
 * one canonical CBOR map:
 *	1: fmt             text   "packed", "fido-u2f" or "none"
 *	2: attStmt         bytes  the statement's CBOR map as the key sent it
 *	3: authData        bytes  with the attested credential data
 *	4: clientDataHash  bytes  32
 *	5: time            uint   seconds since the epoch, at registration
 * A U2F registration (no CTAP2) is written in the fido-u2f shape WebAuthn
 * gives it (8.6): authData made of rpIdHash (the appid's hash), flags
 * UP|AT, counter 0, a zero AAGUID, the key handle and the COSE key.
 * Self-checking: the statement's signature binds authData (and with it
 * the credential's key) to the attestation certificate; nothing in it is
 * secret. */
#ifndef PU_EVIDENCE_H
#define PU_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#define EVIDENCE_FMT_MAX 16
#define EVIDENCE_MAX 12288 /* bytes, as the mapping line allows */

/* A decoded evidence: pointers into the buffer it was read from. */
struct evidence {
	char fmt[EVIDENCE_FMT_MAX]; /* NUL-terminated */
	const uint8_t *stmt;
	size_t stmt_len;
	const uint8_t *authdata;
	size_t authdata_len;
	const uint8_t *cdh; /* 32 bytes */
	int64_t time;
};

/* Encode the parts (fmt is fmt_len bytes, 1..EVIDENCE_FMT_MAX - 1) into
 * *out (malloc'd, *out_len bytes). ERR_OK, ERR_INVAL, ERR_TOO_BIG (over
 * EVIDENCE_MAX), ERR_NOMEM. */
int evidence_encode(const char *fmt, size_t fmt_len, const uint8_t *stmt,
    size_t stmt_len, const uint8_t *authdata, size_t authdata_len,
    const uint8_t cdh[32], int64_t time, uint8_t **out, size_t *out_len);

/* The evidence of a U2F registration (see above): app is the appid's
 * SHA-256, cdh the challenge, kh the key handle, point the 65-byte key,
 * cert and sig the reply's. Same results as evidence_encode. */
int evidence_u2f(const uint8_t app[32], const uint8_t cdh[32],
    const uint8_t *kh, size_t kh_len, const uint8_t point[65],
    const uint8_t *cert, size_t cert_len, const uint8_t *sig, size_t sig_len,
    int64_t time, uint8_t **out, size_t *out_len);

/* Read p[0..len) (exactly the map above, canonical, nothing after) into
 * *ev, whose pointers point into p. ERR_OK or ERR_PARSE. */
int evidence_decode(const uint8_t *p, size_t len, struct evidence *ev);

#endif
