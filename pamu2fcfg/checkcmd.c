/* SPDX-License-Identifier: BSD-2-Clause */
/* --check with the configuration file's authcmd=: the user's credentials
 * from the command, run as the module runs it (common/mapping/authcmd.h:
 * the same command line, the same checked walk to the executable, the
 * same spawn as authcmd_user within authcmd_timeout; authcmd_output.h reads the
 * output), never from authcmd_cache: the point is to check the live
 * route before a sudo relies on it. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "mapping/authcmd.h"
#include "mapping/authcmd_user.h"
#include "mapping/authcmd_output.h"
#include "tool.h"

/* authcmd_user's ids and groups into run (common/mapping/authcmd_user.h,
 * as the module looks them up); root or unknown is an error. */
static int
cc_runas(
    const struct tool_opts *o, struct authcmd_run *run, struct authcmd_user *u)
{
	const char *name = o->cf.authcmd_user;
	int e = 0, r;

	memset(u, 0, sizeof(*u));
	if (name == NULL) {
		tool_msg("authcmd needs authcmd_user (an unprivileged account "
			 "to run it as) in %s",
		    o->cf.conf != NULL ? o->cf.conf : conf_default_path());
		return ERR_CONFIG;
	}
	if ((r = authcmd_user_get(name, u, &e)) != ERR_OK) {
		tool_msg("authcmd_user %s: %s", name,
		    r == ERR_NOT_FOUND  ? "no such user"
			: r == ERR_PERM ? "is root; authcmd never runs as root"
			: e != 0        ? strerror(e)
					: err_str(r));
		return r == ERR_NOMEM ? r : ERR_CONFIG;
	}
	run->uid = u->uid;
	run->gid = u->gid;
	run->groups = u->groups;
	run->ngroups = u->ngroups;
	if (geteuid() != 0 && getuid() != run->uid) {
		tool_msg("--check with authcmd runs %s as %s: run it as root "
			 "(sudo pamu2fcfg -u %s --check)",
		    o->cf.authcmd, name, o->user);
		return ERR_PERM;
	}
	return ERR_OK;
}

/* The command line and its checked executable, as the module opens it. */
static int
cc_open(const struct tool_opts *o, char ***argv, int *fd)
{
	const char *why = NULL;
	size_t at = 0;
	int r;

	if ((r = authcmd_argv(o->cf.authcmd, o->user, argv)) != ERR_OK) {
		tool_msg("authcmd %s for %s: %s", o->cf.authcmd, o->user,
		    r == ERR_CONFIG ? "not an absolute path with arguments "
				      "(%u, %% only)"
				    : err_str(r));
		return r;
	}
	r = authcmd_open((*argv)[0], fd, &why, &at);
	if (r == ERR_FILE_UNSAFE)
		tool_msg("authcmd %s refused: %.*s %s", (*argv)[0], (int)at,
		    (*argv)[0], why);
	else if (r == ERR_FILE)
		tool_msg("authcmd %s: %.*s: %s", (*argv)[0], (int)at,
		    (*argv)[0], strerror(errno));
	else if (r != ERR_OK)
		tool_msg("authcmd %s: %s", (*argv)[0], err_str(r));
	return r;
}

/* Its output, read as the module reads it. */
static int
cc_read(const struct tool_opts *o, const char *out, size_t len,
    struct cred **creds, size_t *n)
{
	size_t bad = 0;
	int r = cmdout_find(out, len, o->user, creds, n, &bad);

	if (r == ERR_OK)
		tool_msg("authcmd: %zu credential(s) for %s", *n, o->user);
	else if (r == ERR_NOT_FOUND)
		tool_msg("authcmd answered: no credentials for %s (the module "
			 "says PAM_USER_UNKNOWN)",
		    o->user);
	else if (r == ERR_PARSE)
		tool_msg("authcmd output line %zu is malformed (the module "
			 "says PAM_AUTHINFO_UNAVAIL)",
		    bad);
	else
		tool_msg("authcmd output: %s", err_str(r));
	return r;
}

int
checkcmd_load(const struct tool_opts *o, struct cred **creds, size_t *n)
{
	struct authcmd_result res;
	struct authcmd_run run;
	struct authcmd_user u;
	char **argv = NULL, *out = NULL;
	size_t len = 0;
	int fd = -1, r;

	memset(&run, 0, sizeof(run));
	memset(&res, 0, sizeof(res));
	asuser_leave(o); /* the spawn needs root to take authcmd_user's ids */
	if ((r = cc_runas(o, &run, &u)) != ERR_OK ||
	    (r = cc_open(o, &argv, &fd)) != ERR_OK)
		goto fail;
	run.argv = argv;
	run.fd = fd;
	run.timeout_ms = o->cf.authcmd_timeout * 1000;
	run.max_out = AUTHCMD_OUT_MAX;
	tool_msg("authcmd %s for %s as %s (deadline %d s; never the cache)",
	    argv[0], o->user, o->cf.authcmd_user, o->cf.authcmd_timeout);
	r = authcmd_exec(&run, &out, &len, &res);
	if (r == ERR_UNAVAIL)
		tool_msg("authcmd %s %s: no answer (the module says "
			 "PAM_AUTHINFO_UNAVAIL, or answers from authcmd_cache)",
		    argv[0], res.why != NULL ? res.why : "failed");
	else if (r != ERR_OK)
		tool_msg("authcmd %s: %s", argv[0], err_str(r));
	else
		r = cc_read(o, out, len, creds, n);
fail:
	if (asuser_enter(o) != ERR_OK && r == ERR_OK)
		r = ERR_PERM;
	if (fd >= 0)
		close(fd);
	authcmd_argv_free(argv);
	util_freezero(out, len);
	authcmd_user_free(&u);
	return r;
}
