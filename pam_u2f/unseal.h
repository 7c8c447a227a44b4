/* SPDX-License-Identifier: BSD-2-Clause */
/* The login secret sealed under a credential's hmac-secret output
 * (issue 30; common/auth/secret.h): before the touch, the salts of the
 * user's credentials that have a record in the mapping file's secrets
 * file; after a verified assertion with UV, the record opened and the
 * secret set as PAM_AUTHTOK for the modules after ours (pam_gnome_keyring,
 * pam_kwallet5). Nothing here changes the login's result: a record that
 * does not open is logged (never its contents) and the login stands or
 * falls on the signature alone. */
#ifndef PU_UNSEAL_H
#define PU_UNSEAL_H

#include <stddef.h>
#include <stdint.h>

#include "auth/auth.h"
#include "auth/secret.h"
#include "callctx.h"

struct unseal {
	struct secret_rec *recs; /* one per credential (empty: none) */
	const uint8_t **salts;   /* for auth_req.hmac_salt, or NULL */
	size_t n;
};

/* Read c's secrets file (the mapping file's path + ".secrets", read as
 * the mapping file is: with the user's privileges for the user's own
 * file; owned by the user or root, not readable by group or others) and
 * fill u. A missing file: nothing to do. Any problem is logged and
 * leaves u empty; the login goes on. */
void unseal_prepare(struct call *c, struct unseal *u);
/* After the verified assertion res: open the record of the credential
 * that signed, when the key gave its output and the UV flag is set, and
 * set PAM_AUTHTOK (unless a module before ours set it). Logs what
 * happened, never the secret. */
void unseal_finish(
    struct call *c, const struct unseal *u, const struct auth_result *res);
void unseal_clear(struct unseal *u);

#endif
