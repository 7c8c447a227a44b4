/* SPDX-License-Identifier: BSD-2-Clause */
/* The user's credentials from a mapping file: which file (authfile=,
 * expand, XDG_CONFIG_HOME, ~/.config/Yubico/u2f_keys, sshformat=), read
 * safely and with the user's privileges when the user controls it, then
 * the user's line, and what an error means for the PAM code. Its own
 * file because it is the default source of credentials (cmdsource.c is
 * the other). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapping/authfile.h"
#include "mapping/mappath.h"
#include "base/err.h"
#include "privdrop.h"
#include "base/safefile.h"
#include "mapping/sshkey.h"
#include "userfile.h"
#include "base/util.h"

/* Substitute %u (user), %h (home) and %% in pat. */
static int
userfile_expand(
    const char *pat, const struct passwd *pw, char **out, bool *used)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = NULL;
	const char *p;
	int r = ERR_CONFIG;

	*out = NULL;
	if ((f = open_memstream(&buf, &size)) == NULL)
		return ERR_NOMEM;
	for (p = pat; *p != '\0'; p++) {
		if (*p != '%') {
			fputc(*p, f);
			continue;
		}
		p++;
		if (*p == 'u' || *p == 'h')
			*used = true;
		if (*p == 'u')
			fputs(pw->pw_name, f);
		else if (*p == 'h')
			fputs(pw->pw_dir, f);
		else if (*p == '%')
			fputc('%', f);
		else
			goto fail;
	}
	if (fclose(f) != 0) {
		f = NULL;
		r = ERR_NOMEM;
		goto fail;
	}
	f = NULL;
	*out = buf;
	buf = NULL;
	r = ERR_OK;
fail:
	if (f != NULL)
		fclose(f);
	free(buf);
	return r;
}

