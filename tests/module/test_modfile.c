/* SPDX-License-Identifier: BSD-2-Clause */
/* What pam_u2f.so reads before it reaches a device, through the real
 * libpam with nss_wrapper users: where the mapping file is (the default
 * path, authfile=, expand with %u and %h, XDG_CONFIG_HOME) and as whom it
 * is read (openasuser, privileges dropped); files refused for their type,
 * mode, owner, size or a symlink to another's file, without blocking on
 * a FIFO (PAM_AUTH_ERR); malformed
 * lines failing closed (PAM_AUTH_ERR) with the line number but never its
 * text; a user with no file (PAM_AUTHINFO_UNAVAIL) or no credentials
 * (PAM_USER_UNKNOWN), PAM_IGNORE for both with nouserok; a user not in
 * passwd (PAM_SYSTEM_ERR);
 * bad arguments and a refused conf= file (PAM_SERVICE_ERR, even with
 * alwaysok); and a debug_file that is a symlink or left open. Cases that
 * need a device use a software token to show the right file was read. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "crypto/crypto_int.h"
#include "modtest.h"
#include "mtfix.h"
#include "mtmain.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"

/* ---- mapping-file faults: no device is ever reached ---- */

static void
keys_path(char *p, size_t n)
{
	mt_keys_path(&mt.alice, p, n);
}

/* A symlinked per-user file (dotfile managers make them) is followed,
 * as the user, to a file of the user only (pam-u2f 1.4). */
static void
test_file_symlink(void)
{
	char path[300], target[300];
	char *line = mtfix_dummy_line("alice", NULL);

	snprintf(target, sizeof(target), "%s/real_keys", mt.alice.home);
	mt_write(target, line, strlen(line), &mt.alice, 0644);
	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(symlink(target, path), 0);
	/* Followed: the line is read, then no device answers. */
	T_EQ_INT(mtfix_run("symlink", NODEV, "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("u2f_keys is a symbolic link to a file of the "
			    "user"));
	T_TRUE(mt_debug_has("1 credential(s) for alice"));
	/* the arguments' debug line names the ES256 implementation */
	T_TRUE(mt_debug_has(DIRECT_VERIFY && !crypto_fips_mode(CRYPTO_FIPS_PATH)
		? "ES256 checks direct"
		: "ES256 checks evp"));
	if (mt.root) {
		/* To root's file (readable by alice): refused, also with
		 * nouserok. */
		mt_write(target, line, strlen(line), NULL, 0644);
		T_EQ_INT(mtfix_run("symlink", NODEV " nouserok", "alice"),
		    PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("is a symbolic link to a file of another "
				    "user"));
	} else
		printf("# a link to root's file needs root\n");
	free(line);
}

