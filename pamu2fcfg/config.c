/* SPDX-License-Identifier: BSD-2-Clause */
/* The module's configuration file (pam_u2f.conf) as pamu2fcfg's
 * defaults, so enrollment and login agree: the keys of the options table
 * marked CONF_IN_TOOL (origin, appid, authfile, expand, timeout,
 * devices), and authcmd's keys for --check. Command-line options win
 * over the file. */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/err.h"
#include "tool.h"

/* What --check needs to read credentials as the module would: authcmd,
 * authcmd_user and authcmd_timeout, from the file only (they are not
 * pamu2fcfg options), moved from c into o->cf. */
static void
config_authcmd(struct tool_opts *o, struct conf *c)
{
	if (conf_isset(c, CONF_AUTHCMD)) {
		free(o->cf.authcmd);
		o->cf.authcmd = c->authcmd;
		c->authcmd = NULL;
		conf_mark(&o->cf, CONF_AUTHCMD);
	}
	if (conf_isset(c, CONF_AUTHCMD_USER)) {
		free(o->cf.authcmd_user);
		o->cf.authcmd_user = c->authcmd_user;
		c->authcmd_user = NULL;
		conf_mark(&o->cf, CONF_AUTHCMD_USER);
	}
	o->cf.authcmd_timeout = conf_isset(c, CONF_AUTHCMD_TIMEOUT)
	    ? c->authcmd_timeout
	    : CONF_AUTHCMD_TIMEOUT_DEFAULT;
}

/* Load the file (o->cf.conf, or the default one if it exists) and fill
 * what the command line left unset, key by key of the options table:
 * those pamu2fcfg takes (CONF_IN_TOOL). */
int
config_apply(struct tool_opts *o)
{
	struct conf c;
	char err[512];
	int r;

	r = conf_load(o->cf.conf, o->cf.conf != NULL, &c, err, sizeof(err));
	if (r != ERR_OK) {
		tool_msg("%s", err[0] != '\0' ? err : err_str(r));
		goto fail;
	}
	/* The command line over the file, then all of it back. */
	conf_merge(&c, &o->cf, CONF_IN_TOOL);
	conf_merge(&o->cf, &c, CONF_IN_TOOL);
	config_authcmd(o, &c);
	o->cf.policy = c.policy; /* the policy section: the file's only */
	c.policy = NULL;
fail:
	conf_free(&c);
	return r;
}

/* The configured authfile for o->user: absolute as it is, relative under
 * the user's home. ERR_NOT_FOUND if the file names none. */
int
config_authfile(const struct tool_opts *o, char **path)
{
	const char *a = o->cf.authfile;
	struct passwd *pw;

	*path = NULL;
	if (a == NULL || *a == '\0')
		return ERR_NOT_FOUND;
	if (o->cf.expand && strchr(a, '%') != NULL) {
		tool_msg("the configured authfile %s uses %%-expansion; name "
			 "the FILE",
		    a);
		return ERR_CONFIG;
	}
	if (a[0] == '/')
		return (*path = strdup(a)) == NULL ? ERR_NOMEM : ERR_OK;
	if ((pw = getpwnam(o->user)) == NULL || pw->pw_dir == NULL ||
	    pw->pw_dir[0] != '/') {
		tool_msg("no home folder for %s; name the FILE", o->user);
		return ERR_CONFIG;
	}
	if (asprintf(path, "%s/%s", pw->pw_dir, a) < 0) {
		*path = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}