static int
userfile_join(const char *a, const char *b, const char *c, char **out)
{
	if (asprintf(out, "%s/%s%s%s", a, b, c[0] != '\0' ? "/" : "", c) < 0) {
		*out = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}

/* The per-user default (common/mapping/mappath.c, the rule pamu2fcfg
 * follows too), with XDG_CONFIG_HOME from secure_getenv. */
static int
userfile_default(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, const char **src)
{
	const char *xdg =
	    o->sshformat ? NULL : secure_getenv("XDG_CONFIG_HOME");
	bool used = false;
	int r;

	r = mappath_default(
	    pw->pw_dir, xdg, o->sshformat, out, &used, NULL, NULL);
	if (r == ERR_FILE)
		debug_err(
		    dbg, "user %s: no absolute home directory", pw->pw_name);
	*src = used ? "the per-user default under XDG_CONFIG_HOME"
		    : "the per-user default";
	if (!used && xdg != NULL && xdg[0] != '\0')
		debug_msg(dbg, "XDG_CONFIG_HOME is not absolute, ignored");
	return r;
}

int
userfile_path(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf)
{
	char *p = NULL;
	bool used = false;
	int r;

	memset(uf, 0, sizeof(*uf));
	if (o->authfile == NULL) {
		uf->user_file = uf->drop = true;
		return userfile_default(o, pw, dbg, &uf->path, &uf->source);
	}
	if (o->expand) {
		if ((r = userfile_expand(o->authfile, pw, &p, &used)) !=
		    ERR_OK) {
			if (r == ERR_CONFIG)
				debug_err(dbg,
				    "authfile=%s: bad %% pattern "
				    "(expand knows %%u, %%h, %%%%)",
				    o->authfile);
			return r;
		}
	} else if ((p = strdup(o->authfile)) == NULL)
		return ERR_NOMEM;
	if (p[0] == '/') {
		/* Central, unless it names the user's own file. */
		uf->source = used ? "authfile= with %u or %h (the user's own)"
				  : "authfile= (a central file)";
		uf->user_file = used;
		uf->drop = used || o->openasuser;
		uf->path = p;
		return ERR_OK;
	}
	uf->user_file = uf->drop = true;
	uf->source = "authfile= relative to the home directory";
	r = userfile_join(pw->pw_dir, p, "", &uf->path);
	free(p);
	return r;
}

void
userfile_clear(struct userfile *uf)
{
	free(uf->path);
	uf->path = NULL;
}

static int
userfile_feed(void *arg, const char *buf, size_t len)
{
	return authfile_scan_lines_nt(arg, buf, len);
}

/* Read the file, as the user when the user controls it: streamed through
 * sc (the mapping-file format: a central file may have a million lines,
 * and only the user's are parsed), or whole into *buf when sc is NULL. */
static int
userfile_read(const struct userfile *uf, const struct passwd *pw,
    const struct debug *dbg, struct authfile_scan *sc, char **buf, size_t *len)
{
	struct safefile_policy pol;
	struct privdrop pd;
	const char *why = NULL, *note = NULL;
	int r, e;

	/* A central file: root's, or the calling process's own when that
	 * is not root (a screen locker); the same thing in sudo or login. */
	memset(&pol, 0, sizeof(pol));
	pol.owner = geteuid();
	pol.max_size = USERFILE_CENTRAL_MAX;
	if (uf->drop && (r = privdrop_drop(&pd, pw)) != ERR_OK) {
		debug_err(dbg, "cannot drop privileges to %s", pw->pw_name);
		return r;
	}
	/* The user's own: a symbolic link only while we are the user
	 * (pam-u2f 1.4), as pamu2fcfg reads it too. */
	if (uf->user_file)
		mappath_user_policy(pw, geteuid() == pw->pw_uid, &pol, &note);
	if (sc != NULL)
		r = safefile_read_lines(
		    uf->path, &pol, userfile_feed, sc, &why);
	else
		r = safefile_read(uf->path, &pol, buf, len, &why);
	e = errno;
	if (uf->drop)
		privdrop_restore(&pd); /* or abort() */
	if (sc != NULL && r != ERR_OK && r == sc->err)
		return r; /* the scan stopped the reading: userfile_parse */
	if (r == ERR_OK && note != NULL)
		debug_warn(dbg, "%s %s", uf->path, note);
	if (r == ERR_FILE && e == ENOENT)
		debug_msg(dbg, "%s does not exist", uf->path);
	else if (r == ERR_FILE)
		debug_err(dbg, "%s: %s", uf->path, strerror(e));
	else if (r == ERR_FILE_UNSAFE || r == ERR_TOO_BIG)
		debug_err(
		    dbg, "%s: %s", uf->path, why != NULL ? why : err_str(r));
	else if (r != ERR_OK)
		debug_err(dbg, "%s: %s", uf->path, err_str(r));
	if (r == ERR_FILE && e == ENOENT)
		r = ERR_NOT_FOUND;
	return r;
}

static int
userfile_parse(const struct options *o, const struct userfile *uf,
    const struct passwd *pw, const struct debug *dbg, struct authfile_scan *sc,
    const char *buf, size_t len, struct cred **creds, size_t *n)
{
	size_t bad = 0;
	int r;

	if (o->sshformat) {
		if ((*creds = calloc(1, sizeof(**creds))) == NULL)
			return ERR_NOMEM;
		if ((r = sshkey_parse(buf, len, *creds)) != ERR_OK) {
			free(*creds);
			*creds = NULL;
			debug_err(dbg,
			    "%s: not a usable OpenSSH security key "
			    "file (%s)",
			    uf->path, err_str(r));
			return r == ERR_NOMEM ? r : ERR_PARSE;
		}
		*n = 1;
		return ERR_OK;
	}
	if (sc->nskipped > 0)
		debug_warn(dbg,
		    "%s: %zu line(s) without a colon skipped (first: line "
		    "%zu)",
		    uf->path, sc->nskipped, sc->skipped_line);
	r = authfile_scan_end(sc, creds, n, &bad);
	if (r == ERR_PARSE)
		debug_err(dbg, "%s: line %zu is malformed", uf->path, bad);
	else if (r == ERR_NOT_FOUND)
		debug_msg(dbg, "%s: no line for %s", uf->path, pw->pw_name);
	else if (r != ERR_OK)
		debug_err(dbg, "%s: %s", uf->path, err_str(r));
	return r;
}

/* What *r (userfile_load's result) was about. A per-user file that gave
 * nothing for the user but had lines without a colon is malformed, not
 * "no line": nouserok must not let a broken file through. */
static enum retval_what
userfile_what(const struct userfile *uf, const struct authfile_scan *sc,
    const struct debug *dbg, int *r)
{
	if (*r == ERR_NOT_FOUND && uf->missing)
		return RETVAL_NO_FILE;
	if (*r == ERR_NOT_FOUND && uf->user_file && sc->nskipped > 0) {
		debug_err(dbg,
		    "%s: malformed: no line for the user, but line %zu has "
		    "no colon",
		    uf->path, sc->skipped_line);
		*r = ERR_PARSE;
	}
	if (*r == ERR_NOT_FOUND)
		return RETVAL_NO_CREDS;
	return *r == ERR_OK ? RETVAL_OTHER : RETVAL_MAPFILE;
}

int
userfile_load(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf, struct cred **creds,
    size_t *n, enum retval_what *what)
{
	struct authfile_scan sc;
	char *buf = NULL;
	size_t len = 0;
	int r;

	*creds = NULL;
	*n = 0;
	*what = RETVAL_OTHER;
	/* An invalid name fails in userfile_parse, after the file checks,
	 * as it always did. */
	(void)authfile_scan_init(&sc, pw->pw_name);
	if ((r = userfile_path(o, pw, dbg, uf)) != ERR_OK)
		goto fail;
	debug_msg(dbg, "mapping file %s (%s)%s", uf->path, uf->source,
	    uf->drop ? ", read as the user" : "");
	r = userfile_read(uf, pw, dbg, o->sshformat ? NULL : &sc, &buf, &len);
	uf->missing = r == ERR_NOT_FOUND;
	if (r != ERR_OK && (o->sshformat || r != sc.err))
		goto fail;
	if ((r = userfile_parse(o, uf, pw, dbg, &sc, buf, len, creds, n)) !=
	    ERR_OK)
		goto fail;
	if (*n == 0) {
		debug_msg(
		    dbg, "%s: no credentials for %s", uf->path, pw->pw_name);
		r = ERR_NOT_FOUND;
	} else
		debug_msg(dbg, "%zu credential(s) for %s from %s", *n,
		    pw->pw_name, uf->path);
fail:
	*what = userfile_what(uf, &sc, dbg, &r);
	/* Frees what the scan found when userfile_parse did not take it. */
	(void)authfile_scan_end(&sc, NULL, NULL, NULL);
	util_freezero(buf, len);
	return r;
}

int
userfile_read_whole(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf, char **buf, size_t *len)
{
	int r;

	*buf = NULL;
	*len = 0;
	if ((r = userfile_path(o, pw, dbg, uf)) != ERR_OK)
		return r;
	debug_msg(dbg, "mapping file %s (%s)%s, for @ssh-sk lines", uf->path,
	    uf->source, uf->drop ? ", read as the user" : "");
	r = userfile_read(uf, pw, dbg, NULL, buf, len);
	uf->missing = r == ERR_NOT_FOUND;
	return r;
}
