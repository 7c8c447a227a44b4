#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "cmdcache.h"
#include "cmdsource.h"
#include "mapping/authcmd.h"
#include "mapping/cmdout.h"

#define CS_PWBUF (16 * 1024)
#define CS_GROUPS_MAX 65536

/* authcmd_user: its ids and groups, looked up here (in the child, only
 * system calls). Root, or a name without an account, is ERR_CONFIG. */
struct runas {
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t ngroups;
};

static int
runas_groups(const char *name, struct runas *ra)
{
	int n = 16;
	gid_t *g = NULL, *ng;

	for (;;) {
		if ((ng = realloc(g, (size_t)n * sizeof(*g))) == NULL) {
			free(g);
			return ERR_NOMEM;
		}
		g = ng;
		if (getgrouplist(name, ra->gid, g, &n) >= 0)
			break;
		if (n <= 0 || n > CS_GROUPS_MAX) {
			free(g);
			return ERR_SYSTEM;
		}
	}
	ra->groups = g;
	ra->ngroups = (size_t)n;
	return ERR_OK;
}

static int
runas_get(const char *name, const struct debug *dbg, struct runas *ra)
{
	struct passwd pw, *res = NULL;
	char *buf;
	int e, r;

	memset(ra, 0, sizeof(*ra));
	if (name == NULL) {
		debug_err(dbg,
		    "authcmd= needs authcmd_user= (an unprivileged "
		    "account to run it as)");
		return ERR_CONFIG;
	}
	if ((buf = malloc(CS_PWBUF)) == NULL)
		return ERR_NOMEM;
	e = getpwnam_r(name, &pw, buf, CS_PWBUF, &res);
	if (res == NULL) {
		debug_err(dbg, "authcmd_user=%s: %s", name,
		    e != 0 ? strerror(e) : "no such user");
		r = ERR_CONFIG;
	} else if (pw.pw_uid == 0) {
		debug_err(dbg,
		    "authcmd_user=%s: is root; authcmd never runs "
		    "as root",
		    name);
		r = ERR_CONFIG;
	} else {
		ra->uid = pw.pw_uid;
		ra->gid = pw.pw_gid;
		r = runas_groups(name, ra);
	}
	free(buf);
	return r;
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
	if (res->why == NULL)
		debug_msg(dbg, "authcmd %s (pid %ld) exited with status 0", cmd,
		    (long)res->pid);
	else
		debug_err(dbg,
		    "authcmd %s (pid %ld) %s: no answer (PAM_AUTHINFO_UNAVAIL)",
		    cmd, (long)res->pid, res->why);
}

/* Run it; *out its output. */
static int
cs_run(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len)
{
	struct authcmd_result res;
	struct authcmd_run rn;
	struct runas ra;
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
	if (r == ERR_OK || r == ERR_UNAVAIL)
		cs_log_result(dbg, argv[0], &res);
	else
		debug_err(dbg, "authcmd %s: %s", argv[0], err_str(r));
fail:
	if (fd >= 0)
		close(fd);
	authcmd_argv_free(argv);
	free(ra.groups);
	return r;
}

/* Run it and read its output; *out, *len what it printed. */
static int
cs_answer(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len, struct cred **creds,
    size_t *n)
{
	size_t bad = 0;
	int r;

	if ((r = cs_run(o, pw, dbg, out, len)) != ERR_OK)
		return r;
	r = cmdout_find(*out, *len, pw->pw_name, creds, n, &bad);
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
	int dfd = -1, r;

	*creds = NULL;
	*n = 0;
	*no_creds = false;
	if ((r = cmdcache_open(o, dbg, &dfd)) != ERR_OK)
		return r;
	r = cs_answer(o, pw, dbg, &out, &len, creds, n);
	if (r == ERR_OK || r == ERR_NOT_FOUND)
		cmdcache_save(dfd, pw->pw_name, r, out, len, dbg);
	*no_creds = r == ERR_NOT_FOUND;
	/* No answer: the command ran and failed, or printed nonsense. */
	if (r == ERR_UNAVAIL || r == ERR_PARSE)
		r = cmdcache_use(dfd, o, pw->pw_name, dbg, creds, n) == ERR_OK
		    ? ERR_OK
		    : r;
	if (dfd >= 0)
		close(dfd);
	util_freezero(out, len);
	return r;
}
