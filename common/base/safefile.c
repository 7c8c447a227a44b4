/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading files that another user may control (safefile.h): open without
 * following links (or, for a user's own file, following one to that
 * user's own file), fstat, then the type, owner, mode and size rules, and
 * the read, whole or in lines. The one reader of mapping, configuration
 * and central files for the module, pamu2fcfg and the LDAP helper, so
 * that every reader refuses an unsafe file for the same reasons. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "safefile.h"
#include "util.h"

#define SF_WHY_SYMLINK "is a symbolic link"
#define SF_WHY_TYPE "is not a regular file"
#define SF_WHY_OWNER "is owned by another user"
#define SF_WHY_MODE "is group- or world-writable"
#define SF_WHY_SIZE "is too large"
#define SF_WHY_LINK_OWNER "is a symbolic link to a file of another user"
#define SF_FLAGS (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

/* Group-writable: only when group_alone says the group is the user's
 * alone (then noted). World-writable: never. */
static int
check_mode(const struct stat *st, const struct safefile_policy *pol,
    int *group_note, const char **why)
{
	*group_note = (st->st_mode & S_IWGRP) != 0;
	if ((st->st_mode & S_IWOTH) != 0 ||
	    (*group_note && pol->group_alone == NULL)) {
		*why = SF_WHY_MODE;
		return ERR_FILE_UNSAFE;
	}
	if (*group_note && !pol->group_alone(pol->group_arg, st->st_gid)) {
		*why = SAFEFILE_WHY_GROUP;
		return ERR_FILE_UNSAFE;
	}
	return ERR_OK;
}

/* Type, owner, mode and size rules on what fstat saw; followed: the path
 * was a symbolic link (follow_own), so the file must be owner's own. */
static int
check_stat(const struct stat *st, const struct safefile_policy *pol,
    int followed, const char **why)
{
	int group_note = 0, r;

	if (!S_ISREG(st->st_mode)) {
		*why = SF_WHY_TYPE;
		return ERR_FILE_UNSAFE;
	}
	if (followed && st->st_uid != pol->owner) {
		*why = SF_WHY_LINK_OWNER;
		return ERR_FILE_UNSAFE;
	}
	if (st->st_uid != 0 && st->st_uid != pol->owner) {
		*why = SF_WHY_OWNER;
		return ERR_FILE_UNSAFE;
	}
	if ((r = check_mode(st, pol, &group_note, why)) != ERR_OK)
		return r;
	if (st->st_size < 0 || (uintmax_t)st->st_size > pol->max_size) {
		*why = SF_WHY_SIZE;
		return ERR_TOO_BIG;
	}
	if (pol->note != NULL)
		*pol->note = followed && group_note ? SAFEFILE_NOTE_BOTH
		    : followed                      ? SAFEFILE_NOTE_LINK
		    : group_note                    ? SAFEFILE_NOTE_GROUP
						    : NULL;
	return ERR_OK;
}

/* Grow *data (room for *cap bytes plus a NUL) to newcap, wiping the old
 * copy. */
static int
grow(char **data, size_t *cap, size_t got, size_t newcap)
{
	char *nd;

	if ((nd = malloc(newcap + 1)) == NULL)
		return ERR_NOMEM;
	if (got > 0)
		memcpy(nd, *data, got);
	util_freezero(*data, *cap + 1);
	*data = nd;
	*cap = newcap;
	return ERR_OK;
}

/* Read until EOF, at most max bytes; a file that turns out longer (it
 * grew after fstat) is ERR_TOO_BIG. */
int
safefile_read_fd(int fd, size_t size, size_t max, char **out, size_t *outlen)
{
	char *data = NULL;
	size_t cap = 0, got = 0;
	ssize_t n;
	int r;

	if ((r = grow(&data, &cap, 0, size + 1)) != ERR_OK)
		return r;
	for (;;) {
		if (got == cap) {
			if (cap > max) {
				r = ERR_TOO_BIG;
				goto fail;
			}
			if ((r = grow(&data, &cap, got,
				 cap > max / 2 ? max + 1 : 2 * cap)) != ERR_OK)
				goto fail;
		}
		n = read(fd, data + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = ERR_FILE;
			goto fail;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	data[got] = '\0';
	*out = data;
	*outlen = got;
	data = NULL;
	r = ERR_OK;
fail:
	util_freezero(data, cap + 1);
	return r;
}

/* The path is a symbolic link and follow_own is set: look at the target
 * before opening it (no device or FIFO is opened), then open it. */
static int
open_link(const char *path, const struct safefile_policy *pol, int *fd,
    const char **reason)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return ERR_FILE;
	if (!S_ISREG(st.st_mode)) {
		*reason = SF_WHY_TYPE;
		return ERR_FILE_UNSAFE;
	}
	if (st.st_uid != pol->owner) {
		*reason = SF_WHY_LINK_OWNER;
		return ERR_FILE_UNSAFE;
	}
	if ((*fd = open(path, SF_FLAGS)) < 0)
		return ERR_FILE;
	return ERR_OK;
}

/* open + fstat + the policy checks; *fd >= 0 when it could be opened. */
static int
open_checked(const char *path, const struct safefile_policy *pol, int *fd,
    struct stat *st, const char **reason, int *saved_errno)
{
	int followed = 0, r;

	memset(st, 0, sizeof(*st));
	if (pol->note != NULL)
		*pol->note = NULL;
	*fd = open(path, SF_FLAGS | O_NOFOLLOW);
	if (*fd < 0 && errno == ELOOP && pol->follow_own) {
		followed = 1;
		if ((r = open_link(path, pol, fd, reason)) != ERR_OK) {
			*saved_errno = errno;
			return r;
		}
	}
	if (*fd < 0) {
		*saved_errno = errno;
		if (errno == ELOOP) {
			*reason = SF_WHY_SYMLINK;
			return ERR_FILE_UNSAFE;
		}
		return ERR_FILE;
	}
	if (fstat(*fd, st) != 0) {
		*saved_errno = errno;
		return ERR_FILE;
	}
	return check_stat(st, pol, followed, reason);
}

int
safefile_open(const char *path, const struct safefile_policy *pol, int *fd,
    struct stat *st, const char **why)
{
	const char *reason = NULL;
	int r, saved_errno = 0;

	*fd = -1;
	if (path == NULL || pol == NULL || st == NULL)
		return ERR_INVAL;
	if ((r = open_checked(path, pol, fd, st, &reason, &saved_errno)) !=
	    ERR_OK) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
	if (why != NULL)
		*why = reason;
	errno = saved_errno;
	return r;
}

int
safefile_read(const char *path, const struct safefile_policy *pol, char **buf,
    size_t *len, const char **why)
{
	struct stat st;
	const char *reason = NULL;
	int fd = -1, r, saved_errno = 0;

	if (why != NULL)
		*why = NULL;
	if (path == NULL || pol == NULL || buf == NULL || len == NULL ||
	    pol->max_size >= SSIZE_MAX)
		return ERR_INVAL;
	*buf = NULL;
	*len = 0;
	if ((r = open_checked(path, pol, &fd, &st, &reason, &saved_errno)) !=
	    ERR_OK)
		goto fail;
	if ((r = safefile_read_fd(
		 fd, (size_t)st.st_size, pol->max_size, buf, len)) != ERR_OK) {
		saved_errno = errno;
		if (r == ERR_TOO_BIG)
			reason = SF_WHY_SIZE;
		goto fail;
	}
	r = ERR_OK;
fail:
	if (fd >= 0)
		close(fd);
	if (why != NULL)
		*why = reason;
	errno = saved_errno;
	return r;
}

/* The buffer of safefile_read_lines: room for cap bytes plus a NUL,
 * have of them held (the start of a line not yet ended). */
struct lines_buf {
	char *data;
	size_t cap;
	size_t have;
	int wipe;
};

static void
lines_free(struct lines_buf *b)
{
	if (b->wipe)
		util_freezero(b->data, b->cap + 1);
	else
		free(b->data);
	b->data = NULL;
	b->cap = b->have = 0;
}

/* Full, and holding part of one line: make room for the rest of it,
 * up to max bytes (the file cannot be longer). */
static int
lines_grow(struct lines_buf *b, size_t max)
{
	struct lines_buf nb = *b;

	nb.cap = b->cap > max / 2 ? max + 1 : 2 * b->cap;
	if ((nb.data = malloc(nb.cap + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(nb.data, b->data, b->have);
	lines_free(b);
	*b = nb;
	return ERR_OK;
}

/* Hand fn the whole lines held, NUL-terminated; keep the unfinished
 * one (the last fresh bytes were just read). At eof, everything. */
static int
lines_feed(
    struct lines_buf *b, size_t fresh, int eof, safefile_lines_fn fn, void *arg)
{
	const char *last;
	size_t use;
	char save;
	int r;

	if (eof)
		use = b->have;
	else if ((last = memrchr(b->data + b->have - fresh, '\n', fresh)) ==
	    NULL)
		return ERR_OK;
	else
		use = (size_t)(last - b->data) + 1;
	if (use == 0)
		return ERR_OK;
	save = b->data[use];
	b->data[use] = '\0';
	r = fn(arg, b->data, use);
	b->data[use] = save;
	if (r != ERR_OK)
		return r;
	memmove(b->data, b->data + use, b->have - use);
	b->have -= use;
	return ERR_OK;
}

/* Read chunk bytes at a time (more for a longer line), at most max. */
static int
read_lines(
    int fd, size_t chunk, size_t max, int wipe, safefile_lines_fn fn, void *arg)
{
	struct lines_buf b = {NULL, 0, 0, wipe};
	size_t total = 0;
	ssize_t got;
	int r;

	if ((b.data = malloc(chunk + 1)) == NULL)
		return ERR_NOMEM;
	b.cap = chunk;
	for (;;) {
		if (b.have == b.cap && (r = lines_grow(&b, max)) != ERR_OK)
			goto fail;
		got = read(fd, b.data + b.have, b.cap - b.have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = ERR_FILE;
			goto fail;
		}
		if ((total += (size_t)got) > max) {
			r = ERR_TOO_BIG;
			goto fail;
		}
		b.have += (size_t)got;
		r = lines_feed(&b, (size_t)got, got == 0, fn, arg);
		if (r != ERR_OK || got == 0)
			goto fail;
	}
fail:
	lines_free(&b);
	return r;
}

int
safefile_read_lines_chunk(const char *path, const struct safefile_policy *pol,
    size_t chunk, safefile_lines_fn fn, void *arg, const char **why)
{
	struct stat st;
	const char *reason = NULL;
	int fd = -1, r, saved_errno = 0;

	if (why != NULL)
		*why = NULL;
	if (path == NULL || pol == NULL || fn == NULL || chunk == 0 ||
	    chunk >= SSIZE_MAX || pol->max_size >= SSIZE_MAX)
		return ERR_INVAL;
	if ((r = open_checked(path, pol, &fd, &st, &reason, &saved_errno)) !=
	    ERR_OK)
		goto fail;
	/* A file others may not read may hold what they should not see. */
	if ((r = read_lines(fd, chunk, pol->max_size,
		 (st.st_mode & S_IROTH) == 0, fn, arg)) != ERR_OK) {
		saved_errno = errno;
		if (r == ERR_TOO_BIG)
			reason = SF_WHY_SIZE;
	}
fail:
	if (fd >= 0)
		close(fd);
	if (why != NULL)
		*why = reason;
	errno = saved_errno;
	return r;
}

int
safefile_read_lines(const char *path, const struct safefile_policy *pol,
    safefile_lines_fn fn, void *arg, const char **why)
{
	return safefile_read_lines_chunk(
	    path, pol, SAFEFILE_CHUNK, fn, arg, why);
}
