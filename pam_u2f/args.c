/* SPDX-License-Identifier: BSD-2-Clause */
/* Module arguments, as pam-u2f names them, plus timeout=, devices=,
 * conf= and backend=: every one a row of the options table
 * (common/conf/opts.h), checked and stored by its setter, as the
 * configuration file's keys are. PAM's own "[key=value with spaces]" syntax
 * reaches us either with or without its brackets; both are accepted, and "\]"
 * inside stands for "]". */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "conf/conf.h"
#include "base/err.h"

#define ARGS_WHY_MAX 256

/* Moving every option between struct conf and struct options, which
 * both have the fields of the table (common/conf/opts.h). */
#define ARGS_MOVE_BOOL(d, s, f) (d)->f = (s)->f;
#define ARGS_MOVE_INT(d, s, f) (d)->f = (s)->f;
#define ARGS_MOVE_ENUM(d, s, f) (d)->f = (s)->f;
#define ARGS_MOVE_STR(d, s, f) (d)->f = (s)->f;
#define ARGS_MOVE_LIST(d, s, f)                                                \
	(d)->f = (s)->f;                                                       \
	(d)->n##f = (s)->n##f;
#define ARGS_X_MOVE(                                                           \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	ARGS_MOVE_##type(dst, src, field)

/* Every value of src into o (which owns them now); src is zeroed. */
static void
args_from_conf(struct options *dst, struct conf *src)
{
	CONF_OPTIONS(ARGS_X_MOVE)
	memset(src, 0, sizeof(*src));
}

/* And back, for args_free. */
static void
args_to_conf(struct conf *dst, struct options *src)
{
	memset(dst, 0, sizeof(*dst));
	CONF_OPTIONS(ARGS_X_MOVE)
}

/* Strip PAM's brackets and undo "\]". *out is malloc'd. */
static int
arg_unbracket(const char *arg, char **out)
{
	size_t len = strlen(arg), i, j;
	char *s = NULL;

	*out = NULL;
	if (arg[0] == '[') {
		if (len < 2 || arg[len - 1] != ']' ||
		    (len >= 3 && arg[len - 2] == '\\'))
			return ERR_CONFIG;
		arg++;
		len -= 2;
	}
	if ((s = malloc(len + 1)) == NULL)
		return ERR_NOMEM;
	for (i = 0, j = 0; i < len; i++) {
		if (arg[i] == '\\' && i + 1 < len && arg[i + 1] == ']')
			i++;
		s[j++] = arg[i];
	}
	s[j] = '\0';
	*out = s;
	return ERR_OK;
}

/* One argument, name=value or a bare boolean name, into a (the
 * arguments' own struct conf) through the table's setter; a refusal is
 * one line with the argument and the setter's reason. */
static int
arg_one(struct conf *a, const char *raw, const struct log *errlog)
{
	char *arg = NULL, *eq, why[ARGS_WHY_MAX] = "";
	enum conf_key k;
	int r;

	if ((r = arg_unbracket(raw, &arg)) != ERR_OK)
		goto fail;
	eq = strchr(arg, '=');
	k = conf_opt_find(arg, eq != NULL ? (size_t)(eq - arg) : strlen(arg));
	r = ERR_CONFIG;
	if (k == CONF_NOPTS || (conf_opt(k)->where & CONF_IN_MODULE) == 0)
		goto fail;
	r = conf_opt_set(
	    a, k, CONF_SRC_ARG, eq != NULL ? eq + 1 : NULL, why, sizeof(why));
fail:
	if (r == ERR_CONFIG)
		log_msg(errlog, "invalid module argument \"%s\"%s%s", raw,
		    why[0] != '\0' ? ": " : "", why);
	free(arg);
	return r;
}

/* The configuration file: conf=PATH among the arguments (at most one),
 * else (*path NULL) the default file, which may be absent. */
/* "conf=" with a non-empty value. */
static bool
arg_is_conf(const char *arg)
{
	return strlen(arg) > 5 && memcmp(arg, "conf=", 5) == 0;
}

static int
args_conf_path(
    int argc, const char **argv, char **path, const struct log *errlog)
{
	char *arg = NULL;
	int i, r = ERR_OK;

	*path = NULL;
	for (i = 0; i < argc && r == ERR_OK; i++) {
		/* Malformed arguments are the main loop's to report. */
		if (argv[i] == NULL ||
		    (r = arg_unbracket(argv[i], &arg)) != ERR_OK) {
			r = r == ERR_NOMEM ? r : ERR_OK;
			continue;
		}
		if (!arg_is_conf(arg)) {
			free(arg);
			arg = NULL;
			continue;
		}
		if (*path != NULL) {
			log_msg(errlog,
			    "invalid module argument \"%s\": "
			    "conf= given twice",
			    argv[i]);
			r = ERR_CONFIG;
		} else if ((*path = strdup(arg + 5)) == NULL)
			r = ERR_NOMEM;
		free(arg);
		arg = NULL;
	}
	if (r != ERR_OK) {
		free(*path);
		*path = NULL;
	}
	return r;
}

/* Load the file into c. Any problem is one logged line and ERR_CONFIG (a
 * missing conf= file too; never a fallback to defaults). */
static int
args_conf(int argc, const char **argv, struct conf *c, const struct log *errlog)
{
	char *path = NULL, err[512];
	int r;

	memset(c, 0, sizeof(*c));
	if ((r = args_conf_path(argc, argv, &path, errlog)) != ERR_OK)
		return r;
	r = conf_load(path, path != NULL, c, err, sizeof(err));
	free(path);
	if (r == ERR_NOMEM)
		return r;
	if (r != ERR_OK) {
		log_msg(errlog, "%s", err[0] != '\0' ? err : err_str(r));
		return ERR_CONFIG;
	}
	return ERR_OK;
}

