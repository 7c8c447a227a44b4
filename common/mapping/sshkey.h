/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH security-key private key files (sshformat): an unencrypted
 * "-----BEGIN OPENSSH PRIVATE KEY-----" file holding one
 * sk-ecdsa-sha2-nistp256@openssh.com (or sk-ssh-ed25519@openssh.com) key.
 * Yields a credential: key handle, public key, type, presence flag. The
 * application string must be "ssh:". */
#ifndef PU_SSHKEY_H
#define PU_SSHKEY_H

#include <stddef.h>

#include "base/cred.h"

/* buf: the whole file (len bytes, no NUL needed; a NUL byte inside, or
 * more than 16 KiB, is ERR_PARSE). Strict: the BEGIN line first, only
 * empty lines after END, cipher and kdf "none", exactly one key, equal
 * check-ints, padding 1, 2, 3..., and the public blob must match the key
 * in the private section. out gets kh (1..255 bytes for ecdsa, ..1023 for
 * ed25519), pk (65-byte point or 32 bytes), type COSE_ES256/COSE_EDDSA
 * and flags: SSH_SK_USER_PRESENCE_REQD (0x01) -> CRED_PRESENCE,
 * SSH_SK_USER_VERIFICATION_REQD (0x04) -> CRED_VERIFICATION, other bits
 * ignored. ERR_PARSE for anything malformed (out is then zeroed),
 * ERR_NOMEM. Release with cred_clear(). */
int sshkey_parse(const char *buf, size_t len, struct cred *out);

#endif
