/* SPDX-License-Identifier: BSD-2-Clause */
/* Both implementations of the checks crypto.h dispatches (crypto.c: EVP;
 * crypto_direct.c: OpenSSL's SHA256_* functions and EC arithmetic, without
 * EVP), each callable on its own so that tests and fuzz harnesses can
 * hold them against each other, and the choice between them
 * (crypto_select.c). Same contracts as in crypto.h. */
#ifndef PU_CRYPTO_INT_H
#define PU_CRYPTO_INT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto.h"

/* Longest DER ECDSA-Sig-Value with r and s below a 256-bit order:
 * 30 len (02 21 00 r[32]) (02 21 00 s[32]). */
#define CRYPTO_ES256_SIG_MAX 72

/* The 65-byte uncompressed form of a 64-byte (x||y) or 65-byte (04||x||y)
 * raw point, unchecked; ERR_PARSE for any other length or a 65-byte point
 * not starting 04. */
int crypto_point_form(const uint8_t *raw, size_t len, uint8_t out[65]);

int crypto_sha256_evp(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN]);
int crypto_sha512_evp(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN]);
int crypto_p256_point_evp(const uint8_t *raw, size_t len, uint8_t point[65]);
int crypto_es256_verify_evp(const uint8_t point[65], const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);

/* The EdDSA (pure Ed25519, 64-byte sig, 32-byte key) and RS256
 * (RSASSA-PKCS1-v1_5 with SHA-256, key n || e as in cosesig.h) checks of
 * crypto_verify, through EVP (cosesig.c). Same results as crypto_verify. */
int crypto_eddsa_verify(const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);
int crypto_rs256_verify(const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);

/* Where Linux says whether it runs in FIPS mode ("1" or "0"). */
#define CRYPTO_FIPS_PATH "/proc/sys/crypto/fips_enabled"

/* 1 when the file at path (CRYPTO_FIPS_PATH outside tests) says FIPS
 * mode, 0 when it says "0" or does not exist (a kernel without FIPS
 * support); 1 for anything else (unreadable, other contents): when in
 * doubt, EVP. Reads the file at every call (crypto_fips.c). */
int crypto_fips_mode(const char *path);
/* 1 when crypto.h's functions are to use the direct implementation: it
 * is built (DIRECT_VERIFY) and crypto_fips_mode(fips_path) is 0. A build
 * without it never reads the file. */
int crypto_use_direct(const char *fips_path);

/* One implementation of the checks crypto.h dispatches: its name for
 * crypto_verify_impl() and its functions (same contracts as in
 * crypto.h). */
struct crypto_impl {
	const char *name; /* "evp", "direct", "evp (kernel FIPS mode)" */
	int (*sha256)(
	    const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN]);
	int (*sha512)(
	    const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN]);
	int (*p256_point)(const uint8_t *raw, size_t len, uint8_t point[65]);
	int (*es256_verify)(const uint8_t point[65], const uint8_t *msg,
	    size_t msg_len, const uint8_t *sig, size_t sig_len);
};

/* The implementation a process whose FIPS switch is the file at
 * fips_path would use; reads that file each time (for tests). */
const struct crypto_impl *crypto_impl_at(const char *fips_path);
/* The implementation this process uses: crypto_impl_at(CRYPTO_FIPS_PATH),
 * decided at the first call and then kept for the life of the process
 * (crypto_select.c). Never NULL. */
const struct crypto_impl *crypto_impl(void);
/* crypto_verify_impl() with the FIPS switch read from fips_path. */
const char *crypto_verify_impl_at(const char *fips_path);

#if DIRECT_VERIFY
int crypto_sha256_direct(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN]);
int crypto_sha512_direct(
    const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN]);
int crypto_p256_point_direct(const uint8_t *raw, size_t len, uint8_t point[65]);
int crypto_es256_verify_direct(const uint8_t point[65], const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);
/* The verification with the message's digest e given (32 bytes: a
 * 256-bit hash, or a longer one's leftmost 256 bits, or a shorter one
 * left-padded with zeros), so that signature vectors made with other
 * hashes than SHA-256 can be checked too. */
int crypto_es256_verify_digest_direct(const uint8_t point[65],
    const uint8_t e[CRYPTO_SHA256_LEN], const uint8_t *sig, size_t sig_len);
#endif

#endif
