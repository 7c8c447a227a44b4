/* SPDX-License-Identifier: BSD-2-Clause */
/* Unsealing the login secret at login (unseal.h): the secrets file read
 * beside the mapping file, the salts handed to the touch, the record of
 * the credential that signed opened with the key's hmac-secret output,
 * PAM_AUTHTOK set. Its own file because it is the module's one handler
 * of the login secret: every copy of it is wiped here, and nothing of
 * it reaches a log. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_modules.h>

#include "base/err.h"
#include "base/safefile.h"
#include "base/util.h"
#include "privdrop.h"
#include "proto/proto.h"
#include "unseal.h"

#define UNSEAL_FILE_MAX (1024 * 1024)

void
unseal_clear(struct unseal *u)
{
	size_t i;

	for (i = 0; u->recs != NULL && i < u->n; i++)
		secret_rec_clear(&u->recs[i]);
	free(u->recs);
	free(u->salts);
	memset(u, 0, sizeof(*u));
}

/* The file, with its checks: owner (pol), not group- or
 * world-readable (the mapping file may be; this one may not). */
static int
unseal_read_checked(const char *path, const struct safefile_policy *pol,
    char **buf, size_t *len, const char **why)
{
	struct stat st;
	int fd = -1, r;

	if ((r = safefile_open(path, pol, &fd, &st, why)) != ERR_OK)
		return r;
	if ((st.st_mode & 077) != 0) {
		*why = "is readable by group or others (chmod 600 it)";
		close(fd);
		return ERR_FILE_UNSAFE;
	}
	r = safefile_read_fd(fd, (size_t)st.st_size, UNSEAL_FILE_MAX, buf, len);
	close(fd);
	return r;
}

/* Read path as the mapping file was read (privileges, owner). */
static int
unseal_read(struct call *c, const char *path, char **buf, size_t *len)
{
	struct safefile_policy pol;
	struct privdrop pd;
	const char *why = NULL;
	int r, e;

	memset(&pol, 0, sizeof(pol));
	pol.owner = c->uf.user_file ? c->pw.pw_uid : geteuid();
	pol.max_size = UNSEAL_FILE_MAX;
	if (c->uf.drop && privdrop_drop(&pd, &c->pw) != ERR_OK) {
		debug_err(&c->dbg, "cannot drop privileges to %s", c->user);
		return ERR_SYSTEM;
	}
	r = unseal_read_checked(path, &pol, buf, len, &why);
	e = errno;
	if (c->uf.drop)
		privdrop_restore(&pd);
	if (r == ERR_FILE && e == ENOENT)
		return ERR_NOT_FOUND;
	if (r != ERR_OK)
		debug_err(&c->dbg, "secrets file %s: %s: nothing unsealed",
		    path,
		    why != NULL         ? why
			: r == ERR_FILE ? strerror(e)
					: err_str(r));
	return r;
}

/* The records of the user's credentials in buf. */
static int
unseal_records(struct call *c, struct unseal *u, const char *path,
    const char *buf, size_t len)
{
	size_t i, line = 0, found = 0;
	int r;

	if ((u->recs = calloc(c->ncreds, sizeof(*u->recs))) == NULL ||
	    (u->salts = calloc(c->ncreds, sizeof(*u->salts))) == NULL)
		return ERR_NOMEM;
	u->n = c->ncreds;
	for (i = 0; i < c->ncreds; i++) {
		if (c->creds[i].kh_len == 0)
			continue; /* resident: "*" has no record */
		r = secret_find(buf, len, c->user, c->creds[i].kh,
		    c->creds[i].kh_len, &u->recs[i], &line);
		if (r == ERR_NOT_FOUND)
			continue;
		if (r != ERR_OK) {
			debug_err(&c->dbg,
			    "secrets file %s: line %zu is malformed: "
			    "nothing unsealed",
			    path, line);
			return r;
		}
		u->salts[i] = u->recs[i].salt;
		found++;
	}
	debug_msg(&c->dbg, "secrets file %s: %zu of %zu credential(s) sealed",
	    path, found, c->ncreds);
	return found > 0 ? ERR_OK : ERR_NOT_FOUND;
}

void
unseal_prepare(struct call *c, struct unseal *u)
{
	char *path = NULL, *buf = NULL;
	size_t len = 0;

	memset(u, 0, sizeof(*u));
	if (c->uf.path == NULL || c->opt.authcmd != NULL)
		return;
	if (asprintf(&path, "%s%s", c->uf.path, SECRET_SUFFIX) < 0)
		return;
	if (unseal_read(c, path, &buf, &len) == ERR_OK &&
	    unseal_records(c, u, path, buf, len) == ERR_OK) {
		free(path);
		util_freezero(buf, len);
		return;
	}
	unseal_clear(u);
	free(path);
	util_freezero(buf, len);
}

/* Why the record of credential i cannot be opened now, or NULL. */
static const char *
unseal_why_not(const struct unseal *u, const struct auth_result *res)
{
	if (res->cred_index >= u->n || u->salts[res->cred_index] == NULL)
		return "the credential that signed has no sealed secret";
	if (!(res->assertion.flags & PROTO_UV))
		return "the user was not verified (no PIN or built-in UV)";
	if (res->assertion.hmac_secret_len != PROTO_HMAC_SALT_LEN)
		return "the key gave no hmac-secret output (a key or "
		       "credential without the extension)";
	return NULL;
}

static void
unseal_set(struct call *c, const char *secret)
{
	const void *old = NULL;

	if (pam_get_item(c->pamh, PAM_AUTHTOK, &old) == PAM_SUCCESS &&
	    old != NULL) {
		debug_msg(&c->dbg, "PAM_AUTHTOK was set before us: kept");
		return;
	}
	if (pam_set_item(c->pamh, PAM_AUTHTOK, secret) != PAM_SUCCESS)
		debug_err(&c->dbg, "cannot set PAM_AUTHTOK");
	else
		debug_msg(&c->dbg, "login secret unsealed: PAM_AUTHTOK set");
}

void
unseal_finish(
    struct call *c, const struct unseal *u, const struct auth_result *res)
{
	const struct cred *cr;
	char secret[SECRET_MAX + 1];
	const char *why;
	size_t len = 0;
	int r;

	if (u->n == 0)
		return;
	if ((why = unseal_why_not(u, res)) != NULL) {
		debug_warn(&c->dbg, "login secret not unsealed: %s", why);
		return;
	}
	cr = &c->creds[res->cred_index];
	r = secret_unseal(&u->recs[res->cred_index], c->user, cr->kh,
	    cr->kh_len, res->assertion.hmac_secret, secret, sizeof(secret),
	    &len);
	if (r != ERR_OK)
		debug_err(&c->dbg,
		    "login secret of credential %zu does not unseal (%s): "
		    "another user's, another credential's, changed, or "
		    "sealed with another key; the login stands on the "
		    "signature",
		    res->cred_index + 1, err_name(r));
	else
		unseal_set(c, secret);
	util_wipe(secret, sizeof(secret));
}
