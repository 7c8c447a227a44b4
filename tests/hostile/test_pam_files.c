/* SPDX-License-Identifier: BSD-2-Clause */
/* The real pam_u2f.so through the real libpam against the file and
 * environment attacks on similar modules (see SECURITY.md): the debug
 * file's descriptor in children (CVE-2019-12210), XDG_CONFIG_HOME steering
 * a root process, a user's symlink to a file only root may read
 * (CVE-2019-12209), lines cut at a buffer size, and what pam-u2f 1.4
 * accepts (lines without a colon, symlinked and group-writable per-user
 * files) accepted no less safely. test_pam_hostile.c
 * has the malicious devices. Reuses the module tests' harness
 * (tests/module/modtest.h) read-only. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "pamrig.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"

/* ---- CVE-2019-12210: the debug file's descriptor in children ---- */

/* Is path open in process pid ("self" or a number)? */
static bool
fd_open_in(const char *pid, const char *path)
{
	char dir[64], fd[320], name[320];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	if ((d = opendir(dir)) == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		snprintf(fd, sizeof(fd), "%s/%s", dir, e->d_name);
		memset(name, 0, sizeof(name));
		if (readlink(fd, name, sizeof(name) - 1) > 0 &&
		    strcmp(name, path) == 0)
			found = true;
	}
	closedir(d);
	return found;
}

struct exec_probe {
	bool parent_open; /* the module holds the file open now */
	bool child_open;  /* a child that exec'd sees it too */
	bool ran;
};

/* Called from the module's prompt: fork and exec a shell that lists its
 * own descriptors, as an application that runs a helper would. */
static char *
exec_answer(struct mt_conv *cv, const char *prompt)
{
	struct exec_probe *ep = cv->arg;
	char cmd[400], out[4096];
	size_t n;
	FILE *p;

	(void)prompt;
	ep->parent_open = fd_open_in("self", mt.debug);
	snprintf(cmd, sizeof(cmd), "ls -l /proc/self/fd/ 2>/dev/null");
	if ((p = popen(cmd, "r")) != NULL) {
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		ep->ran = pclose(p) == 0 && n > 0;
		ep->child_open = strstr(out, mt.debug) != NULL;
	}
	return strdup("");
}

static void
test_debug_fd_not_inherited(void)
{
	struct exec_probe ep;
	struct mt_conv cv;
	char *line = NULL;
	struct rig g;

	memset(&ep, 0, sizeof(ep));
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL);
	rig_service(&g, "execfd", MT_OK_TIMEOUT " interactive");
	cv.answer = exec_answer;
	cv.arg = &ep;
	T_EQ_INT(mt_auth("execfd", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.nprompts, 1);
	T_TRUE(ep.ran);
	/* The check means something only while the module has the file
	 * open; then a child must not have it. */
	T_TRUE(ep.parent_open);
	T_TRUE(!ep.child_open);
	T_TRUE(mt_debug_has("verified"));
	free(line);
	rig_down(&g);
}

/* ---- XDG_CONFIG_HOME steering a root process ---- */

static void
xdg_file(
    const char *dir, const char *text, const struct mt_user *owner, mode_t mode)
{
	char p[400];

	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/Yubico", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/Yubico/u2f_keys", dir);
	mt_write(p, text, strlen(text), owner, mode);
}

/* As root, XDG_CONFIG_HOME can point the module at any file: it must
 * still be the user's own (or root's), safe, and read as the user. */
