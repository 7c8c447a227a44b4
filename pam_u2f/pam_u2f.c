/* SPDX-License-Identifier: BSD-2-Clause */
/* pam_u2f: a FIDO U2F security key as a second factor. The entry points
 * only; see authflow.c for the flow and pam_u2f(8) for the contract. */
#include "config.h"

#include <security/pam_modules.h>

#include "authflow.h"
#include "base/err.h"

int
pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	struct call c;
	int r, pr;

	/* PAM_SILENT is not honoured: sudo passes it by default, and the cue
	 * and what went wrong are what the user needs (pam_u2f(8)). */
	(void)flags;
	call_init(&c, pamh);
	if ((r = call_args(&c, argc, argv)) == ERR_OK)
		r = call_authenticate(&c);
	pr = call_result(&c, r);
	call_free(&c);
	return pr;
}

int
pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
