/* SPDX-License-Identifier: BSD-2-Clause */
/* --list and --remove, and the helpers --add and --check share: the
 * user's credentials in a mapping file. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapping/authfile.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "base/safefile.h"
#include "mapping/mappath.h"
#include "tool.h"

int
manage_path(const struct tool_opts *o, struct mapfile_made *made, char **path)
{
	int r;

	if (o->file == NULL) {
		r = config_authfile(o, path);
		if (r == ERR_NOT_FOUND)
			r = mapfile_default_path(o->as.home, made, path);
		return r;
	}
	return (*path = strdup(o->file)) == NULL ? ERR_NOMEM : ERR_OK;
}

bool
manage_same_cred(const struct cred *a, const struct cred *b)
{
	return (a->kh_len == b->kh_len && a->kh_len > 0 &&
		   memcmp(a->kh, b->kh, a->kh_len) == 0) ||
	    (a->pk_len == b->pk_len && a->pk_len > 0 &&
		memcmp(a->pk, b->pk, a->pk_len) == 0);
}

/* authfile_find on text, with a message naming path and line. */
int
manage_find(const struct tool_opts *o, const char *path, const char *buf,
    size_t len, struct cred **creds, size_t *n)
{
	size_t bad = 0;
	int r;

	*creds = NULL;
	*n = 0;
	r = authfile_find(buf, len, o->user, creds, n, &bad);
	if (r == ERR_PARSE)
		tool_msg("%s: line %zu is malformed (fix or remove it first)",
		    path, bad);
	else if (r != ERR_OK && r != ERR_NOT_FOUND)
		tool_msg("%s: %s", path, err_str(r));
	return r;
}

/* The user's own file, read with the user's ids (pamu2fcfg run by the
 * user, or asuser.c): the module's pam-u2f 1.4 allowances apply, a
 * symlink to the user's own file and group write by the user's private
 * group, each with a warning. Any other file: the strict rules. */
void
manage_policy(
    const struct tool_opts *o, struct safefile_policy *pol, const char **note)
{
	struct passwd *pw;

	memset(pol, 0, sizeof(*pol));
	pol->owner = geteuid();
	pol->max_size = TOOL_MAX_FILE;
	pol->note = note;
	if (!tool_own_file(o) || (pw = getpwnam(o->user)) == NULL ||
	    pw->pw_uid != geteuid())
		return;
	mappath_user_policy(pw, true, pol, note); /* the module's rules */
}

/* Load the user's credentials the way the module does: safefile_read,
 * then authfile_find. Explains every failure. */
int
manage_load(
    const struct tool_opts *o, const char *path, struct cred **creds, size_t *n)
{
	struct safefile_policy pol;
	const char *why = NULL, *note = NULL;
	char *buf = NULL;
	size_t len = 0;
	int r;

	manage_policy(o, &pol, &note);
	r = safefile_read(path, &pol, &buf, &len, &why);
	if (r == ERR_OK && note != NULL)
		tool_msg("warning: %s %s", path, note);
	if (r == ERR_FILE) {
		tool_msg("cannot read %s: %s", path, strerror(errno));
		return r;
	}
	if (r != ERR_OK) {
		tool_msg(
		    "refusing %s: %s", path, why != NULL ? why : err_str(r));
		return r;
	}
	r = manage_find(o, path, buf, len, creds, n);
	if (r == ERR_OK && *n == 0) {
		cred_free_list(*creds, 0);
		*creds = NULL;
		r = ERR_NOT_FOUND;
	}
	if (r == ERR_NOT_FOUND) {
		tool_msg("%s: no credentials for %s", path, o->user);
		r = ERR_NOT_FOUND;
	}
	free(buf);
	return r;
}

static void
print_cred(size_t i, const struct cred *c)
{
	uint8_t md[CRYPTO_SHA256_LEN];
	char opts[64];

	snprintf(opts, sizeof(opts), "%s%s%s",
	    (c->flags & CRED_PRESENCE) ? "+presence" : "",
	    (c->flags & CRED_VERIFICATION) ? "+verification" : "",
	    (c->flags & CRED_PIN) ? "+pin" : "");
	if (c->kh_len == 0 || crypto_sha256(c->kh, c->kh_len, md) != ERR_OK)
		memset(md, 0, sizeof(md));
	printf("%zu: %02x%02x%02x%02x %s %s%s\n", i + 1, md[0], md[1], md[2],
	    md[3],
	    cred_type_name(c->type) != NULL ? cred_type_name(c->type)
					    : "unknown",
	    opts[0] != '\0' ? opts : "-",
	    (c->flags & CRED_APPID) ? " (old format, appid)" : "");
}

