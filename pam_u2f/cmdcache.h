/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd_cache=: the module's use of the offline cache of authcmd=
 * answers (common/mapping/authcache.h keeps the files). Only root uses
 * it: a process that is not root (a screen locker) neither reads nor
 * writes it. Logs name the directory, the user and the reason, never
 * the contents. */
#ifndef PU_CMDCACHE_H
#define PU_CMDCACHE_H

#include <stddef.h>

#include "args.h"
#include "base/cred.h"
#include "debug.h"

/* Told to the user (PAM_ERROR_MSG) when the authcmd_cache= directory
 * does not exist; %s the directory. */
#define CMDCACHE_MSG_MISSING                                                   \
	"The security key check is not set up: its cache directory %s "        \
	"(authcmd_cache) does not exist. Ask an administrator to create it."

/* The cache directory of o, checked from "/" (authcmd_open_dir): *dfd
 * its descriptor, or -1 when there is no authcmd_cache= or the process
 * is not root (logged). ERR_CONFIG (logged) when it is missing (also
 * told to the user, naming it), unsafe or not a directory. */
int cmdcache_open(const struct options *o, const struct debug *dbg, int *dfd);

/* After an authoritative answer for user: r ERR_OK stores the len bytes
 * of out (the output that gave the credentials), r ERR_NOT_FOUND (no
 * credentials) deletes the entry. A failure is logged, and changes
 * nothing for the login; a store that fails deletes the older entry
 * (logged too), so that it cannot answer later. Does nothing when dfd
 * is -1. */
void cmdcache_save(int dfd, const char *user, int r, const char *out,
    size_t len, const struct debug *dbg);

/* The command gave no answer: the user's credentials from an entry no
 * older than o->authcmd_cache_maxage seconds, read by the same parser
 * (authcmd_output.h). ERR_OK with the list; ERR_UNAVAIL (logged) when dfd is
 * -1, there is no entry, it is too old, unsafe, unreadable or does not
 * give any credential for the user. Never ERR_NOT_FOUND. */
int cmdcache_use(int dfd, const struct options *o, const char *user,
    const struct debug *dbg, struct cred **creds, size_t *n);

#endif
