/* SPDX-License-Identifier: BSD-2-Clause */
/* Sealing the login secret under a security key's hmac-secret output
 * (issue 30): HKDF-SHA-256 to a key, AES-256-GCM with associated data.
 * The format of the sealed record and where it is kept are the mapping
 * layer's (common/auth/secret.c); this is only the crypto. */
#ifndef PU_SEAL_H
#define PU_SEAL_H

#include <stddef.h>
#include <stdint.h>

#define SEAL_KEY_LEN 32   /* the derived AES-256 key */
#define SEAL_NONCE_LEN 12 /* the GCM nonce */
#define SEAL_TAG_LEN 16   /* the GCM tag, after the ciphertext */
#define SEAL_HMAC_LEN 32  /* one hmac-secret output */

/* key = HKDF-SHA-256(ikm = the hmac-secret output, salt = none (zeros),
 * info = "pam_u2f login secret v1" || 0x00 || cred_id), 32 bytes: the
 * info names the project and the credential, so one output never keys
 * two credentials' records. ERR_OK or ERR_CRYPTO (key wiped). */
int seal_derive(const uint8_t hmac[SEAL_HMAC_LEN], const uint8_t *cred_id,
    size_t cred_id_len, uint8_t key[SEAL_KEY_LEN]);

/* AES-256-GCM of pt[0..len) under key and nonce with aad: out gets the
 * ciphertext (len bytes) and the tag (SEAL_TAG_LEN); cap must hold
 * len + SEAL_TAG_LEN (else ERR_TOO_BIG). ERR_OK or ERR_CRYPTO. */
int seal_encrypt(const uint8_t key[SEAL_KEY_LEN],
    const uint8_t nonce[SEAL_NONCE_LEN], const uint8_t *aad, size_t aad_len,
    const uint8_t *pt, size_t len, uint8_t *out, size_t cap, size_t *out_len);

/* The inverse: in = ciphertext || tag (at least SEAL_TAG_LEN bytes, else
 * ERR_PARSE). ERR_VERIFY when the tag does not match (wrong key, nonce,
 * aad, or a changed byte): out is then wiped and nothing of it may be
 * used. out needs in_len - SEAL_TAG_LEN bytes (cap; else ERR_TOO_BIG). */
int seal_decrypt(const uint8_t key[SEAL_KEY_LEN],
    const uint8_t nonce[SEAL_NONCE_LEN], const uint8_t *aad, size_t aad_len,
    const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
    size_t *out_len);

#endif
