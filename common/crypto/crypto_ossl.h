/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSL-typed helpers that crypto.c and p256key.c share with the other
 * files of crypto/ (cosesig.c, pinproto.c). Included only under common/crypto/:
 * no other layer sees an OpenSSL type. */
#ifndef PU_CRYPTO_OSSL_H
#define PU_CRYPTO_OSSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/* Parse exactly one DER certificate that fills all of (p, len): ERR_OK
 * and *out (caller frees), or ERR_PROTO. */
int crypto_x509_parse(const uint8_t *p, size_t len, X509 **out);
/* An EVP_PKEY for an uncompressed P-256 point (65 bytes, 04 || x || y);
 * ERR_PARSE when the point is not a valid public key on the curve,
 * ERR_CRYPTO when OpenSSL fails otherwise. Copies the process's P-256
 * template (p256key.c); thread-safe. */
int crypto_pkey_p256(const uint8_t point[65], EVP_PKEY **out);
/* The same from the group's name, without the template (what
 * crypto_pkey_p256 does when the template could not be made): for the
 * tests that hold both to the same answers. */
int crypto_pkey_p256_fresh(const uint8_t point[65], EVP_PKEY **out);
/* ERR_OK when pkey is an EC key on P-256, else ERR_VERIFY. */
int crypto_pkey_is_p256(EVP_PKEY *pkey);
/* Check sig over msg with pkey and digest md ("SHA256"; NULL for
 * Ed25519's pure mode): ERR_OK only when OpenSSL says exactly 1;
 * malformed signatures are ERR_VERIFY. */
int crypto_pkey_verify(EVP_PKEY *pkey, const char *md, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len);
/* attcert.c: basic constraints absent, or present once with CA false
 * (ERR_OK, else ERR_VERIFY); and the id-fido-gen-ce-aaguid extension
 * (ERR_OK with *present false when absent, or true and its 16 bytes in
 * out; ERR_VERIFY when critical, repeated or malformed). */
int crypto_x509_not_ca(X509 *x);
int crypto_x509_aaguid(X509 *x, uint8_t out[16], bool *present);

#endif