static void
test_xdg_other_owner(void)
{
	struct rig g;
	struct mt_conv cv;
	char dir[300], p[400], *line = NULL;

	if (!mt.root) {
		printf("# needs root (file owners)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL);
	if (line == NULL)
		goto out;
	mt_keys(&mt.alice, "");
	snprintf(dir, sizeof(dir), "%s/xdg-other", mt.dir);
	rig_service(&g, "xdgown", MT_OK_TIMEOUT);
	setenv("XDG_CONFIG_HOME", dir, 1);
	/* The control: alice's own file there works. */
	xdg_file(dir, line, &mt.alice, 0644);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_SUCCESS);
	/* bob's file, readable by all, with alice's line in it. */
	xdg_file(dir, line, &mt.bob, 0644);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("owned by another user"));
	/* alice's file, but writable by bob's group. */
	xdg_file(dir, line, &mt.alice, 0664);
	snprintf(p, sizeof(p), "%s/Yubico/u2f_keys", dir);
	T_EQ_INT(chown(p, mt.alice.uid, mt.bob.gid), 0);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("writable"));
	/* (A root-owned file is accepted, as by pam-u2f, but only if alice
	 * may read it: test_xdg in tests/module/test_modfile.c.) */
	T_EQ_INT(touches_of(&g), 1);
	unsetenv("XDG_CONFIG_HOME");
out:
	free(line);
	rig_down(&g);
}

/* ---- CVE-2019-12209: a user's symlink to a file only root may read ---- */

/* ~/.config/Yubico is alice's, so she can make it a symlink to any
 * directory: the final-component O_NOFOLLOW does not help there, reading
 * as alice does. The target file holds a valid line for her key; read as
 * root it would let her in. */
