#include "config.h"

#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usergroup.h"

#define UG_BUF_MIN 1024
#define UG_BUF_MAX (1024 * 1024)

static bool
usergroup_is_private(const struct group *g, const struct passwd *pw)
{
	char **m;

	if (g->gr_name == NULL || strcmp(g->gr_name, pw->pw_name) != 0)
		return false;
	for (m = g->gr_mem; m != NULL && *m != NULL; m++)
		if (strcmp(*m, pw->pw_name) != 0)
			return false;
	return true;
}

bool
usergroup_private(const struct passwd *pw, gid_t *gid)
{
	struct group g, *res = NULL;
	char *buf = NULL;
	size_t size;
	bool ok = false;
	int e = ERANGE;

	for (size = UG_BUF_MIN; size <= UG_BUF_MAX && e == ERANGE; size *= 2) {
		free(buf);
		if ((buf = malloc(size)) == NULL)
			return false;
		e = getgrgid_r(pw->pw_gid, &g, buf, size, &res);
	}
	if (e == 0 && res != NULL && usergroup_is_private(res, pw)) {
		*gid = res->gr_gid;
		ok = true;
	}
	free(buf);
	return ok;
}
