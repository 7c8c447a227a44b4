/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_cache=: the last authoritative answer of an authcmd= command
 * (authcmd.h) per user, for when the command cannot answer. One file
 * per user in a directory that the caller opened with authcmd_open_dir
 * (root's, writable by nobody else, all the way from "/"): its name is
 * "u-" and the user name in lower-case hex (AUTHCACHE_USER_MAX bytes at
 * most), so no name can climb out of the directory or collide; its
 * contents the command's output, byte for byte, as authcmd_output.h parsed it.
 * Files are owned by root, mode 0600, replaced atomically (a temporary
 * ".u-<hex>.<random>" in the same directory, fsync, renameat, fsync of
 * the directory). Every call works on a descriptor of the directory,
 * with O_NOFOLLOW; none of them logs. */
#ifndef PU_AUTHCACHE_H
#define PU_AUTHCACHE_H

#include <stddef.h>
#include <stdint.h>

#define AUTHCACHE_USER_MAX 100 /* bytes of a user name that is cached */
#define AUTHCACHE_NAME_SIZE (2 + 2 * AUTHCACHE_USER_MAX + 1)

/* The cache file's name for user into name (size bytes, at least
 * AUTHCACHE_NAME_SIZE for any user). ERR_INVAL for a user name that is
 * empty or longer than AUTHCACHE_USER_MAX bytes (such a user is not
 * cached), or when size is too small. */
int authcache_name(const char *user, char *name, size_t size);

/* Replace user's entry with the len bytes at buf. ERR_OK, ERR_FILE
 * (errno kept; no temporary file is left), ERR_INVAL (the name),
 * ERR_RANDOM. */
int authcache_store(int dfd, const char *user, const char *buf, size_t len);

/* Delete user's entry (ERR_OK when there was none), then fsync the
 * directory. ERR_FILE (errno kept), ERR_INVAL. */
int authcache_remove(int dfd, const char *user);

/* Read user's entry: *buf (NUL after *len bytes, malloc'd, wipe with
 * util_freezero) and its modification time *mtime (seconds since the
 * epoch). ERR_NOT_FOUND when there is none; ERR_FILE_UNSAFE with *why
 * (static) when it is a symbolic link, not a regular file, not owned by
 * root, or open to group or others (any of mode 077); ERR_TOO_BIG above
 * max bytes; ERR_FILE (errno kept), ERR_INVAL, ERR_NOMEM. */
int authcache_load(int dfd, const char *user, size_t max, char **buf,
    size_t *len, int64_t *mtime, const char **why);

/* Is an entry written at mtime usable at now (both seconds since the
 * epoch) under maxage (seconds)? *age = now - mtime. ERR_OK when 0 <=
 * age <= maxage; ERR_TIMEOUT when older, and when mtime is later than
 * now (the clock went back, or the time was set by hand: the age is
 * unknown, so the entry is not used). */
int authcache_fresh(int64_t mtime, int64_t now, int64_t maxage, int64_t *age);

#endif
