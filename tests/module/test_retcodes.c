/* SPDX-License-Identifier: BSD-2-Clause */
/* The return-code table of pam_u2f(8) (RETURN VALUES, "Compared with
 * pam-u2f 1.4"), row by row, through the real libpam: each row sets up
 * its mapping file or arguments, then runs the stack the reference
 * measurement used (../shared/reference/pam-u2f-return-codes.md):
 *   auth [success=done ignore=ignore default=die] pam_u2f.so ARGS
 *   auth required pam_debug.so auth=no_module_data
 * so that PAM_IGNORE shows as PAM_NO_MODULE_DATA, once without and once
 * with nouserok. No key is ever reached (devices= names no socket). The
 * row numbers are the reference table's; rows marked "ours" are where we
 * differ from 1.4, failing closed. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "modtest.h"
#include "mtfix.h"
#include "test.h"

#define RC_IGNORED PAM_NO_MODULE_DATA /* pam_debug after PAM_IGNORE */
#define RC_ARGS 1024

struct rc_row {
	const char *id;   /* the reference table's row */
	const char *what; /* the situation */
	/* Make the files; append arguments to args. false: cannot run
	 * here (needs root). */
	bool (*setup)(char *args, size_t size);
	const char *own; /* or alice's own file, if not NULL */
	const char *arg; /* an argument more, if not NULL */
	const char *user;
	int plain;       /* without nouserok */
	int nouserok;    /* with nouserok */
	const char *log; /* the debug log says so (the cause), without */
};

static char rc_central[300];

/* Append sep then s to args. */
static void
rc_add(char *args, size_t size, const char *sep, const char *s)
{
	size_t used = strlen(args);

	snprintf(args + used, size - used, "%s%s", sep, s);
}

static void
rc_own(const char *text)
{
	mt_keys(&mt.alice, text);
}

/* alice's own file holds the dummy line with its field n (0: KH, 1: PK,
 * 2: type) replaced by repl, or cut after field n when repl is NULL. */
static void
rc_own_field(int n, const char *repl)
{
	char *line = mtfix_dummy_line("alice", NULL), out[1024] = "";
	char *save = NULL, *f, *body;
	int i = 0;

	if (line == NULL || (body = strchr(line, ':')) == NULL) {
		free(line);
		return;
	}
	*body++ = '\0';
	body[strcspn(body, "\n")] = '\0';
	snprintf(out, sizeof(out), "%s:", line);
	for (f = strtok_r(body, ",", &save); f != NULL;
	     f = strtok_r(NULL, ",", &save), i++) {
		if (i == n && repl == NULL)
			break;
		rc_add(out, sizeof(out), i > 0 ? "," : "", i == n ? repl : f);
	}
	rc_add(out, sizeof(out), "", "\n");
	rc_own(out);
	free(line);
}

static bool
rc_dummy(char *args, size_t size)
{
	char *line = mtfix_dummy_line("alice", NULL);

	(void)args;
	(void)size;
	rc_own(line != NULL ? line : "");
	free(line);
	return line != NULL;
}

static bool
rc_noline(char *args, size_t size)
{
	char *line = mtfix_dummy_line("bob", NULL);

	(void)args;
	(void)size;
	rc_own(line != NULL ? line : "");
	free(line);
	return line != NULL;
}

static bool
rc_central_args(char *args, size_t size, const char *more)
{
	rc_add(args, size, " authfile=", rc_central);
	rc_add(args, size, "", more);
	return true;
}

static bool
rc_central_missing(char *args, size_t size)
{
	return rc_central_args(args, size, "");
}

/* A central file of text, owned by u (root if NULL), mode m. */
static bool
rc_central_file(char *args, size_t size, const struct mt_user *u, mode_t m,
    const char *more)
{
	char *line = mtfix_dummy_line("alice", NULL);

	mt_write(rc_central, line != NULL ? line : "",
	    line != NULL ? strlen(line) : 0, u, m);
	free(line);
	return rc_central_args(args, size, more);
}

static bool
rc_own_mode000_other(char *args, size_t size)
{
	char path[300];

	(void)args;
	(void)size;
	if (!mt.root)
		return false;
	mt_keys_path(&mt.alice, path, sizeof(path));
	mt_write(path, "alice:\n", 7, &mt.bob, 0000);
	return true;
}

static bool
rc_central_unreadable(char *args, size_t size)
{
	return mt.root &&
	    rc_central_file(args, size, NULL, 0600, " openasuser");
}

