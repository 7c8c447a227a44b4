/* The user's private group (Debian's USERGROUPS: a group of one, named
 * after the user): a per-user mapping file writable by it is accepted
 * with a warning, as pam-u2f 1.3.2 and later do (the module, and
 * pamu2fcfg --list/--check on the user's own file). */
#ifndef PU_USERGROUP_H
#define PU_USERGROUP_H

#include <pwd.h>
#include <stdbool.h>
#include <sys/types.h>

/* Is pw's primary group pw's private group: named pw->pw_name, with no
 * listed member but pw itself? Then *gid is its id. false when it is not,
 * or cannot be looked up (fail closed: the file is then refused).
 * Members who have the group only as their own primary group are not
 * listed in the group database and cannot be seen without walking every
 * user; we do not. */
bool usergroup_private(const struct passwd *pw, gid_t *gid);

#endif
