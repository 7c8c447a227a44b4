/* The module's configuration file (pam_u2f.conf) as pamu2fcfg's
 * defaults, so enrollment and login agree: origin, appid, authfile,
 * timeout and devices. Command-line options win over the file. */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/err.h"
#include "tool.h"

static void
take_str(char **dst, char **src)
{
	if (*dst == NULL && *src != NULL) {
		*dst = *src;
		*src = NULL;
	}
}

static void
take_devices(struct tool_opts *o, struct conf *c)
{
	if (o->ndevices > 0 || c->ndevices == 0)
		return;
	o->devices = c->devices;
	o->ndevices = c->ndevices;
	c->devices = NULL;
	c->ndevices = 0;
}

/* Load the file (o->conf_path, or the default one if it exists) and fill
 * what the command line left unset. */
int
config_apply(struct tool_opts *o)
{
	struct conf c;
	char err[512];
	int r;

	r = conf_load(o->conf_path, o->conf_path != NULL, &c, err, sizeof(err));
	if (r != ERR_OK) {
		tool_msg("%s", err[0] != '\0' ? err : err_str(r));
		goto fail;
	}
	if (conf_isset(&c, CONF_ORIGIN))
		take_str(&o->origin, &c.origin);
	if (conf_isset(&c, CONF_APPID))
		take_str(&o->appid, &c.appid);
	if (conf_isset(&c, CONF_AUTHFILE)) {
		take_str(&o->conf_authfile, &c.authfile);
		o->conf_expand = conf_isset(&c, CONF_EXPAND) && c.expand;
	}
	if (conf_isset(&c, CONF_TIMEOUT) && !o->timeout_set)
		o->timeout_s = c.timeout;
	if (conf_isset(&c, CONF_DEVICES))
		take_devices(o, &c);
fail:
	conf_free(&c);
	return r;
}

/* The configured authfile for o->user: absolute as it is, relative under
 * the user's home. ERR_NOT_FOUND if the file names none. */
int
config_authfile(const struct tool_opts *o, char **path)
{
	const char *a = o->conf_authfile;
	struct passwd *pw;

	*path = NULL;
	if (a == NULL || *a == '\0')
		return ERR_NOT_FOUND;
	if (o->conf_expand && strchr(a, '%') != NULL) {
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
