/* SPDX-License-Identifier: BSD-2-Clause */
/* Hashing, certificates, P-256 points and the one signature check
 * (crypto_verify) of common/crypto/, the only layer that includes
 * OpenSSL. */
#ifndef PU_CRYPTO_H
#define PU_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_SHA256_LEN 32
#define CRYPTO_SHA512_LEN 64

int crypto_sha256(const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN]);
/* SHA-512 (EVP), for SSHSIG (common/ssh/sshsig.c). */
int crypto_sha512(const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN]);
/* Length of the DER object (e.g. an X.509 certificate) at the start of p,
 * measured by OpenSSL's parser; ERR_PROTO if p does not start with one. */
int crypto_cert_len(const uint8_t *p, size_t len, size_t *cert_len);
/* The certificate's subject as one line ("CN=..."); caller frees. */
int crypto_cert_subject(const uint8_t *cert, size_t len, char **subject);
/* Turn a raw P-256 public key, 64 bytes (x||y) or 65 bytes (04||x||y),
 * into the 65-byte uncompressed point, checking it lies on the curve. */
int crypto_p256_point(const uint8_t *raw, size_t len, uint8_t point[65]);
/* The signature check: sig over msg with the raw key pk of COSE
 * algorithm alg (base/cred.h): COSE_ES256, DER ECDSA P-256 with SHA-256,
 * pk the 65-byte uncompressed point (64-byte x||y accepted); COSE_EDDSA,
 * pure Ed25519, 64-byte sig, 32-byte pk; COSE_RS256, RSASSA-PKCS1-v1_5
 * with SHA-256, pk n (256 bytes) || e (3 bytes). ERR_OK, ERR_VERIFY
 * (wrong or malformed signature), ERR_PARSE (bad key), ERR_UNSUPPORTED
 * (other alg), ERR_INVAL (NULL with a length). ES256 uses the
 * implementation chosen once per process (crypto_verify_impl()); EdDSA
 * and RS256 always EVP. */
int crypto_verify(int alg, const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);
/* U2F registration: signature by the attestation certificate's key over
 * 00 || app || chal || kh || point. */
int crypto_verify_u2f_register(const uint8_t *cert, size_t cert_len,
    const uint8_t app[32], const uint8_t chal[32], const uint8_t *kh,
    size_t kh_len, const uint8_t point[65], const uint8_t *sig, size_t sig_len);
/* U2F authentication: signature by the credential's key over
 * app || flags || counter (big endian) || chal, through crypto_verify. */
int crypto_verify_u2f_auth(const uint8_t point[65], const uint8_t app[32],
    uint8_t flags, uint32_t counter, const uint8_t chal[32], const uint8_t *sig,
    size_t sig_len);

/* "evp", "direct" or "evp (kernel FIPS mode)": which implementation
 * crypto_sha256, crypto_p256_point and crypto_verify's ES256 use in this
 * process (crypto.c, crypto_direct.c; the direct one only in a build
 * configured --enable-direct-verify, and not while
 * /proc/sys/crypto/fips_enabled is 1, read once per process:
 * crypto_select.c); for version output and debug logs. */
const char *crypto_verify_impl(void);

#endif
