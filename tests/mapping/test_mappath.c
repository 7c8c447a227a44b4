/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-user default mapping file and the user-file policy
 * (common/mapping/mappath.c), the rules the module and pamu2fcfg share. */
#include "config.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "mapping/mappath.h"
#include "test.h"

static void
default_paths(void)
{
	char *p = NULL, *base = NULL, *dir = NULL;
	bool used = true;

	T_EQ_ERR(
	    mappath_default("/home/a", NULL, false, &p, &used, &base, &dir),
	    ERR_OK);
	T_EQ_STR(p, "/home/a/.config/Yubico/u2f_keys");
	T_EQ_STR(base, "/home/a/.config");
	T_EQ_STR(dir, "/home/a/.config/Yubico");
	T_TRUE(!used);
	free(p);
	free(base);
	free(dir);
	T_EQ_ERR(
	    mappath_default("/home/a", "/x/cfg", false, &p, &used, NULL, NULL),
	    ERR_OK);
	T_EQ_STR(p, "/x/cfg/Yubico/u2f_keys");
	T_TRUE(used);
	free(p);
	/* a relative XDG_CONFIG_HOME is ignored, as pam-u2f does */
	T_EQ_ERR(
	    mappath_default("/home/a", "cfg", false, &p, &used, NULL, NULL),
	    ERR_OK);
	T_EQ_STR(p, "/home/a/.config/Yubico/u2f_keys");
	T_TRUE(!used);
	free(p);
	T_EQ_ERR(
	    mappath_default("/home/a", "/x/cfg", true, &p, &used, NULL, NULL),
	    ERR_OK);
	T_EQ_STR(p, "/home/a/.ssh/id_ecdsa_sk");
	free(p);
	T_EQ_ERR(mappath_default("home/a", NULL, false, &p, &used, NULL, NULL),
	    ERR_FILE);
	T_TRUE(p == NULL);
	T_EQ_ERR(mappath_default(NULL, NULL, false, &p, &used, NULL, NULL),
	    ERR_FILE);
}

static void
user_policy(void)
{
	char name[] = "nosuchuser-mappath";
	struct safefile_policy pol;
	struct passwd pw;
	const char *note = "x";

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = name;
	pw.pw_uid = 4242;
	pw.pw_gid = 4242;
	mappath_user_policy(&pw, true, &pol, &note);
	T_EQ_INT(pol.owner, 4242);
	T_EQ_INT(pol.max_size, MAPPATH_USER_MAX);
	T_EQ_INT(pol.follow_own, 1);
	T_TRUE(pol.note == &note);
	/* no such user or group: not alone, fail closed */
	T_TRUE(pol.group_alone != NULL && pol.group_arg == &pw);
	T_TRUE(!pol.group_alone(pol.group_arg, 4242));
	T_TRUE(!pol.group_alone(pol.group_arg, 4243));
	mappath_user_policy(&pw, false, &pol, NULL);
	T_EQ_INT(pol.follow_own, 0);
}

TEST_MAIN(TEST(default_paths), TEST(user_policy))
