/* SPDX-License-Identifier: BSD-2-Clause */
/* The "authentication pending" file (authpending_file=, as pam-u2f): it
 * exists while the module waits for the touch, so a desktop can show a
 * notification. */
#ifndef PU_AUTHPENDING_H
#define PU_AUTHPENDING_H

#include "callctx.h"

#define PENDING_DEFAULT_FMT "/var/run/user/%lu/pam-u2f-authpending"

/* Failure to create it is only a debug line. */
void pending_create(struct call *c);
void pending_remove(struct call *c);

#endif
