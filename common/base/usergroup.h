/* SPDX-License-Identifier: BSD-2-Clause */
/* The user's private group (Debian's USERGROUPS: a group of one, named
 * after the user): a per-user mapping file (and the folders on its path)
 * writable by it is accepted with a warning, as pam-u2f 1.3.2 and later
 * do (the module, and pamu2fcfg --list/--check on the user's own file),
 * but only when the user is provably that group's only member. */
#ifndef PU_USERGROUP_H
#define PU_USERGROUP_H

#include <pwd.h>
#include <stdbool.h>
#include <sys/types.h>

/* Is gid pw's private group, and pw its only member? All of:
 * - gid is pw's primary group, and its group entry is named pw->pw_name;
 * - a walk of the whole group database (setgrent/getgrent_r through
 *   NSS) shows that entry, and no entry with this gid (a second entry
 *   with the same number included) lists a member other than pw;
 * - a walk of the whole passwd database (setpwent/getpwent_r) shows
 *   pw's own entry, and no other account (another name or uid) has gid
 *   as its primary group (such members are never listed in gr_mem).
 * false when any of it fails or cannot be looked up (fail closed: the
 * file is then refused). A source that does not enumerate (SSSD with
 * enumerate = false, its default) hides its accounts from the walks:
 * when pw itself comes from such a source the walk does not show pw and
 * the answer is false; accounts of another such source than pw's cannot
 * be seen at all (documented in pam_u2f(8)). The walks use the
 * process's one NSS enumeration position; our own calls are serialized,
 * but a thread of the host that enumerates at the same moment could
 * hide entries from us. Walks every entry: for a group-writable file
 * only. */
bool usergroup_alone(const struct passwd *pw, gid_t gid);

#endif
