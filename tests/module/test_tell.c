/* SPDX-License-Identifier: BSD-2-Clause */
/* What the user is told (pam_u2f/usermsg.h) through the real pam_u2f.so and
 * the real libpam, with nss_wrapper users and software tokens: the exact
 * text and message style of each message (no credentials in the user's
 * own file or in a central one, whose path is not shown; no key; a key
 * without the user's credential, with the hint when the key holds one
 * for the appid or for this host's default origin; the timeout), that
 * nouserok stays silent, that the cue is still shown before the wait,
 * and that no message changes a PAM code. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "mtfix.h"
#include "mtmain.h"
#include "usermsg_text.h"
#include "test.h"
#include "tokenctl.h"

/* cv shows exactly one error message, want ("E:" + want + "\n"). */
static bool
shown_error(const struct mt_conv *cv, const char *want)
{
	char line[TELL_MAX + 4];

	snprintf(line, sizeof(line), "E:%s\n", want);
	if (cv->nerror != 1 || strstr(cv->shown, line) == NULL) {
		printf("# shown (%zu errors): %s", cv->nerror, cv->shown);
		return false;
	}
	return true;
}

static void
test_no_credentials_own_file(void)
{
	struct mt_conv cv;
	char path[300], want[TELL_MAX];

	memset(&cv, 0, sizeof(cv));
	mt_keys(&mt.alice, "bob:\n");
	mt_keys_path(&mt.alice, path, sizeof(path));
	mt_service("nocreds", NODEV);
	T_EQ_INT(mt_auth("nocreds", "alice", &cv), PAM_USER_UNKNOWN);
	snprintf(want, sizeof(want),
	    "No security key is registered for alice in %s. To register "
	    "one, run as alice: pamu2fcfg --add",
	    path);
	T_TRUE(shown_error(&cv, want));
	T_EQ_INT(cv.ninfo, 0);
	/* No file at all: the same. */
	unlink(path);
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mt_auth("nocreds", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(shown_error(&cv, want));
	T_TRUE(mt_debug_has("the per-user default"));
	/* nouserok: the rest of the stack decides, nothing is said. */
	memset(&cv, 0, sizeof(cv));
	mt_service_lines(
	    "nocreds-ok", NODEV " nouserok", "auth required pam_deny.so\n");
	T_EQ_INT(mt_auth("nocreds-ok", "alice", &cv), PAM_AUTH_ERR);
	T_EQ_INT(cv.nerror, 0);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	/* sshformat: the OpenSSH key file is named, and ssh-keygen. */
	memset(&cv, 0, sizeof(cv));
	mt_service("nocreds-ssh", NODEV " sshformat");
	T_EQ_INT(mt_auth("nocreds-ssh", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	snprintf(want, sizeof(want),
	    "No security key is registered for alice: %s/.ssh/id_ecdsa_sk "
	    "does not hold one. Create it with: ssh-keygen -t ecdsa-sk",
	    mt.alice.home);
	T_TRUE(shown_error(&cv, want));
	/* A user unknown to the system: nothing said either. */
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mt_auth("nocreds", "nosuchuser", &cv), PAM_SYSTEM_ERR);
	T_EQ_INT(cv.nerror, 0);
	mt_keys(&mt.alice, "");
}

/* A central file: its path is not shown (another user's business), the
 * administrator is named instead. */
static void
test_no_credentials_central(void)
{
	struct mt_conv cv;
	char central[300], args[600];

	memset(&cv, 0, sizeof(cv));
	snprintf(central, sizeof(central), "%s/central_tell", mt.dir);
	mt_write(central, "bob:\n", 5, NULL, 0644);
	snprintf(args, sizeof(args), NODEV " authfile=%s", central);
	mt_service("nocreds-central", args);
	T_EQ_INT(mt_auth("nocreds-central", "alice", &cv), PAM_USER_UNKNOWN);
	T_TRUE(shown_error(&cv,
	    "No security key is registered for alice. Ask an administrator "
	    "to register one (pamu2fcfg -u alice --add, into the central "
	    "mapping file)."));
	T_TRUE(strstr(cv.shown, central) == NULL);
	T_TRUE(mt_debug_has("authfile= (a central file)"));
	unlink(central);
}

/* A remote client (pam_u2f(8), DIAGNOSTICS) is told nothing that tells
 * accounts apart: sshd, PAM_TTY "ssh", or PAM_RHOST naming another host;
 * the code is the same as for a local one. */
static void
test_remote_silent(void)
{
	static const struct {
		const char *service, *rhost, *tty;
		bool told;
	} rows[] = {
	    {"nocreds", NULL, NULL, true},
	    {"nocreds", "", NULL, true},
	    {"sshd", NULL, NULL, false},
	    {"sshd", "localhost", NULL, false},
	    {"nocreds", "192.0.2.7", NULL, false},
	    {"nocreds", "client.example.org", NULL, false},
	    {"nocreds", NULL, "ssh", false},
	};
	char host[HOST_NAME_MAX + 1] = "", path[300];
	char *line = mtfix_dummy_line("bob", NULL);
	struct mt_conv cv;
	size_t i;

	mt_keys(&mt.alice, "bob:\n");
	mt_service("nocreds", NODEV " cue");
	mt_service("sshd", NODEV " cue");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&cv, 0, sizeof(cv));
		T_EQ_INT(mt_auth_from(rows[i].service, "alice", rows[i].rhost,
			     rows[i].tty, &cv),
		    PAM_USER_UNKNOWN);
		if ((cv.nerror == 1) != rows[i].told)
			T_FAIL_AT("%s rhost %s tty %s: %zu messages: %s",
			    rows[i].service,
			    rows[i].rhost ? rows[i].rhost : "(unset)",
			    rows[i].tty ? rows[i].tty : "(unset)", cv.nerror,
			    cv.shown);
		if (!rows[i].told)
			T_TRUE(mt_debug_has("not told (remote client: "));
	}
	/* sudo sets PAM_RHOST to this host's name: local. */
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0] != '\0') {
		memset(&cv, 0, sizeof(cv));
		T_EQ_INT(mt_auth_from("nocreds", "alice", host, NULL, &cv),
		    PAM_USER_UNKNOWN);
		T_EQ_INT(cv.nerror, 1);
	}
	/* No account is told apart remotely: no file, no key (with a
	 * credential), an unknown user: all silent. */
	mt_keys_path(&mt.alice, path, sizeof(path));
	unlink(path);
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mt_auth_from("sshd", "alice", "192.0.2.7", NULL, &cv),
	    PAM_AUTHINFO_UNAVAIL);
	mt_keys(&mt.bob, line != NULL ? line : "");
	T_EQ_INT(
	    mt_auth_from("sshd", "bob", "192.0.2.7", NULL, &cv), PAM_AUTH_ERR);
	T_EQ_INT(mt_auth_from("sshd", "nosuchuser", "192.0.2.7", NULL, &cv),
	    PAM_SYSTEM_ERR);
	T_EQ_INT(cv.nerror, 0);
	mt_keys(&mt.bob, "");
	mt_keys(&mt.alice, "");
	free(line);
}