static void
test_file_fifo(void)
{
	char path[300];

	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(mkfifo(path, 0644), 0);
	if (mt.root)
		T_EQ_INT(chown(path, mt.alice.uid, mt.alice.gid), 0);
	T_EQ_INT(mtfix_run("fifo", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	/* refused for its type (opened with O_NONBLOCK: a blocking open
	 * would wait for a writer that never comes, and never get here) */
	T_TRUE(mt_debug_has("not a regular file"));
	unlink(path);
	/* A directory, too. */
	T_EQ_INT(mkdir(path, 0755), 0);
	T_EQ_INT(mtfix_run("dir", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	rmdir(path);
}

/* alice's 0664 file (group alice) is refused as soon as another account
 * is in her group: by its primary gid (never listed in the group's
 * members), or through a second group entry with the same number. Each
 * is then able to rewrite the file. A refused file is PAM_AUTH_ERR, as
 * is an accepted one with no key: the log tells them apart. */
static void
group_not_alone(void)
{
	char pw[400], gr[128];

	snprintf(pw, sizeof(pw), "mallory:x:4714:%u:M:%s:/bin/sh\n",
	    (unsigned)mt.alice.gid, mt.bob.home);
	mt_nss_more(pw, "");
	T_EQ_INT(mtfix_run("gw", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("not a private group of the user alone"));
	T_TRUE(mt_debug_has("chmod g-w"));
	snprintf(gr, sizeof(gr), "alice2:x:%u:bob\n", (unsigned)mt.alice.gid);
	mt_nss_more("", gr);
	T_EQ_INT(mtfix_run("gw", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("not a private group of the user alone"));
	/* A second entry that lists only alice adds nobody. */
	snprintf(gr, sizeof(gr), "alice2:x:%u:alice\n", (unsigned)mt.alice.gid);
	mt_nss_more("", gr);
	T_EQ_INT(mtfix_run("gw", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("writable by the user's private group"));
	mt_nss_more("", "");
}

static void
test_file_modes(void)
{
	char path[300];
	char *line = mtfix_dummy_line("alice", NULL);

	keys_path(path, sizeof(path));
	mt_write(path, line, strlen(line), &mt.alice, 0664);
	if (mt.root) {
		/* Writable by alice's private group: a warning (pam-u2f
		 * 1.3.2), then no device answers. */
		T_EQ_INT(
		    mtfix_run("gw", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("writable by the user's private group"));
		group_not_alone();
		/* By any other group: refused. */
		T_EQ_INT(chown(path, mt.alice.uid, mt.bob.gid), 0);
		T_EQ_INT(
		    mtfix_run("gw", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("writable"));
	}
	mt_write(path, line, strlen(line), &mt.alice, 0646);
	T_EQ_INT(mtfix_run("ww", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	/* Unreadable is not "no credentials" (CVE-2020-24612). */
	mt_write(path, line, strlen(line), &mt.alice, 0000);
	if (access(path, R_OK) != 0 || mt.root)
		T_EQ_INT(mtfix_run("unread", NODEV " nouserok", "alice"),
		    PAM_AUTHINFO_UNAVAIL);
	if (mt.root) {
		/* Owned by another user (bob). */
		mt_write(path, line, strlen(line), &mt.bob, 0644);
		T_EQ_INT(mtfix_run("owner", NODEV " nouserok", "alice"),
		    PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("owned by another user"));
	} else
		printf("# other-owner check needs root\n");
	free(line);
}

static void
test_file_malformed(void)
{
	char text[512];
	char *bob = mtfix_dummy_line("bob", NULL);

	/* The user's malformed line: fails closed; the line's text never
	 * reaches the log, its number does. */
	snprintf(
	    text, sizeof(text), "# comment\nalice:SECRETGARBAGE,xyz\n%s", bob);
	mt_keys(&mt.alice, text);
	T_EQ_INT(mtfix_run("malformed", NODEV, "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("line 2"));
	T_TRUE(!mt_debug_has("SECRETGARBAGE"));
	T_EQ_INT(
	    mtfix_run("malformed", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	free(bob);
}

static void
test_file_nul(void)
{
	char path[300];
	char *line = mtfix_dummy_line("alice", NULL);
	size_t n = strlen(line);

	line[n / 2] = '\0';
	keys_path(path, sizeof(path));
	mt_write(path, line, n, &mt.alice, 0644);
	T_EQ_INT(mtfix_run("nul", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	free(line);
}

static void
test_file_too_big(void)
{
	char path[300];
	size_t n = 1024 * 1024 + 10;
	char *big = malloc(n);

	T_TRUE(big != NULL);
	if (big == NULL)
		return;
	memset(big, '#', n);
	big[n - 1] = '\n';
	keys_path(path, sizeof(path));
	mt_write(path, big, n, &mt.alice, 0644);
	T_EQ_INT(mtfix_run("big", NODEV " nouserok", "alice"), PAM_AUTH_ERR);
	free(big);
}

static void
test_no_credentials(void)
{
	char path[300];
	char *bob = mtfix_dummy_line("bob", NULL);

	mt_keys(&mt.alice, bob);
	T_EQ_INT(mtfix_run("noline", NODEV, "alice"), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	mt_keys(&mt.alice, "alice:\n");
	T_EQ_INT(mtfix_run("empty", NODEV, "alice"), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(mtfix_run("nofile", NODEV, "alice"), PAM_AUTHINFO_UNAVAIL);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	/* Through a stack: PAM_IGNORE lets the next module decide. */
	mt_service_lines("stack", NODEV " nouserok",
	    "auth required "
	    "pam_permit.so\n");
	T_EQ_INT(mt_auth("stack", "alice", NULL), PAM_SUCCESS);
	mt_service_lines("stack2", NODEV " nouserok",
	    "auth required "
	    "pam_deny.so\n");
	T_EQ_INT(mt_auth("stack2", "alice", NULL), PAM_AUTH_ERR);
	/* A user unknown to the system is never "no credentials". */
	T_EQ_INT(mt_direct("zed", NODEV " nouserok"), PAM_SYSTEM_ERR);
	free(bob);
}

/* Resident credentials ("*") are FIDO2 credentials we use, as are +pin
 * and +verification (tests with the CTAP2 software token:
 * test_ctap2mod, tests/tool/ctap2.sh). */
static void
test_ctap2_credentials(void)
{
	mt_keys(&mt.alice,
	    "alice:*,sVXHe9Hxw2BY8dUjr7IU8nv6Gj3vZB5JLIBLyY4QJzxqO+J+JmVYwu3"
	    "ssv55NE+L4MiJAhsOTwcd4qBtAwWvZQ==,es256,+presence\n");
	/* A resident credential ("*") is read and asked of the keys (none
	 * here): not refused as unsupported. */
	T_EQ_INT(mtfix_run("rk", NODEV, "alice"), PAM_AUTH_ERR);
	T_TRUE(!mt_debug_has("not supported"));
}

/* ---- arguments ---- */

static void
test_bad_arguments(void)
{
	static const char *const bad[] = {
	    "frobnicate",
	    "timeout=0",
	    "timeout=3601",
	    "timeout=abc",
	    "timeout=",
	    "timeout=5x",
	    "max_devices=-1",
	    "origin=",
	    "userpresence=2",
	    "userverification=2",
	    "pinverification=-2",
	    "cue=1",
	    "debug=yes",
	    "devices=",
	    "devices=hidraw0",
	    "authfile=",
	    "conf=",
	};
	char args[ARGS_MAX];
	char *line = mtfix_dummy_line("alice", NULL);
	size_t i;

	mt_keys(&mt.alice, line);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args), NODEV " %s", bad[i]);
		if (mtfix_run("badarg", args, "alice") != PAM_SERVICE_ERR)
			T_FAIL_AT("argument %s not refused", bad[i]);
	}
	T_EQ_INT(
	    mtfix_run("badarg", NODEV " frobnicate", "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("frobnicate"));
	T_EQ_INT(mtfix_run("uv", NODEV " userverification=2", "alice"),
	    PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("userverification"));
	/* Accepted values still reach the (absent) device. */
	T_EQ_INT(mtfix_run("ok",
		     NODEV " userverification=0 pinverification=-1 "
			   "userpresence=1 max_devices=0",
		     "alice"),
	    PAM_AUTH_ERR);
	free(line);
}

static void
test_conf_refused(void)
{
	char args[ARGS_MAX], path[300];

	/* More in test_confmod (tests/module/local.mk). */
	snprintf(path, sizeof(path), "%s/bad.conf", mt.dir);
	mt_write(path, "bogus = 1\n", 10, NULL, 0644);
	snprintf(args, sizeof(args), NODEV " conf=%s", path);
	T_EQ_INT(mtfix_run("conf", args, "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has(mt.root
		? "bad.conf:1: no such option 'bogus'"
		: "bad.conf: refused: the file is not owned by root"));
	T_EQ_INT(mtfix_run("conf", NODEV " conf=/nonexistent/x.conf", "alice"),
	    PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("No such file"));
}

static void
test_alwaysok(void)
{
	char *line = mtfix_dummy_line("alice", NULL);

	mt_keys(&mt.alice, line);
	T_EQ_INT(
	    mtfix_run("alwaysok", NODEV " alwaysok", "alice"), PAM_SUCCESS);
	T_TRUE(mt_debug_has("alwaysok"));
	/* But never for a bad argument. */
	T_EQ_INT(mtfix_run("alwaysok", NODEV " alwaysok bogus", "alice"),
	    PAM_SERVICE_ERR);
	free(line);
}

/* ---- where the mapping file is, and as whom it is read ---- */

static void
test_expand(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char dir[300], path[400], args[ARGS_MAX], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	if ((line = mt_line("alice", &c, 1)) == NULL) {
		tokenctl_stop(&t); /* no credential: failed above */
		return;
	}
	snprintf(dir, sizeof(dir), "%s/keys", mt.dir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/alice.keys", dir);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	mt_keys(&mt.alice, "");
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT " "
	    "expand authfile=%s/%%u.keys",
	    t.path, dir);
	mt_service("expand", args);
	T_EQ_INT(mt_auth("expand", "alice", &cv), PAM_SUCCESS);
	/* Without expand, "%u" is literal: no such file. */
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT " "
	    "authfile=%s/%%u.keys",
	    t.path, dir);
	mt_service("noexpand", args);
	T_EQ_INT(mt_auth("noexpand", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	/* %h: relative to the home directory. */
	snprintf(path, sizeof(path), "%s/my.keys", mt.alice.home);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT " "
	    "expand authfile=%%h/my.keys",
	    t.path);
	mt_service("expandh", args);
	T_EQ_INT(mt_auth("expandh", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(
	    mtfix_run("expandbad", NODEV " expand authfile=/x/%q", "alice"),
	    PAM_SERVICE_ERR);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_openasuser(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char path[300], args[ARGS_MAX], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	if ((line = mt_line("alice", &c, 1)) == NULL) {
		tokenctl_stop(&t); /* no credential: failed above */
		return;
	}
	/* A central file only root may read. */
	snprintf(path, sizeof(path), "%s/central_keys", mt.dir);
	mt_write(path, line, strlen(line), NULL, 0600);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT " "
	    "authfile=%s",
	    t.path, path);
	mt_service("central", args);
	T_EQ_INT(mt_auth("central", "alice", &cv), PAM_SUCCESS);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT " "
	    "openasuser authfile=%s",
	    t.path, path);
	mt_service("asuser", args);
	if (mt.root) {
		/* Read as alice: permission denied, not "no credentials". */
		T_EQ_INT(mt_auth("asuser", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
		T_TRUE(mt_debug_has("Permission denied"));
		chmod(path, 0644);
	}
	T_EQ_INT(mt_auth("asuser", "alice", &cv), PAM_SUCCESS);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_xdg(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char dir[300], path[400], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	if ((line = mt_line("alice", &c, 1)) == NULL) {
		tokenctl_stop(&t); /* no credential: failed above */
		return;
	}
	mt_keys(&mt.alice, "");
	snprintf(dir, sizeof(dir), "%s/xdg", mt.dir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/Yubico", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/Yubico/u2f_keys", dir);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	setenv("XDG_CONFIG_HOME", dir, 1);
	mtfix_service_dev("xdg", &t, MT_OK_TIMEOUT);
	T_EQ_INT(mt_auth("xdg", "alice", &cv), PAM_SUCCESS);
	if (mt.root) {
		/* Read with privileges dropped, even here: a root-only
		 * file is unreadable. */
		mt_write(path, line, strlen(line), NULL, 0600);
		T_EQ_INT(mt_auth("xdg", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	}
	unsetenv("XDG_CONFIG_HOME");
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* ---- the debug file ---- */

static void
test_debug_file(void)
{
	char target[300], link[300], args[ARGS_MAX], fds[300], name[300];
	struct dirent *e;
	struct stat st;
	DIR *d;
	char *line = mtfix_dummy_line("alice", NULL);

	mt_keys(&mt.alice, line);
	/* A symlink as debug_file is not followed. */
	snprintf(target, sizeof(target), "%s/target.log", mt.dir);
	snprintf(link, sizeof(link), "%s/link.log", mt.dir);
	mt_write(target, "", 0, NULL, 0600);
	unlink(link);
	T_EQ_INT(symlink(target, link), 0);
	snprintf(args, sizeof(args), "%s debug debug_file=%s", NODEV, link);
	T_EQ_INT(mtfix_run("dbglink", args, "alice"), PAM_AUTH_ERR);
	T_EQ_INT(stat(target, &st), 0);
	T_EQ_INT(st.st_size, 0);
	/* No descriptor is left open after the call (CVE-2019-12210). */
	T_EQ_INT(mtfix_run("dbgfd", NODEV, "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("pam_u2f: "));
	T_TRUE((d = opendir("/proc/self/fd")) != NULL);
	while (d != NULL && (e = readdir(d)) != NULL) {
		snprintf(fds, sizeof(fds), "/proc/self/fd/%s", e->d_name);
		memset(name, 0, sizeof(name));
		if (readlink(fds, name, sizeof(name) - 1) > 0 &&
		    strcmp(name, mt.debug) == 0)
			T_FAIL_AT("debug file still open as fd %s", e->d_name);
	}
	if (d != NULL)
		closedir(d);
	free(line);
}

/* Lines of the debug log that begin with prefix. */
static size_t
debug_lines_starting(const char *prefix)
{
	char line[2048];
	size_t n = 0;
	FILE *f = fopen(mt.debug, "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		n += strncmp(line, prefix, strlen(prefix)) == 0;
	fclose(f);
	return n;
}

/* A user name from the PAM client cannot forge a line of debug_file:
 * its newline is written as \x0a (issue 25 section 6). */
static void
test_debug_forged_line(void)
{
	T_TRUE(mtfix_run("dbgforge", NODEV,
		   "ghost\npam_u2f: result ERR_OK: Success") != PAM_SUCCESS);
	T_TRUE(mt_debug_has("ghost\\x0apam_u2f: result ERR_OK: Success"));
	T_EQ_INT(debug_lines_starting("pam_u2f: result ERR_OK"), 0);
	T_TRUE(debug_lines_starting("pam_u2f: result ") > 0);
	/* the same through the error lines (syslog and debug_file) */
	T_TRUE(mtfix_run("dbgforge", NODEV, "a\rb\x1b[2Jc") != PAM_SUCCESS);
	T_TRUE(mt_debug_has("a\\x0db\\x1b[2Jc"));
	T_TRUE(!mt_debug_has("a\rb"));
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_file_symlink),
	    TEST(test_file_fifo),
	    TEST(test_file_modes),
	    TEST(test_file_malformed),
	    TEST(test_file_nul),
	    TEST(test_file_too_big),
	    TEST(test_no_credentials),
	    TEST(test_ctap2_credentials),
	    TEST(test_bad_arguments),
	    TEST(test_conf_refused),
	    TEST(test_alwaysok),
	    TEST(test_expand),
	    TEST(test_openasuser),
	    TEST(test_xdg),
	    TEST(test_debug_file),
	    TEST(test_debug_forged_line),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