/* --list: one line per credential, numbered from 1: the first 8 hex
 * digits of SHA-256(key handle), the type and the options. */
int
manage_list(const struct tool_opts *o)
{
	struct cred *creds = NULL;
	char *path = NULL;
	size_t n = 0, i;
	int r;

	if ((r = manage_path(o, NULL, &path)) != ERR_OK ||
	    (r = manage_load(o, path, &creds, &n)) != ERR_OK)
		goto fail;
	for (i = 0; i < n; i++)
		print_cred(i, &creds[i]);
	if (fflush(stdout) == EOF)
		r = ERR_IO;
fail:
	cred_free_list(creds, n);
	free(path);
	return tool_exit_for(r);
}

/* The edited text must hold exactly the old list without number idx. */
static bool
removed_ok(const char *buf, size_t len, const char *user,
    const struct cred *old, size_t n, size_t idx)
{
	struct cred *now = NULL;
	size_t m = 0, i, bad = 0;
	bool ok;
	int r;

	r = authfile_find(buf, len, user, &now, &m, &bad);
	if (n == 1) /* none left: no older line may show through */
		ok = r == ERR_NOT_FOUND || (r == ERR_OK && m == 0);
	else {
		ok = r == ERR_OK && m == n - 1;
		for (i = 0; ok && i < m; i++)
			ok = manage_same_cred(
			    &now[i], &old[i < idx ? i : i + 1]);
	}
	cred_free_list(now, m);
	return ok;
}

/* Removing the only credential of the user's last line deletes that
 * line: an older line of the user, ignored until then, would become the
 * one the module reads. Refused, naming it. */
static bool
remove_shadowed(
    const struct tool_opts *o, const char *buf, size_t len, size_t n)
{
	size_t before = 0;

	if (n != 1 || lines_user_lines(buf, len, o->user, &before) < 2)
		return false;
	tool_msg("%s: removing %s's only credential would delete the last "
		 "line for %s and make an older one (line %zu) count again; "
		 "delete %s's older lines from the file first",
	    o->file, o->user, o->user, before, o->user);
	return true;
}

static int
remove_edit(void *arg, const char *buf, size_t len, char **out, size_t *out_len)
{
	const struct tool_opts *o = arg;
	struct cred *old = NULL;
	size_t n = 0, idx = o->remove_index - 1;
	int r;

	if ((r = manage_find(o, o->file, buf, len, &old, &n)) != ERR_OK)
		goto fail;
	if (o->remove_index > n) {
		tool_msg("%s has %zu credential%s; there is no number %zu",
		    o->user, n, n == 1 ? "" : "s", o->remove_index);
		r = ERR_NOT_FOUND;
		goto fail;
	}
	if (remove_shadowed(o, buf, len, n)) {
		r = ERR_DENIED; /* refused: exit 1 */
		goto fail;
	}
	r = lines_remove_cred(buf, len, o->user, o->remove_index, out, out_len);
	if (r != ERR_OK || !removed_ok(*out, *out_len, o->user, old, n, idx)) {
		tool_msg("cannot remove credential %zu cleanly; not changing "
			 "the file",
		    o->remove_index);
		r = ERR_PARSE;
	}
fail:
	cred_free_list(old, n);
	return r;
}

/* --remove N: the same locked, atomic rewrite as --add. */
int
manage_remove(const struct tool_opts *o)
{
	struct tool_opts copy = *o;
	struct stat st;
	const char *why = NULL;
	char *path = NULL, *buf = NULL;
	size_t len = 0;
	int r;

	if ((r = manage_path(o, NULL, &path)) != ERR_OK)
		goto fail;
	copy.file = path;
	r = mapfile_read(path, &buf, &len, &st, &why);
	if (r == ERR_NOT_FOUND) {
		tool_msg("%s does not exist", path);
		r = ERR_FILE;
	}
	if (r == ERR_OK)
		r = mapfile_update(path, remove_edit, &copy, &why);
	if (r != ERR_OK && why != NULL)
		tool_msg("refusing %s: %s", path, why);
	if (r == ERR_OK)
		tool_msg("removed credential %zu of %s from %s",
		    o->remove_index, o->user, path);
fail:
	free(buf);
	free(path);
	return tool_exit_for(r);
}
