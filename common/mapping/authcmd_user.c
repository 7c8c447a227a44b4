/* SPDX-License-Identifier: BSD-2-Clause */
/* The account an authcmd= command runs as (authcmd_user.h): its ids
 * and its own supplementary groups, looked up once. Its own file because
 * the module (pam_u2f/cmdsource.c) and pamu2fcfg --check
 * (pamu2fcfg/checkcmd.c) must run the command as exactly the same
 * account, and neither should carry the lookup. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "authcmd_user.h"
#include "base/err.h"

#define AU_PWBUF (16 * 1024)
#define AU_GROUPS_MAX 65536

static int
au_groups(const char *name, struct authcmd_user *u)
{
	int n = 16;
	gid_t *g = NULL, *ng;

	for (;;) {
		if ((ng = realloc(g, (size_t)n * sizeof(*g))) == NULL) {
			free(g);
			return ERR_NOMEM;
		}
		g = ng;
		if (getgrouplist(name, u->gid, g, &n) >= 0)
			break;
		if (n <= 0 || n > AU_GROUPS_MAX) {
			free(g);
			return ERR_SYSTEM;
		}
	}
	u->groups = g;
	u->ngroups = (size_t)n;
	return ERR_OK;
}

int
authcmd_user_get(const char *name, struct authcmd_user *u, int *sys_errno)
{
	struct passwd pw, *res = NULL;
	char *buf;
	int e, r;

	memset(u, 0, sizeof(*u));
	*sys_errno = 0;
	if ((buf = malloc(AU_PWBUF)) == NULL)
		return ERR_NOMEM;
	e = getpwnam_r(name, &pw, buf, AU_PWBUF, &res);
	if (res == NULL) {
		*sys_errno = e;
		r = e == 0 ? ERR_NOT_FOUND : ERR_SYSTEM;
	} else if (pw.pw_uid == 0) {
		r = ERR_PERM;
	} else {
		u->uid = pw.pw_uid;
		u->gid = pw.pw_gid;
		r = au_groups(name, u);
	}
	free(buf);
	if (r != ERR_OK)
		memset(u, 0, sizeof(*u));
	return r;
}

void
authcmd_user_free(struct authcmd_user *u)
{
	free(u->groups);
	memset(u, 0, sizeof(*u));
}
