/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg --audit [FILE]: the users who have no key yet, before the
 * module is made required for everyone (the shipped configuration is
 * strict: no nouserok). Users: root and the uids from UID_MIN to UID_MAX
 * of /etc/login.defs (or --uids), each with a login shell. Each one's
 * mapping file is the one the module would read (FILE, the authfile of
 * pam_u2f.conf, or the per-user default), and a file the user controls is
 * read with that user's ids (asuser.c), never as root. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/safefile.h"
#include "mapping/authfile.h"
#include "tool.h"

#define AUDIT_UID_MIN 1000 /* login.defs(5)'s defaults */
#define AUDIT_UID_MAX 60000
#define AUDIT_PWBUF 16384 /* one passwd entry */

/* What was found for one user. */
enum audit_state { AUDIT_KEY, AUDIT_NO_KEY, AUDIT_CANNOT };

struct audit_count {
	size_t users, no_key, cannot;
};

/* UID_MIN and UID_MAX from login.defs; missing keys keep the
 * defaults, a missing file too. */
static void
audit_login_defs(const char *path, unsigned long *min, unsigned long *max)
{
	char line[256], key[64];
	unsigned long v;
	FILE *f;

	*min = AUDIT_UID_MIN;
	*max = AUDIT_UID_MAX;
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, " %63s %lu", key, &v) != 2)
			continue;
		if (strcmp(key, "UID_MIN") == 0)
			*min = v;
		else if (strcmp(key, "UID_MAX") == 0)
			*max = v;
	}
	fclose(f);
}

/* A shell one can log in with: set, and not nologin or false. */
static bool
audit_login_shell(const char *sh)
{
	const char *base;

	if (sh == NULL || sh[0] == '\0')
		return false;
	base = strrchr(sh, '/') != NULL ? strrchr(sh, '/') + 1 : sh;
	return strcmp(base, "nologin") != 0 && strcmp(base, "false") != 0;
}

static void
audit_say(const struct passwd *pw, const char *state, const char *path,
    const char *why)
{
	printf("%s\t%s\t%s%s%s\n", pw->pw_name, state, path,
	    why != NULL ? ": " : "", why != NULL ? why : "");
}

/* Read path (already with the right ids) and classify pw's entry. */
static enum audit_state
audit_read(const struct tool_opts *o, const struct passwd *pw, const char *path)
{
	struct safefile_policy pol;
	struct cred *creds = NULL;
	const char *why = NULL, *note = NULL;
	char *buf = NULL, msg[64];
	size_t len = 0, n = 0, bad = 0;
	int r, e;

	manage_policy(o, &pol, &note);
	r = safefile_read(path, &pol, &buf, &len, &why);
	e = errno;
	if (r == ERR_FILE && e == ENOENT) {
		audit_say(pw, "no key", path, "does not exist");
		return AUDIT_NO_KEY;
	}
	if (r != ERR_OK) {
		audit_say(pw, "cannot check", path,
		    r == ERR_FILE ? strerror(e)
				  : (why != NULL ? why : err_str(r)));
		return AUDIT_CANNOT;
	}
	r = authfile_find(buf, len, pw->pw_name, &creds, &n, &bad);
	free(buf);
	cred_free_list(creds, n);
	if (r == ERR_OK && n > 0) {
		if (o->verbose)
			audit_say(pw, "key", path, NULL);
		return AUDIT_KEY;
	}
	if (r == ERR_OK || r == ERR_NOT_FOUND) {
		audit_say(pw, "no key", path, "no credentials for the user");
		return AUDIT_NO_KEY;
	}
	snprintf(msg, sizeof(msg), "line %zu is malformed", bad);
	audit_say(pw, "cannot check", path, r == ERR_PARSE ? msg : err_str(r));
	return AUDIT_CANNOT;
}

/* One user: the file, the ids to read it with, the verdict. */
static enum audit_state
audit_user(struct tool_opts *o, const struct passwd *pw)
{
	enum audit_state st = AUDIT_CANNOT;
	char *path = NULL;
	bool own = tool_own_file(o);

	free(o->user);
	if ((o->user = strdup(pw->pw_name)) == NULL)
		return AUDIT_CANNOT;
	asuser_free(o);
	if (own && geteuid() == 0 && pw->pw_uid != 0 &&
	    asuser_for(o, pw) != ERR_OK) {
		audit_say(
		    pw, "cannot check", pw->pw_dir, "cannot take its ids");
		return AUDIT_CANNOT;
	}
	if (own && geteuid() != 0 && geteuid() != pw->pw_uid) {
		audit_say(pw, "cannot check", pw->pw_dir,
		    "another user's own file: run as root");
		return AUDIT_CANNOT;
	}
	/* The per-user default under the home of passwd, never under the
	 * invoking user's HOME or XDG_CONFIG_HOME. */
	if (o->as.home == NULL && (o->as.home = strdup(pw->pw_dir)) == NULL)
		return AUDIT_CANNOT;
	if (manage_path(o, NULL, &path) != ERR_OK) {
		audit_say(
		    pw, "cannot check", pw->pw_dir, "no mapping file path");
		return AUDIT_CANNOT;
	}
	if (asuser_enter(o) == ERR_OK) {
		st = audit_read(o, pw, path);
		asuser_leave(o);
	} else
		audit_say(pw, "cannot check", path, "cannot take its ids");
	free(path);
	return st;
}

int
audit_run(struct tool_opts *o)
{
	struct audit_count n = {0, 0, 0};
	unsigned long min = o->uid_min, max = o->uid_max;
	struct passwd pwbuf, *pw = NULL;
	char buf[AUDIT_PWBUF];
	int e;

	if (!o->uids_set)
		audit_login_defs(
		    o->login_defs != NULL ? o->login_defs : TOOL_LOGIN_DEFS,
		    &min, &max);
	setpwent();
	/* Into our own buffer: the lookups of each user (getpwnam) must
	 * not overwrite the entry. */
	while ((e = getpwent_r(&pwbuf, buf, sizeof(buf), &pw)) == 0 &&
	    pw != NULL) {
		if ((pw->pw_uid != 0 &&
			(pw->pw_uid < min || pw->pw_uid > max)) ||
		    !audit_login_shell(pw->pw_shell))
			continue;
		n.users++;
		switch (audit_user(o, pw)) {
		case AUDIT_NO_KEY:
			n.no_key++;
			break;
		case AUDIT_CANNOT:
			n.cannot++;
			break;
		default:
			break;
		}
	}
	endpwent();
	if (e != 0 && e != ENOENT) {
		/* Never a short list taken for a complete one. */
		tool_msg("cannot list every user: %s", strerror(e));
		return TOOL_EXIT_FAIL;
	}
	if (fflush(stdout) == EOF)
		return TOOL_EXIT_FAIL;
	tool_msg("%zu user(s) with a login shell, uid 0 or %lu-%lu: %zu "
		 "without a key, %zu could not be checked",
	    n.users, min, max, n.no_key, n.cannot);
	return n.no_key == 0 && n.cannot == 0 ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
}
