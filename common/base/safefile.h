/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading files that someone else may control, without being fooled:
 * O_NOFOLLOW|O_CLOEXEC|O_NOCTTY|O_NONBLOCK, then fstat: a regular file,
 * owned by root or by the allowed owner, not group- or world-writable,
 * no larger than max_size. */
#ifndef PU_SAFEFILE_H
#define PU_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct safefile_policy {
	uid_t owner;     /* allowed owner besides root */
	size_t max_size; /* ERR_TOO_BIG above this */
	/* The rest only for a user's own file, read with the user's
	 * privileges (pam-u2f 1.4 compatibility); zero for the strict
	 * rules above. follow_own: a symbolic link (last component) is
	 * followed, but only to a regular file owned by `owner` itself
	 * (not root). group_alone, if set: asked only for a group-writable
	 * file, with the file's group; true accepts the group write (the
	 * group is the user's alone: usergroup_alone), false refuses the
	 * file (SAFEFILE_WHY_GROUP). Not set: group-writable is refused.
	 * World-writable never is accepted. note, if not NULL: set on
	 * success to NULL or to a warning for the log (a static string:
	 * SAFEFILE_NOTE_*). */
	int follow_own;
	bool (*group_alone)(const void *arg, gid_t gid);
	const void *group_arg;
	const char **note;
};
#define SAFEFILE_WHY_GROUP                                                     \
	"is group-writable, and its group is not a private group of the "      \
	"user alone (chmod g-w it)"
#define SAFEFILE_NOTE_LINK "is a symbolic link to a file of the user"
#define SAFEFILE_NOTE_GROUP "is writable by the user's private group"
#define SAFEFILE_NOTE_BOTH                                                     \
	"is a symbolic link to a file of the user, writable by the "           \
	"user's private group"

/* Read the whole file into a NUL-terminated malloc'd buffer.
 * ERR_FILE (with errno kept) when it cannot be opened (ENOENT -> the
 * caller may decide "no file"), ERR_FILE_UNSAFE with a reason in *why
 * (a static string) for type/owner/mode problems, ERR_TOO_BIG. */
/* *why (why may be NULL) is NULL or one of "is a symbolic link", "is not
 * a regular file", "is owned by another user", "is group- or
 * world-writable", "is too large", "is a symbolic link to a file of
 * another user" (follow_own), SAFEFILE_WHY_GROUP (group_alone). A file that
 * grows past max_size while being read is ERR_TOO_BIG. O_NOFOLLOW covers the
 * last path component only: callers reading a user's file drop privileges first
 * (and must have, to set follow_own). *buf is malloc'd (free it; contents are
 * wiped when we reallocate). */
int safefile_read(const char *path, const struct safefile_policy *pol,
    char **buf, size_t *len, const char **why);

/* The checks of safefile_read without the reading, for a caller that
 * needs the file's status too (pamu2fcfg keeps a rewritten mapping
 * file's mode and owner). ERR_OK: *fd is the open file (close it) and
 * *st its fstat; otherwise *fd is -1, errors, errno and *why as
 * safefile_read, and *st is what fstat saw (zeroed when nothing was
 * opened). */
struct stat;
int safefile_open(const char *path, const struct safefile_policy *pol, int *fd,
    struct stat *st, const char **why);

/* Read an open fd to its end into a NUL-terminated malloc'd *out
 * (*outlen bytes; size: the expected size, a hint), wiping what it
 * reallocates: more than max bytes is ERR_TOO_BIG, a read error ERR_FILE
 * (errno kept), ERR_NOMEM. No checks: for callers that made their own. */
int safefile_read_fd(
    int fd, size_t size, size_t max, char **out, size_t *outlen);

/* The same checks, then the file in pieces of whole lines, in order:
 * fn(arg, buf, len) for each, with buf[len] == '\0' (only the last piece
 * may lack its final '\n'; an empty file makes no call). A return other
 * than ERR_OK from fn stops the reading and is returned. Lines of any
 * length: the buffer is one chunk, or grows for a longer line, never
 * past max_size + 2 bytes. A file that grows past max_size while being
 * read is ERR_TOO_BIG ("is too large"), after fn has seen its first
 * pieces: fn's results count only when this returns ERR_OK. The buffer is wiped
 * when the file is not world-readable. Errors and *why as safefile_read. */
#define SAFEFILE_CHUNK (64 * 1024)
typedef int (*safefile_lines_fn)(void *arg, const char *buf, size_t len);
int safefile_read_lines(const char *path, const struct safefile_policy *pol,
    safefile_lines_fn fn, void *arg, const char **why);
/* The same, reading chunk bytes at a time (tests use tiny chunks). */
int safefile_read_lines_chunk(const char *path,
    const struct safefile_policy *pol, size_t chunk, safefile_lines_fn fn,
    void *arg, const char **why);

#endif
