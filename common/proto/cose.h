/* SPDX-License-Identifier: BSD-2-Clause */
/* COSE_Key (RFC 9052/9053 as CTAP2 uses it) to and from the raw key form
 * of crypto/cosesig.h. */
#ifndef PU_COSE_H
#define PU_COSE_H

#include <stddef.h>
#include <stdint.h>

#include "base/cbor.h"
#include "crypto/cosesig.h"

#define COSE_ECDH_ES_HKDF_256 (-25) /* the PIN protocols' key agreement */

/* Read a credential public key (the next item of r, a map) into its raw
 * form: kty 2 / alg -7 / crv 1 (P-256, x, y) -> 65-byte point; kty 1 /
 * alg -8 / crv 6 (Ed25519, x) -> 32 bytes; kty 3 / alg -257 (n 256
 * bytes, e 3 bytes) -> n || e. Unknown extra keys are skipped; a missing
 * or inconsistent parameter is ERR_PARSE; another algorithm
 * ERR_UNSUPPORTED. The key is checked (crypto_pk_normal). */
int cose_key_read(
    struct cbor_rd *r, int *type, uint8_t pk[COSESIG_PK_MAX], size_t *pk_len);
/* Write a raw key of COSE type as a COSE_Key (canonical order). */
int cose_key_write(
    struct cbor_wr *w, int type, const uint8_t *pk, size_t pk_len);

/* The authenticator's keyAgreement key: kty 2, alg -25, crv 1, x, y. */
int cose_ka_read(struct cbor_rd *r, uint8_t x[32], uint8_t y[32]);
/* The platform's keyAgreement key, same shape. */
void cose_ka_write(struct cbor_wr *w, const uint8_t x[32], const uint8_t y[32]);

#endif
