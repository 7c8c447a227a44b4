/* SPDX-License-Identifier: BSD-2-Clause */
/* The simple bind's password file (ldpass.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ldpass.h"
#include "base/err.h"
#include "base/safefile.h"
#include "base/util.h"

/* The mode and owner rules, on the open file. */
static int
ldpass_check(int fd, const char **why)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		*why = "cannot be examined";
		return ERR_FILE;
	}
	if (!S_ISREG(st.st_mode))
		*why = "is not a regular file";
	else if (st.st_uid != 0)
		*why = "is not owned by root";
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		*why = "is writable by group or others";
	else if ((st.st_mode & S_IROTH) != 0)
		*why = "is readable by others";
	else
		return ERR_OK;
	return ERR_FILE_UNSAFE;
}

/* One line: drop a final newline; refuse NUL, CR, LF within, empty. */
static int
ldpass_line(char *buf, size_t *len, const char **why)
{
	if (*len > 0 && buf[*len - 1] == '\n')
		buf[--*len] = '\0';
	if (*len == 0 || memchr(buf, '\0', *len) != NULL ||
	    memchr(buf, '\n', *len) != NULL ||
	    memchr(buf, '\r', *len) != NULL) {
		*why = "must hold one non-empty line";
		return ERR_PARSE;
	}
	return ERR_OK;
}

int
ldpass_read(const char *path, char **pw, size_t *len, const char **why)
{
	char *buf = NULL;
	size_t n = 0;
	int fd = -1, r;

	*pw = NULL;
	*len = 0;
	*why = "cannot be opened";
	fd = open(
	    path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ELOOP)
			*why = "is a symbolic link";
		r = errno == ELOOP ? ERR_FILE_UNSAFE : ERR_FILE;
		goto fail;
	}
	if ((r = ldpass_check(fd, why)) != ERR_OK)
		goto fail;
	if ((r = safefile_read_fd(fd, 64, LDPASS_MAX, &buf, &n)) != ERR_OK) {
		*why = r == ERR_TOO_BIG ? "is too large" : "cannot be read";
		goto fail;
	}
	if ((r = ldpass_line(buf, &n, why)) != ERR_OK)
		goto fail;
	*pw = buf;
	*len = n;
	buf = NULL;
	*why = NULL;
	r = ERR_OK;
fail:
	ldpass_free(buf, n);
	if (fd >= 0)
		close(fd);
	return r;
}

void
ldpass_free(char *pw, size_t len)
{
	if (pw == NULL)
		return;
	util_freezero(pw, len + 1); /* and its NUL */
}
