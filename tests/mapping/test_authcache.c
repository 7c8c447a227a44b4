/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_cache= files (common/mapping/authcache.c): the name encoding,
 * the atomic replace, the checks on reading, the age rule with a given
 * "now", and the directory walk (authcmd_open_dir). Writes only in its
 * own directory under $TMPDIR (or /tmp). As root the entries it writes
 * are root's and are read back; otherwise reading them is refused as
 * not root's. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "mapping/authcache.h"
#include "mapping/authcmd.h"
#include "test.h"

struct tdir {
	char path[256];
	int dfd;
};

static void
tdir_make(struct tdir *t)
{
	const char *base = getenv("TMPDIR");

	snprintf(t->path, sizeof(t->path), "%s/pu-authcache.XXXXXX",
	    base != NULL && base[0] == '/' ? base : "/tmp");
	t->dfd = -1;
	T_TRUE(mkdtemp(t->path) != NULL);
	t->dfd = open(t->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	T_TRUE(t->dfd >= 0);
}

/* Entries of the directory, "." and ".." not counted. */
static int
tdir_count(const struct tdir *t)
{
	struct dirent *e;
	DIR *d = opendir(t->path);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
tdir_free(struct tdir *t)
{
	struct dirent *e;
	DIR *d = opendir(t->path);

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			if (unlinkat(t->dfd, e->d_name, 0) != 0)
				unlinkat(t->dfd, e->d_name, AT_REMOVEDIR);
	if (d != NULL)
		closedir(d);
	if (t->dfd >= 0)
		close(t->dfd);
	T_TRUE(rmdir(t->path) == 0);
}

static void
test_name(void)
{
	char name[AUTHCACHE_NAME_SIZE], user[AUTHCACHE_USER_MAX + 2];

	T_EQ_ERR(authcache_name("alice", name, sizeof(name)), ERR_OK);
	T_EQ_STR(name, "u-616c696365");
	T_EQ_ERR(authcache_name("../a/b", name, sizeof(name)), ERR_OK);
	T_EQ_STR(name, "u-2e2e2f612f62");
	T_EQ_ERR(authcache_name("\xff.", name, sizeof(name)), ERR_OK);
	T_EQ_STR(name, "u-ff2e");
	T_EQ_ERR(authcache_name("", name, sizeof(name)), ERR_INVAL);
	T_EQ_ERR(authcache_name(NULL, name, sizeof(name)), ERR_INVAL);
	T_EQ_ERR(authcache_name("alice", name, 12), ERR_INVAL);
	T_EQ_ERR(authcache_name("alice", name, 13), ERR_OK);
	memset(user, 'a', AUTHCACHE_USER_MAX);
	user[AUTHCACHE_USER_MAX] = '\0';
	T_EQ_ERR(authcache_name(user, name, sizeof(name)), ERR_OK);
	T_EQ_INT(strlen(name), AUTHCACHE_NAME_SIZE - 1);
	user[AUTHCACHE_USER_MAX] = 'a';
	user[AUTHCACHE_USER_MAX + 1] = '\0';
	T_EQ_ERR(authcache_name(user, name, sizeof(name)), ERR_INVAL);
}

/* The file at t/name holds want (n bytes), mode 0600, ours. */
static void
holds(const struct tdir *t, const char *name, const char *want, size_t n)
{
	char buf[64];
	struct stat st;
	ssize_t got;
	int fd;

	T_TRUE(fstatat(t->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0);
	T_TRUE(S_ISREG(st.st_mode));
	T_EQ_INT(st.st_mode & 07777, 0600);
	T_EQ_INT(st.st_uid, geteuid());
	fd = openat(t->dfd, name, O_RDONLY | O_CLOEXEC);
	T_TRUE(fd >= 0);
	got = read(fd, buf, sizeof(buf));
	close(fd);
	T_EQ_INT(got, n);
	if (got == (ssize_t)n)
		T_EQ_MEM(buf, want, n);
}

static void
test_store(void)
{
	struct tdir t = {.dfd = -1};
	mode_t old = umask(0277);

	tdir_make(&t);
	T_EQ_ERR(authcache_store(t.dfd, "alice", "line one\n", 9), ERR_OK);
	holds(&t, "u-616c696365", "line one\n", 9);
	T_EQ_ERR(authcache_store(t.dfd, "alice", "two", 3), ERR_OK);
	holds(&t, "u-616c696365", "two", 3);
	T_EQ_INT(tdir_count(&t), 1);
	T_EQ_ERR(authcache_store(t.dfd, "a/b", "", 0), ERR_OK);
	holds(&t, "u-612f62", "", 0);
	T_EQ_INT(tdir_count(&t), 2);
	T_EQ_ERR(authcache_store(t.dfd, "", "x", 1), ERR_INVAL);
	T_EQ_INT(tdir_count(&t), 2);
	umask(old);
	tdir_free(&t);
}

/* A rename that fails (a directory stands at the name) leaves the old
 * state and no temporary file. */
static void
test_store_fails(void)
{
	struct tdir t = {.dfd = -1};

	tdir_make(&t);
	T_TRUE(mkdirat(t.dfd, "u-626f62", 0700) == 0);
	T_EQ_ERR(authcache_store(t.dfd, "bob", "x\n", 2), ERR_FILE);
	T_EQ_INT(tdir_count(&t), 1);
	tdir_free(&t);
}

static void
test_remove(void)
{
	struct tdir t = {.dfd = -1};

	tdir_make(&t);
	T_EQ_ERR(authcache_store(t.dfd, "alice", "x\n", 2), ERR_OK);
	T_EQ_ERR(authcache_store(t.dfd, "bob", "y\n", 2), ERR_OK);
	T_EQ_ERR(authcache_remove(t.dfd, "alice"), ERR_OK);
	T_TRUE(faccessat(t.dfd, "u-616c696365", F_OK, 0) != 0);
	T_TRUE(faccessat(t.dfd, "u-626f62", F_OK, 0) == 0);
	T_EQ_ERR(authcache_remove(t.dfd, "alice"), ERR_OK);
	T_EQ_ERR(authcache_remove(t.dfd, ""), ERR_INVAL);
	T_EQ_INT(tdir_count(&t), 1);
	tdir_free(&t);
}

static void
load_refused(const struct tdir *t, const char *user, size_t max, int want,
    const char *why)
{
	static char x[] = "x";
	const char *w = NULL;
	char *buf = x;
	size_t len = 1;
	int64_t mtime = 0;

	T_EQ_ERR(
	    authcache_load(t->dfd, user, max, &buf, &len, &mtime, &w), want);
	T_TRUE(buf == NULL && len == 0);
	if (why != NULL && w != NULL)
		T_EQ_STR(w, why);
	else
		T_TRUE(w == why);
}

/* As root: read back, with its time; the checks. */
static void
test_load_root(void)
{
	const char *why = NULL;
	struct tdir t = {.dfd = -1};
	char *buf = NULL;
	size_t len = 0;
	int64_t mtime = 0, before = (int64_t)time(NULL);

	tdir_make(&t);
	T_EQ_ERR(authcache_store(t.dfd, "alice", "abcd\n", 5), ERR_OK);
	T_EQ_ERR(authcache_load(t.dfd, "alice", 5, &buf, &len, &mtime, &why),
	    ERR_OK);
	T_EQ_INT(len, 5);
	if (buf != NULL)
		T_TRUE(memcmp(buf, "abcd\n", 6) == 0);
	T_TRUE(mtime >= before && mtime <= (int64_t)time(NULL));
	util_freezero(buf, len);
	load_refused(&t, "alice", 4, ERR_TOO_BIG, NULL);
	load_refused(&t, "bob", 64, ERR_NOT_FOUND, NULL);
	T_TRUE(fchmodat(t.dfd, "u-616c696365", 0640, 0) == 0);
	load_refused(
	    &t, "alice", 64, ERR_FILE_UNSAFE, "is open to group or others");
	T_TRUE(symlinkat("u-616c696365", t.dfd, "u-626f62") == 0);
	load_refused(&t, "bob", 64, ERR_FILE_UNSAFE, "is a symbolic link");
	T_TRUE(mkdirat(t.dfd, "u-6361726f6c", 0700) == 0);
	load_refused(&t, "carol", 64, ERR_FILE_UNSAFE, "is not a regular file");
	T_TRUE(fchownat(t.dfd, "u-616c696365", 1, 0, AT_SYMLINK_NOFOLLOW) == 0);
	T_TRUE(fchmodat(t.dfd, "u-616c696365", 0600, 0) == 0);
	load_refused(&t, "alice", 64, ERR_FILE_UNSAFE, "is not owned by root");
	tdir_free(&t);
}

static void
test_load(void)
{
	struct tdir t = {.dfd = -1};

	if (geteuid() == 0) {
		test_load_root();
		return;
	}
	tdir_make(&t);
	T_EQ_ERR(authcache_store(t.dfd, "alice", "abcd\n", 5), ERR_OK);
	load_refused(&t, "alice", 64, ERR_FILE_UNSAFE, "is not owned by root");
	load_refused(&t, "bob", 64, ERR_NOT_FOUND, NULL);
	tdir_free(&t);
}

static void
fresh(int64_t mtime, int64_t now, int64_t maxage, int want, int64_t age)
{
	int64_t a = 12345;

	T_EQ_ERR(authcache_fresh(mtime, now, maxage, &a), want);
	T_TRUE(a == age);
}

static void
test_fresh(void)
{
	fresh(1000, 1000, 10, ERR_OK, 0);
	fresh(990, 1000, 10, ERR_OK, 10);
	fresh(989, 1000, 10, ERR_TIMEOUT, 11);
	fresh(1001, 1000, 10, ERR_TIMEOUT, -1);
	fresh(1000 + 86400, 1000, 604800, ERR_TIMEOUT, -86400);
	fresh(INT64_MIN, 1000, 604800, ERR_TIMEOUT, INT64_MAX);
	fresh(INT64_MAX, -1000, 604800, ERR_TIMEOUT, INT64_MIN);
}

static void
test_open_dir(void)
{
	const char *why = NULL;
	size_t at = 0;
	int fd = -1;

	T_EQ_ERR(authcmd_open_dir("/usr/bin", &fd, &why, &at), ERR_OK);
	T_TRUE(fd >= 0 && faccessat(fd, "true", F_OK, 0) == 0);
	if (fd >= 0)
		close(fd);
	fd = 5;
	T_EQ_ERR(
	    authcmd_open_dir("/usr/bin/true", &fd, &why, &at), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is not a directory");
	T_EQ_INT(at, 13);
	T_EQ_INT(fd, -1);
	T_EQ_ERR(authcmd_open_dir("/tmp", &fd, &why, &at), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is writable by group or others");
	T_EQ_ERR(authcmd_open_dir("/usr/../tmp", &fd, &why, &at), ERR_CONFIG);
	T_EQ_ERR(authcmd_open_dir("usr", &fd, &why, &at), ERR_CONFIG);
}

TEST_MAIN(TEST(test_name), TEST(test_store), TEST(test_store_fails),
    TEST(test_remove), TEST(test_load), TEST(test_fresh), TEST(test_open_dir))
