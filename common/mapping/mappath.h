/* SPDX-License-Identifier: BSD-2-Clause */
/* Where a user's credentials are, and how a user's own file is read: the
 * rules the module and pamu2fcfg share (pam-u2f's, kept as they are). */
#ifndef PU_MAPPATH_H
#define PU_MAPPATH_H

#include <pwd.h>
#include <stdbool.h>

#include "base/safefile.h"

#define MAPPATH_DIR "Yubico"
#define MAPPATH_NAME "u2f_keys"
#define MAPPATH_SSH ".ssh/id_ecdsa_sk"
#define MAPPATH_USER_MAX (1024 * 1024) /* a user's own file */

/* The per-user default mapping file: xdg/Yubico/u2f_keys when xdg (the
 * user's XDG_CONFIG_HOME; may be NULL) is absolute, else
 * home/.config/Yubico/u2f_keys; with ssh, home/.ssh/id_ecdsa_sk (an
 * OpenSSH security key file, sshformat). *used_xdg says whether xdg was
 * taken; a non-empty xdg that is not absolute is ignored, as pam-u2f
 * does. ERR_FILE when home is not absolute. dir, if not NULL, gets the
 * two folders above the file (".config" or xdg, then "Yubico") so that
 * a caller can create them. */
int mappath_default(const char *home, const char *xdg, bool ssh, char **out,
    bool *used_xdg, char **base_dir, char **dir);

/* The safefile policy for a user's own file read with the user's ids:
 * owned by pw, at most MAPPATH_USER_MAX bytes, and pam-u2f 1.4's two
 * allowances: a symbolic link to the user's own file (only while the
 * process runs as the user: follow) and group write by the user's
 * private group, when pw is provably its only member (usergroup_alone:
 * a walk of the passwd and group databases, done only for a
 * group-writable file). pw must outlive the policy. note gets the
 * warning to log, if any. */
void mappath_user_policy(const struct passwd *pw, bool follow,
    struct safefile_policy *pol, const char **note);

#endif
