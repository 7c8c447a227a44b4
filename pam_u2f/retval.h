/* The one place where internal ERR_* codes become PAM return codes. */
#ifndef PU_RETVAL_H
#define PU_RETVAL_H

#include <stdbool.h>

/* Map err to a PAM code. no_creds_ok: nouserok was given AND err is the
 * "this user has no mapping file, no line or no credentials" case; only
 * then is ERR_NOT_FOUND PAM_IGNORE. Anything unknown is PAM_AUTH_ERR. */
int retval_pam(int err, bool no_creds_ok);

#endif
