/* SPDX-License-Identifier: BSD-2-Clause */
/* Is a group the user's alone? Looks at the user's group entry, then
 * walks the whole group and passwd databases through NSS, as Debian's
 * OpenSSH patch for the same allowance does (and also for a second group
 * entry with the same number). Touches nothing but NSS. */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usergroup.h"

#define UG_BUF_MIN 16384
#define UG_BUF_MAX (1024 * 1024)

/* The process has one enumeration position per database: our own walks
 * (two PAM transactions in threads of one process) take turns. */
static pthread_mutex_t ug_lock = PTHREAD_MUTEX_INITIALIZER;

/* The result of one walk. */
enum ug_seen {
	UG_ERROR,   /* lookup failed, or an entry says "not alone" */
	UG_MISSING, /* done, but pw's own entry was not among them */
	UG_ALONE    /* done, pw's entry seen, no other member */
};

/* A passwd entry: another account with gid as its primary group? */
static enum ug_seen
ug_pw_entry(const void *ent, const struct passwd *pw, gid_t gid)
{
	const struct passwd *e = ent;
	bool self =
	    strcmp(e->pw_name, pw->pw_name) == 0 && e->pw_uid == pw->pw_uid;

	if (e->pw_gid != gid)
		return UG_MISSING;
	return self ? UG_ALONE : UG_ERROR;
}

/* A group entry with gid: only pw in its member list? The private group
 * itself (named after pw) counts as seen. */
static enum ug_seen
ug_gr_entry(const void *ent, const struct passwd *pw, gid_t gid)
{
	const struct group *e = ent;
	char **m;

	if (e->gr_gid != gid)
		return UG_MISSING;
	for (m = e->gr_mem; m != NULL && *m != NULL; m++)
		if (strcmp(*m, pw->pw_name) != 0)
			return UG_ERROR;
	return e->gr_name != NULL && strcmp(e->gr_name, pw->pw_name) == 0
	    ? UG_ALONE
	    : UG_MISSING;
}

static int
ug_getpw(void *ent, char *buf, size_t size, void **res)
{
	struct passwd *r = NULL;
	int e = getpwent_r(ent, buf, size, &r);

	*res = r;
	return e;
}

static int
ug_getgr(void *ent, char *buf, size_t size, void **res)
{
	struct group *r = NULL;
	int e = getgrent_r(ent, buf, size, &r);

	*res = r;
	return e;
}

/* One database: its enumeration and the test of one entry. */
struct ug_db {
	void (*set)(void);
	int (*get)(void *ent, char *buf, size_t size, void **res);
	void (*end)(void);
	enum ug_seen (*entry)(
	    const void *e, const struct passwd *pw, gid_t gid);
};

static const struct ug_db ug_passwd = {
    setpwent, ug_getpw, endpwent, ug_pw_entry};
static const struct ug_db ug_group = {
    setgrent, ug_getgr, endgrent, ug_gr_entry};

/* One full walk of db with a buffer of size bytes: ERANGE when an entry
 * did not fit (the caller starts over with a larger one). */
static int
ug_walk(const struct ug_db *db, const struct passwd *pw, gid_t gid, char *buf,
    size_t size, enum ug_seen *seen)
{
	union {
		struct passwd p;
		struct group g;
	} ent;
	enum ug_seen s;
	void *res;
	int r;

	*seen = UG_MISSING;
	db->set();
	for (;;) {
		res = NULL;
		r = db->get(&ent, buf, size, &res);
		if (r == ENOENT || (r == 0 && res == NULL))
			break;
		if (r != 0 || (s = db->entry(res, pw, gid)) == UG_ERROR) {
			*seen = UG_ERROR;
			break;
		}
		if (s == UG_ALONE)
			*seen = UG_ALONE;
	}
	db->end();
	return r == ERANGE ? ERANGE : 0;
}

/* Both walks, each repeated from the start with a larger buffer while an
 * entry does not fit. */
static bool
ug_walks(const struct passwd *pw, gid_t gid)
{
	enum ug_seen pws = UG_ERROR, grs = UG_ERROR;
	size_t size;
	char *buf;
	int r = ERANGE;

	for (size = UG_BUF_MIN; size <= UG_BUF_MAX && r == ERANGE; size *= 2) {
		if ((buf = malloc(size)) == NULL)
			return false;
		if ((r = ug_walk(&ug_group, pw, gid, buf, size, &grs)) == 0)
			r = ug_walk(&ug_passwd, pw, gid, buf, size, &pws);
		free(buf);
	}
	return r == 0 && grs == UG_ALONE && pws == UG_ALONE;
}

bool
usergroup_alone(const struct passwd *pw, gid_t gid)
{
	bool ok;

	if (pw == NULL || pw->pw_name == NULL || gid != pw->pw_gid)
		return false;
	if (pthread_mutex_lock(&ug_lock) != 0)
		return false;
	ok = ug_walks(pw, gid);
	(void)pthread_mutex_unlock(&ug_lock);
	return ok;
}
