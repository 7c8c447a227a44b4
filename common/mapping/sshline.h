/* SPDX-License-Identifier: BSD-2-Clause */
/* The user's OpenSSH FIDO public keys for remote=agent (pam_u2f(8),
 * SUDO OVER SSH), from the two text forms they come in:
 *
 *   mapping file   @ssh-sk USER [OPTIONS] KEYTYPE BASE64 [COMMENT]
 *                  (a line of the mapping file, beside the "user:..."
 *                  lines; pam-u2f and older versions of ours skip it as
 *                  a line of no user: its first field holds blanks)
 *   authcmd=       [OPTIONS] KEYTYPE BASE64 [COMMENT]
 *                  (authorized_keys lines, as sss_ssh_authorizedkeys
 *                  prints them for one user)
 *
 * KEYTYPE is sk-ecdsa-sha2-nistp256@openssh.com or
 * sk-ssh-ed25519@openssh.com; OPTIONS no-touch-required and/or
 * verify-required (ssh/ssh.h, sshpub_parse). */
#ifndef PU_SSHLINE_H
#define PU_SSHLINE_H

#include <stddef.h>

#include "ssh/ssh.h"

#define SSHLINE_MARK "@ssh-sk" /* followed by a blank */
#define SSHLINE_KEYS_MAX 64    /* keys one user may have */

/* Does the line s (len bytes), after leading blanks, start with
 * SSHLINE_MARK and a blank? (authscan.c skips such lines as no user's.) */
bool sshline_is_mark(const char *s, size_t len);

/* The @ssh-sk lines of user in a mapping file held in memory (buf, len;
 * need not be NUL-terminated), in file order. ERR_OK with *n >= 1;
 * ERR_NOT_FOUND when the user has none; ERR_PARSE with *bad_line
 * (1-based) for a NUL byte anywhere, or a line of the user's that
 * sshpub_parse refuses (any reason: malformed, an option we cannot
 * honour, another key type: a line the administrator wrote for the
 * user must be usable); ERR_TOO_BIG above SSHLINE_KEYS_MAX; ERR_INVAL
 * for an empty user; ERR_NOMEM. Other users' lines are not parsed.
 * Free *keys with sshpub_free_list. */
int sshline_find(const char *buf, size_t len, const char *user,
    struct sshpub **keys, size_t *n, size_t *bad_line);

/* authorized_keys lines (authcmd= output for one user). Blank lines and
 * '#' comments are skipped; so is a line of another key type
 * (ssh-ed25519, ssh-rsa, ...: sshpub_parse's ERR_UNSUPPORTED), counted
 * in *nother. Any other line that sshpub_parse refuses is ERR_PARSE
 * with *bad_line (fail closed: an sk key with from= is not used without
 * its restriction). ERR_NOT_FOUND when no FIDO key is left; otherwise
 * as sshline_find. */
int sshline_authorized(const char *buf, size_t len, struct sshpub **keys,
    size_t *n, size_t *nother, size_t *bad_line);

#endif