static bool
rc_central_other(char *args, size_t size)
{
	return mt.root && rc_central_file(args, size, &mt.bob, 0644, "");
}

static bool
rc_central_user(char *args, size_t size)
{
	return mt.root && rc_central_file(args, size, &mt.alice, 0644, "");
}

static bool
rc_central_dir(char *args, size_t size)
{
	mkdir(rc_central, 0755);
	return rc_central_args(args, size, "");
}

static bool
rc_central_fifo(char *args, size_t size)
{
	mkfifo(rc_central, 0644);
	return rc_central_args(args, size, "");
}

static bool
rc_central_ww(char *args, size_t size)
{
	return rc_central_file(args, size, NULL, 0646, "");
}

static bool
rc_bad_kh(char *args, size_t size)
{
	(void)args;
	(void)size;
	rc_own_field(0, "!!not-base64!!");
	return true;
}

static bool
rc_bad_pk(char *args, size_t size)
{
	(void)args;
	(void)size;
	rc_own_field(1, "!!not-base64!!");
	return true;
}

static bool
rc_bad_type(char *args, size_t size)
{
	(void)args;
	(void)size;
	rc_own_field(2, "rsa1024");
	return true;
}

static bool
rc_kh_only(char *args, size_t size)
{
	(void)args;
	(void)size;
	rc_own_field(1, NULL);
	return true;
}

