/* SPDX-License-Identifier: BSD-2-Clause */
/* common/transport/unixpath.c: a unix: device is used only when the socket and
 * every directory above it are root's or the caller's, and no directory is
 * writable by group or others unless sticky. Sockets and directories are
 * made under this test's own directory in /tmp; the "someone else"
 * owner is a real chown as root, and the caller's own files counted as
 * someone else's (another owner passed in) otherwise. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/err.h"
#include "transport/hid.h"
#include "test.h"
#include "transport/unixdev.h"
#include "transport/unixpath.h"

#define OTHER_UID 4242

struct tree {
	char dir[64];
	char path[8][160]; /* made below dir, removed in reverse */
	int kind[8];       /* 0 socket or link, 1 directory */
	int fd[8];
	size_t n;
};

/* t->path[t->n] = t->dir/name (copied first: the two share t). */
static char *
tree_name(struct tree *t, const char *name)
{
	char dir[sizeof(t->dir)];

	memcpy(dir, t->dir, sizeof(dir));
	snprintf(t->path[t->n], sizeof(t->path[0]), "%s/%s", dir, name);
	return t->path[t->n];
}

static const char *
tree_add(struct tree *t, const char *name, int kind)
{
	char *p = tree_name(t, name);
	struct sockaddr_un sun;
	int fd = -1;

	if (kind == 1 && mkdir(p, 0700) != 0)
		abort();
	if (kind == 0) { /* a listening socket */
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", p);
		if ((fd = socket(AF_UNIX, SOCK_SEQPACKET, 0)) < 0 ||
		    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
		    listen(fd, 1) != 0)
			abort();
	}
	t->kind[t->n] = kind;
	t->fd[t->n] = fd;
	return t->path[t->n++];
}

/* name: a symbolic link to target (relative to name's directory). */
static const char *
tree_link(struct tree *t, const char *name, const char *target)
{
	char *p = tree_name(t, name);

	if (symlink(target, p) != 0)
		abort();
	t->kind[t->n] = 0;
	t->fd[t->n] = -1;
	return t->path[t->n++];
}

static void
tree_free(struct tree *t)
{
	while (t->n > 0) {
		t->n--;
		if (t->kind[t->n] == 1)
			rmdir(t->path[t->n]);
		else
			unlink(t->path[t->n]);
		if (t->fd[t->n] >= 0)
			close(t->fd[t->n]);
	}
	rmdir(t->dir);
}

static void
tree_new(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/pu-unixpath-XXXXXX");
	if (mkdtemp(t->dir) == NULL)
		abort();
}

static int
check(const char *path, uid_t owner)
{
	char out[sizeof(((struct sockaddr_un *)NULL)->sun_path)];

	return unixpath_resolve(path, owner, out, sizeof(out));
}

static void
test_safe_socket(void)
{
	struct tree t;
	char out[108];
	const char *s;

	tree_new(&t);
	tree_add(&t, "d", 1);
	s = tree_add(&t, "d/tok.sock", 0);
	T_EQ_ERR(unixpath_resolve(s, geteuid(), out, sizeof(out)), ERR_OK);
	T_EQ_STR(out, s);
	tree_free(&t);
}

static void
test_writable_directory(void)
{
	struct tree t;
	const char *d, *s;

	tree_new(&t);
	d = tree_add(&t, "w", 1);
	s = tree_add(&t, "w/tok.sock", 0);
	T_EQ_INT(chmod(d, 0777), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_FILE_UNSAFE);
	T_EQ_INT(chmod(d, 0770), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_FILE_UNSAFE);
	T_EQ_INT(chmod(d, 0702), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_FILE_UNSAFE);
	/* sticky, like /tmp: others cannot rename or remove our socket */
	T_EQ_INT(chmod(d, 01777), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_OK);
	T_EQ_INT(chmod(d, 0755), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_OK);
	/* the writable directory further up: the test's own directory */
	T_EQ_INT(chmod(t.dir, 0777), 0);
	T_EQ_ERR(check(s, geteuid()), ERR_FILE_UNSAFE);
	T_EQ_INT(chmod(t.dir, 0700), 0);
	tree_free(&t);
}

