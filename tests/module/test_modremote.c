/* SPDX-License-Identifier: BSD-2-Clause */
/* remote= through the real pam_u2f.so and the real libpam, with a
 * software token holding alice's credential: with PAM_RHOST naming
 * another host, remote=fail refuses at once and looks for no key (the
 * debug log's count of looks is 0, the token is never asked), remote=
 * ignore gives PAM_IGNORE, remote=wait (and no remote=) uses the token
 * as before; in a local session every value uses the token; nouserok
 * still decides for a user without credentials; remote=ignore does not
 * take the SSH_* environment. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "modtest.h"
#include "mtfix.h"
#include "mtmain.h"
#include "remsess.h"
#include "test.h"
#include "tokenctl.h"
#include "usermsg_text.h"

/* Logged once each time the module looks for keys (dev_open_backend). */
#define LOOKED "transport backend: native"
#define FAR "192.0.2.7" /* another host, as PAM_RHOST */

/* Service name: the module on t with more, then "auth required" next,
 * so that the module's PAM_IGNORE shows as next's result. */
static void
service_then(const char *name, const struct tokenctl *t, const char *more,
    const char *next)
{
	char args[ARGS_MAX], line[128];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s", t->path,
	    more);
	snprintf(line, sizeof(line), "auth required %s\n", next);
	mt_service_lines(name, args, line);
}

static size_t
touches(const struct tokenctl *t)
{
	return tokenctl_count(t, "ins=02 p1=03 sw=9000");
}

/* Does this host's logind (if any) answer for this process? Then what
 * "local" means here is the host's to say, and those cases are skipped. */
static bool
host_logind_answers(void)
{
	const struct remsess_roots r = REMSESS_ROOTS_HOST;
	const char *why = NULL;

	if (remsess_logind(&r, NULL, &why) == REMSESS_UNKNOWN)
		return false;
	printf("# this host's logind answers (%s): local cases skipped\n", why);
	return true;
}

static void
test_fail(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char host[256] = "";

	T_TRUE(gethostname(host, sizeof(host) - 1) == 0);
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("rfail", &t, "timeout=5 remote=fail");
	T_EQ_INT(mt_auth_from("rfail", "alice", FAR, NULL, &cv), PAM_AUTH_ERR);
	T_EQ_INT(mt_debug_count(LOOKED), 0);
	T_EQ_INT(touches(&t), 0);
	T_TRUE(mt_debug_has("remote=fail: session remote (PAM_RHOST names "
			    "another host)"));
	/* PAM_RHOST another host: a remote client, told nothing */
	T_TRUE(mt_debug_has("not told (remote client: "));
	T_EQ_INT(cv.nerror, 0);
	if (!host_logind_answers()) {
		/* sudo's PAM_RHOST, over SSH (no logind: the environment):
		 * the user is told why */
		setenv("SSH_CONNECTION", FAR " 50000 192.0.2.1 22", 1);
		memset(&cv, 0, sizeof(cv));
		T_EQ_INT(mt_auth_from("rfail", "alice", host, NULL, &cv),
		    PAM_AUTH_ERR);
		T_EQ_INT(mt_debug_count(LOOKED), 0);
		T_TRUE(strstr(cv.shown, "E:" TELL_REMOTE_FAIL "\n") != NULL);
		unsetenv("SSH_CONNECTION");
		/* local: the token, as ever */
		memset(&cv, 0, sizeof(cv));
		T_EQ_INT(mt_auth_from("rfail", "alice", host, NULL, &cv),
		    PAM_SUCCESS);
		T_EQ_INT(mt_debug_count(LOOKED), 1);
		T_EQ_INT(touches(&t), 1);
	}
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* remote=ignore: PAM_IGNORE, which lets the next module decide: in a
 * required stack whose next module is pam_permit, that is a success
 * with no key (the risk pam_u2f(8) spells out). */
static void
test_ignore(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	service_then("rignore", &t, "timeout=5 remote=ignore", "pam_deny.so");
	T_EQ_INT(
	    mt_auth_from("rignore", "alice", FAR, NULL, &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("remote=ignore: PAM_IGNORE for alice"));
	service_then("rignore", &t, "timeout=5 remote=ignore", "pam_permit.so");
	T_EQ_INT(mt_auth_from("rignore", "alice", FAR, NULL, &cv), PAM_SUCCESS);
	T_EQ_INT(mt_debug_count(LOOKED), 0);
	T_TRUE(mt_debug_has("remote=ignore: PAM_IGNORE for alice"));
	T_EQ_INT(touches(&t), 0);
	/* with remote=fail the same stack fails */
	service_then("rignore", &t, "timeout=5 remote=fail", "pam_permit.so");
	T_EQ_INT(
	    mt_auth_from("rignore", "alice", FAR, NULL, &cv), PAM_AUTH_ERR);
	if (!host_logind_answers()) {
		/* the environment is the user's: not taken for ignore */
		setenv("SSH_CONNECTION", FAR " 50000 192.0.2.1 22", 1);
		service_then(
		    "rignore", &t, "timeout=5 remote=ignore", "pam_deny.so");
		T_EQ_INT(mt_auth_from("rignore", "alice", NULL, NULL, &cv),
		    PAM_AUTH_ERR);
		unsetenv("SSH_CONNECTION");
		T_EQ_INT(touches(&t), 1);
		T_TRUE(mt_debug_has("remote=ignore: session local"));
	}
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* wait, given or by default: the token is asked in a remote session as
 * in a local one. */
static void
test_wait(void)
{
	static const char *const args[] = {
	    "timeout=5", "timeout=5 remote=wait"};
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	size_t i;

	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	for (i = 0; i < 2; i++) {
		memset(&cv, 0, sizeof(cv));
		mtfix_service_dev("rwait", &t, args[i]);
		T_EQ_INT(mt_auth_from("rwait", "alice", FAR, NULL, &cv),
		    PAM_SUCCESS);
		T_EQ_INT(mt_debug_count(LOOKED), 1);
		T_EQ_INT(touches(&t), i + 1);
		T_TRUE(!mt_debug_has("remote=wait"));
	}
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* A user without credentials: nouserok decides, as in a local session;
 * without it, remote=fail refuses as any missing credential does. */
static void
test_nouserok(void)
{
	struct mt_conv cv;
	char *line = mtfix_dummy_line("alice", NULL);

	memset(&cv, 0, sizeof(cv));
	mt_keys(&mt.alice, "bob:\n");
	mt_service_lines("rnouser", NODEV " remote=fail nouserok",
	    "auth required pam_permit.so\n");
	T_EQ_INT(mt_auth_from("rnouser", "alice", FAR, NULL, &cv), PAM_SUCCESS);
	mt_service_lines(
	    "rnouser", NODEV " remote=fail", "auth required pam_permit.so\n");
	T_EQ_INT(
	    mt_auth_from("rnouser", "alice", FAR, NULL, &cv), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_debug_count(LOOKED), 0);
	/* with a credential, nouserok changes nothing */
	mt_keys(&mt.alice, line);
	mt_service_lines("rnouser", NODEV " remote=fail nouserok",
	    "auth required pam_permit.so\n");
	T_EQ_INT(
	    mt_auth_from("rnouser", "alice", FAR, NULL, &cv), PAM_AUTH_ERR);
	T_EQ_INT(mt_debug_count(LOOKED), 0);
	free(line);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_fail),
	    TEST(test_ignore),
	    TEST(test_wait),
	    TEST(test_nouserok),
	};

	(void)argc;
	unsetenv("SSH_CONNECTION");
	unsetenv("SSH_CLIENT");
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
