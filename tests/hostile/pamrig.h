/* SPDX-License-Identifier: BSD-2-Clause */
/* The rig of the hostile tests through libpam (test_pam_hostile.c,
 * test_pam_files.c): one software token holding one credential of
 * alice's, in her default mapping file. */
#ifndef PU_PAMRIG_H
#define PU_PAMRIG_H

#include <stddef.h>

#include "base/cred.h"
#include "tokenctl.h"

#define ORIGIN "pam://hostile"
#define TIMEOUT_S 2
#define OPEN_MS 1000 /* the module's TOUCH_OPEN_MS */
#define ARGS_MAX 1024
#define NODEV "devices=unix:/nonexistent/sock timeout=1"

struct rig {
	struct tokenctl t;
	struct cred c;
};

/* Start the token, enroll it for ORIGIN, write alice's file: 0 or -1. */
int rig_up(struct rig *g);
void rig_down(struct rig *g);
/* A service "name": the module with origin, the token and more args. */
void rig_service(const struct rig *g, const char *name, const char *more);
/* Authentications the token signed. */
size_t touches_of(const struct rig *g);

#endif
