/* SPDX-License-Identifier: BSD-2-Clause */
/* SSSD's passkey mapping values (sssd-ldap-attributes(5), the `passkey`,
 * `ipaPassKey` and `altSecurityIdentities` attributes), from memory only:
 *
 *   passkey:<credential id>,<SubjectPublicKeyInfo>
 *
 * both standard base64 (RFC 4648 section 4, with padding), the second of
 * the DER SubjectPublicKeyInfo (RFC 5280) that `sssctl passkey-register`
 * prints. The key type comes from the SPKI. */
#ifndef PU_PASSKEY_H
#define PU_PASSKEY_H

#include <stddef.h>

#include "base/cred.h"

#define PASSKEY_PREFIX "passkey:"

/* Does the value (len bytes) start with "passkey:" (case-sensitive)? */
int passkey_is(const char *s, size_t len);

/* Parse one value, s (len bytes, no NUL needed, no newline: a NUL, CR,
 * LF, blank or any byte outside base64 is ERR_PARSE). Strict:
 * - the prefix "passkey:" exactly, then two non-empty fields separated by
 *   one comma, each at most 4096 characters, exact standard base64;
 * - the credential id decodes to 1..255 bytes for a P-256 key (as U2F
 *   key handles in mapping lines) and 1..1023 otherwise;
 * - the SPKI is DER (definite minimal lengths, nothing after the outer
 *   SEQUENCE) of one of:
 *     id-ecPublicKey with namedCurve prime256v1 and an uncompressed
 *       point (04||x||y)              -> COSE_ES256, pk the 65-byte point;
 *     id-Ed25519 without parameters  -> COSE_EDDSA, pk 32 bytes;
 *     rsaEncryption with NULL parameters, an odd 2048-bit modulus (256
 *       bytes, top bit set) and an odd public exponent 3..2^24-1
 *                                    -> COSE_RS256, pk n (256 bytes) ||
 *       e (3 bytes, big-endian), the form mapping lines keep;
 *   anything else (other curves, compressed points, other RSA sizes,
 *   BIT STRING with unused bits) is ERR_PARSE.
 * The credential gets flags CRED_PRESENCE | CRED_PIN: SSSD's default is
 * user_verification=true, which asks a key for its PIN (or built-in
 * verification); the PIN is what every key that can do either has.
 * The point is not checked against the curve here (crypto does, before
 * any use). ERR_OK, ERR_PARSE (*out zeroed), ERR_NOMEM, ERR_INVAL.
 * Release with cred_clear(). */
int passkey_parse(const char *s, size_t len, struct cred *out);

#endif
