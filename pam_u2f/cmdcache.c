/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_cache=, the module's side: open the cache directory (root
 * only), save an authcmd= answer after a good run, and use the saved one
 * when the command cannot answer. Its own file because the rule of when
 * a cached answer may stand in for the command is the module's, while
 * the files themselves are common/mapping/authcache.c's. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/err.h"
#include "base/util.h"
#include "cmdcache.h"
#include "converse.h"
#include "mapping/authcache.h"
#include "mapping/authcmd.h"
#include "mapping/authcmd_output.h"

#define CC_MSG_MAX 512

/* The directory (its first at bytes: the step that is missing) does not
 * exist: the log and the user are told, naming it. */
static void
cc_missing(const char *dir, size_t at, const struct debug *dbg)
{
	char msg[CC_MSG_MAX];

	debug_err(dbg,
	    "authcmd_cache=%s: %.*s does not exist; create it: install -d "
	    "-o root -g root -m 700 %s",
	    dir, (int)at, dir, dir);
	snprintf(msg, sizeof(msg), CMDCACHE_MSG_MISSING, dir);
	if (converse_show(dbg->pamh, PAM_ERROR_MSG, msg) != ERR_OK)
		debug_err(dbg, "the message could not be shown");
}

int
cmdcache_open(const struct options *o, const struct debug *dbg, int *dfd)
{
	const char *why = NULL;
	size_t at = 0;
	int r;

	*dfd = -1;
	if (o->authcmd_cache == NULL)
		return ERR_OK;
	if (geteuid() != 0) {
		debug_msg(dbg, "authcmd_cache=%s: not used (not root)",
		    o->authcmd_cache);
		return ERR_OK;
	}
	r = authcmd_open_dir(o->authcmd_cache, dfd, &why, &at);
	if (r == ERR_FILE_UNSAFE)
		debug_err(dbg, "authcmd_cache=%s refused: %.*s %s",
		    o->authcmd_cache, (int)at, o->authcmd_cache, why);
	else if (r == ERR_FILE && errno == ENOENT)
		cc_missing(o->authcmd_cache, at, dbg);
	else if (r == ERR_FILE)
		debug_err(dbg, "authcmd_cache=%s: %.*s: %s", o->authcmd_cache,
		    (int)at, o->authcmd_cache, strerror(errno));
	else if (r != ERR_OK)
		debug_err(dbg,
		    "authcmd_cache=%s: not an absolute path without "
		    "empty, \".\" or \"..\" components",
		    o->authcmd_cache);
	return r == ERR_OK ? ERR_OK : ERR_CONFIG;
}

void
cmdcache_save(int dfd, const char *user, int r, const char *out, size_t len,
    const struct debug *dbg)
{
	const char *what = r == ERR_OK ? "stored" : "deleted";

	if (dfd < 0 || (r != ERR_OK && r != ERR_NOT_FOUND))
		return;
	if (r == ERR_OK)
		r = authcache_store(dfd, user, out, len);
	else
		r = authcache_remove(dfd, user);
	if (r == ERR_OK) {
		debug_msg(dbg, "authcmd_cache: %s the entry of %s", what, user);
		return;
	}
	debug_err(dbg, "authcmd_cache: the entry of %s not %s: %s", user, what,
	    r == ERR_FILE ? strerror(errno) : err_str(r));
	/* An older answer must not outlive a newer one. */
	if (what[0] == 's' && (r = authcache_remove(dfd, user)) == ERR_OK)
		debug_msg(
		    dbg, "authcmd_cache: deleted the older entry of %s", user);
	else if (what[0] == 's')
		debug_err(dbg,
		    "authcmd_cache: the older entry of %s not deleted: %s",
		    user, r == ERR_FILE ? strerror(errno) : err_str(r));
}

/* The entry of user, if fresh: *buf, *len. */
static int
cc_read(int dfd, const struct options *o, const char *user,
    const struct debug *dbg, char **buf, size_t *len)
{
	const char *why = NULL;
	int64_t mtime = 0, age = 0;
	int r;

	r = authcache_load(dfd, user, AUTHCMD_OUT_MAX, buf, len, &mtime, &why);
	if (r == ERR_NOT_FOUND)
		debug_msg(dbg, "authcmd_cache: no entry for %s", user);
	else if (r == ERR_FILE_UNSAFE)
		debug_err(dbg, "authcmd_cache: the entry of %s %s", user, why);
	else if (r != ERR_OK)
		debug_err(dbg, "authcmd_cache: the entry of %s: %s", user,
		    r == ERR_FILE ? strerror(errno) : err_str(r));
	if (r != ERR_OK)
		return r;
	r = authcache_fresh(
	    mtime, (int64_t)time(NULL), o->authcmd_cache_maxage, &age);
	if (r == ERR_OK)
		debug_warn(dbg,
		    "authcmd_cache: using the entry of %s, %lld s old "
		    "(authcmd_cache_maxage %d)",
		    user, (long long)age, o->authcmd_cache_maxage);
	else
		debug_err(dbg,
		    "authcmd_cache: the entry of %s is %s (%lld s; "
		    "authcmd_cache_maxage %d): not used",
		    user, age < 0 ? "from the future" : "too old",
		    (long long)age, o->authcmd_cache_maxage);
	return r;
}

int
cmdcache_use(int dfd, const struct options *o, const char *user,
    const struct debug *dbg, struct cred **creds, size_t *n)
{
	char *buf = NULL;
	size_t len = 0, bad = 0;
	int r;

	*creds = NULL;
	*n = 0;
	if (dfd < 0 || cc_read(dfd, o, user, dbg, &buf, &len) != ERR_OK)
		return ERR_UNAVAIL;
	r = cmdout_find(buf, len, user, creds, n, &bad);
	util_freezero(buf, len);
	if (r == ERR_OK) {
		debug_msg(dbg, "%zu credential(s) for %s from authcmd_cache",
		    *n, user);
		return ERR_OK;
	}
	if (r == ERR_PARSE)
		debug_err(dbg,
		    "authcmd_cache: the entry of %s: line %zu is "
		    "malformed",
		    user, bad);
	else
		debug_err(dbg, "authcmd_cache: the entry of %s: %s", user,
		    err_str(r));
	return r == ERR_NOMEM ? r : ERR_UNAVAIL;
}
