/* SPDX-License-Identifier: BSD-2-Clause */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "conf/conf.h"
#include "modtest.h"
#include "tokenctl.h"

#define MT_NSS_WRAPPER "libnss_wrapper.so"
#define MT_UID_ALICE 4711
#define MT_UID_BOB 4712
#define MT_UID_CAROL 4713

struct mt_env mt;

static void
mt_die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
mt_mkdir(const char *path, const struct mt_user *u, mode_t mode)
{
	if (mkdir(path, mode) != 0 && errno != EEXIST)
		mt_die(path);
	if (chmod(path, mode) != 0)
		mt_die(path);
	if (mt.root && u != NULL && chown(path, u->uid, u->gid) != 0)
		mt_die(path);
}

void
mt_write(const char *path, const char *text, size_t len,
    const struct mt_user *u, mode_t mode)
{
	int fd;

	(void)unlink(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0)
		mt_die(path);
	if (len > 0 && write(fd, text, len) != (ssize_t)len)
		mt_die(path);
	if (fchmod(fd, mode) != 0)
		mt_die(path);
	if (mt.root &&
	    fchown(fd, u != NULL ? u->uid : 0, u != NULL ? u->gid : 0) != 0)
		mt_die(path);
	close(fd);
}

static void
mt_user_init(struct mt_user *u, const char *name, uid_t root_uid)
{
	char p[300];

	u->name = name;
	u->uid = mt.root ? root_uid : getuid();
	u->gid = mt.root ? (gid_t)root_uid : getgid();
	snprintf(u->home, sizeof(u->home), "%s/home/%s", mt.dir, name);
	mt_mkdir(u->home, u, 0755);
	snprintf(p, sizeof(p), "%s/.config", u->home);
	mt_mkdir(p, u, 0755);
	snprintf(p, sizeof(p), "%s/.config/Yubico", u->home);
	mt_mkdir(p, u, 0755);
}

/* Write an nss_wrapper file: a rewrite gets the old mtime plus one
 * second (nss_wrapper reloads a file whose mtime changed; two rewrites
 * in one second would look the same). */
static void
mt_write_nss(const char *path, const char *text, size_t len)
{
	struct timespec ts[2] = {{0, 0}, {0, 0}};
	struct stat st;
	bool had = stat(path, &st) == 0;

	mt_write(path, text, len, NULL, 0644);
	if (!had)
		return;
	ts[0].tv_sec = ts[1].tv_sec = st.st_mtime + 1;
	if (utimensat(AT_FDCWD, path, ts, 0) != 0)
		mt_die(path);
}

/* passwd and group for nss_wrapper, each with more lines at its end. */
static void
mt_users_files_more(const char *pw_more, const char *gr_more)
{
	char path[300], text[4096];
	int n;

	n = snprintf(text, sizeof(text),
	    "root:x:0:0:root:/root:/bin/sh\n"
	    "alice:x:%u:%u:Alice:%s:/bin/sh\n"
	    "bob:x:%u:%u:Bob:%s:/bin/sh\n"
	    "carol:x:%u:%u:Carol:%s:/bin/sh\n%s",
	    (unsigned)mt.alice.uid, (unsigned)mt.alice.gid, mt.alice.home,
	    (unsigned)mt.bob.uid, (unsigned)mt.bob.gid, mt.bob.home,
	    (unsigned)mt.carol.uid, (unsigned)mt.carol.gid, mt.carol.home,
	    pw_more);
	snprintf(path, sizeof(path), "%s/passwd", mt.dir);
	mt_write_nss(path, text, (size_t)n);
	/* alice's and bob's groups are private; carol's has bob in it too;
	 * staff is shared. */
	n = snprintf(text, sizeof(text),
	    "root:x:0:\nalice:x:%u:\n"
	    "bob:x:%u:\ncarol:x:%u:bob\nstaff:x:%u:alice,bob\n%s",
	    (unsigned)mt.alice.gid, (unsigned)mt.bob.gid,
	    (unsigned)mt.carol.gid, (unsigned)MT_GID_STAFF, gr_more);
	snprintf(path, sizeof(path), "%s/group", mt.dir);
	mt_write_nss(path, text, (size_t)n);
}

static void
mt_users_files(void)
{
	mt_users_files_more("", "");
}

void
mt_nss_more(const char *pw_more, const char *gr_more)
{
	mt_users_files_more(pw_more, gr_more);
}

static void
mt_paths(void)
{
	const char *b = getenv("top_builddir");

	mt.root = geteuid() == 0;
	snprintf(mt.confdir, sizeof(mt.confdir), "%s/pam.d", mt.dir);
	snprintf(mt.debug, sizeof(mt.debug), "%s/debug.log", mt.dir);
	snprintf(mt.conf, sizeof(mt.conf), "%s/hermetic-empty.conf", mt.dir);
	snprintf(mt.module, sizeof(mt.module), "%s/pam_u2f/.libs/pam_u2f.so",
	    b != NULL ? b : ".");
	if (mt.module[0] != '/') {
		char cwd[256];

		if (getcwd(cwd, sizeof(cwd)) == NULL)
			mt_die("getcwd");
		snprintf(mt.module, sizeof(mt.module),
		    "%s/%s/pam_u2f/.libs/pam_u2f.so", cwd, b != NULL ? b : ".");
	}
}

