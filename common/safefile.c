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

/* Type, owner, mode and size rules on what fstat saw. */
static int
check_stat(
    const struct stat *st, const struct safefile_policy *pol, const char **why)
{
	if (!S_ISREG(st->st_mode)) {
		*why = SF_WHY_TYPE;
		return ERR_FILE_UNSAFE;
	}
	if (st->st_uid != 0 && st->st_uid != pol->owner) {
		*why = SF_WHY_OWNER;
		return ERR_FILE_UNSAFE;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		*why = SF_WHY_MODE;
		return ERR_FILE_UNSAFE;
	}
	if (st->st_size < 0 || (uintmax_t)st->st_size > pol->max_size) {
		*why = SF_WHY_SIZE;
		return ERR_TOO_BIG;
	}
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
static int
read_all(int fd, size_t size, size_t max, char **out, size_t *outlen)
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
	fd = open(
	    path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved_errno = errno;
		if (errno == ELOOP) {
			reason = SF_WHY_SYMLINK;
			r = ERR_FILE_UNSAFE;
		} else
			r = ERR_FILE;
		goto fail;
	}
	if (fstat(fd, &st) != 0) {
		saved_errno = errno;
		r = ERR_FILE;
		goto fail;
	}
	if ((r = check_stat(&st, pol, &reason)) != ERR_OK)
		goto fail;
	if ((r = read_all(fd, (size_t)st.st_size, pol->max_size, buf, len)) !=
	    ERR_OK) {
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
