/* All cryptography (crypto.c, crypto_direct.c: the only files that include
 * OpenSSL). */
#ifndef PU_CRYPTO_H
#define PU_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_SHA256_LEN 32

int crypto_sha256(const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN]);
/* Length of the DER object (e.g. an X.509 certificate) at the start of p,
 * measured by OpenSSL's parser; ERR_PROTO if p does not start with one. */
int crypto_cert_len(const uint8_t *p, size_t len, size_t *cert_len);
/* The certificate's subject as one line ("CN=..."); caller frees. */
int crypto_cert_subject(const uint8_t *cert, size_t len, char **subject);
/* Turn a raw P-256 public key, 64 bytes (x||y) or 65 bytes (04||x||y),
 * into the 65-byte uncompressed point, checking it lies on the curve. */
int crypto_p256_point(const uint8_t *raw, size_t len, uint8_t point[65]);
/* Verify an ES256 (ECDSA P-256 SHA-256) DER signature over msg with a
 * 65-byte uncompressed point. ERR_OK or ERR_VERIFY (or ERR_PARSE for a
 * point that is not on the curve). */
int crypto_es256_verify(const uint8_t point[65], const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);
/* U2F registration: signature by the attestation certificate's key over
 * 00 || app || chal || kh || point. */
int crypto_verify_u2f_register(const uint8_t *cert, size_t cert_len,
    const uint8_t app[32], const uint8_t chal[32], const uint8_t *kh,
    size_t kh_len, const uint8_t point[65], const uint8_t *sig, size_t sig_len);
/* U2F authentication: signature by the credential's key over
 * app || flags || counter (big endian) || chal. */
int crypto_verify_u2f_auth(const uint8_t point[65], const uint8_t app[32],
    uint8_t flags, uint32_t counter, const uint8_t chal[32], const uint8_t *sig,
    size_t sig_len);

/* "evp", "direct" or "evp (kernel FIPS mode)": which implementation the
 * functions above use (crypto.c, crypto_direct.c; the direct one only in
 * a build configured --enable-direct-verify, and not while
 * /proc/sys/crypto/fips_enabled is 1); for version output and debug
 * logs. */
const char *crypto_verify_impl(void);

#endif
