/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation certificates as evidence of a key's model: the chain from
 * an attestation statement's x5c up to trusted roots (OpenSSL's
 * X509_STORE), the AAGUID extension, the key identifier U2F keys are
 * known by, and the trusted roots themselves (PEM, read from files that
 * the caller's owner rule allows). Used by common/policy/. */
#ifndef PU_ATTCERT_H
#define PU_ATTCERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ATTCERT_AAGUID_LEN 16
#define ATTCERT_KEYID_LEN 20           /* SHA-1 */
#define ATTCERT_CHAIN_MAX 8            /* certificates of one x5c */
#define ATTCERT_FILE_MAX (1024 * 1024) /* bytes of one PEM file */
#define ATTCERT_DIR_MAX 256            /* files in a roots folder */
#define ATTCERT_WHY_MAX 256

/* A set of trusted root certificates (an X509_STORE inside). */
struct attcert_roots;

/* Load path, a PEM file or a folder of them (its regular files whose
 * names end in .pem or .crt; anything else there is skipped), each read
 * with safefile_read: not a link, a regular file owned by root or by
 * owner, not group- or world-writable, at most ATTCERT_FILE_MAX bytes.
 * Every certificate of every file is a trust anchor (a configured
 * intermediate too). ERR_OK and *out (attcert_roots_free it);
 * otherwise a sentence naming the file and the problem in why:
 * ERR_FILE, ERR_FILE_UNSAFE, ERR_TOO_BIG, ERR_PARSE (no certificate or
 * bad PEM), ERR_NOMEM. */
int attcert_roots_load(const char *path, uid_t owner,
    struct attcert_roots **out, char why[ATTCERT_WHY_MAX]);
void attcert_roots_free(struct attcert_roots *r);

/* Verify the chain certs[0] (the leaf) .. certs[n-1] (intermediates, any
 * order) to one of roots, as of the time at (seconds since the epoch):
 * every certificate valid then, signatures, basic constraints of the
 * issuers (CA:TRUE, path length) as OpenSSL checks them, and the leaf
 * not a CA. ERR_OK, ERR_VERIFY with OpenSSL's reason (and the depth) in
 * why, ERR_PARSE for a certificate that is not DER, ERR_INVAL, ERR_NOMEM. */
int attcert_chain_verify(const struct attcert_roots *roots,
    const uint8_t *const *certs, const size_t *lens, size_t n, int64_t at,
    char why[ATTCERT_WHY_MAX]);

/* The id-fido-gen-ce-aaguid extension (1.3.6.1.4.1.45724.1.1.4) of a DER
 * certificate: ERR_OK with *present false when it has none, or true and
 * the 16 bytes in aaguid; ERR_VERIFY when it is there but critical,
 * repeated or not an OCTET STRING of 16 bytes; ERR_PARSE for a bad
 * certificate. */
int attcert_aaguid(const uint8_t *cert, size_t len,
    uint8_t aaguid[ATTCERT_AAGUID_LEN], bool *present);

/* The attestation certificate key identifier of MDS
 * (attestationCertificateKeyIdentifiers): SHA-1 of the certificate's
 * subjectPublicKey BIT STRING value (RFC 5280 4.2.1.2, method 1).
 * ERR_OK, ERR_PARSE. */
int attcert_keyid(
    const uint8_t *cert, size_t len, uint8_t id[ATTCERT_KEYID_LEN]);

/* A JWS signature (RFC 7515/7518) over msg by the key of a DER
 * certificate: alg "RS256" (RSASSA-PKCS1-v1_5, SHA-256, at least 2048
 * bits) or "ES256" (P-256, SHA-256, sig the 64 bytes r || s). ERR_OK,
 * ERR_VERIFY, ERR_UNSUPPORTED (another alg), ERR_PARSE (bad certificate). */
int attcert_jws_verify(const uint8_t *cert, size_t cert_len, const char *alg,
    const uint8_t *msg, size_t msg_len, const uint8_t *sig, size_t sig_len);

#endif
