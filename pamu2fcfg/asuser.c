/* SPDX-License-Identifier: BSD-2-Clause */
/* root running pamu2fcfg for another user (`-u alice --add`, no FILE):
 * alice's own mapping file is found from her passwd entry (not root's
 * HOME or XDG_CONFIG_HOME), and every file operation on it runs with her
 * effective uid, gid and groups, so that the folders and the file are
 * created as hers and nothing is done there that she could not do
 * herself. Only opening the devices runs as root (hidraw nodes are often
 * root's). The real and saved uid stay root's: alice cannot signal or
 * trace the process meanwhile (the kernel clears its dumpable flag). */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "tool.h"

#define ASUSER_GROUPS_MAX 65536

bool
tool_own_file(const struct tool_opts *o)
{
	if (o->mode == TOOL_PRINT || o->file != NULL)
		return false;
	return o->cf.authfile == NULL || o->cf.authfile[0] == '\0' ||
	    o->cf.authfile[0] != '/';
}

static int
asuser_groups(struct tool_asuser *a, const struct passwd *pw)
{
	int n = 64;

	for (;;) {
		free(a->groups);
		if ((a->groups = calloc((size_t)n, sizeof(gid_t))) == NULL)
			return ERR_NOMEM;
		if (getgrouplist(pw->pw_name, pw->pw_gid, a->groups, &n) >= 0)
			break;
		if (n <= 0 || n > ASUSER_GROUPS_MAX)
			return ERR_SYSTEM;
	}
	a->ngroups = (size_t)n;
	if ((n = getgroups(0, NULL)) < 0 || n > ASUSER_GROUPS_MAX ||
	    (a->root_groups = calloc((size_t)n + 1, sizeof(gid_t))) == NULL ||
	    (n = getgroups(n, a->root_groups)) < 0)
		return ERR_SYSTEM;
	a->nroot_groups = (size_t)n;
	return ERR_OK;
}

/* Fill o->as for pw, another user than root. */
static int
asuser_fill(struct tool_opts *o, const struct passwd *pw)
{
	struct tool_asuser *a = &o->as;

	if (pw->pw_dir == NULL || pw->pw_dir[0] != '/') {
		tool_msg(
		    "%s has no absolute home folder; name a FILE", o->user);
		return ERR_CONFIG;
	}
	if ((a->home = strdup(pw->pw_dir)) == NULL)
		return ERR_NOMEM;
	a->uid = pw->pw_uid;
	a->gid = pw->pw_gid;
	if (asuser_groups(a, pw) != ERR_OK) {
		tool_msg("cannot find the groups of %s; name a FILE", o->user);
		return ERR_SYSTEM;
	}
	a->on = true;
	return ERR_OK;
}

int
asuser_for(struct tool_opts *o, const struct passwd *pw)
{
	asuser_free(o);
	return asuser_fill(o, pw);
}

/* Not root: only the invoking user's own default file can be meant. */
static int
asuser_self(const struct tool_opts *o)
{
	struct passwd *pw = getpwuid(getuid());

	if (pw != NULL && pw->pw_name != NULL &&
	    strcmp(pw->pw_name, o->user) == 0)
		return ERR_OK;
	tool_msg("-u %s without a FILE: only %s or root can write %s's "
		 "mapping file; run as %s or name a FILE",
	    o->user, o->user, o->user, o->user);
	return ERR_PERM;
}

int
asuser_begin(struct tool_opts *o)
{
	struct passwd *pw;
	int r;

	if (!tool_own_file(o))
		return ERR_OK;
	if (geteuid() != 0)
		return asuser_self(o);
	errno = 0;
	if ((pw = getpwnam(o->user)) == NULL) {
		tool_msg("no user %s on this system: cannot find their "
			 "mapping file; name a FILE",
		    o->user);
		return ERR_NOT_FOUND;
	}
	if (pw->pw_uid == 0)
		return ERR_OK; /* root's own file, as before */
	if ((r = asuser_fill(o, pw)) != ERR_OK)
		return r;
	if ((r = asuser_enter(o)) != ERR_OK)
		return r;
	if (o->verbose)
		tool_msg("working on the files of %s as %s", o->user, o->user);
	return ERR_OK;
}

int
asuser_enter(const struct tool_opts *o)
{
	const struct tool_asuser *a = &o->as;

	if (!a->on)
		return ERR_OK;
	if (setgroups(a->ngroups, a->groups) != 0 || setegid(a->gid) != 0 ||
	    seteuid(a->uid) != 0 || geteuid() != a->uid ||
	    getegid() != a->gid) {
		tool_msg(
		    "cannot take the ids of %s: %s", o->user, strerror(errno));
		asuser_leave(o);
		return ERR_SYSTEM;
	}
	return ERR_OK;
}

void
asuser_leave(const struct tool_opts *o)
{
	const struct tool_asuser *a = &o->as;

	if (!a->on)
		return;
	if (seteuid(0) != 0 || setegid(0) != 0 ||
	    setgroups(a->nroot_groups, a->root_groups) != 0 || geteuid() != 0) {
		tool_msg("cannot return to root's ids: %s", strerror(errno));
		_exit(TOOL_EXIT_FAIL); /* never go on with the wrong ids */
	}
}

void
asuser_free(struct tool_opts *o)
{
	free(o->as.home);
	free(o->as.groups);
	free(o->as.root_groups);
	memset(&o->as, 0, sizeof(o->as));
}
