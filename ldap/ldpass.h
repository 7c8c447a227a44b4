/* SPDX-License-Identifier: BSD-2-Clause */
/* The simple bind's password file. */
#ifndef PU_LDPASS_H
#define PU_LDPASS_H

#include <stddef.h>

#define LDPASS_MAX 1024 /* bytes of a password file */

/* Read the password in path: the file must be a regular file (not a
 * symbolic link), owned by root, not writable by group or others and not
 * readable by others (0640 root:<the helper's group>, 0600 or 0400).
 * One line; a final "\n" is dropped; empty, a NUL or a second line is
 * refused. *pw is malloc'd; the caller wipes it (ldpass_free).
 * ERR_OK; ERR_FILE (errno kept), ERR_FILE_UNSAFE, ERR_TOO_BIG,
 * ERR_PARSE, ERR_NOMEM with a static sentence in *why. */
int ldpass_read(const char *path, char **pw, size_t *len, const char **why);

/* Wipe and free a password of len bytes. */
void ldpass_free(char *pw, size_t len);

#endif