static const struct rc_row rc_rows[] = {
    {"1", "valid credential, no key", rc_dummy, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "result ERR_NO_KEY"},
    {"3", "no line for the user", rc_noline, NULL, NULL, "alice",
	PAM_USER_UNKNOWN, RC_IGNORED, "result ERR_NOT_FOUND"},
    {"4a", "line 'alice:'", NULL, "alice:\n", NULL, "alice", PAM_USER_UNKNOWN,
	RC_IGNORED, "result ERR_NOT_FOUND"},
    {"4b", "line 'alice' (no colon; ours)", NULL, "alice\n", NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "line 1 is malformed"},
    {"4c", "own file of lines without a colon only (ours)", NULL,
	"garbage\nmore garbage\n", NULL, "alice", PAM_AUTH_ERR, PAM_AUTH_ERR,
	"but line 1 has no colon"},
    {"5", "central file missing", rc_central_missing, NULL, NULL, "alice",
	PAM_AUTHINFO_UNAVAIL, RC_IGNORED, "central_keys does not exist"},
    {"6", "empty file", NULL, "", NULL, "alice", PAM_USER_UNKNOWN, RC_IGNORED,
	"result ERR_NOT_FOUND"},
    {"7a", "mode 000 owned by another user", rc_own_mode000_other, NULL, NULL,
	"alice", PAM_AUTHINFO_UNAVAIL, PAM_AUTHINFO_UNAVAIL,
	"result ERR_FILE:"},
    {"7c", "unreadable with openasuser", rc_central_unreadable, NULL, NULL,
	"alice", PAM_AUTHINFO_UNAVAIL, PAM_AUTHINFO_UNAVAIL,
	"result ERR_FILE:"},
    {"7d", "central file owned by another user (ours)", rc_central_other, NULL,
	NULL, "alice", PAM_AUTH_ERR, PAM_AUTH_ERR, "is owned by another user"},
    {"7e", "central file owned by the user (refused)", rc_central_user, NULL,
	NULL, "alice", PAM_AUTH_ERR, PAM_AUTH_ERR, "is owned by another user"},
    {"7f", "a directory (ours)", rc_central_dir, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "is not a regular file"},
    {"7g", "a FIFO (ours: at once)", rc_central_fifo, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "is not a regular file"},
    {"7h", "world-writable (refused)", rc_central_ww, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "is group- or world-writable"},
    {"8a", "bad key handle base64", rc_bad_kh, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "line 1 is malformed"},
    {"8b", "bad public key base64", rc_bad_pk, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "line 1 is malformed"},
    {"8c", "unknown type", rc_bad_type, NULL, NULL, "alice", PAM_AUTH_ERR,
	PAM_AUTH_ERR, "line 1 is malformed"},
    {"8d", "'alice:KH' only (ours)", rc_kh_only, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "line 1 is malformed"},
    {"9", "user not in passwd", NULL, NULL, NULL, "zed", PAM_SYSTEM_ERR,
	PAM_SYSTEM_ERR, "user zed:"},
    {"10a", "per-user default file missing", NULL, NULL, NULL, "alice",
	PAM_AUTHINFO_UNAVAIL, RC_IGNORED, "u2f_keys does not exist"},
    {"10b", "per-user file present", rc_dummy, NULL, NULL, "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "result ERR_NO_KEY"},
    {"11a", "unknown argument (ours)", rc_dummy, NULL, "no_such_option",
	"alice", PAM_SERVICE_ERR, PAM_SERVICE_ERR, "\"no_such_option\""},
    {"11b", "max_devices=abc (ours)", rc_dummy, NULL, "max_devices=abc",
	"alice", PAM_SERVICE_ERR, PAM_SERVICE_ERR, "\"max_devices=abc\""},
    {"11c", "max_devices=-1 (ours)", rc_dummy, NULL, "max_devices=-1", "alice",
	PAM_SERVICE_ERR, PAM_SERVICE_ERR, "\"max_devices=-1\""},
    {"11d", "userpresence=abc (ours)", rc_dummy, NULL, "userpresence=abc",
	"alice", PAM_SERVICE_ERR, PAM_SERVICE_ERR, "\"userpresence=abc\""},
    {"11d", "userverification=2 (ours)", rc_dummy, NULL, "userverification=2",
	"alice", PAM_SERVICE_ERR, PAM_SERVICE_ERR, "\"userverification=2\""},
    {"11e", "cue_prompt with ESC and TAB (ours)", rc_dummy, NULL,
	"[cue_prompt=a\033b\tc]", "alice", PAM_SERVICE_ERR, PAM_SERVICE_ERR,
	"contains a control character"},
    {"12", "interactive, no key", rc_dummy, NULL, "interactive", "alice",
	PAM_AUTH_ERR, PAM_AUTH_ERR, "result ERR_NO_KEY"},
};

/* Write the reference stack with args (and nouserok). */
static void
rc_service(const char *args, bool nouserok)
{
	char path[300], text[4096], conf[256] = "";
	int n;

	if (mt.root)
		snprintf(conf, sizeof(conf), "conf=%s ", mt.conf);
	n = snprintf(text, sizeof(text),
	    "auth [success=done ignore=ignore default=die] %s %s%s%s debug "
	    "debug_file=%s\n"
	    "auth required pam_debug.so auth=no_module_data\n",
	    mt.module, conf, args, nouserok ? " nouserok" : "", mt.debug);
	snprintf(path, sizeof(path), "%s/retcodes", mt.confdir);
	mt_write(path, text, (size_t)n, NULL, 0644);
	mt_write(mt.debug, "", 0, NULL, 0600);
}

static void
rc_reset(void)
{
	char path[300];

	mt_keys_path(&mt.alice, path, sizeof(path));
	unlink(path);
	unlink(rc_central);
	rmdir(rc_central);
}

static void
test_table(void)
{
	char args[RC_ARGS];
	size_t i;
	int got[2];

	snprintf(rc_central, sizeof(rc_central), "%s/central_keys", mt.dir);
	for (i = 0; i < sizeof(rc_rows) / sizeof(rc_rows[0]); i++) {
		const struct rc_row *r = &rc_rows[i];
		int k;

		rc_reset();
		snprintf(args, sizeof(args), "%s", NODEV);
		if (r->own != NULL)
			rc_own(r->own);
		if (r->arg != NULL)
			rc_add(args, sizeof(args), " ", r->arg);
		if (r->setup != NULL && !r->setup(args, sizeof(args))) {
			printf("# row %s (%s): needs root, not run\n", r->id,
			    r->what);
			continue;
		}
		for (k = 0; k < 2; k++) {
			rc_service(args, k == 1);
			got[k] = mt_auth("retcodes", r->user, NULL);
			if (k == 0 && !mt_debug_has(r->log))
				T_FAIL_AT("row %s (%s): the log lacks \"%s\"",
				    r->id, r->what, r->log);
		}
		printf(
		    "# row %s (%s): %d / %d\n", r->id, r->what, got[0], got[1]);
		if (got[0] != r->plain || got[1] != r->nouserok)
			T_FAIL_AT("row %s (%s): %d / %d, expected %d / %d",
			    r->id, r->what, got[0], got[1], r->plain,
			    r->nouserok);
	}
	rc_reset();
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_table),
	};
	int r;

	(void)argc;
	if ((r = mt_setup(argv)) != 0)
		return r == 77 ? 0 : r;
	r = test_run(cases, sizeof(cases) / sizeof(cases[0]));
	mt_teardown();
	return r;
}
