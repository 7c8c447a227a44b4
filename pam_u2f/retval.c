/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal errors to PAM codes (see RETURN VALUES in pam_u2f(8)). Only
 * ERR_OK is PAM_SUCCESS; only a missing file, line or credential with
 * nouserok is PAM_IGNORE; every other code, including ones not listed, is
 * a failure. Where pam-u2f 1.4 returns another code, ours is the one
 * that fails closed in a stack that branches on it: a missing file is
 * PAM_AUTHINFO_UNAVAIL as there (never PAM_USER_UNKNOWN, which
 * [user_unknown=ignore] skips), and a mapping file refused or malformed
 * is PAM_AUTH_ERR (never PAM_AUTHINFO_UNAVAIL, which
 * [authinfo_unavail=ignore] skips). */
#include "config.h"

#include <security/pam_modules.h>

#include "base/err.h"
#include "retval.h"

/* ERR_NOT_FOUND: the user, the file, or the user's line is not there. */
static int
retval_absent(enum retval_what what, bool nouserok)
{
	switch (what) {
	case RETVAL_NO_USER:
		return PAM_SYSTEM_ERR; /* pam-u2f 1.4 */
	case RETVAL_NO_FILE:
		return nouserok ? PAM_IGNORE : PAM_AUTHINFO_UNAVAIL;
	case RETVAL_NO_CREDS:
		return nouserok ? PAM_IGNORE : PAM_USER_UNKNOWN;
	default:
		return PAM_AUTH_ERR;
	}
}

/* The mapping file was there but refused (unsafe, too big) or is
 * malformed: pam-u2f 1.4 read it and failed (PAM_AUTH_ERR), or had no
 * such check; a stack must not skip the key for it. */
static bool
retval_file_refused(int err, enum retval_what what)
{
	return what == RETVAL_MAPFILE &&
	    (err == ERR_FILE_UNSAFE || err == ERR_PARSE || err == ERR_TOO_BIG);
}

int
retval_pam(int err, enum retval_what what, bool nouserok)
{
	if (err == ERR_NOT_FOUND)
		return retval_absent(what, nouserok);
	if (retval_file_refused(err, what))
		return PAM_AUTH_ERR;
	switch (err) {
	case ERR_OK:
		return what == RETVAL_REMOTE_IGNORE ? PAM_IGNORE : PAM_SUCCESS;
	case ERR_FILE:
	case ERR_FILE_UNSAFE:
	case ERR_PARSE:
	case ERR_TOO_BIG:
	case ERR_UNSUPPORTED:
	case ERR_UNAVAIL:
		/* The mapping file cannot be read; authcmd= gave no
		 * authoritative answer; no key can do what the
		 * credentials ask. */
		return PAM_AUTHINFO_UNAVAIL;
	case ERR_CONFIG:
	case ERR_INVAL:
		return PAM_SERVICE_ERR;
	case ERR_NOMEM:
		return PAM_BUF_ERR;
	case ERR_SYSTEM:
	case ERR_RANDOM:
	case ERR_CRYPTO:
		return PAM_SYSTEM_ERR;
	case ERR_CANCELLED:
		/* The conversation failed or gave no answer. */
		return PAM_CONV_ERR;
	default:
		/* Timeout, no key, wrong key, bad signature, no presence,
		 * device errors, and anything unforeseen. */
		return PAM_AUTH_ERR;
	}
}
