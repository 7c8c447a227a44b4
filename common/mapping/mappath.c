/* SPDX-License-Identifier: BSD-2-Clause */
/* The mapping file's default path and the user-file reading policy. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/usergroup.h"
#include "mappath.h"

static int
mappath_join(char **out, const char *a, const char *b)
{
	if (asprintf(out, "%s/%s", a, b) < 0) {
		*out = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}

int
mappath_default(const char *home, const char *xdg, bool ssh, char **out,
    bool *used_xdg, char **base_dir, char **dir)
{
	char *base = NULL, *yubico = NULL;
	int r;

	*out = NULL;
	*used_xdg = false;
	if (home == NULL || home[0] != '/')
		return ERR_FILE;
	if (ssh)
		return mappath_join(out, home, MAPPATH_SSH);
	if (xdg != NULL && xdg[0] == '/') {
		*used_xdg = true;
		r = (base = strdup(xdg)) == NULL ? ERR_NOMEM : ERR_OK;
	} else
		r = mappath_join(&base, home, ".config");
	if (r != ERR_OK ||
	    (r = mappath_join(&yubico, base, MAPPATH_DIR)) != ERR_OK ||
	    (r = mappath_join(out, yubico, MAPPATH_NAME)) != ERR_OK)
		goto fail;
	if (base_dir != NULL) {
		*base_dir = base;
		base = NULL;
	}
	if (dir != NULL) {
		*dir = yubico;
		yubico = NULL;
	}
fail:
	free(base);
	free(yubico);
	return r;
}

/* safefile's group_alone: arg is the user's passwd entry. */
static bool
mappath_group_alone(const void *arg, gid_t gid)
{
	return usergroup_alone(arg, gid);
}

void
mappath_user_policy(const struct passwd *pw, bool follow,
    struct safefile_policy *pol, const char **note)
{
	memset(pol, 0, sizeof(*pol));
	pol->owner = pw->pw_uid;
	pol->max_size = MAPPATH_USER_MAX;
	pol->note = note;
	pol->follow_own = follow;
	pol->group_alone = mappath_group_alone;
	pol->group_arg = pw;
}