/* Owned by someone who is neither root nor the caller. */
static void
test_other_owner(void)
{
	struct tree t;
	const char *d, *s;

	tree_new(&t);
	d = tree_add(&t, "o", 1);
	s = tree_add(&t, "o/tok.sock", 0);
	if (geteuid() == 0) {
		T_EQ_ERR(check(s, 0), ERR_OK);
		T_EQ_INT(lchown(s, OTHER_UID, OTHER_UID), 0);
		T_EQ_ERR(check(s, 0), ERR_FILE_UNSAFE); /* the socket */
		T_EQ_INT(lchown(s, 0, 0), 0);
		T_EQ_INT(chown(d, OTHER_UID, OTHER_UID), 0);
		T_EQ_ERR(check(s, 0), ERR_FILE_UNSAFE); /* its directory */
		T_EQ_ERR(check(s, OTHER_UID), ERR_OK);
		T_EQ_INT(chown(d, 0, 0), 0);
	} else {
		/* the caller's own tree, judged for another caller */
		T_EQ_ERR(check(s, geteuid()), ERR_OK);
		T_EQ_ERR(check(s, geteuid() + 1), ERR_FILE_UNSAFE);
	}
	tree_free(&t);
}

static void
test_symlinks_and_types(void)
{
	struct tree t;
	char out[108];
	const char *s, *w, *l;

	tree_new(&t);
	tree_add(&t, "d", 1);
	s = tree_add(&t, "d/tok.sock", 0);
	w = tree_add(&t, "w", 1);
	tree_add(&t, "w/tok.sock", 0);
	T_EQ_INT(chmod(w, 0777), 0);
	/* a link to the safe socket: resolved, and the target returned */
	l = tree_link(&t, "l1", "d/tok.sock");
	T_EQ_ERR(unixpath_resolve(l, geteuid(), out, sizeof(out)), ERR_OK);
	T_EQ_STR(out, s);
	/* a link into the writable directory: judged where it leads */
	l = tree_link(&t, "l2", "w/tok.sock");
	T_EQ_ERR(check(l, geteuid()), ERR_FILE_UNSAFE);
	/* not a socket: a directory; and a path that is not there */
	T_EQ_ERR(check(t.path[0], geteuid()), ERR_FILE_UNSAFE);
	snprintf(out, sizeof(out), "%s/none.sock", t.dir);
	T_EQ_ERR(check(out, geteuid()), ERR_NODEV);
	T_EQ_ERR(check("tok.sock", geteuid()), ERR_INVAL);
	T_EQ_ERR(check("/", geteuid()), ERR_FILE_UNSAFE);
	T_EQ_ERR(unixpath_resolve(s, geteuid(), out, 8), ERR_INVAL);
	tree_free(&t);
}

/* The unix: transport refuses such a socket before connecting to it. */
static void
test_unixdev_refuses(void)
{
	struct tree t;
	char path[200];
	const char *w, *s;
	int err = 0;

	tree_new(&t);
	w = tree_add(&t, "w", 1);
	s = tree_add(&t, "w/tok.sock", 0);
	T_EQ_INT(chmod(w, 0777), 0);
	snprintf(path, sizeof(path), "unix:%s", s);
	T_TRUE(hid_io_for(path) == &unixdev_io);
	T_TRUE(unixdev_io.open(path, &err) == NULL);
	T_EQ_ERR(err, ERR_FILE_UNSAFE);
	T_EQ_INT(chmod(w, 0700), 0);
	tree_free(&t);
}

TEST_MAIN(TEST(test_safe_socket), TEST(test_writable_directory),
    TEST(test_other_owner), TEST(test_symlinks_and_types),
    TEST(test_unixdev_refuses))
