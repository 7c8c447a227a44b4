/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation statements of a new credential (WebAuthn 8): "packed"
 * (x5c, or self attestation by the credential key), "fido-u2f" and
 * "none". Any other format is refused by name. No trust anchors: like
 * pam-u2f, we check that the statement is internally valid (the signature
 * over authData | clientDataHash by the certificate's or the credential's
 * key), not who made the key. */
#ifndef PU_ATTEST_H
#define PU_ATTEST_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "proto/authdata.h"

/* fmt: the reply's format string (not NUL-terminated); attstmt: the
 * attStmt map's encoded bytes; authdata/ad: the reply's authData, raw and
 * parsed; cdh: the request's clientDataHash. ERR_OK and, for x5c
 * statements, a copy of the leaf certificate in *cert (caller frees;
 * NULL otherwise). ERR_VERIFY for a bad signature or certificate,
 * ERR_PARSE for a malformed statement, ERR_UNSUPPORTED for another
 * format (logged with its name). */
int attest_verify(const char *fmt, size_t fmt_len, const uint8_t *attstmt,
    size_t attstmt_len, const uint8_t *authdata, size_t authdata_len,
    const struct authdata *ad, const uint8_t cdh[32], const struct log *lg,
    uint8_t **cert, size_t *cert_len);

/* The certificates of a statement's x5c (attstmt: the attStmt map's
 * encoded bytes): certs[i] (lens[i] bytes) point into attstmt, the leaf
 * first, at most max of them. ERR_OK with *n > 0, ERR_NOT_FOUND when the
 * statement has no x5c, ERR_PARSE for a malformed statement or x5c,
 * ERR_TOO_BIG for more than max certificates. */
int attest_x5c(const uint8_t *attstmt, size_t attstmt_len,
    const uint8_t **certs, size_t *lens, size_t max, size_t *n);

#endif
