/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of common/base/safefile.c, the one place files are opened
 * for reading: a regular file read exactly; symlinks, FIFOs (without
 * blocking), directories and devices refused; group/other-writable files
 * and wrong owners refused, the private-group exception and the
 * user's own link followed only when asked; size limits, a file growing
 * while read, errno kept for a missing file, and the line reader with the
 * same checks. Each case in a fresh directory of its own. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/safefile.h"
#include "test.h"

/* Each case works in its own fresh directory. */
static char dir[PATH_MAX];
static char path[PATH_MAX];

static void
fresh_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_safefile.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		abort();
}

/* path = dir/name */
static void
set_path(const char *name)
{
	int k = snprintf(path, sizeof(path), "%s/%s", dir, name);

	if (k < 0 || (size_t)k >= sizeof(path))
		abort();
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void
cleanup(void)
{
	if (nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
		printf("# could not remove %s\n", dir);
}

/* Write n bytes to dir/name with mode, return its path. */
static const char *
make_file(const char *name, const void *data, size_t n, mode_t mode)
{
	int fd;

	set_path(name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n || close(fd) != 0 ||
	    chmod(path, mode) != 0)
		abort();
	return path;
}

static struct safefile_policy
policy(size_t max)
{
	struct safefile_policy pol;

	memset(&pol, 0, sizeof(pol));
	pol.owner = geteuid();
	pol.max_size = max;
	return pol;
}

static void
test_normal_file_read_exactly(void)
{
	static const char data[] = "alice:x\n\0bin\xff\n";
	struct safefile_policy pol = policy(4096);
	const char *why = "unset";
	char *buf = NULL;
	size_t len = 0;

	fresh_dir();
	make_file("f", data, sizeof(data) - 1, 0644);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_OK);
	T_EQ_INT(len, sizeof(data) - 1);
	T_TRUE(buf != NULL);
	if (buf != NULL) {
		T_EQ_MEM(buf, data, sizeof(data) - 1);
		T_EQ_INT(buf[len], '\0');
	}
	T_TRUE(why == NULL);
	free(buf);
	/* Empty file: an empty string, not NULL. */
	make_file("empty", "", 0, 0600);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_OK);
	T_EQ_INT(len, 0);
	T_TRUE(buf != NULL && buf[0] == '\0');
	free(buf);
	/* Exactly max_size is fine. */
	pol.max_size = sizeof(data) - 1;
	make_file("exact", data, sizeof(data) - 1, 0400);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, NULL), ERR_OK);
	T_EQ_INT(len, sizeof(data) - 1);
	free(buf);
	cleanup();
}

static void
test_symlink_refused(void)
{
	struct safefile_policy pol = policy(4096);
	char target[PATH_MAX];
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;

	fresh_dir();
	make_file("target", "u:\n", 3, 0644);
	memcpy(target, path, sizeof(target));
	set_path("link");
	if (symlink(target, path) != 0)
		abort();
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is a symbolic link");
	T_TRUE(buf == NULL);
	cleanup();
}

static void
test_fifo_refused_without_blocking(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = NULL;
	char *buf = NULL;
	size_t len;

	fresh_dir();
	set_path("fifo");
	if (mkfifo(path, 0600) != 0)
		abort();
	alarm(10); /* a blocking open would kill the test */
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	alarm(0);
	T_EQ_STR(why, "is not a regular file");
	T_TRUE(buf == NULL);
	cleanup();
}

