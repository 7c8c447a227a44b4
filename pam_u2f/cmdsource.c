/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: the user's credentials from a command instead of a mapping
 * file. Looks up the user to run it as, runs it (common/mapping/
 * authcmd.c), reads its lines (cmdout.c), logs the outcome without the
 * output, and falls back to authcmd_cache= (cmdcache.c) when allowed.
 * Its own file because it is the one alternative to userfile.c. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/err.h"
#include "base/util.h"
#include "cmdcache.h"
#include "cmdsource.h"
#include "converse.h"
#include "mapping/authcmd.h"
#include "mapping/authcmd_user.h"
#include "mapping/authcmd_output.h"

#define CS_MSG_MAX 512

/* authcmd_user names no account: the log and the user are told which
 * (sudo itself says only "Error in service module"). */
static int
cs_no_user(const char *name, const struct debug *dbg)
{
	char msg[CS_MSG_MAX];

	debug_err(dbg,
	    "authcmd_user=%s: no such user; create the account, e.g. "
	    "adduser --system --group --no-create-home %s",
	    name, name);
	snprintf(msg, sizeof(msg), CMDSOURCE_MSG_NO_USER, name);
	if (converse_show(dbg->pamh, PAM_ERROR_MSG, msg) != ERR_OK)
		debug_err(dbg, "the message could not be shown");
	return ERR_CONFIG;
}

/* authcmd_user's ids and groups (common/mapping/authcmd_user.h); every
 * refusal is ERR_CONFIG, named in the log (a missing account to the
 * user too). */
static int
runas_get(const char *name, const struct debug *dbg, struct authcmd_user *u)
{
	int e = 0, r;

	memset(u, 0, sizeof(*u));
	if (name == NULL) {
		debug_err(dbg,
		    "authcmd= needs authcmd_user= (an unprivileged "
		    "account to run it as)");
		return ERR_CONFIG;
	}
	switch ((r = authcmd_user_get(name, u, &e))) {
	case ERR_OK:
	case ERR_NOMEM:
		return r;
	case ERR_NOT_FOUND:
		return cs_no_user(name, dbg);
	case ERR_PERM:
		debug_err(dbg,
		    "authcmd_user=%s: is root; authcmd never runs "
		    "as root",
		    name);
		return ERR_CONFIG;
	default:
		debug_err(dbg, "authcmd_user=%s: %s", name,
		    e != 0 ? strerror(e) : err_str(r));
		return ERR_CONFIG;
	}
}

/* The command line and its checked executable. */
static int
cs_open(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char ***argv, int *fd)
{
	const char *why = NULL;
	size_t at = 0;
	int r;

	if ((r = authcmd_argv(o->authcmd, pw->pw_name, argv)) != ERR_OK) {
		if (r == ERR_CONFIG)
			debug_err(dbg,
			    "authcmd=%s: not an absolute path with "
			    "arguments (%%u, %%%% only, at most %d)",
			    o->authcmd, AUTHCMD_ARGS_MAX);
		else
			debug_err(dbg, "authcmd: user %s: %s", pw->pw_name,
			    err_str(r));
		return r;
	}
	r = authcmd_open((*argv)[0], fd, &why, &at);
	if (r == ERR_FILE_UNSAFE)
		debug_err(dbg, "authcmd %s refused: %.*s %s", (*argv)[0],
		    (int)at, (*argv)[0], why);
	else if (r == ERR_FILE)
		debug_err(dbg, "authcmd %s: %.*s: %s", (*argv)[0], (int)at,
		    (*argv)[0], strerror(errno));
	else if (r != ERR_OK)
		debug_err(dbg, "authcmd %s: %s", (*argv)[0], err_str(r));
	return r;
}

