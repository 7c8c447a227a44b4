/* SPDX-License-Identifier: BSD-2-Clause */
/* Which unix: device sockets may be trusted. A process that can bind the
 * socket a unix: device path names is the "security key": the module must
 * not talk to a socket a user could have put there. */
#ifndef PU_UNIXPATH_H
#define PU_UNIXPATH_H

#include <stddef.h>
#include <sys/types.h>

/* Resolve path (absolute; symbolic links followed once, by realpath) into
 * out (cap bytes, the size of sun_path) and check what the resolved path
 * names: a socket, and every directory from / down to it, each owned by
 * root or by owner (the caller passes its effective uid), and no
 * directory writable by group or others unless it is sticky (like /tmp:
 * nobody else can rename or remove what is in it). The socket's own mode
 * is not checked: it says who may connect, not who may replace it.
 * ERR_OK; ERR_INVAL for a relative or too long path; ERR_NODEV when it
 * does not exist; ERR_PERM when it cannot be looked up; ERR_FILE_UNSAFE
 * for a wrong type, owner or mode. */
int unixpath_resolve(const char *path, uid_t owner, char *out, size_t cap);

#endif