/* Defaults that depend on other arguments. */
static int
args_finish(struct options *o, const struct log *errlog)
{
	char host[HOST_NAME_MAX + 1];
	size_t len;

	if (o->sshformat && o->origin != NULL &&
	    strcmp(o->origin, ARGS_SSH_ORIGIN) != 0) {
		log_msg(errlog, "sshformat needs origin=%s", ARGS_SSH_ORIGIN);
		return ERR_CONFIG;
	}
	if (o->origin == NULL && o->sshformat)
		o->origin = strdup(ARGS_SSH_ORIGIN);
	else if (o->origin == NULL) {
		if (gethostname(host, sizeof(host)) != 0) {
			log_msg(errlog, "gethostname: %s", strerror(errno));
			return ERR_SYSTEM;
		}
		host[sizeof(host) - 1] = '\0';
		len = strlen("pam://") + strlen(host) + 1;
		if ((o->origin = malloc(len)) != NULL)
			snprintf(o->origin, len, "pam://%s", host);
	}
	if (o->appid == NULL && o->origin != NULL)
		o->appid = strdup(o->origin);
	if (o->origin == NULL || o->appid == NULL)
		return ERR_NOMEM;
	return ERR_OK;
}

/* backend= names one of the table's values; is it built in? */
static int
args_backend(struct options *o, const struct log *errlog)
{
	const char *name = conf_opt_value(CONF_BACKEND, o->backend);
	enum dev_backend b = DEV_BACKEND_NATIVE;
	int r = dev_backend_parse(name != NULL ? name : "", &b);

	if (r == ERR_UNSUPPORTED)
		log_msg(errlog,
		    "backend=%s: not built in "
		    "(./configure --with-libu2f-host)",
		    name);
	o->backend = (int)b;
	return r == ERR_OK ? ERR_OK : ERR_CONFIG;
}

/* defaults < the file < the arguments, into o. */
static int
args_merge(struct options *o, struct conf *file, struct conf *arg)
{
	int r;

	conf_merge(file, arg, CONF_IN_MODULE);
	if ((r = conf_defaults(file)) != ERR_OK)
		return r == ERR_NOMEM ? r : ERR_SYSTEM;
	o->authpending_set = conf_isset(file, CONF_AUTHPENDING_FILE);
	args_from_conf(o, file);
	return ERR_OK;
}

/* authcmd= replaces the mapping file: its options are errors beside it. */
static int
args_authcmd(const struct options *o, const struct log *errlog)
{
	const char *clash = o->authfile != NULL ? "authfile"
	    : o->sshformat                      ? "sshformat"
	    : o->expand                         ? "expand"
	    : o->openasuser                     ? "openasuser"
						: NULL;

	if (o->authcmd == NULL && o->authcmd_cache != NULL) {
		log_msg(errlog, "authcmd_cache= needs authcmd=");
		return ERR_CONFIG;
	}
	if (o->authcmd == NULL)
		return ERR_OK;
	if (clash != NULL) {
		log_msg(errlog,
		    "authcmd= replaces the mapping file: %s cannot be "
		    "given with it",
		    clash);
		return ERR_CONFIG;
	}
	if (o->authcmd_user == NULL) {
		log_msg(errlog, "authcmd= needs authcmd_user=");
		return ERR_CONFIG;
	}
	return ERR_OK;
}

/* What depends on more than one argument. */
static int
args_check(struct options *o, const struct log *errlog)
{
	if (args_authcmd(o, errlog) != ERR_OK)
		return ERR_CONFIG;
	if (o->backend != DEV_BACKEND_NATIVE && o->ndevices > 0) {
		log_msg(errlog,
		    "devices= needs backend=native "
		    "(libu2f-host finds keys itself)");
		return ERR_CONFIG;
	}
	return args_finish(o, errlog);
}

int
args_parse(
    struct options *o, int argc, const char **argv, const struct log *errlog)
{
	struct conf file, arg;
	int i, r, first;

	memset(o, 0, sizeof(*o));
	memset(&file, 0, sizeof(file));
	memset(&arg, 0, sizeof(arg));
	if (argc < 0 || (argc > 0 && argv == NULL))
		return ERR_INVAL;
	/* A bad file still lets the arguments be read, so that debug
	 * reaches its sink. */
	if ((first = args_conf(argc, argv, &file, errlog)) == ERR_NOMEM) {
		r = first;
		goto fail;
	}
	/* Report every bad argument, not just the first. */
	for (i = 0; i < argc; i++) {
		if (argv[i] != NULL)
			r = arg_one(&arg, argv[i], errlog);
		else {
			log_msg(errlog, "module argument %d is NULL", i + 1);
			r = ERR_CONFIG;
		}
		if (r == ERR_NOMEM)
			goto fail;
		if (r != ERR_OK && first == ERR_OK)
			first = r;
	}
	o->conf_found = file.found; /* args_merge empties file */
	o->policy = file.policy;
	file.policy = NULL;
	if ((r = args_merge(o, &file, &arg)) != ERR_OK)
		goto fail;
	if ((r = args_backend(o, errlog)) == ERR_OK)
		r = first;
	if (r == ERR_OK)
		r = args_check(o, errlog);
fail:
	conf_free(&file);
	conf_free(&arg);
	return r;
}

void
args_free(struct options *o)
{
	struct conf c;

	if (o == NULL)
		return;
	args_to_conf(&c, o);
	c.policy = o->policy;
	conf_free(&c);
	memset(o, 0, sizeof(*o));
}

bool
args_presence(const struct options *o)
{
	return o->userpresence != 0;
}
