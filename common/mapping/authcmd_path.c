/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: the command line (argv, %u) and the checked walk to the
 * executable (authcmd.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "authcmd.h"
#include "base/err.h"

#define AC_BLANKS " \t"

void
authcmd_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

static int
user_ok(const char *user)
{
	const char *p;

	if (user == NULL || user[0] == '\0')
		return 0;
	for (p = user; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* One word (n bytes at w) with %u and %% expanded; *out malloc'd. */
static int
expand_word(const char *w, size_t n, const char *user, char **out)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *f;
	int r = ERR_CONFIG;

	*out = NULL;
	if ((f = open_memstream(&buf, &size)) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < n; i++) {
		if (w[i] != '%')
			fputc(w[i], f);
		else if (i + 1 < n && w[i + 1] == 'u' && ++i)
			fputs(user, f);
		else if (i + 1 < n && w[i + 1] == '%' && ++i)
			fputc('%', f);
		else
			goto fail;
	}
	r = ERR_OK;
fail:
	if (fclose(f) != 0 && r == ERR_OK)
		r = ERR_NOMEM;
	if (r == ERR_OK)
		*out = buf;
	else
		free(buf);
	return r;
}

/* Words of cmd into av (room for AUTHCMD_ARGS_MAX + 2), *nw of them. */
static int
split_expand(const char *cmd, const char *user, char **av, size_t *nw)
{
	const char *p = cmd;
	size_t n;
	int r;

	*nw = 0;
	for (;;) {
		p += strspn(p, AC_BLANKS);
		if (*p == '\0')
			return ERR_OK;
		if (*nw == AUTHCMD_ARGS_MAX)
			return ERR_CONFIG;
		n = strcspn(p, AC_BLANKS);
		/* The path is taken as written: no %-tokens there. */
		if (*nw == 0) {
			if ((av[0] = strndup(p, n)) == NULL)
				return ERR_NOMEM;
			if (strchr(av[0], '%') != NULL)
				return ERR_CONFIG;
		} else if ((r = expand_word(p, n, user, &av[*nw])) != ERR_OK)
			return r;
		(*nw)++;
		p += n;
	}
}

int
authcmd_argv(const char *cmd, const char *user, char ***argv)
{
	char **av = NULL;
	size_t nw = 0;
	int r;

	if (argv == NULL)
		return ERR_INVAL;
	*argv = NULL;
	if (cmd == NULL || !user_ok(user))
		return ERR_INVAL;
	if ((av = calloc(AUTHCMD_ARGS_MAX + 2, sizeof(*av))) == NULL)
		return ERR_NOMEM;
	if ((r = split_expand(cmd, user, av, &nw)) != ERR_OK)
		goto fail;
	r = ERR_CONFIG;
	if (nw == 0 || av[0][0] != '/')
		goto fail;
	/* sshd: with no argument, the user's name is the argument. */
	if (nw == 1 && (av[1] = strdup(user)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	*argv = av;
	av = NULL;
	r = ERR_OK;
fail:
	authcmd_argv_free(av);
	return r;
}

/* The rule for every step of the walk: root's, not group/other-writable,
 * a directory (dir) or a regular file that someone may execute. */
static int
step_ok(int fd, int dir, const char **why)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return ERR_FILE;
	if (S_ISLNK(st.st_mode))
		*why = "is a symbolic link";
	else if (dir && !S_ISDIR(st.st_mode))
		*why = "is not a directory";
	else if (!dir && !S_ISREG(st.st_mode))
		*why = "is not a regular file";
	else if (st.st_uid != 0)
		*why = "is not owned by root";
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		*why = "is writable by group or others";
	else if (!dir && (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) == 0)
		*why = "is not executable";
	else
		return ERR_OK;
	return ERR_FILE_UNSAFE;
}

/* Next component of *p ("a/b" -> "a", *p at "b"); NULL at the end. */
static int
next_name(const char **p, char *name, size_t size, int *last)
{
	size_t n = strcspn(*p, "/");

	if (n == 0 || n >= size || (n == 1 && (*p)[0] == '.') ||
	    (n == 2 && (*p)[0] == '.' && (*p)[1] == '.'))
		return ERR_CONFIG;
	memcpy(name, *p, n);
	name[n] = '\0';
	*p += n;
	*last = **p == '\0';
	if (!*last)
		(*p)++;
	return ERR_OK;
}

/* The walk of authcmd_open; the last step a directory when dir. */
static int
walk(const char *path, int dir, int *fd, const char **why, size_t *at)
{
	char name[256];
	const char *p = path;
	int dfd = -1, nfd = -1, last = 0, r, e;

	*fd = -1;
	*why = NULL;
	*at = 1;
	if (path == NULL || path[0] != '/' || path[1] == '\0')
		return ERR_CONFIG;
	if ((dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return ERR_FILE;
	if ((r = step_ok(dfd, 1, why)) != ERR_OK)
		goto fail;
	for (p++; !last; dfd = nfd, nfd = -1) {
		if ((r = next_name(&p, name, sizeof(name), &last)) != ERR_OK)
			goto fail;
		*at = (size_t)(p - path) - (last ? 0 : 1);
		nfd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		e = errno;
		close(dfd);
		dfd = -1;
		if (nfd < 0) {
			errno = e;
			return ERR_FILE;
		}
		if ((r = step_ok(nfd, !last || dir, why)) != ERR_OK)
			goto fail;
	}
	*fd = dfd;
	dfd = -1;
	r = ERR_OK;
fail:
	if (dfd >= 0)
		close(dfd);
	if (nfd >= 0)
		close(nfd);
	return r;
}

int
authcmd_open(const char *path, int *fd, const char **why, size_t *at)
{
	return walk(path, 0, fd, why, at);
}

int
authcmd_open_dir(const char *path, int *fd, const char **why, size_t *at)
{
	return walk(path, 1, fd, why, at);
}
