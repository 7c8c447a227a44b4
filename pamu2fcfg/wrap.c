/* SPDX-License-Identifier: BSD-2-Clause */
/* --wrap-secret [FILE]: seal the user's login password under the
 * hmac-secret output of the key that holds one of the user's credentials
 * in FILE (issue 30), so that a login with the key and its PIN gives the
 * keyring its password (pam_u2f(8) SECRETS FILE). The password is read
 * without echo (twice, to catch a typo) or, with --secret-stdin, as the
 * first line of standard input; one touch and the PIN give the output
 * for a fresh salt; the record replaces the credential's old one in
 * FILE.secrets, written atomically (mode 0600 when new). Its own file:
 * the one place pamu2fcfg handles the login password; it is wiped. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/auth.h"
#include "auth/secret.h"
#include "base/err.h"
#include "base/util.h"
#include "tool.h"

struct wrap_edit {
	const char *user;
	const struct cred *cred;
	const char *line;
	const char *path;
};

/* The secrets file's new text: refused when a line is malformed (the
 * module would refuse the whole file). */
static int
wrap_edit(void *arg, const char *buf, size_t len, char **out, size_t *out_len)
{
	const struct wrap_edit *e = arg;
	struct secret_rec rec;
	size_t line = 0;
	int r;

	r = secret_find(
	    buf, len, e->user, e->cred->kh, e->cred->kh_len, &rec, &line);
	secret_rec_clear(&rec);
	if (r == ERR_PARSE) {
		tool_msg("%s: line %zu is not a sealed secret record; fix or "
			 "remove it",
		    e->path, line);
		return r;
	}
	return secret_put(buf, len, e->user, e->cred->kh, e->cred->kh_len,
	    e->line, out, out_len);
}

/* The password, asked twice on a terminal. */
static int
wrap_password(const struct tool_opts *o, char *pw, size_t cap)
{
	char again[SECRET_MAX + 2];
	char prompt[300];
	int r;

	snprintf(prompt, sizeof(prompt), "Login password of %s: ", o->user);
	if ((r = tool_read_hidden(o->secret_stdin, prompt, pw, cap)) != ERR_OK)
		return r;
	if (o->secret_stdin)
		return ERR_OK;
	r = tool_read_hidden(false, "Again: ", again, sizeof(again));
	if (r == ERR_OK && strcmp(pw, again) != 0) {
		tool_msg("the passwords differ");
		r = ERR_CANCELLED;
	}
	util_wipe(again, sizeof(again));
	return r;
}

/* Salts for every credential, and the table of pointers to them. */
static int
wrap_salts(size_t n, uint8_t **salts, const uint8_t ***ptrs)
{
	size_t i;

	*ptrs = NULL;
	if ((*salts = calloc(n, SECRET_SALT_LEN)) == NULL ||
	    (*ptrs = calloc(n, sizeof(**ptrs))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < n; i++)
		(*ptrs)[i] = *salts + i * SECRET_SALT_LEN;
	return util_random(*salts, n * SECRET_SALT_LEN);
}

/* Touch, PIN, output; then the record, into path's secrets file. */
static int
wrap_seal(const struct tool_opts *o, const char *path, const struct cred *creds,
    size_t n, const char *pw)
{
	struct auth_result res;
	struct wrap_edit e = {o->user, NULL, NULL, NULL};
	uint8_t *salts = NULL;
	const uint8_t **ptrs = NULL;
	char *line = NULL, *spath = NULL;
	const char *why = NULL;
	int r;

	memset(&res, 0, sizeof(res));
	if ((r = wrap_salts(n, &salts, &ptrs)) != ERR_OK ||
	    (r = check_authenticate(o, creds, n, ptrs, &res)) != ERR_OK)
		goto out;
	e.cred = &creds[res.cred_index];
	r = ERR_UNSUPPORTED;
	if (e.cred->kh_len == 0) {
		tool_msg("credential %zu is resident (\"*\"): its secret "
			 "cannot be sealed; register one with a key handle",
		    res.cred_index + 1);
		goto out;
	}
	if (res.assertion.hmac_secret_len != SECRET_SALT_LEN) {
		tool_msg("the key gave no hmac-secret output: the credential "
			 "must be made with --hmac-secret and verify the user "
			 "(-N or -V), on a key that has the extension");
		goto out;
	}
	if ((r = secret_seal(o->user, e.cred->kh, e.cred->kh_len,
		 ptrs[res.cred_index], res.assertion.hmac_secret, pw,
		 strlen(pw), &line)) != ERR_OK ||
	    asprintf(&spath, "%s%s", path, SECRET_SUFFIX) < 0) {
		spath = NULL;
		r = r != ERR_OK ? r : ERR_NOMEM;
		goto out;
	}
	e.line = line;
	e.path = spath;
	if ((r = mapfile_update(spath, wrap_edit, &e, &why)) != ERR_OK) {
		if (why != NULL)
			tool_msg("%s %s", spath, why);
	} else
		printf("sealed for credential %zu in %s\n", res.cred_index + 1,
		    spath);
out:
	auth_result_clear(&res);
	util_freezero(salts, n * SECRET_SALT_LEN);
	free(ptrs);
	if (line != NULL)
		util_freezero(line, strlen(line));
	free(spath);
	return r;
}

int
wrap_run(const struct tool_opts *o)
{
	struct cred *creds = NULL;
	char pw[SECRET_MAX + 2];
	char *path = NULL;
	size_t n = 0;
	int r;

	memset(pw, 0, sizeof(pw));
	if ((r = manage_path(o, NULL, &path)) != ERR_OK ||
	    (r = manage_load(o, path, &creds, &n)) != ERR_OK)
		goto out;
	if ((r = wrap_password(o, pw, sizeof(pw))) != ERR_OK)
		goto out;
	if (strlen(pw) > SECRET_MAX) {
		tool_msg("the password is longer than %d bytes", SECRET_MAX);
		r = ERR_TOO_BIG;
		goto out;
	}
	r = wrap_seal(o, path, creds, n, pw);
	if (r == ERR_OK && fflush(stdout) == EOF)
		r = ERR_IO;
out:
	util_wipe(pw, sizeof(pw));
	cred_free_list(creds, n);
	free(path);
	return tool_exit_for(r);
}
