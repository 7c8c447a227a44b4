/* SPDX-License-Identifier: BSD-2-Clause */
/* Mapping files on disk: the per-user default path, a safe read, and an
 * atomic rewrite under a lock (FILE.lock), through a temporary file in
 * the same folder that is fsync'ed and renamed over the original. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/safefile.h"
#include "mapping/mappath.h"
#include "tool.h"

#define OPEN_FLAGS (O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
#define TMP_TAG ".tmp."

static const char *
env(const char *name)
{
#ifdef HAVE_SECURE_GETENV
	return secure_getenv(name);
#else
	return getenv(name);
#endif
}

/* Make the folder if missing; *slot takes its path when we made it. */
static int
make_dir(char **path, char **slot)
{
	if (mkdir(*path, 0700) == 0) {
		*slot = *path;
		*path = NULL;
		return ERR_OK;
	}
	if (errno == EEXIST)
		return ERR_OK;
	tool_msg("cannot create %s: %s", *path, strerror(errno));
	return ERR_FILE;
}

void
mapfile_made_done(struct mapfile_made *made, bool undo)
{
	size_t i;

	for (i = 2; i-- > 0;) {
		if (undo && made->dirs[i] != NULL)
			(void)rmdir(made->dirs[i]); /* only if still empty */
		free(made->dirs[i]);
		made->dirs[i] = NULL;
	}
}

/* The module's per-user default (common/mapping/mappath.c) for the
 * invoking user ($XDG_CONFIG_HOME, $HOME or the passwd entry) or for
 * user_home (another user's: their passwd home, never our environment);
 * with made, the folders are made (mode 0700) when missing. */
int
mapfile_default_path(
    const char *user_home, struct mapfile_made *made, char **out)
{
	const char *xdg = env("XDG_CONFIG_HOME"), *home = env("HOME");
	struct passwd *pw;
	char *base = NULL, *dir = NULL;
	bool used;
	int r;

	*out = NULL;
	if (user_home != NULL) {
		xdg = NULL; /* the invoking user's, not the user's */
		home = user_home;
	}
	if ((home == NULL || home[0] != '/') &&
	    (xdg == NULL || xdg[0] != '/') && (pw = getpwuid(getuid())) != NULL)
		home = pw->pw_dir;
	if ((xdg == NULL || xdg[0] != '/') &&
	    (home == NULL || home[0] != '/')) {
		tool_msg("cannot find your home folder; name a FILE");
		return ERR_FILE;
	}
	/* With an absolute XDG_CONFIG_HOME, home is not used. */
	r = mappath_default(home != NULL && home[0] == '/' ? home : "/", xdg,
	    false, out, &used, &base, &dir);
	if (r == ERR_OK && made != NULL &&
	    ((r = make_dir(&base, &made->dirs[0])) != ERR_OK ||
		(r = make_dir(&dir, &made->dirs[1])) != ERR_OK)) {
		free(*out);
		*out = NULL;
		mapfile_made_done(made, true);
	}
	free(base);
	free(dir);
	return r;
}

/* Read a mapping file we may rewrite, with the module's reader
 * (base/safefile.h): owned by us or root, a regular file, not a symbolic
 * link, not group- or world-writable, at most TOOL_MAX_FILE bytes.
 * ERR_NOT_FOUND when it does not exist; ERR_FILE_UNSAFE or ERR_TOO_BIG
 * with the reason in *why. */
int
mapfile_read(const char *path, char **buf, size_t *len, struct stat *st,
    const char **why)
{
	struct safefile_policy pol = {
	    .owner = geteuid(), .max_size = TOOL_MAX_FILE};
	int fd, r;

	r = safefile_open(path, &pol, &fd, st, why);
	if (r == ERR_FILE && errno == ENOENT)
		return ERR_NOT_FOUND;
	if (r == ERR_FILE)
		*why = strerror(errno);
	else if (r == ERR_FILE_UNSAFE && S_ISREG(st->st_mode) &&
	    st->st_uid != 0 && st->st_uid != pol.owner)
		*why = "is owned by another user (run pamu2fcfg as its owner)";
	if (r == ERR_OK &&
	    (r = safefile_read_fd(
		 fd, (size_t)st->st_size, TOOL_MAX_FILE, buf, len)) != ERR_OK)
		*why = r == ERR_FILE ? strerror(errno) : err_str(r);
	if (fd >= 0)
		close(fd);
	return r;
}

/* Under the lock, any "DIR/.BASE.tmp.XXXXXX" is left from a killed run. */
static void
clean_stale(const char *dir, const char *base)
{
	struct dirent *e;
	struct stat st;
	size_t blen = strlen(base), tlen = strlen(TMP_TAG);
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.' ||
		    strncmp(e->d_name + 1, base, blen) != 0 ||
		    strncmp(e->d_name + 1 + blen, TMP_TAG, tlen) != 0 ||
		    strlen(e->d_name + 1 + blen + tlen) != 6)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
			0 &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid())
			(void)unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

