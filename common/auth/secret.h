/* SPDX-License-Identifier: BSD-2-Clause */
/* The login secret sealed under a credential's hmac-secret output (issue
 * 30): one record per credential, a line of a secrets file beside the
 * mapping file (its path: the mapping file's with ".secrets" appended;
 * pam_u2f(8) SECRETS FILE). A record is
 *
 *   pam_u2f-secret-v1 USER KH SALT NONCE SEALED
 *
 * one space apart, each of KH (the credential id), SALT (32 bytes),
 * NONCE (12) and SEALED (the AES-256-GCM ciphertext and its 16-byte tag)
 * in standard base64. The key is HKDF-SHA-256 of the key's output for
 * SALT (crypto/seal.h); the associated data is "pam_u2f-secret-v1" 0x00
 * USER 0x00 KH SALT, so a record moved to another user or credential, or
 * given another salt, does not open. Lines starting with '#' and empty
 * lines are ignored. */
#ifndef PU_SECRET_H
#define PU_SECRET_H

#include <stddef.h>
#include <stdint.h>

#include "base/cred.h"

#define SECRET_MAGIC "pam_u2f-secret-v1"
#define SECRET_SALT_LEN 32
#define SECRET_MAX 512 /* bytes of the login secret (PAM_MAX_RESP_SIZE) */
#define SECRET_SUFFIX ".secrets"

/* One record, its fields decoded (owned: secret_rec_clear). */
struct secret_rec {
	char *user;
	uint8_t *kh;
	size_t kh_len;
	uint8_t *salt, *nonce, *sealed;
	size_t salt_len, nonce_len, sealed_len;
};
void secret_rec_clear(struct secret_rec *r);

/* The record of user's credential kh in buf[0..len) (the last one
 * there, as a rewrite appends): ERR_OK, ERR_NOT_FOUND, or ERR_PARSE for a
 * malformed line (any line: the file is refused whole; *line its
 * number). */
int secret_find(const char *buf, size_t len, const char *user,
    const uint8_t *kh, size_t kh_len, struct secret_rec *out, size_t *line);

/* A new record line (NUL-terminated, with '\n', malloc'd: free with
 * util_freezero) sealing secret[0..len) for user's credential kh under
 * hmac, the key's output for salt; a fresh nonce. ERR_TOO_BIG past
 * SECRET_MAX; ERR_INVAL for a user with a space, colon or control
 * character. */
int secret_seal(const char *user, const uint8_t *kh, size_t kh_len,
    const uint8_t salt[SECRET_SALT_LEN], const uint8_t hmac[32],
    const char *secret, size_t len, char **line);

/* Open a record for user's credential kh with hmac (the key's output for
 * rec->salt): ERR_OK and the secret (NUL-terminated, *len bytes) in out
 * (cap at least SECRET_MAX + 1), or ERR_VERIFY when it does not open
 * (another user, credential, salt, key, or a changed byte), ERR_PARSE
 * for bad lengths. out is wiped on failure. */
int secret_unseal(const struct secret_rec *rec, const char *user,
    const uint8_t *kh, size_t kh_len, const uint8_t hmac[32], char *out,
    size_t cap, size_t *len);

/* Replace (or add) user's record for kh in buf[0..len) with line: the
 * whole new text in *out (malloc'd). Other lines are kept as they are. */
int secret_put(const char *buf, size_t len, const char *user, const uint8_t *kh,
    size_t kh_len, const char *line, char **out, size_t *out_len);

#endif
