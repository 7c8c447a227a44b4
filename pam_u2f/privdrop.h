/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading files under a user's control with that user's privileges.
 * The change is per thread (raw system calls, not glibc's process-wide
 * seteuid), so a concurrent transaction in another thread of the same
 * process keeps its own credentials. */
#ifndef PU_PRIVDROP_H
#define PU_PRIVDROP_H

#include <pwd.h>
#include <stdbool.h>
#include <sys/types.h>

#define PRIVDROP_GROUPS_MAX 65536

struct privdrop {
	bool dropped;
	uid_t euid;
	gid_t egid;
	gid_t *groups;
	size_t ngroups;
};

/* Become pw (effective uid/gid, groups = pw's primary group only). Does
 * nothing when not running as root or when pw is root. ERR_OK or
 * ERR_SYSTEM/ERR_NOMEM (with the original credentials kept, or abort()
 * as in privdrop_restore). */
int privdrop_drop(struct privdrop *p, const struct passwd *pw);
/* Undo privdrop_drop. If the credentials cannot be restored, logs one
 * line to syslog and calls abort(): the thread must not go on at the
 * user's ids inside a root process. Safe to call when nothing was
 * dropped. */
void privdrop_restore(struct privdrop *p);

#endif
