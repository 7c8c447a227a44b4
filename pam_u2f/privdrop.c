/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading files under a user's control with that user's privileges,
 * per thread (raw setgroups/setegid/seteuid system calls rather than
 * glibc's process-wide wrappers), and back. Its own file because it is
 * the one place the module changes credentials; a restore that fails
 * aborts the process rather than let it run on with the user's. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "base/err.h"
#include "privdrop.h"

/* glibc's setgroups/setresuid broadcast to every thread; the system calls
 * themselves change only the calling thread. 32-bit ABIs have 16-bit ids
 * in the old calls: use the *32 ones there. */
#ifdef SYS_setgroups32
#define PD_SYS_SETGROUPS SYS_setgroups32
#define PD_SYS_SETRESGID SYS_setresgid32
#define PD_SYS_SETRESUID SYS_setresuid32
#else
#define PD_SYS_SETGROUPS SYS_setgroups
#define PD_SYS_SETRESGID SYS_setresgid
#define PD_SYS_SETRESUID SYS_setresuid
#endif

static int
thr_setgroups(size_t n, const gid_t *g)
{
	return (int)syscall(PD_SYS_SETGROUPS, n, g);
}

static int
thr_setegid(gid_t g)
{
	return (int)syscall(PD_SYS_SETRESGID, (gid_t)-1, g, (gid_t)-1);
}

static int
thr_seteuid(uid_t u)
{
	return (int)syscall(PD_SYS_SETRESUID, (uid_t)-1, u, (uid_t)-1);
}

static int
privdrop_save(struct privdrop *p)
{
	int n;

	if ((n = getgroups(0, NULL)) < 0 || n > PRIVDROP_GROUPS_MAX)
		return ERR_SYSTEM;
	if ((p->groups = calloc((size_t)n + 1, sizeof(gid_t))) == NULL)
		return ERR_NOMEM;
	if ((n = getgroups(n, p->groups)) < 0)
		return ERR_SYSTEM;
	p->ngroups = (size_t)n;
	p->euid = geteuid();
	p->egid = getegid();
	return ERR_OK;
}

int
privdrop_drop(struct privdrop *p, const struct passwd *pw)
{
	int r;

	memset(p, 0, sizeof(*p));
	if (geteuid() != 0 || pw->pw_uid == 0)
		return ERR_OK;
	if ((r = privdrop_save(p)) != ERR_OK)
		goto fail;
	p->dropped = true;
	if (thr_setgroups(1, &pw->pw_gid) != 0 ||
	    thr_setegid(pw->pw_gid) != 0 || thr_seteuid(pw->pw_uid) != 0) {
		r = ERR_SYSTEM;
		goto fail;
	}
	return ERR_OK;
fail:
	privdrop_restore(p);
	return r;
}

/* A thread that cannot get its credentials back would go on inside the
 * host (sudo, a display manager) with the user's: nothing after this may
 * run. One line to syslog (no PAM handle here), then abort(). */
static void
privdrop_stuck(void)
{
	syslog(LOG_AUTHPRIV | LOG_ALERT,
	    "pam_u2f: cannot restore privileges after reading a user's file: "
	    "aborting");
	abort();
}

void
privdrop_restore(struct privdrop *p)
{
	if (p->dropped) {
		if (thr_seteuid(p->euid) != 0 || thr_setegid(p->egid) != 0 ||
		    thr_setgroups(p->ngroups, p->groups) != 0 ||
		    geteuid() != p->euid || getegid() != p->egid)
			privdrop_stuck();
	}
	free(p->groups);
	p->groups = NULL;
	p->ngroups = 0;
	p->dropped = false;
}
