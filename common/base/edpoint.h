/* SPDX-License-Identifier: BSD-2-Clause */
/* Is a 32-byte Ed25519 public key a point anyone must hold a secret
 * for? Plain C, no OpenSSL: the mapping layer (mapping lines, passkey:
 * values, OpenSSH keys), which may not use OpenSSL, and crypto/ (keys a
 * device returns at enrollment) share this one check. OpenSSL's
 * EVP_PKEY_new_raw_public_key and EVP_PKEY_public_check take any 32
 * bytes; only a later signature check fails on a bad point. */
#ifndef PU_EDPOINT_H
#define PU_EDPOINT_H

#include <stdint.h>

#define EDPOINT_LEN 32

/* ERR_OK when pk decodes to a curve point as RFC 8032 5.1.3 says (y
 * below p = 2^255 - 19, x^2 = (y^2 - 1) / (d y^2 + 1) a square, and not
 * x = 0 with the sign bit set) and the point is not of small order (one
 * of the eight points of order 1, 2, 4 or 8, for which anyone can make
 * signatures that verify); else ERR_PARSE. */
int edpoint_check(const uint8_t pk[EDPOINT_LEN]);

#endif
