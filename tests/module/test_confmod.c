/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file through the real pam_u2f.so and libpam: the
 * origin, the devices and the policy from the file alone, arguments over
 * the file, and a missing or broken file failing the call with
 * PAM_SERVICE_ERR and a logged line. The file must be owned by root:
 * as another user, each case checks that the file is refused instead. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "mtmain.h"
#include "test.h"
#include "tokenctl.h"

#define ORIGIN_FILE "pam://from-file"
#define ARGS_MAX 1024

static char conf_path[300];

/* Write the configuration file (root-owned when we are root). */
static void
conf_write(const char *text)
{
	snprintf(conf_path, sizeof(conf_path), "%s/pam_u2f.conf", mt.dir);
	mt_write(conf_path, text, strlen(text), NULL, 0644);
}

static int
run(const char *svc, const char *args, const char *user)
{
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	mt_service(svc, args);
	return mt_auth(svc, user, &cv);
}

/* Not root: the file is refused for its owner, the call fails. */
static bool
refused_unless_root(void)
{
	char args[ARGS_MAX];

	if (mt.root)
		return false;
	snprintf(args, sizeof(args), "conf=%s", conf_path);
	T_EQ_INT(run("refused", args, "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("refused: the file is not owned by root"));
	return true;
}

/* A token with one credential of alice's under origin, in her file. */
static int
alice_token(struct tokenctl *t, const char *origin, struct cred *c)
{
	char *line = NULL;

	memset(c, 0, sizeof(*c));
	if (tokenctl_start(t, "--presence", "now", NULL) != 0 ||
	    mt_enroll(t->path, origin, c) != ERR_OK ||
	    (line = mt_line("alice", c, 1)) == NULL)
		return -1;
	mt_keys(&mt.alice, line);
	free(line);
	return 0;
}

static size_t
touches(const struct tokenctl *t)
{
	return tokenctl_count(t, "ins=02 p1=03 sw=9000");
}

/* Only the file names the origin, the devices and the timeout. */
static void
test_origin_from_file(void)
{
	struct tokenctl t;
	struct cred c;
	char text[512], args[ARGS_MAX];

	T_EQ_INT(alice_token(&t, ORIGIN_FILE, &c), 0);
	snprintf(text, sizeof(text),
	    "origin = \"%s\"\ntimeout = 7\n"
	    "devices = { \"%s\" }\n",
	    ORIGIN_FILE, t.path);
	conf_write(text);
	if (!refused_unless_root()) {
		snprintf(args, sizeof(args), "conf=%s", conf_path);
		T_EQ_INT(run("fromfile", args, "alice"), PAM_SUCCESS);
		T_EQ_INT(touches(&t), 1);
		T_TRUE(mt_debug_has("origin " ORIGIN_FILE ", appid " ORIGIN_FILE
				    ", timeout 7 s"));
		/* The debug log names the file it read. */
		snprintf(text, sizeof(text), "config file %s: read", conf_path);
		T_TRUE(mt_debug_has(text));
		/* Without the file, the default origin does not match. */
		snprintf(args, sizeof(args), "devices=%s timeout=2", t.path);
		T_EQ_INT(run("nofile", args, "alice"), PAM_AUTH_ERR);
		T_EQ_INT(touches(&t), 1);
	}
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* Arguments override the file. */
static void
test_args_over_file(void)
{
	struct tokenctl t;
	struct cred c;
	char text[512], args[ARGS_MAX];

	T_EQ_INT(alice_token(&t, ORIGIN_FILE, &c), 0);
	snprintf(text, sizeof(text),
	    "origin = \"pam://wrong\"\n"
	    "timeout = 7\ndevices = { \"unix:/nonexistent/sock\" }\n");
	conf_write(text);
	if (!refused_unless_root()) {
		snprintf(args, sizeof(args),
		    "conf=%s origin=%s devices=%s "
		    "timeout=9",
		    conf_path, ORIGIN_FILE, t.path);
		T_EQ_INT(run("override", args, "alice"), PAM_SUCCESS);
		T_EQ_INT(touches(&t), 1);
		T_TRUE(mt_debug_has("origin " ORIGIN_FILE ", appid " ORIGIN_FILE
				    ", timeout 9 s"));
		/* The file's origin alone does not match the credential. */
		snprintf(args, sizeof(args), "conf=%s devices=%s timeout=2",
		    conf_path, t.path);
		T_EQ_INT(run("fileorigin", args, "alice"), PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("origin pam://wrong"));
	}
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* Policy from the file: nouserok for a user without credentials. */
static void
test_policy_from_file(void)
{
	char args[ARGS_MAX], path[300];

	mt_keys_path(&mt.carol, path, sizeof(path));
	unlink(path);
	conf_write("nouserok = true\ndevices = { unix:/nonexistent/sock }\n"
		   "timeout = 1\n");
	if (refused_unless_root())
		return;
	/* The module's own code (a stack of one turns PAM_IGNORE into
	 * PAM_PERM_DENIED). */
	snprintf(args, sizeof(args), "conf=%s", conf_path);
	T_EQ_INT(mt_direct("carol", args), PAM_IGNORE);
	conf_write("devices = { unix:/nonexistent/sock }\ntimeout = 1\n");
	T_EQ_INT(mt_direct("carol", args), PAM_AUTHINFO_UNAVAIL);
	/* A flag argument switches it on over the file. */
	snprintf(args, sizeof(args), "conf=%s nouserok", conf_path);
	T_EQ_INT(mt_direct("carol", args), PAM_IGNORE);
}

/* Never a silent fallback to the defaults. */
static void
test_missing_or_broken(void)
{
	char args[ARGS_MAX], want[400];

	T_EQ_INT(run("missing",
		     "conf=/nonexistent/pam_u2f.conf "
		     "devices=unix:/nonexistent/sock timeout=1",
		     "alice"),
	    PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("/nonexistent/pam_u2f.conf: No such file or "
			    "directory"));
	conf_write("# broken\ntimeout = 0\n");
	snprintf(args, sizeof(args), "conf=%s alwaysok", conf_path);
	T_EQ_INT(run("broken", args, "alice"), PAM_SERVICE_ERR);
	snprintf(
	    want, sizeof(want), "%s:2: timeout: 0 is out of range", conf_path);
	T_TRUE(mt_debug_has(
	    mt.root ? want : "refused: the file is not owned by root"));
	conf_write("alwaysok = true\nbogus = 1\n");
	T_EQ_INT(run("broken2", args, "alice"), PAM_SERVICE_ERR);
	/* A file that the module refuses, even with alwaysok. */
	mt_write(conf_path, "alwaysok\n", 9, NULL, 0666);
	T_EQ_INT(run("unsafe", args, "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has(
	    mt.root ? "is group- or world-writable" : "is not owned by root"));
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_origin_from_file),
	    TEST(test_args_over_file),
	    TEST(test_policy_from_file),
	    TEST(test_missing_or_broken),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
