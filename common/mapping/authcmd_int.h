/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: between the parent (authcmd.c) and the child's set-up
 * (authcmd_child.c). */
#ifndef PU_AUTHCMD_INT_H
#define PU_AUTHCMD_INT_H

#include <sys/resource.h>

#include "authcmd.h"

#define AC_CHILD_FAIL 127
#define AC_NLIMITS 10 /* resource limits the child resets */

/* The steps of the child's set-up, for the report of one that failed. */
enum ac_step {
	AC_STEP_PGID = 1,
	AC_STEP_LIMITS,
	AC_STEP_FDS,
	AC_STEP_SIGNALS,
	AC_STEP_GROUPS,
	AC_STEP_GID,
	AC_STEP_UID,
	AC_STEP_DROP,
	AC_STEP_CHDIR,
	AC_STEP_FORK,
	AC_STEP_EXEC,
};

/* What a child whose set-up failed writes to the report pipe before it
 * exits (with AC_CHILD_FAIL); after a successful exec the pipe (close on
 * exec) just ends. */
struct ac_report {
	int step; /* enum ac_step */
	int err;  /* errno */
};

/* The words for a step ("resetting the resource limits"); never NULL. */
const char *authcmd_step_str(int step);

/* In the parent: the AC_NLIMITS limits the child sets (sudo's values,
 * the kernel's defaults for the rest, authcmd_child.c), each capped at
 * the hard limit of process 1 where that can be read: limits that no
 * caller of the host chose. */
void authcmd_limits(struct rlimit *lim);

/* In the child, right after the clone: the set-up described in authcmd.h
 * with the limits lim, then the exec; out is the output pipe's write
 * end, report the report pipe's. Only system calls (the parent may have
 * other threads). */
void authcmd_child(const struct authcmd_run *run, const struct rlimit *lim,
    int out, int report) __attribute__((noreturn));

#endif