static int
take_lock(const char *path, int *fdp)
{
	struct stat st;
	char *lock = NULL;
	int fd = -1, r = ERR_NOMEM;

	if (asprintf(&lock, "%s.lock", path) < 0) {
		lock = NULL;
		goto fail;
	}
	r = ERR_FILE;
	if ((fd = open(lock, O_RDWR | O_CREAT | OPEN_FLAGS, 0600)) < 0) {
		tool_msg(
		    "cannot open the lock file %s: %s", lock, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		tool_msg("%s is not a regular file", lock);
		r = ERR_FILE_UNSAFE;
		goto fail;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			tool_msg("cannot lock %s: %s", lock, strerror(errno));
			goto fail;
		}
	}
	*fdp = fd;
	fd = -1;
	r = ERR_OK;
fail:
	if (fd >= 0)
		close(fd);
	free(lock);
	return r;
}

/* The temporary file gets the content, the original's mode and owner
 * (a new file: mode 0600, owner as created), and reaches the disk before
 * the rename. */
static int
fill_temp(int fd, const char *buf, size_t len, const struct stat *orig)
{
	struct stat st;
	mode_t mode = orig != NULL ? orig->st_mode & 07777 : 0600;

	if (util_write_all(fd, buf, len) != ERR_OK || fchmod(fd, mode) != 0 ||
	    fstat(fd, &st) != 0)
		return ERR_FILE;
	if (orig != NULL &&
	    (st.st_uid != orig->st_uid || st.st_gid != orig->st_gid) &&
	    fchown(fd, orig->st_uid, orig->st_gid) != 0)
		return ERR_FILE;
	return fsync(fd) == 0 ? ERR_OK : ERR_FILE;
}

static int
replace(const char *path, const char *dir, const char *base, const char *buf,
    size_t len, const struct stat *orig)
{
	char *tmp = NULL;
	int fd = -1, dfd = -1, r = ERR_NOMEM;

	if (asprintf(&tmp, "%s/.%s%sXXXXXX", dir, base, TMP_TAG) < 0) {
		tmp = NULL;
		goto fail;
	}
	r = ERR_FILE;
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		free(tmp);
		tmp = NULL;
		goto fail;
	}
	if (fill_temp(fd, buf, len, orig) != ERR_OK || close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	tmp = NULL;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fsync(dfd) != 0)
		goto fail;
	r = ERR_OK;
fail:
	if (r != ERR_OK)
		tool_msg("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (tmp != NULL)
		(void)unlink(tmp);
	free(tmp);
	return r;
}

static int
split_path(const char *path, char **dir, char **base)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		*dir = strdup(".");
	else if (slash == path)
		*dir = strdup("/");
	else
		*dir = strndup(path, (size_t)(slash - path));
	*base = strdup(slash == NULL ? path : slash + 1);
	if (*dir == NULL || *base == NULL)
		return ERR_NOMEM;
	return **base == '\0' ? ERR_FILE : ERR_OK;
}

/* The folder must exist, be ours or root's, and not let others replace
 * files in it (group/world-writable only with the sticky bit). */
static int
check_dir(const char *dir, const char **why)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		*why = strerror(errno);
		return ERR_FILE;
	}
	if (!S_ISDIR(st.st_mode))
		*why = "its folder is not a folder";
	else if (st.st_uid != geteuid() && st.st_uid != 0)
		*why = "its folder is owned by another user (run pamu2fcfg as "
		       "its owner)";
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st.st_mode & S_ISVTX) == 0)
		*why = "its folder is writable by group or others";
	else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
		/* the effective ids: the user's under asuser.c, not root's */
		*why = strerror(errno);
		return ERR_FILE;
	} else
		return ERR_OK;
	return ERR_FILE_UNSAFE;
}

/* Could mapfile_update write path? Checked before asking for a touch. */
int
mapfile_check_dir(const char *path, const char **why)
{
	char *dir = NULL, *base = NULL;
	int r;

	*why = NULL;
	if ((r = split_path(path, &dir, &base)) == ERR_OK)
		r = check_dir(dir, why);
	free(dir);
	free(base);
	return r;
}

/* Lock, re-read, let fn compute the new content, replace atomically. A
 * missing file is created with mode 0600. */
int
mapfile_update(
    const char *path, mapfile_edit_fn fn, void *arg, const char **why)
{
	struct stat st;
	char *dir = NULL, *base = NULL, *buf = NULL, *out = NULL;
	size_t len = 0, out_len = 0;
	bool fresh = false;
	int lock = -1, r;

	*why = NULL;
	if ((r = split_path(path, &dir, &base)) != ERR_OK ||
	    (r = check_dir(dir, why)) != ERR_OK ||
	    (r = take_lock(path, &lock)) != ERR_OK)
		goto fail;
	clean_stale(dir, base);
	r = mapfile_read(path, &buf, &len, &st, why);
	if (r == ERR_NOT_FOUND) {
		fresh = true;
		if ((buf = strdup("")) == NULL)
			r = ERR_NOMEM;
		else
			r = ERR_OK;
	}
	if (r != ERR_OK || (r = fn(arg, buf, len, &out, &out_len)) != ERR_OK ||
	    (r = replace(path, dir, base, out, out_len, fresh ? NULL : &st)) !=
		ERR_OK)
		goto fail;
	r = ERR_OK;
fail:
	if (lock >= 0)
		close(lock);
	free(dir);
	free(base);
	free(buf);
	free(out);
	return r;
}
