/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: the user's credentials from a command (common/mapping/
 * authcmd.h runs it, authcmd_output.h reads its output), instead of a mapping
 * file. Logs name the command and the reason, never its output. */
#ifndef PU_CMDSOURCE_H
#define PU_CMDSOURCE_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>

#include "args.h"
#include "base/cred.h"
#include "debug.h"

/* Told to the user (PAM_ERROR_MSG) when authcmd_user names no account;
 * %s the name. */
#define CMDSOURCE_MSG_NO_USER                                                  \
	"The security key check is not set up: its account %s "                \
	"(authcmd_user) does not exist. Ask an administrator to create it."

/* Run o->authcmd for pw as o->authcmd_user, within o->authcmd_timeout
 * seconds. ERR_OK with the credentials; ERR_NOT_FOUND (*no_creds =
 * true) when it exited 0 without any for pw; ERR_UNAVAIL (another exit
 * status, a signal, the deadline, too much output), ERR_FILE_UNSAFE or
 * ERR_FILE (the command's path), ERR_PARSE (its output), ERR_CONFIG
 * (authcmd_user unknown (logged and told, naming it) or root, a bad
 * command line), ERR_SYSTEM (it could not be started: authcmd.h),
 * ERR_NOMEM. With o->authcmd_cache (cmdcache.h): ERR_CONFIG when its
 * directory is missing or unsafe (the command does not run); an
 * ERR_OK or ERR_NOT_FOUND answer is stored or deletes the entry; when
 * the command exited with status 1 (its source unreachable: the only
 * failure answered from the cache) a fresh entry gives ERR_OK with its
 * credentials, and otherwise ERR_UNAVAIL stands. */
int cmdsource_load(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct cred **creds, size_t *n, bool *no_creds);

/* Run o->authcmd for pw as cmdsource_load does, without authcmd_cache,
 * and give its output whole (remote=agent reads it as authorized_keys
 * lines): *out, *len, to free with util_freezero. Errors as
 * cmdsource_load's (never ERR_NOT_FOUND: the output is the caller's to
 * read). */
int cmdsource_output(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, char **out, size_t *len);

#endif