static void
cs_log_result(
    const struct debug *dbg, const char *cmd, const struct authcmd_result *res)
{
	int st = res->status;

	if (res->why == NULL)
		debug_msg(dbg, "authcmd %s (pid %ld) exited with status 0", cmd,
		    (long)res->pid);
	else if (res->step != NULL)
		debug_err(dbg,
		    "authcmd %s (pid %ld) %s: %s failed: %s (not answered "
		    "from a cache)",
		    cmd, (long)res->pid, res->why, res->step,
		    strerror(res->err));
	else if (res->err != 0)
		debug_err(dbg,
		    "authcmd %s (pid %ld) %s: %s (not answered from a cache)",
		    cmd, (long)res->pid, res->why, strerror(res->err));
	else if (res->ended && WIFSIGNALED(st))
		debug_err(dbg, "authcmd %s (pid %ld) %s (%d, %s): no answer",
		    cmd, (long)res->pid, res->why, WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
	else if (res->ended && !res->unreachable)
		debug_err(dbg, "authcmd %s (pid %ld) %s (%d): no answer", cmd,
		    (long)res->pid, res->why, WEXITSTATUS(st));
	else
		debug_err(dbg, "authcmd %s (pid %ld) %s: no answer", cmd,
		    (long)res->pid, res->why);
}

/* Run it; *out its output. */
static int
cs_run(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len, bool *unreachable)
{
	struct authcmd_result res;
	struct authcmd_run rn;
	struct authcmd_user ra;
	char **argv = NULL;
	int fd = -1, r;

	memset(&rn, 0, sizeof(rn));
	if ((r = runas_get(o->authcmd_user, dbg, &ra)) != ERR_OK ||
	    (r = cs_open(o, pw, dbg, &argv, &fd)) != ERR_OK)
		goto fail;
	rn.argv = argv;
	rn.fd = fd;
	rn.uid = ra.uid;
	rn.gid = ra.gid;
	rn.groups = ra.groups;
	rn.ngroups = ra.ngroups;
	rn.timeout_ms = o->authcmd_timeout * 1000;
	rn.max_out = AUTHCMD_OUT_MAX;
	debug_msg(dbg, "authcmd %s for %s as %s, deadline %d s", argv[0],
	    pw->pw_name, o->authcmd_user, o->authcmd_timeout);
	r = authcmd_exec(&rn, out, len, &res);
	if (r == ERR_OK || r == ERR_UNAVAIL || r == ERR_SYSTEM)
		cs_log_result(dbg, argv[0], &res);
	else
		debug_err(dbg, "authcmd %s: %s", argv[0], err_str(r));
	*unreachable = r == ERR_UNAVAIL && res.unreachable;
fail:
	if (fd >= 0)
		close(fd);
	authcmd_argv_free(argv);
	authcmd_user_free(&ra);
	return r;
}

/* Lines without a colon that were skipped, with their numbers, as for
 * a mapping file (userfile.c). */
static void
cs_log_skipped(const struct debug *dbg, const struct cmdout_skipped *sk)
{
	char nums[CMDOUT_SKIPPED_MAX * 22 + 8];
	size_t i, k = sk->n < CMDOUT_SKIPPED_MAX ? sk->n : CMDOUT_SKIPPED_MAX;
	int at = 0;

	if (sk->n == 0)
		return;
	nums[0] = '\0';
	for (i = 0; i < k; i++)
		at += snprintf(nums + at, sizeof(nums) - (size_t)at, "%s%zu",
		    i > 0 ? ", " : "", sk->line[i]);
	debug_warn(dbg,
	    "authcmd output: %zu line(s) without a colon skipped (line%s "
	    "%s%s)",
	    sk->n, sk->n > 1 ? "s" : "", nums, sk->n > k ? ", ..." : "");
}

/* Run it and read its output; *out, *len what it printed; *unreachable
 * when it exited with status 1. */
static int
cs_answer(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len, struct cred **creds,
    size_t *n, bool *unreachable)
{
	struct cmdout_skipped sk;
	size_t bad = 0;
	int r;

	*unreachable = false;
	if ((r = cs_run(o, pw, dbg, out, len, unreachable)) != ERR_OK)
		return r;
	r = cmdout_find_skipped(*out, *len, pw->pw_name, creds, n, &bad, &sk);
	cs_log_skipped(dbg, &sk);
	if (r == ERR_OK)
		debug_msg(dbg, "%zu credential(s) for %s from authcmd", *n,
		    pw->pw_name);
	else if (r == ERR_NOT_FOUND)
		debug_msg(dbg, "authcmd: no credentials for %s", pw->pw_name);
	else if (r == ERR_PARSE)
		debug_err(dbg,
		    "authcmd output line %zu is malformed "
		    "(PAM_AUTHINFO_UNAVAIL)",
		    bad);
	else
		debug_err(dbg, "authcmd output: %s", err_str(r));
	return r;
}

int
cmdsource_load(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct cred **creds, size_t *n, bool *no_creds)
{
	char *out = NULL;
	size_t len = 0;
	bool unreachable = false;
	int dfd = -1, r;

	*creds = NULL;
	*n = 0;
	*no_creds = false;
	if ((r = cmdcache_open(o, dbg, &dfd)) != ERR_OK)
		return r;
	r = cs_answer(o, pw, dbg, &out, &len, creds, n, &unreachable);
	if (r == ERR_OK || r == ERR_NOT_FOUND)
		cmdcache_save(dfd, pw->pw_name, r, out, len, dbg);
	*no_creds = r == ERR_NOT_FOUND;
	/* Only the command's own "unreachable" (exit status 1) may be
	 * answered from the cache: anything else (a signal, the deadline,
	 * a set-up failure, a lost status, too much or malformed output)
	 * a caller of a setuid host may have caused on purpose. */
	if (unreachable)
		r = cmdcache_use(dfd, o, pw->pw_name, dbg, creds, n) == ERR_OK
		    ? ERR_OK
		    : r;
	else if (dfd >= 0 && r != ERR_OK && r != ERR_NOT_FOUND)
		debug_err(dbg,
		    "authcmd_cache: not used for %s: only exit status 1 "
		    "(unreachable) is answered from it",
		    pw->pw_name);
	if (dfd >= 0)
		close(dfd);
	util_freezero(out, len);
	return r;
}

int
cmdsource_output(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len)
{
	bool unreachable = false;

	*out = NULL;
	*len = 0;
	return cs_run(o, pw, dbg, out, len, &unreachable);
}
