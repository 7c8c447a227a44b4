/* SPDX-License-Identifier: BSD-2-Clause */
/* The one place where internal ERR_* codes become PAM return codes. */
#ifndef PU_RETVAL_H
#define PU_RETVAL_H

#include <stdbool.h>

/* Where an error came from, where that changes its PAM code (the table
 * in RETURN VALUES of pam_u2f(8), measured against pam-u2f 1.4). */
enum retval_what {
	RETVAL_OTHER = 0,    /* anywhere else (authcmd=, the keys) */
	RETVAL_NO_USER,      /* ERR_NOT_FOUND: the user is not in passwd */
	RETVAL_NO_FILE,      /* ERR_NOT_FOUND: the mapping file is missing */
	RETVAL_NO_CREDS,     /* ERR_NOT_FOUND: no line, or no credentials */
	RETVAL_MAPFILE,      /* another error reading the mapping file */
	RETVAL_REMOTE_IGNORE /* ERR_OK: remote=ignore in a remote session */
};

/* Map err to a PAM code. nouserok makes PAM_IGNORE of exactly two
 * cases: ERR_NOT_FOUND with RETVAL_NO_FILE or RETVAL_NO_CREDS; the one
 * other PAM_IGNORE is ERR_OK with RETVAL_REMOTE_IGNORE (remote=ignore,
 * set explicitly, in a session found remote). Only ERR_OK is
 * PAM_SUCCESS; anything unknown is PAM_AUTH_ERR. */
int retval_pam(int err, enum retval_what what, bool nouserok);

#endif
