/* SPDX-License-Identifier: BSD-2-Clause */
/* One pam_sm_authenticate call, from arguments to the PAM code; its
 * state is struct call (callctx.h). */
#ifndef PU_AUTHFLOW_H
#define PU_AUTHFLOW_H

#include <security/pam_modules.h>

#include "callctx.h"

void call_init(struct call *c, pam_handle_t *pamh);
/* Parse the arguments and open the debug sink. */
int call_args(struct call *c, int argc, const char **argv);
/* The second factor, from user lookup to a verified signature. */
int call_authenticate(struct call *c);
/* The PAM code for err, with alwaysok applied (and logged). */
int call_result(struct call *c, int err);
void call_free(struct call *c);

#endif
