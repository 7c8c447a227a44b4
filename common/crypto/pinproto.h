/* SPDX-License-Identifier: BSD-2-Clause */
/* The client side of CTAP2's PIN/UV auth protocols 1 and 2 (CTAP 2.1
 * 6.5.6, 6.5.7): key agreement, encrypt/decrypt, authenticate. */
#ifndef PU_PINPROTO_H
#define PU_PINPROTO_H

#include <stddef.h>
#include <stdint.h>

#define PIN_SHARED_MAX 64 /* protocol 2: HMAC key (32) || AES key (32) */
#define PIN_AUTH_MAX 32   /* protocol 1: 16, protocol 2: 32 */

/* A shared secret; wipe with pin_shared_clear. */
struct pin_shared {
	int proto; /* 1 or 2 */
	uint8_t key[PIN_SHARED_MAX];
	size_t len; /* 32 (protocol 1) or 64 (protocol 2) */
};

/* Make an ephemeral P-256 key, agree with the authenticator's key
 * agreement key (peer_x, peer_y; checked on the curve, else ERR_PARSE),
 * derive the shared secret of protocol proto (1: SHA-256(Z.x); 2:
 * HKDF-SHA-256 with a zero salt and infos "CTAP2 HMAC key", "CTAP2 AES
 * key"), and return our public key (our_x, our_y) to send as the
 * platform's keyAgreement. ERR_INVAL for another protocol. */
int pin_agree(int proto, const uint8_t peer_x[32], const uint8_t peer_y[32],
    uint8_t our_x[32], uint8_t our_y[32], struct pin_shared *s);

/* AES-256-CBC without padding; len a multiple of 16 (else ERR_INVAL).
 * Protocol 1: IV 0, out = ciphertext (len bytes). Protocol 2: a random
 * IV, out = IV || ciphertext (16 + len bytes). ERR_TOO_BIG if cap is too
 * small. */
int pin_encrypt(const struct pin_shared *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap, size_t *out_len);
/* The inverse (protocol 2: in = IV || ciphertext). ERR_PARSE for a
 * length that is not a multiple of 16 (or too short for the IV). */
int pin_decrypt(const struct pin_shared *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap, size_t *out_len);

/* authenticate(key, msg) = HMAC-SHA-256, the first 16 bytes for protocol
 * 1, all 32 for protocol 2. With the shared secret the key is all of it
 * (protocol 1) or its HMAC half (protocol 2); with a pinUvAuthToken the
 * key is the token. *out_len = 16 or 32. */
int pin_auth_shared(const struct pin_shared *s, const uint8_t *msg, size_t len,
    uint8_t out[PIN_AUTH_MAX], size_t *out_len);
int pin_auth_token(int proto, const uint8_t *token, size_t token_len,
    const uint8_t *msg, size_t len, uint8_t out[PIN_AUTH_MAX], size_t *out_len);

void pin_shared_clear(struct pin_shared *s);

#endif
