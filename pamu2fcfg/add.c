/* SPDX-License-Identifier: BSD-2-Clause */
/* --add: register a key and add its credential to the user's line,
 * atomically. A key that already holds one of the user's credentials is
 * not asked (the others are: a backup key is enrolled while the first
 * stays plugged in; a FIDO2 key also gets them as its exclude list), and
 * is refused when it is the only one; checked again on the registered
 * key under the file's lock, against what concurrent runs added
 * meanwhile. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "mapping/authfile.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "base/safefile.h"
#include "tool.h"

struct edit_ctx {
	const struct tool_opts *o;
	const char *path;
	const struct cred *cred; /* --add: the new credential */
	const char *text;        /* --add: its formatted form */
	size_t count;            /* credentials after the edit */
	struct dev **devs;       /* the keys, open until the edit is done */
	size_t ndevs;
	struct dev *dev; /* the key that registered */
};

static int
add_edit(void *arg, const char *buf, size_t len, char **out, size_t *out_len)
{
	struct edit_ctx *c = arg;
	struct cred *old = NULL, *now = NULL;
	size_t n = 0, m = 0, i;
	int r;

	if ((r = manage_find(c->o, c->path, buf, len, &old, &n)) != ERR_OK &&
	    r != ERR_NOT_FOUND)
		goto fail;
	for (i = 0; i < n; i++) {
		if (manage_same_cred(&old[i], c->cred)) {
			tool_msg("key already enrolled for %s (credential "
				 "%zu in %s)",
			    c->o->user, i + 1, c->path);
			r = ERR_CANCELLED;
			goto fail;
		}
	}
	/* Under the lock: another run may have enrolled this key since the
	 * check before the touch. */
	if (c->dev != NULL && n > 0 &&
	    enroll_held(c->o, &c->dev, 1, old, n, &i) == ERR_OK) {
		tool_msg("key already enrolled for %s (credential %zu in %s, "
			 "added by another run meanwhile)",
		    c->o->user, i + 1, c->path);
		r = ERR_CANCELLED;
		goto fail;
	}
	if ((r = lines_add_cred(buf, len, c->o->user, c->text, out, out_len)) !=
	    ERR_OK)
		goto fail;
	r = authfile_find(*out, *out_len, c->o->user, &now, &m, &i);
	if (r != ERR_OK || m != n + 1 ||
	    !manage_same_cred(&now[m - 1], c->cred)) {
		tool_msg("%s: the edited line would not read back; not "
			 "changing the file",
		    c->path);
		r = ERR_PARSE;
		goto fail;
	}
	c->count = m;
fail:
	cred_free_list(old, n);
	cred_free_list(now, m);
	return r;
}

/* Fail fast on an unsafe or broken file, before asking for a touch;
 * *creds are the user's current credentials (to probe the key). */
static int
precheck(const struct edit_ctx *c, struct cred **creds, size_t *n)
{
	struct stat st;
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;
	int r;

	*creds = NULL;
	*n = 0;
	if ((r = mapfile_check_dir(c->path, &why)) != ERR_OK) {
		tool_msg("refusing %s: %s", c->path, why ? why : err_str(r));
		return r;
	}
	r = mapfile_read(c->path, &buf, &len, &st, &why);
	if (r == ERR_NOT_FOUND)
		return ERR_OK;
	if (r != ERR_OK) {
		tool_msg("refusing %s: %s", c->path, why ? why : err_str(r));
		return r;
	}
	r = manage_find(c->o, c->path, buf, len, creds, n);
	free(buf);
	return r == ERR_NOT_FOUND ? ERR_OK : r;
}

/* Register a key not yet holding one of the user's credentials; the
 * keys stay open in c (the caller closes them) for the check under the
 * lock. */
static int
add_register(struct edit_ctx *c, struct cred *cred)
{
	struct cred *creds = NULL;
	size_t n = 0, which = 0;
	int r;

	if ((r = precheck(c, &creds, &n)) != ERR_OK)
		goto fail;
	if ((r = enroll_open(c->o, &c->devs, &c->ndevs)) != ERR_OK)
		goto fail;
	if (enroll_exclude(c->o, c->devs, &c->ndevs, creds, n, &which) !=
	    ERR_OK) {
		tool_msg("key already enrolled for %s (credential %zu in %s)",
		    c->o->user, which + 1, c->path);
		r = ERR_CANCELLED;
		goto fail;
	}
	r = enroll_register(c->o, c->devs, c->ndevs, creds, n, cred, &which);
	if (r != ERR_OK)
		enroll_explain_open(c->o, r);
	else if (which < c->ndevs)
		c->dev = c->devs[which];
fail:
	cred_free_list(creds, n);
	return r;
}

int
manage_add(const struct tool_opts *o)
{
	struct mapfile_made made = {{NULL, NULL}};
	struct edit_ctx c;
	struct cred cred;
	const char *why = NULL;
	char *path = NULL, *text = NULL;
	int r;

	memset(&c, 0, sizeof(c));
	memset(&cred, 0, sizeof(cred));
	if ((r = manage_path(o, o->file == NULL ? &made : NULL, &path)) !=
	    ERR_OK)
		goto fail;
	c.o = o;
	c.path = path;
	if ((r = add_register(&c, &cred)) != ERR_OK)
		goto fail;
	if ((r = authfile_format_cred(&cred, &text)) != ERR_OK) {
		tool_msg("cannot format the credential: %s", err_str(r));
		goto fail;
	}
	c.cred = &cred;
	c.text = text;
	if ((r = mapfile_update(path, add_edit, &c, &why)) != ERR_OK) {
		if (why != NULL)
			tool_msg("refusing %s: %s", path, why);
		goto fail;
	}
	tool_msg("added credential %zu for %s to %s", c.count, o->user, path);
fail:
	dev_close_all(c.devs, c.ndevs);
	mapfile_made_done(&made, r != ERR_OK);
	free(path);
	free(text);
	cred_clear(&cred);
	return tool_exit_for(r);
}