static void
test_directory_and_device_refused(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = NULL;
	char *buf = NULL;
	size_t len;

	fresh_dir();
	T_EQ_ERR(safefile_read(dir, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is not a regular file");
	why = NULL;
	T_EQ_ERR(safefile_read("/dev/null", &pol, &buf, &len, &why),
	    ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is not a regular file");
	T_TRUE(buf == NULL);
	cleanup();
}

static void
test_writable_refused(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = NULL;
	char *buf = NULL;
	size_t len;

	fresh_dir();
	make_file("g", "u:\n", 3, 0664);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	why = NULL;
	make_file("o", "u:\n", 3, 0602);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	T_TRUE(buf == NULL);
	cleanup();
}

/* Owned by neither root nor the allowed owner. As root, chown the file
 * to a stranger; otherwise the file is ours and the policy names
 * someone else. */
static void
test_wrong_owner_refused(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = NULL;
	char *buf = NULL;
	size_t len;

	fresh_dir();
	make_file("f", "u:\n", 3, 0644);
	if (geteuid() == 0) {
		if (chown(path, 4242, 4242) != 0)
			abort();
		pol.owner = 4243;
	} else
		pol.owner = geteuid() + 1;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is owned by another user");
	T_TRUE(buf == NULL);
	/* The allowed owner is accepted. */
	pol.owner = geteuid() == 0 ? 4242 : geteuid();
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_OK);
	T_EQ_INT(len, 3);
	free(buf);
	cleanup();
}

/* follow_own (a user's own file, read as the user): a symbolic link is
 * followed to a regular file of the allowed owner only; not to root's,
 * not to a FIFO (without blocking), not without follow_own. */
static void
test_follow_own(void)
{
	struct safefile_policy pol = policy(4096);
	char target[PATH_MAX], link[PATH_MAX];
	const char *why = NULL, *note = "unset";
	char *buf = NULL;
	size_t len = 0;

	fresh_dir();
	pol.note = &note;
	make_file("target", "u:\n", 3, 0644);
	memcpy(target, path, sizeof(target));
	set_path("link");
	memcpy(link, path, sizeof(link));
	if (symlink(target, link) != 0)
		abort();
	T_EQ_ERR(safefile_read(link, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is a symbolic link");
	pol.follow_own = 1;
	T_EQ_ERR(safefile_read(link, &pol, &buf, &len, &why), ERR_OK);
	T_EQ_INT(len, 3);
	T_EQ_STR(note, SAFEFILE_NOTE_LINK);
	free(buf);
	/* The file itself, not through the link: no note. */
	T_EQ_ERR(safefile_read(target, &pol, &buf, &len, &why), ERR_OK);
	T_TRUE(note == NULL);
	free(buf);
	/* Root's file (or, not as root, a file of "another" owner): a
	 * plain path would take root's, a link must not. */
	if (geteuid() == 0)
		pol.owner = 4242;
	else
		pol.owner = geteuid() + 1;
	why = NULL;
	T_EQ_ERR(safefile_read(link, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is a symbolic link to a file of another user");
	T_TRUE(buf == NULL);
	pol.owner = geteuid();
	set_path("fifo");
	if (mkfifo(path, 0600) != 0 || unlink(link) != 0 ||
	    symlink(path, link) != 0)
		abort();
	alarm(10);
	T_EQ_ERR(safefile_read(link, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	alarm(0);
	T_EQ_STR(why, "is not a regular file");
	/* A dangling link: no file (ENOENT), as for a missing path. */
	if (unlink(link) != 0 || symlink("nowhere", link) != 0)
		abort();
	errno = 0;
	T_EQ_ERR(safefile_read(link, &pol, &buf, &len, &why), ERR_FILE);
	T_EQ_INT(errno, ENOENT);
	cleanup();
}

/* group_alone: asked, with the file's group, only for a group-writable
 * file; group write accepted (with a note) when it says yes, refused
 * when it says no or is not set; world-writable never. */
static bool
alone_answer(const void *arg, gid_t gid)
{
	const gid_t *want = arg;

	return gid == *want;
}

static bool
alone_never_asked(const void *arg, gid_t gid)
{
	(void)arg;
	(void)gid;
	abort();
}

static void
test_private_group(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = NULL, *note = NULL;
	char *buf = NULL;
	size_t len = 0;
	gid_t want = getegid();

	fresh_dir();
	pol.note = &note;
	make_file("n", "u:\n", 3, 0644);
	pol.group_alone = alone_never_asked; /* not group-writable */
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_OK);
	free(buf);
	make_file("g", "u:\n", 3, 0664);
	pol.group_alone = NULL;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	pol.group_alone = alone_answer;
	pol.group_arg = &want;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_OK);
	T_EQ_STR(note, SAFEFILE_NOTE_GROUP);
	free(buf);
	want = getegid() + 1;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, SAFEFILE_WHY_GROUP);
	T_TRUE(strstr(why, "chmod g-w") != NULL);
	want = getegid();
	make_file("o", "u:\n", 3, 0666);
	why = NULL;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	T_TRUE(buf == NULL);
	cleanup();
}

static void
test_root_owned_accepted(void)
{
	struct safefile_policy pol = policy(4096);
	char *buf = NULL;
	size_t len = 0;

	/* /etc/passwd: root's, 0644, on every Linux host. */
	pol.owner = 4243;
	T_EQ_ERR(safefile_read("/etc/passwd", &pol, &buf, &len, NULL), ERR_OK);
	T_TRUE(len > 0 && buf != NULL && strlen(buf) == len);
	free(buf);
}

static void
test_too_large_refused(void)
{
	char data[100];
	struct safefile_policy pol = policy(sizeof(data) - 1);
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 5;

	memset(data, 'a', sizeof(data));
	fresh_dir();
	make_file("big", data, sizeof(data), 0644);
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	T_TRUE(buf == NULL);
	T_EQ_INT(len, 0);
	cleanup();
}

/* /proc files report size 0 and then yield data: the read loop must
 * follow a file that is longer than fstat said, and stop at max_size. */
static void
test_grows_while_read(void)
{
	struct safefile_policy pol = policy(1 << 20);
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;

	T_EQ_ERR(
	    safefile_read("/proc/self/status", &pol, &buf, &len, &why), ERR_OK);
	T_TRUE(len > 100);
	T_TRUE(buf != NULL && strncmp(buf, "Name:", 5) == 0);
	free(buf);
	buf = NULL;
	pol.max_size = 10;
	T_EQ_ERR(safefile_read("/proc/self/status", &pol, &buf, &len, &why),
	    ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	T_TRUE(buf == NULL);
}

static void
test_missing_keeps_errno(void)
{
	struct safefile_policy pol = policy(4096);
	const char *why = "unset";
	char *buf = NULL;
	size_t len;

	fresh_dir();
	set_path("nope");
	errno = 0;
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE);
	T_EQ_INT(errno, ENOENT);
	T_TRUE(why == NULL);
	set_path("nodir/f");
	T_EQ_ERR(safefile_read(path, &pol, &buf, &len, &why), ERR_FILE);
	T_EQ_INT(errno, ENOENT);
	T_EQ_ERR(safefile_read(path, NULL, &buf, &len, &why), ERR_INVAL);
	cleanup();
}

/* ---- safefile_read_lines ---- */

struct pieces {
	char all[256];
	size_t len, calls, partial, unterminated;
	int stop_at; /* return ERR_PARSE from this call (1-based), 0: never */
};

static int
collect(void *arg, const char *buf, size_t len)
{
	struct pieces *pc = arg;

	pc->calls++;
	if (len == 0 || buf[len - 1] != '\n')
		pc->partial++;
	if (buf[len] != '\0')
		pc->unterminated++;
	if (pc->len + len > sizeof(pc->all))
		abort();
	memcpy(pc->all + pc->len, buf, len);
	pc->len += len;
	return pc->stop_at != 0 && pc->calls == (size_t)pc->stop_at ? ERR_PARSE
								    : ERR_OK;
}

/* Pieces of whole lines, NUL-terminated, in order, all of the file,
 * whatever the chunk size; lines longer than the chunk whole. */
static void
test_read_lines_pieces(void)
{
	static const char data[] = "a\nbb\n\nccccccccccccccccccc\r\nd\0e\nlast";
	struct safefile_policy pol = policy(4096);
	struct pieces pc;
	size_t chunk, bad = 0;

	fresh_dir();
	make_file("f", data, sizeof(data) - 1, 0644);
	for (chunk = 1; chunk <= sizeof(data) + 1; chunk++) {
		memset(&pc, 0, sizeof(pc));
		if (safefile_read_lines_chunk(
			path, &pol, chunk, collect, &pc, NULL) != ERR_OK ||
		    pc.len != sizeof(data) - 1 ||
		    memcmp(pc.all, data, pc.len) != 0 || pc.partial != 1 ||
		    pc.unterminated != 0 || pc.calls < 1)
			bad++;
		/* reads of chunk bytes: a small chunk makes several pieces */
		if (chunk <= 4 && pc.calls < 3)
			bad++;
	}
	T_EQ_INT(bad, 0);
	/* The default chunk: the whole lines, then at the end of the file
	 * the last one, which has no newline. */
	memset(&pc, 0, sizeof(pc));
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, NULL), ERR_OK);
	T_EQ_INT(pc.calls, 2);
	T_EQ_INT(pc.len, sizeof(data) - 1);
	/* fn's error stops the reading and is returned. */
	memset(&pc, 0, sizeof(pc));
	pc.stop_at = 2;
	T_EQ_ERR(safefile_read_lines_chunk(path, &pol, 2, collect, &pc, NULL),
	    ERR_PARSE);
	T_EQ_INT(pc.calls, 2);
	/* An empty file: no piece at all. */
	memset(&pc, 0, sizeof(pc));
	make_file("empty", "", 0, 0600);
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, NULL), ERR_OK);
	T_EQ_INT(pc.calls, 0);
	T_EQ_ERR(safefile_read_lines_chunk(path, &pol, 0, collect, &pc, NULL),
	    ERR_INVAL);
	T_EQ_ERR(safefile_read_lines(path, &pol, NULL, &pc, NULL), ERR_INVAL);
	cleanup();
}

/* The checks of safefile_read, with the same reasons. */
static void
test_read_lines_same_checks(void)
{
	struct safefile_policy pol = policy(4096);
	struct pieces pc;
	char target[PATH_MAX];
	const char *why = NULL;

	memset(&pc, 0, sizeof(pc));
	fresh_dir();
	make_file("target", "u:\n", 3, 0644);
	memcpy(target, path, sizeof(target));
	set_path("link");
	if (symlink(target, path) != 0)
		abort();
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, &why),
	    ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is a symbolic link");
	T_EQ_ERR(safefile_read_lines(dir, &pol, collect, &pc, &why),
	    ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is not a regular file");
	make_file("w", "u:\n", 3, 0602);
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, &why),
	    ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	make_file("o", "u:\n", 3, 0644);
	if (geteuid() == 0) {
		if (chown(path, 4242, 4242) != 0)
			abort();
		pol.owner = 4243;
	} else
		pol.owner = geteuid() + 1;
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, &why),
	    ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is owned by another user");
	pol = policy(2);
	T_EQ_ERR(
	    safefile_read_lines(target, &pol, collect, &pc, &why), ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	/* /proc says size 0 and then grows past the cap while read */
	pol = policy(10);
	T_EQ_ERR(safefile_read_lines_chunk(
		     "/proc/self/status", &pol, 4, collect, &pc, &why),
	    ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	pol = policy(4096);
	set_path("nope");
	errno = 0;
	T_EQ_ERR(safefile_read_lines(path, &pol, collect, &pc, &why), ERR_FILE);
	T_EQ_INT(errno, ENOENT);
	T_TRUE(why == NULL);
	T_EQ_INT(pc.calls, 0);
	cleanup();
}

/* safefile_open: the same checks, the fd and its status (pamu2fcfg's
 * mapping-file rewrite keeps the mode and owner). */
static void
test_open_same_checks(void)
{
	struct safefile_policy pol = policy(4096);
	struct stat st;
	const char *why = "unset";
	char *buf = NULL;
	size_t len = 0;
	int fd = 42;

	fresh_dir();
	make_file("f", "u:\n", 3, 0640);
	T_EQ_ERR(safefile_open(path, &pol, &fd, &st, &why), ERR_OK);
	T_TRUE(fd >= 0 && why == NULL);
	T_EQ_INT(st.st_mode & 07777, 0640);
	T_EQ_INT(st.st_size, 3);
	T_EQ_ERR(safefile_read_fd(fd, 3, 4096, &buf, &len), ERR_OK);
	T_TRUE(len == 3 && buf != NULL && memcmp(buf, "u:\n", 3) == 0);
	free(buf);
	if (fd >= 0)
		close(fd);
	make_file("w", "u:\n", 3, 0620);
	T_EQ_ERR(safefile_open(path, &pol, &fd, &st, &why), ERR_FILE_UNSAFE);
	T_EQ_STR(why, "is group- or world-writable");
	T_EQ_INT(fd, -1);
	T_EQ_INT(st.st_mode & 07777, 0620); /* what fstat saw */
	set_path("nope");
	errno = 0;
	T_EQ_ERR(safefile_open(path, &pol, &fd, &st, &why), ERR_FILE);
	T_EQ_INT(errno, ENOENT);
	T_TRUE(fd == -1 && why == NULL && st.st_mode == 0);
	cleanup();
}

TEST_MAIN(TEST(test_normal_file_read_exactly), TEST(test_symlink_refused),
    TEST(test_fifo_refused_without_blocking),
    TEST(test_directory_and_device_refused), TEST(test_writable_refused),
    TEST(test_wrong_owner_refused), TEST(test_follow_own),
    TEST(test_private_group), TEST(test_root_owned_accepted),
    TEST(test_too_large_refused), TEST(test_grows_while_read),
    TEST(test_missing_keeps_errno), TEST(test_read_lines_pieces),
    TEST(test_read_lines_same_checks), TEST(test_open_same_checks))
