/* SPDX-License-Identifier: BSD-2-Clause */
/* The state of one pam_sm_authenticate call (authflow.c runs it;
 * touchwait.c, manualconv.c, usermsg.c and authpending.c work on it):
 * everything a call needs lives here, so several transactions can run
 * at once in one process. */
#ifndef PU_CALLCTX_H
#define PU_CALLCTX_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>

#include <security/pam_modules.h>

#include "args.h"
#include "base/cred.h"
#include "debug.h"
#include "retval.h"
#include "userfile.h"

struct call {
	pam_handle_t *pamh;
	struct options opt;
	bool args_ok;
	struct debug dbg;
	const char *user;
	struct passwd pw;
	char *pwbuf;
	struct userfile uf; /* where the credentials came from */
	struct cred *creds;
	size_t ncreds;
	enum retval_what what; /* where the error came from (retval.h) */
	char *pending;         /* authpending file we created, or NULL */
	int cue_err;           /* the cue could not be shown */
	bool waited;        /* the wait for the touch began (after the cue) */
	bool tap;           /* a key on a reader is there: "touch or tap" */
	bool cued;          /* the cue was shown (once a call) */
	unsigned auth_cues; /* cues auth_run asked for (touchwait.c) */
	bool remote;        /* remoteflow_classify: the session is remote */
};

#endif
