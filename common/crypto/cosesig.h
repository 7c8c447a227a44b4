/* SPDX-License-Identifier: BSD-2-Clause */
/* Signatures by COSE algorithm, and attestation-certificate signatures:
 * what CTAP2 credentials and attestation statements need. Keys are in the
 * mapping file's raw form (pam-u2f's): es256 = 65-byte uncompressed
 * P-256 point (64-byte x||y accepted), eddsa = 32-byte Ed25519 key,
 * rs256 = 256-byte modulus n || 3-byte exponent e. */
#ifndef PU_COSESIG_H
#define PU_COSESIG_H

#include <stddef.h>
#include <stdint.h>

#define COSESIG_PK_MAX 259 /* longest raw key (rs256: 256 + 3) */
#define COSESIG_RSA_N 256
#define COSESIG_RSA_E 3

/* Check a raw key of COSE type (on the curve, a usable RSA key) and copy
 * it in normal form to out (es256: 65 bytes). ERR_PARSE for a bad key,
 * ERR_UNSUPPORTED for another type. */
int crypto_pk_normal(int type, const uint8_t *raw, size_t len,
    uint8_t out[COSESIG_PK_MAX], size_t *out_len);

/* The DER SubjectPublicKeyInfo (RFC 5280) of a raw key of COSE type, as
 * OpenSSL writes it (what `openssl pkey -pubout -outform DER` prints):
 * *der (malloc'd, *der_len bytes). ERR_PARSE for a bad key,
 * ERR_UNSUPPORTED for another type, ERR_NOMEM. */
int crypto_pk_spki(
    int type, const uint8_t *raw, size_t len, uint8_t **der, size_t *der_len);

/* Verify sig over msg with the key of a DER X.509 certificate, for COSE
 * algorithm alg (-7, -8, -257), checking that the certificate's key is of
 * that algorithm. ERR_OK, ERR_VERIFY, ERR_PARSE (bad certificate). */
int crypto_verify_cert_sig(const uint8_t *cert, size_t cert_len, int alg,
    const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len);

/* The packed-attestation certificate requirements (WebAuthn 8.2.1):
 * version 3; a subject with one each of C, O, CN and OU, the OU being
 * "Authenticator Attestation"; basicConstraints, if present, CA false
 * (an absent extension means no CA); and, when the certificate has the
 * id-fido-gen-ce-aaguid extension (1.3.6.1.4.1.45724.1.1.4), that it is
 * not critical and equals aaguid. ERR_OK, or ERR_VERIFY with *why naming
 * the first requirement missed (a static string). */
int crypto_packed_cert_ok(const uint8_t *cert, size_t cert_len,
    const uint8_t aaguid[16], const char **why);

#endif