/* Hermetic: the module must never read the system's configuration file
 * (the build's default path). As root every service gets conf= naming an
 * empty root-owned file of our own (mt_service_lines). Another user cannot
 * make a file the module accepts (it must be root's), so then the default
 * path must not exist: a Bail out says so rather than test against it. */
static int
mt_conf_init(void)
{
	if (mt.root) {
		mt_write(mt.conf, "", 0, NULL, 0644);
		return 0;
	}
	if (access(conf_default_path(), F_OK) == 0 || errno != ENOENT) {
		printf("Bail out! %s exists: as a user other than root the "
		       "module tests would read it (run them as root, or "
		       "without that file)\n",
		    conf_default_path());
		return -1;
	}
	return 0;
}

int
mt_setup(char **argv)
{
	const char *d = getenv("PU_MODTEST_DIR");
	char path[300];
	void *h;

	if (d != NULL) {
		snprintf(mt.dir, sizeof(mt.dir), "%s", d);
		mt_paths();
		mt_user_init(&mt.alice, "alice", MT_UID_ALICE);
		mt_user_init(&mt.bob, "bob", MT_UID_BOB);
		mt_user_init(&mt.carol, "carol", MT_UID_CAROL);
		return 0;
	}
	if ((h = dlopen(MT_NSS_WRAPPER, RTLD_LAZY | RTLD_LOCAL)) == NULL) {
		printf("1..0 # SKIP %s not found\n", MT_NSS_WRAPPER);
		return 77;
	}
	dlclose(h);
	snprintf(mt.dir, sizeof(mt.dir), "/tmp/pu-mod-XXXXXX");
	if (mkdtemp(mt.dir) == NULL || chmod(mt.dir, 0755) != 0)
		mt_die("mkdtemp");
	mt_paths();
	snprintf(path, sizeof(path), "%s/home", mt.dir);
	mt_mkdir(path, NULL, 0755);
	mt_mkdir(mt.confdir, NULL, 0755);
	mt_user_init(&mt.alice, "alice", MT_UID_ALICE);
	mt_user_init(&mt.bob, "bob", MT_UID_BOB);
	mt_user_init(&mt.carol, "carol", MT_UID_CAROL);
	mt_users_files();
	if (mt_conf_init() != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/passwd", mt.dir);
	setenv("NSS_WRAPPER_PASSWD", path, 1);
	snprintf(path, sizeof(path), "%s/group", mt.dir);
	setenv("NSS_WRAPPER_GROUP", path, 1);
	setenv("LD_PRELOAD", MT_NSS_WRAPPER, 1);
	/* nss_wrapper finds the real libc functions (gethostname, which the
	 * module calls for its wrong-key hint: pam_u2f/usermsg.c) by dlopen
	 * with RTLD_DEEPBIND; the sanitizer runtime ends the process on that
	 * (exit 1 under tests/run.sh asan). Our users and groups come from its
	 * own files, so no NSS module is loaded that deep binding would be for.
	 */
	setenv("NSS_WRAPPER_DISABLE_DEEPBIND", "1", 1);
	setenv("PU_MODTEST_DIR", mt.dir, 1);
	unsetenv("XDG_CONFIG_HOME");
	fflush(stdout);
	/* argv[0] (not /proc/self/exe) so valgrind --trace-children=yes
	 * follows. */
	execv(strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe", argv);
	mt_die("execv");
	return 1;
}

static int
mt_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) != 0 ? 0 : 0;
}

void
mt_teardown(void)
{
	if (getenv("PU_MODTEST_KEEP") == NULL)
		nftw(mt.dir, mt_rm, 16, FTW_DEPTH | FTW_PHYS);
	else
		printf("# tree kept in %s\n", mt.dir);
}

void
mt_service(const char *name, const char *args)
{
	mt_service_lines(name, args, "");
}

void
mt_service_lines(const char *name, const char *args, const char *more)
{
	mt_service_around(name, "", args, more);
}

void
mt_service_around(
    const char *name, const char *before, const char *args, const char *more)
{
	char path[300], text[4096], conf[256] = "";
	int n;

	if (mt.root && strstr(args, "conf=") == NULL)
		snprintf(conf, sizeof(conf), "conf=%s ", mt.conf);
	n = snprintf(text, sizeof(text),
	    "%sauth required %s %s%s debug "
	    "debug_file=%s\n%s",
	    before, mt.module, conf, args, mt.debug, more);
	snprintf(path, sizeof(path), "%s/%s", mt.confdir, name);
	mt_write(path, text, (size_t)n, NULL, 0644);
	mt_write(mt.debug, "", 0, NULL, 0600);
}

bool
mt_debug_has(const char *needle)
{
	char buf[65536];
	size_t n;
	FILE *f;

	if ((f = fopen(mt.debug, "r")) == NULL)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

size_t
mt_debug_count(const char *needle)
{
	return tokenctl_count_lines(mt.debug, needle);
}

void
mt_keys_path(const struct mt_user *u, char *buf, size_t size)
{
	snprintf(buf, size, "%s/.config/Yubico/u2f_keys", u->home);
}

void
mt_keys(const struct mt_user *u, const char *text)
{
	char path[300];

	mt_keys_path(u, path, sizeof(path));
	mt_write(path, text, strlen(text), u, 0644);
}