static void
test_no_key(void)
{
	struct mt_conv cv;
	char *line = mtfix_dummy_line("alice", NULL);

	memset(&cv, 0, sizeof(cv));
	mt_keys(&mt.alice, line != NULL ? line : "");
	mt_service("tell-nokey", NODEV " cue");
	T_EQ_INT(mt_auth("tell-nokey", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(shown_error(&cv, TELL_NO_KEY));
	T_TRUE(shown_error(
	    &cv, "No security key found. Insert your key and try again."));
	T_EQ_INT(cv.ninfo, 0); /* no cue without a key */
	free(line);
}

/* A key that holds none of the user's credentials: the origin in use is
 * named, with the honest advice when nothing else is found. */
static void
test_wrong_key(void)
{
	struct tokenctl t;
	struct mt_conv cv;
	char *line = mtfix_dummy_line("alice", NULL);

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	mt_keys(&mt.alice, line != NULL ? line : "");
	/* A long timeout: the refusal comes from the silent check at once,
	 * and must not depend on a deadline (timeout=2 expired first under
	 * valgrind on a loaded machine: the timeout's message instead). */
	mtfix_service_dev("tell-wrong", &t, MT_OK_TIMEOUT " cue");
	T_EQ_INT(mt_auth("tell-wrong", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(shown_error(&cv,
	    "This security key is not registered for alice on this host "
	    "(origin pam://mt). Register it with: pamu2fcfg --add. If the "
	    "host was renamed, keys registered before hold credentials for "
	    "the old origin: set origin= to it in pam_u2f.conf."));
	T_EQ_INT(cv.ninfo, 0); /* no cue: no key holds a credential */
	T_TRUE(mt_debug_has("no security key holds a credential of alice "
			    "for origin pam://mt"));
	tokenctl_stop(&t);
	free(line);
}

/* The key holds alice's credential, but for another origin this host
 * may have used: the appid, or the default pam://HOSTNAME. */
static void
test_wrong_origin_hint(void)
{
	struct tokenctl t;
	struct mt_conv cv;
	struct cred c;
	char host[HOST_NAME_MAX + 1], origin[HOST_NAME_MAX + 8];
	char *line = NULL;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("tell-appid", &t,
	    MT_OK_TIMEOUT " origin=pam://renamed appid=" ORIGIN);
	T_EQ_INT(mt_auth("tell-appid", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(shown_error(&cv,
	    "This security key is not registered for alice on this host "
	    "(origin pam://renamed), but holds a credential of alice's for "
	    "pam://mt. Set origin=pam://mt in pam_u2f.conf, or register the "
	    "key again with: pamu2fcfg --add"));
	T_TRUE(mt_debug_has("one holds one for pam://mt"));
	T_EQ_INT(tokenctl_count(&t, "ins=02 p1=03 sw=9000"), 0);
	cred_clear(&c);
	/* Registered under the default origin, before origin= was set. */
	memset(host, 0, sizeof(host));
	T_EQ_INT(gethostname(host, sizeof(host) - 1), 0);
	snprintf(origin, sizeof(origin), "pam://%s", host);
	T_EQ_INT(mt_enroll(t.path, origin, &c), ERR_OK);
	line = mt_line("alice", &c, 1);
	mt_keys(&mt.alice, line != NULL ? line : "");
	mtfix_service_dev(
	    "tell-host", &t, MT_OK_TIMEOUT " origin=pam://renamed");
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mt_auth("tell-host", "alice", &cv), PAM_AUTH_ERR);
	T_EQ_INT(cv.nerror, 1);
	T_TRUE(
	    strstr(cv.shown, "but holds a credential of alice's for ") != NULL);
	T_TRUE(strstr(cv.shown, origin) != NULL);
	T_EQ_INT(tokenctl_count(&t, "ins=02 p1=03 sw=9000"), 0);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* The key is there but never touched: the cue first (pam-u2f's
 * behaviour, unchanged), then the timeout. */
static void
test_timeout(void)
{
	struct tokenctl t;
	struct mt_conv cv;
	struct cred c;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "never", &mt.alice, &c), 0);
	mtfix_service_dev("tell-timeout", &t, "timeout=1 cue");
	T_EQ_INT(mt_auth("tell-timeout", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(shown_error(&cv,
	    "Timed out: the security key was not touched within 1 s. Try "
	    "again and touch the key when it blinks."));
	T_EQ_INT(cv.ninfo, 1);
	T_TRUE(strstr(cv.shown, "I:Please touch the device.\nE:Timed out") !=
	    NULL);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* Success says nothing but the cue. */
static void
test_success_quiet(void)
{
	struct tokenctl t;
	struct mt_conv cv;
	struct cred c;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("tell-ok", &t, MT_OK_TIMEOUT " cue");
	T_EQ_INT(mt_auth("tell-ok", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.nerror, 0);
	T_EQ_INT(cv.ninfo, 1);
	T_TRUE(mt_debug_has("1 credential(s) for alice from "));
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* PAM_SILENT changes nothing (pam_u2f(8), DESKTOPS): sudo passes it by
 * default, and without the cue no one knows to touch the key. */
static void
test_pam_silent_ignored(void)
{
	struct tokenctl t;
	struct mt_conv cv;
	struct cred c;
	char *line;

	memset(&cv, 0, sizeof(cv));
	cv.pam_flags = PAM_SILENT;
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("silent-ok", &t, MT_OK_TIMEOUT " cue");
	T_EQ_INT(mt_auth("silent-ok", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.ninfo, 1);
	/* a key holding none of alice's credentials: refused, and told */
	line = mtfix_dummy_line("alice", NULL);
	mt_keys(&mt.alice, line != NULL ? line : "");
	memset(&cv, 0, sizeof(cv));
	cv.pam_flags = PAM_SILENT;
	mtfix_service_dev("silent-wrong", &t, MT_OK_TIMEOUT " cue");
	T_EQ_INT(mt_auth("silent-wrong", "alice", &cv), PAM_AUTH_ERR);
	T_EQ_INT(cv.nerror, 1);
	T_TRUE(strstr(cv.shown,
		   "E:This security key is not registered for "
		   "alice") != NULL);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_no_credentials_own_file),
	    TEST(test_no_credentials_central),
	    TEST(test_remote_silent),
	    TEST(test_no_key),
	    TEST(test_wrong_key),
	    TEST(test_wrong_origin_hint),
	    TEST(test_timeout),
	    TEST(test_success_quiet),
	    TEST(test_pam_silent_ignored),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
