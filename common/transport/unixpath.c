/* SPDX-License-Identifier: BSD-2-Clause */
/* unix: device paths: resolved, then every component checked (see
 * unixpath.h). Sound without a race: each component is checked after the
 * one above it, so once a directory is known to be changeable only by
 * root or the owner, nothing below it can be swapped by anyone else
 * between this check and the connect() to the resolved path. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "unixpath.h"

static int
unixpath_errno(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return ERR_NODEV;
	case EACCES:
	case EPERM:
		return ERR_PERM;
	case ENOMEM:
		return ERR_NOMEM;
	case ENAMETOOLONG:
		return ERR_INVAL;
	default:
		return ERR_SYSTEM;
	}
}

/* One component: the prefix of path up to len bytes ("/" for len 0). */
static int
component_ok(const char *path, size_t len, uid_t owner, int last)
{
	char buf[PATH_MAX];
	struct stat st;

	if (len == 0)
		len = 1;
	memcpy(buf, path, len);
	buf[len] = '\0';
	if (lstat(buf, &st) != 0)
		return unixpath_errno(errno);
	if (st.st_uid != 0 && st.st_uid != owner)
		return ERR_FILE_UNSAFE;
	if (last)
		return S_ISSOCK(st.st_mode) ? ERR_OK : ERR_FILE_UNSAFE;
	if (!S_ISDIR(st.st_mode))
		return ERR_FILE_UNSAFE;
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st.st_mode & S_ISVTX) == 0)
		return ERR_FILE_UNSAFE;
	return ERR_OK;
}

int
unixpath_resolve(const char *path, uid_t owner, char *out, size_t cap)
{
	char *real = NULL;
	size_t i, n;
	int r;

	if (path == NULL || path[0] != '/' || out == NULL ||
	    strlen(path) >= cap)
		return ERR_INVAL;
	if ((real = realpath(path, NULL)) == NULL)
		return unixpath_errno(errno);
	n = strlen(real);
	r = n < cap && n < PATH_MAX ? ERR_OK : ERR_INVAL;
	/* "/" itself, then each "/name" from the top down */
	for (i = 0; r == ERR_OK && i <= n; i++)
		if (i == 0 || i == n || real[i] == '/')
			r = component_ok(real, i, owner, i == n);
	if (r == ERR_OK)
		memcpy(out, real, n + 1);
	free(real);
	return r;
}
