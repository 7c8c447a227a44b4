/* One pam_sm_authenticate call: everything it needs lives here, so
 * several transactions can run at once in one process. */
#ifndef PU_CALL_H
#define PU_CALL_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>

#include <security/pam_modules.h>

#include "args.h"
#include "base/cred.h"
#include "debug.h"

struct call {
	pam_handle_t *pamh;
	struct options opt;
	bool args_ok;
	struct debug dbg;
	const char *user;
	struct passwd pw;
	char *pwbuf;
	struct cred *creds;
	size_t ncreds;
	bool no_creds; /* no mapping file, line or credentials */
	char *pending; /* authpending file we created, or NULL */
	int cue_err;   /* the cue could not be shown */
};

void call_init(struct call *c, pam_handle_t *pamh);
/* Parse the arguments and open the debug sink. */
int call_args(struct call *c, int argc, const char **argv);
/* The second factor, from user lookup to a verified signature. */
int call_authenticate(struct call *c);
/* The PAM code for err, with alwaysok applied (and logged). */
int call_result(struct call *c, int err);
void call_free(struct call *c);

#endif
