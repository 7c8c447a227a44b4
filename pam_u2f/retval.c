/* Internal errors to PAM codes (see RETURN VALUES in pam_u2f(8)). Only
 * ERR_OK is PAM_SUCCESS; only the narrow nouserok case is PAM_IGNORE; every
 * other code, including ones not listed, is a failure. */
#include "config.h"

#include <security/pam_modules.h>

#include "base/err.h"
#include "retval.h"

int
retval_pam(int err, bool no_creds_ok)
{
	switch (err) {
	case ERR_OK:
		return PAM_SUCCESS;
	case ERR_NOT_FOUND:
		/* No mapping file, no line, or no credentials. */
		return no_creds_ok ? PAM_IGNORE : PAM_USER_UNKNOWN;
	case ERR_FILE:
	case ERR_FILE_UNSAFE:
	case ERR_PARSE:
	case ERR_TOO_BIG:
	case ERR_UNSUPPORTED:
	case ERR_UNAVAIL:
		/* The mapping file cannot be used (or its credentials
		 * need FIDO2, which we do not have yet); authcmd= gave no
		 * authoritative answer. */
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
