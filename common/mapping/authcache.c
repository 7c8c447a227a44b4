/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_cache=: one file per user (authcache.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "authcache.h"
#include "base/err.h"
#include "base/safefile.h"
#include "base/util.h"

#define AC_TMP_SIZE (1 + AUTHCACHE_NAME_SIZE + 1 + 16)
#define AC_OPEN (O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)

int
authcache_name(const char *user, char *name, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n, i;

	if (user == NULL || name == NULL)
		return ERR_INVAL;
	n = strlen(user);
	if (n == 0 || n > AUTHCACHE_USER_MAX || size < 2 + 2 * n + 1)
		return ERR_INVAL;
	name[0] = 'u';
	name[1] = '-';
	for (i = 0; i < n; i++) {
		name[2 + 2 * i] = hex[(unsigned char)user[i] >> 4];
		name[3 + 2 * i] = hex[(unsigned char)user[i] & 0x0f];
	}
	name[2 + 2 * n] = '\0';
	return ERR_OK;
}

/* fsync the directory itself (dfd may be O_PATH). */
static int
sync_dir(int dfd)
{
	int fd, r = ERR_OK, e;

	if ((fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return ERR_FILE;
	if (fsync(fd) != 0)
		r = ERR_FILE;
	e = errno;
	close(fd);
	errno = e;
	return r;
}

/* A new temporary file in dfd: *tmp its name, *fd open for writing. */
static int
tmp_create(int dfd, const char *name, char *tmp, int *fd)
{
	unsigned char rnd[8];
	size_t i;
	int n;

	if (util_random(rnd, sizeof(rnd)) != ERR_OK)
		return ERR_RANDOM;
	n = snprintf(tmp, AC_TMP_SIZE, ".%s.", name);
	for (i = 0; i < sizeof(rnd); i++)
		snprintf(tmp + n + 2 * i, 3, "%02x", rnd[i]);
	*fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | AC_OPEN, 0600);
	return *fd < 0 ? ERR_FILE : ERR_OK;
}

/* All len bytes at buf to fd, then mode 0600 and fsync. */
static int
write_entry(int fd, const char *buf, size_t len)
{
	if (util_write_all(fd, buf, len) != ERR_OK || fchmod(fd, 0600) != 0 ||
	    fsync(fd) != 0)
		return ERR_FILE;
	return ERR_OK;
}

int
authcache_store(int dfd, const char *user, const char *buf, size_t len)
{
	char name[AUTHCACHE_NAME_SIZE], tmp[AC_TMP_SIZE];
	int fd = -1, r, e;

	if (buf == NULL && len > 0)
		return ERR_INVAL;
	if ((r = authcache_name(user, name, sizeof(name))) != ERR_OK ||
	    (r = tmp_create(dfd, name, tmp, &fd)) != ERR_OK)
		return r;
	r = write_entry(fd, buf, len);
	e = errno;
	if (close(fd) != 0 && r == ERR_OK) {
		r = ERR_FILE;
		e = errno;
	}
	if (r == ERR_OK && renameat(dfd, tmp, dfd, name) != 0) {
		r = ERR_FILE;
		e = errno;
	}
	if (r != ERR_OK) {
		unlinkat(dfd, tmp, 0);
		errno = e;
		return r;
	}
	return sync_dir(dfd);
}

int
authcache_remove(int dfd, const char *user)
{
	char name[AUTHCACHE_NAME_SIZE];
	int r;

	if ((r = authcache_name(user, name, sizeof(name))) != ERR_OK)
		return r;
	if (unlinkat(dfd, name, 0) != 0)
		return errno == ENOENT ? ERR_OK : ERR_FILE;
	return sync_dir(dfd);
}

/* The checks of authcache_load on an open entry. */
static int
check_entry(const struct stat *st, size_t max, const char **why)
{
	if (!S_ISREG(st->st_mode))
		*why = "is not a regular file";
	else if (st->st_uid != 0)
		*why = "is not owned by root";
	else if ((st->st_mode & 077) != 0)
		*why = "is open to group or others";
	else if (st->st_size < 0 || (uintmax_t)st->st_size > max)
		return ERR_TOO_BIG;
	else
		return ERR_OK;
	return ERR_FILE_UNSAFE;
}

int
authcache_load(int dfd, const char *user, size_t max, char **buf, size_t *len,
    int64_t *mtime, const char **why)
{
	char name[AUTHCACHE_NAME_SIZE];
	struct stat st;
	int fd, r, e;

	*buf = NULL;
	*len = 0;
	*why = NULL;
	if ((r = authcache_name(user, name, sizeof(name))) != ERR_OK)
		return r;
	if ((fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | AC_OPEN)) < 0) {
		if (errno == ENOENT)
			return ERR_NOT_FOUND;
		if (errno != ELOOP)
			return ERR_FILE;
		*why = "is a symbolic link";
		return ERR_FILE_UNSAFE;
	}
	if (fstat(fd, &st) != 0)
		r = ERR_FILE;
	else if ((r = check_entry(&st, max, why)) == ERR_OK &&
	    (r = safefile_read_fd(fd, (size_t)st.st_size, max, buf, len)) ==
		ERR_OK)
		*mtime = (int64_t)st.st_mtim.tv_sec;
	e = errno;
	close(fd);
	errno = e;
	return r;
}

int
authcache_fresh(int64_t mtime, int64_t now, int64_t maxage, int64_t *age)
{
	if (__builtin_sub_overflow(now, mtime, age))
		*age = mtime > now ? INT64_MIN : INT64_MAX;
	return *age >= 0 && *age <= maxage ? ERR_OK : ERR_TIMEOUT;
}