static void
test_symlinked_dir_root_file(void)
{
	struct rig g;
	struct mt_conv cv;
	char dir[300], file[512], link[400], *line = NULL, *text = NULL;

	if (!mt.root) {
		printf("# needs root (a root-only file)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL && asprintf(&text, "# ROOTSECRET\n%s", line) > 0);
	if (text == NULL)
		goto out;
	snprintf(dir, sizeof(dir), "%s/rootonly", mt.dir);
	mkdir(dir, 0755);
	snprintf(file, sizeof(file), "%s/u2f_keys", dir);
	mt_write(file, text, strlen(text), NULL, 0600);
	snprintf(link, sizeof(link), "%s/.config/Yubico", mt.alice.home);
	snprintf(file, sizeof(file), "%s/u2f_keys", link);
	unlink(file);
	T_EQ_INT(rmdir(link), 0);
	T_EQ_INT(symlink(dir, link), 0);
	rig_service(&g, "symdir", MT_OK_TIMEOUT);
	T_EQ_INT(mt_auth("symdir", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("Permission denied"));
	T_TRUE(!mt_debug_has("ROOTSECRET"));
	T_EQ_INT(touches_of(&g), 0);
	/* The control: the same file readable by alice is used. */
	snprintf(file, sizeof(file), "%s/u2f_keys", dir);
	T_EQ_INT(chmod(file, 0644), 0);
	T_EQ_INT(mt_auth("symdir", "alice", &cv), PAM_SUCCESS);
	unlink(link);
	mkdir(link, 0755);
	if (chown(link, mt.alice.uid, mt.alice.gid) != 0)
		T_FAIL_AT("chown %s", link);
out:
	free(text);
	free(line);
	rig_down(&g);
}

/* A copy of this program, set-group-ID to alice's group: run by root it
 * gets AT_SECURE, as a set-ID program would. */
static int
secure_copy(char *path, size_t size)
{
	char buf[65536];
	ssize_t n;
	int in = -1, out = -1, r = -1;

	snprintf(path, size, "%s/secure-exe", mt.dir);
	if ((in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700)) <
		0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto fail;
	if (n < 0 || fchown(out, 0, mt.alice.gid) != 0 ||
	    fchmod(out, 02755) != 0)
		goto fail;
	r = 0;
fail:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return r;
}

/* Run exe in child mode; its exit code (see secure_child). */
static int
run_child(const char *exe)
{
	pid_t pid;
	int st;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		execl(exe, exe, "--xdg-child", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* In the child: authenticate root (known without nss_wrapper, which a
 * secure process does not preload) and tell which file was used:
 * 0 the default under the home directory, 1 the one XDG_CONFIG_HOME
 * named, 2 not a secure process although one was expected, 3 neither. */
static int
secure_child(void)
{
	const char *dir = getenv("PU_XDG_DIR");

	if (getenv("PU_EXPECT_SECURE") != NULL && getauxval(AT_SECURE) == 0)
		return 2;
	(void)mt_auth("xdgsec", "root", NULL);
	if (dir != NULL && mt_debug_has(dir))
		return 1;
	if (mt_debug_has("/.config/Yubico/u2f_keys"))
		return 0;
	return 3;
}

/* secure_getenv: in a set-ID process XDG_CONFIG_HOME is not used at all
 * (the other half of the lesson, privileges dropped, is test_xdg in
 * tests/module/test_modfile.c and test_xdg_other_owner above). */
static void
test_xdg_ignored_when_secure(void)
{
	char dir[300], exe[300], *pre = NULL;
	int r;

	if (!mt.root) {
		printf("# needs root (a set-group-ID copy)\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/xdg-secure", mt.dir);
	xdg_file(dir, "root:NOT-A-CREDENTIAL\n", NULL, 0644);
	mt_service("xdgsec", NODEV);
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("PU_XDG_DIR", dir, 1);
	/* The control: an ordinary process follows XDG_CONFIG_HOME. */
	T_EQ_INT(run_child("/proc/self/exe"), 1);
	T_EQ_INT(secure_copy(exe, sizeof(exe)), 0);
	setenv("PU_EXPECT_SECURE", "1", 1);
	mt_write(mt.debug, "", 0, NULL, 0600);
	/* ld.so would refuse (and complain about) nss_wrapper anyway. */
	if ((pre = getenv("LD_PRELOAD")) != NULL)
		pre = strdup(pre);
	unsetenv("LD_PRELOAD");
	r = run_child(exe);
	if (pre != NULL)
		setenv("LD_PRELOAD", pre, 1);
	free(pre);
	if (r == 2)
		printf("# no AT_SECURE here (nosuid mount?): not tested\n");
	else
		T_EQ_INT(r, 0);
	unsetenv("PU_EXPECT_SECURE");
	unsetenv("PU_XDG_DIR");
	unsetenv("XDG_CONFIG_HOME");
	unlink(exe);
}

/* ---- lines cut at a buffer size ---- */

/* alice's line: n made-up credentials, then the real one (with opts
 * appended to it, if not NULL). Longer than any line buffer. */
static char *
long_line(const struct cred *real, size_t n, const char *opts)
{
	struct cred *c = calloc(n + 1, sizeof(*c));
	uint8_t kh[64];
	char *line = NULL, *out = NULL;
	size_t i;

	if (c == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		c[i] = *real;
		c[i].kh = kh;
		c[i].kh_len = sizeof(kh);
	}
	c[n] = *real;
	memset(kh, 0x5a, sizeof(kh));
	line = mt_line("alice", c, n + 1);
	free(c);
	if (line == NULL || opts == NULL)
		return line;
	line[strlen(line) - 1] = '\0';
	if (asprintf(&out, "%s%s\n", line, opts) < 0)
		out = NULL;
	free(line);
	return out;
}

static void
test_long_line(void)
{
	struct rig g;
	struct mt_conv cv;
	char *line = NULL;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	rig_service(&g, "long", MT_OK_TIMEOUT " max_devices=1");
	/* 60 credentials (about 12 KB): the last one, the real one, must be
	 * seen whole... */
	line = long_line(&g.c, 60, NULL);
	T_TRUE(line != NULL && strlen(line) > 10000);
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	T_EQ_INT(mt_auth("long", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches_of(&g), 1);
	/* ...and so must its options at the very end (+pin: a U2F-only key
	 * is not asked for it, never as a presence-only credential). */
	line = long_line(&g.c, 60, "+pin");
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("long", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("needs FIDO2: skipped"));
	T_EQ_INT(touches_of(&g), 1);
	rig_down(&g);
}

/* ---- pam-u2f 1.4 compatibility, no less safe ---- */

/* path: text written as u's (root's if NULL) with mode. */
static void
write_as(
    const char *path, const char *text, const struct mt_user *u, mode_t mode)
{
	mt_write(path, text, strlen(text), u, mode);
}

/* A line without a colon is nobody's: logged and skipped, for users of
 * a central file and of their own file alike; the user whose line it
 * could be (it starts with the name) still fails. */
static void
test_compat_line_without_colon(void)
{
	struct rig g;
	struct mt_conv cv;
	char central[300], args[600], *line = NULL, *text = NULL;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL &&
	    asprintf(&text, "this line has no colon\n%sbob %s", line,
		strchr(line, ':') + 1) > 0);
	if (text == NULL)
		goto out;
	snprintf(central, sizeof(central), "%s/central_keys", mt.dir);
	write_as(central, text, NULL, 0644);
	snprintf(args, sizeof(args), MT_OK_TIMEOUT " authfile=%s", central);
	rig_service(&g, "nocolon", args);
	T_EQ_INT(mt_auth("nocolon", "alice", &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("2 line(s) without a colon skipped (first: line "
			    "1)"));
	T_TRUE(!mt_debug_has("this line has no colon"));
	/* bob's own line lost its colon: it fails him, nouserok or not. */
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("nocolon", "bob", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("line 3 is malformed"));
	snprintf(
	    args, sizeof(args), MT_OK_TIMEOUT " nouserok authfile=%s", central);
	rig_service(&g, "nocolon-ok", args);
	T_EQ_INT(mt_auth("nocolon-ok", "bob", &cv), PAM_AUTH_ERR);
	/* carol has no line at all: no credentials, as before. */
	T_EQ_INT(mt_auth("nocolon", "carol", &cv), PAM_USER_UNKNOWN);
	/* The same in alice's own file. */
	free(text);
	text = NULL;
	T_TRUE(asprintf(&text, "garbage\n%s", line) > 0);
	mt_keys(&mt.alice, text != NULL ? text : "");
	rig_service(&g, "nocolon-user", MT_OK_TIMEOUT);
	T_EQ_INT(mt_auth("nocolon-user", "alice", &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("1 line(s) without a colon skipped (first: line "
			    "1)"));
	T_EQ_INT(touches_of(&g), 2);
	unlink(central);
out:
	free(text);
	free(line);
	rig_down(&g);
}

/* A symlinked per-user file is followed as the user, to a file of the
 * user only; a central file keeps O_NOFOLLOW. */
static void
test_compat_symlinked_file(void)
{
	struct rig g;
	struct mt_conv cv;
	char keys[300], target[300], args[600], *line = NULL;

	if (!mt.root) {
		printf("# needs root (file owners)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	if ((line = mt_line("alice", &g.c, 1)) == NULL)
		goto out;
	mt_keys_path(&mt.alice, keys, sizeof(keys));
	snprintf(target, sizeof(target), "%s/dotfiles_u2f_keys", mt.dir);
	write_as(target, line, &mt.alice, 0600);
	unlink(keys);
	T_EQ_INT(symlink(target, keys), 0);
	rig_service(&g, "link", MT_OK_TIMEOUT);
	T_EQ_INT(mt_auth("link", "alice", &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("u2f_keys is a symbolic link to a file of the "
			    "user"));
	/* The same link to root's file or to bob's, both readable by
	 * alice and holding her line: refused. */
	write_as(target, line, NULL, 0644);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("link", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("is a symbolic link to a file of another user"));
	write_as(target, line, &mt.bob, 0644);
	T_EQ_INT(mt_auth("link", "alice", &cv), PAM_AUTH_ERR);
	/* A central file given as a link: refused, whoever owns the
	 * target. */
	write_as(target, line, NULL, 0644);
	snprintf(args, sizeof(args), MT_OK_TIMEOUT " authfile=%s", keys);
	rig_service(&g, "link-central", args);
	T_EQ_INT(mt_auth("link-central", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("u2f_keys: is a symbolic link"));
	T_EQ_INT(touches_of(&g), 1);
	unlink(keys);
	unlink(target);
	mt_keys(&mt.alice, line);
out:
	free(line);
	rig_down(&g);
}

/* Group-writable: accepted with a warning for the user's private group
 * only; world-writable never; a central file never. */
static void
test_compat_group_writable(void)
{
	struct rig g;
	struct mt_conv cv;
	char keys[300], central[300], args[600], more[128];
	char *line = NULL, *cline = NULL;

	if (!mt.root) {
		printf("# needs root (file owners and groups)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	cline = mt_line("carol", &g.c, 1);
	if (line == NULL || cline == NULL)
		goto out;
	mt_keys_path(&mt.alice, keys, sizeof(keys));
	rig_service(&g, "gw", MT_OK_TIMEOUT);
	write_as(keys, line, &mt.alice, 0664);
	T_EQ_INT(mt_auth("gw", "alice", &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("u2f_keys is writable by the user's private "
			    "group"));
	/* A shared group (alice and bob). */
	T_EQ_INT(chown(keys, mt.alice.uid, MT_GID_STAFF), 0);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("gw", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("not a private group of the user alone"));
	/* World-writable, private group or not. */
	write_as(keys, line, &mt.alice, 0666);
	T_EQ_INT(mt_auth("gw", "alice", &cv), PAM_AUTH_ERR);
	/* carol's group is named after her but lists bob. */
	mt_keys_path(&mt.carol, central, sizeof(central));
	write_as(central, cline, &mt.carol, 0664);
	T_EQ_INT(mt_auth("gw", "carol", &cv), PAM_AUTH_ERR);
	/* alice's private group, with members its entry does not list:
	 * mallory, by primary gid, then bob, through a second entry with
	 * the same number. Either could put a key of theirs in her file. */
	write_as(keys, line, &mt.alice, 0664);
	snprintf(more, sizeof(more), "mallory:x:4714:%u:M:/:/bin/sh\n",
	    (unsigned)mt.alice.gid);
	mt_nss_more(more, "");
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("gw", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("not a private group of the user alone"));
	snprintf(
	    more, sizeof(more), "alice2:x:%u:bob\n", (unsigned)mt.alice.gid);
	mt_nss_more("", more);
	T_EQ_INT(mt_auth("gw", "alice", &cv), PAM_AUTH_ERR);
	mt_nss_more("", "");
	/* A central file: root's rules, no group write at all. */
	snprintf(central, sizeof(central), "%s/central_gw", mt.dir);
	write_as(central, line, NULL, 0664);
	snprintf(args, sizeof(args), MT_OK_TIMEOUT " authfile=%s", central);
	rig_service(&g, "gw-central", args);
	T_EQ_INT(mt_auth("gw-central", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("central_gw: is group- or world-writable"));
	T_EQ_INT(touches_of(&g), 1);
	unlink(central);
	mt_keys(&mt.alice, line);
out:
	free(cline);
	free(line);
	rig_down(&g);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_debug_fd_not_inherited),
	    TEST(test_xdg_other_owner),
	    TEST(test_symlinked_dir_root_file),
	    TEST(test_xdg_ignored_when_secure),
	    TEST(test_long_line),
	    TEST(test_compat_line_without_colon),
	    TEST(test_compat_symlinked_file),
	    TEST(test_compat_group_writable),
	};
	int r;

	if ((r = mt_setup(argv)) != 0)
		return r == 77 ? 0 : r;
	if (argc > 1 && strcmp(argv[1], "--xdg-child") == 0)
		return secure_child();
	r = test_run(cases, sizeof(cases) / sizeof(cases[0]));
	mt_teardown();
	return r;
}
