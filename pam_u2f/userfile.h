/* SPDX-License-Identifier: BSD-2-Clause */
/* Finding and reading the user's credentials: which file (authfile=,
 * expand, XDG_CONFIG_HOME, ~/.config/Yubico/u2f_keys, sshformat), read
 * safely (with the user's privileges when the user controls the file),
 * then the user's line. Logs name the file and the reason, never its
 * contents. */
#ifndef PU_USERFILE_H
#define PU_USERFILE_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>

#include "args.h"
#include "base/cred.h"
#include "debug.h"
#include "retval.h"

#define USERFILE_CENTRAL_MAX (256 * 1024 * 1024) /* central file cap */

struct userfile {
	char *path;         /* the file chosen */
	bool user_file;     /* the user's own: may be owned by the user,
			     * per-user size cap */
	bool drop;          /* read with the user's privileges */
	const char *source; /* why this file, for the log (static) */
	bool missing;       /* it does not exist (ENOENT) */
};

/* Choose the file. ERR_CONFIG for a bad expand= pattern. */
int userfile_path(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf);
/* Load pw's credentials from the file userfile_path chooses (left in
 * *uf, even on failure: userfile_clear it). ERR_NOT_FOUND only when the
 * file does not exist (*what = RETVAL_NO_FILE), or has no line for the
 * user or the line has no credentials (RETVAL_NO_CREDS); a per-user file
 * whose lines without a colon were skipped is malformed instead
 * (ERR_PARSE), never "no line". Other errors: *what = RETVAL_MAPFILE
 * (ERR_SYSTEM if privileges could not be restored); ERR_OK:
 * RETVAL_OTHER. */
int userfile_load(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf, struct cred **creds,
    size_t *n, enum retval_what *what);
void userfile_clear(struct userfile *uf);
/* The whole file userfile_path chooses (left in *uf), read as
 * userfile_load reads it (privileges, owner and mode checks, size cap),
 * for a parser of another line form (remote=agent's @ssh-sk lines).
 * ERR_NOT_FOUND (uf->missing) when it does not exist; other errors as
 * userfile_load's, logged. *buf is NUL-terminated; free it with
 * util_freezero(*buf, *len). */
int userfile_read_whole(const struct options *o, const struct passwd *pw,
    const struct debug *dbg, struct userfile *uf, char **buf, size_t *len);

#endif
