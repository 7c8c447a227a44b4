/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_user: the account an authcmd= command runs as, looked up once
 * for the module (pam_u2f/cmdsource.c) and pamu2fcfg --check
 * (pamu2fcfg/checkcmd.c), so that both run the command with the same ids and
 * exactly the account's own supplementary groups. */
#ifndef PU_AUTHCMD_USER_H
#define PU_AUTHCMD_USER_H

#include <stddef.h>
#include <sys/types.h>

struct authcmd_user {
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* getgrouplist(3): the primary group included */
	size_t ngroups;
};

/* Look name up (getpwnam_r, getgrouplist). ERR_OK with *u filled (free
 * with authcmd_user_free); ERR_NOT_FOUND: no such account; ERR_PERM: it
 * is root (authcmd never runs as root); ERR_SYSTEM: the lookup failed
 * (*sys_errno says why); ERR_NOMEM. *u is zeroed on every error. */
int authcmd_user_get(const char *name, struct authcmd_user *u, int *sys_errno);

void authcmd_user_free(struct authcmd_user *u);

#endif
