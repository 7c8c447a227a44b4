/* Module arguments, as pam-u2f names them, plus timeout= and devices=.
 * PAM's own "[key=value with spaces]" syntax reaches us either with or
 * without its brackets; both are accepted, and "\]" inside stands for "]". */
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
#include "err.h"

enum arg_kind { ARG_FLAG, ARG_STRING, ARG_INT, ARG_TRI, ARG_SPECIAL };

struct arg_def {
	const char *name;
	enum arg_kind kind;
	size_t off;		/* offset of the field in struct options */
	long min, max;		/* ARG_INT range */
};

#define OFF(f) offsetof(struct options, f)

static const struct arg_def arg_table[] = {
	{ "debug", ARG_FLAG, OFF(debug), 0, 0 },
	{ "debug_file", ARG_STRING, OFF(debug_file), 0, 0 },
	{ "origin", ARG_STRING, OFF(origin), 0, 0 },
	{ "appid", ARG_STRING, OFF(appid), 0, 0 },
	{ "authfile", ARG_STRING, OFF(authfile), 0, 0 },
	{ "expand", ARG_FLAG, OFF(expand), 0, 0 },
	{ "authpending_file", ARG_SPECIAL, OFF(authpending_file), 0, 0 },
	{ "nouserok", ARG_FLAG, OFF(nouserok), 0, 0 },
	{ "openasuser", ARG_FLAG, OFF(openasuser), 0, 0 },
	{ "alwaysok", ARG_FLAG, OFF(alwaysok), 0, 0 },
	{ "max_devices", ARG_SPECIAL, OFF(max_devices), 0, 0 },
	{ "interactive", ARG_FLAG, OFF(interactive), 0, 0 },
	{ "prompt", ARG_STRING, OFF(prompt), 0, 0 },
	{ "manual", ARG_FLAG, OFF(manual), 0, 0 },
	{ "cue", ARG_FLAG, OFF(cue), 0, 0 },
	{ "cue_prompt", ARG_STRING, OFF(cue_prompt), 0, 0 },
	{ "nodetect", ARG_FLAG, OFF(nodetect), 0, 0 },
	{ "userpresence", ARG_TRI, OFF(userpresence), 0, 0 },
	{ "userverification", ARG_TRI, OFF(userverification), 0, 0 },
	{ "pinverification", ARG_TRI, OFF(pinverification), 0, 0 },
	{ "sshformat", ARG_FLAG, OFF(sshformat), 0, 0 },
	{ "conf", ARG_SPECIAL, OFF(conf), 0, 0 },
	{ "timeout", ARG_INT, OFF(timeout), 1, ARGS_TIMEOUT_MAX },
	{ "devices", ARG_SPECIAL, OFF(devices), 0, 0 },
};

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

static int
arg_long(const char *v, long min, long max, long *out)
{
	char *end = NULL;
	long n;

	if (v[0] == '\0' || (v[0] == ' ' || v[0] == '\t' || v[0] == '+'))
		return ERR_CONFIG;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < min || n > max)
		return ERR_CONFIG;
	*out = n;
	return ERR_OK;
}

static int
arg_devices(struct options *o, const char *v)
{
	const char *p = v, *comma;
	size_t n = 1, len;
	int r;

	for (comma = v; (comma = strchr(comma, ',')) != NULL; comma++)
		n++;
	if (o->devices != NULL || n > ARGS_MAX_DEVICES_MAX)
		return ERR_CONFIG;
	if ((o->devices = calloc(n, sizeof(*o->devices))) == NULL)
		return ERR_NOMEM;
	for (; o->ndevices < n; p = comma + 1) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || !(p[0] == '/' || strncmp(p, "unix:/", 6) == 0))
			return ERR_CONFIG;
		if ((o->devices[o->ndevices] = strndup(p, len)) == NULL)
			return ERR_NOMEM;
		o->ndevices++;
		if (comma == NULL)
			break;
	}
	r = o->ndevices == n ? ERR_OK : ERR_CONFIG;
	return r;
}

/* conf= is accepted by name but configuration files are a later feature:
 * it is an error either way, with the reason logged. */
static int
arg_conf(const char *v, const struct log *errlog)
{
	struct stat st;

	if (stat(v, &st) != 0)
		log_msg(errlog, "conf=%s: %s", v, strerror(errno));
	else
		log_msg(errlog, "conf=%s: configuration files are not "
		    "supported yet", v);
	return ERR_CONFIG;
}

static int
arg_special(struct options *o, const struct arg_def *d, char *v,
    const struct log *errlog)
{
	long n = 0;
	int r;

	if (strcmp(d->name, "authpending_file") == 0) {
		/* An empty value is allowed: it disables the file. */
		free(o->authpending_file);
		o->authpending_file = v;
		o->authpending_set = true;
		return ERR_OK;
	}
	if (v[0] == '\0')
		r = ERR_CONFIG;
	else if (strcmp(d->name, "max_devices") == 0) {
		/* 0 means the default, as in pam-u2f. */
		if ((r = arg_long(v, 0, ARGS_MAX_DEVICES_MAX, &n)) == ERR_OK)
			o->max_devices = n == 0 ? ARGS_MAX_DEVICES_DEFAULT :
			    (size_t)n;
	} else if (strcmp(d->name, "devices") == 0)
		r = arg_devices(o, v);
	else
		r = arg_conf(v, errlog);
	free(v);
	return r;
}

static int
arg_value(struct options *o, const struct arg_def *d, char *v,
    const struct log *errlog)
{
	char **sp;
	long n = 0;
	int r;

	switch (d->kind) {
	case ARG_STRING:
		if (v[0] == '\0')
			break;
		sp = (char **)(void *)((char *)o + d->off);
		free(*sp);
		*sp = v;
		return ERR_OK;
	case ARG_INT:
		if ((r = arg_long(v, d->min, d->max, &n)) != ERR_OK)
			break;
		*(int *)(void *)((char *)o + d->off) = (int)n;
		free(v);
		return ERR_OK;
	case ARG_TRI:
		if ((r = arg_long(v, -1, 1, &n)) != ERR_OK)
			break;
		*(int *)(void *)((char *)o + d->off) = (int)n;
		free(v);
		return ERR_OK;
	case ARG_SPECIAL:
		return arg_special(o, d, v, errlog);
	case ARG_FLAG:
		break;
	}
	free(v);
	return ERR_CONFIG;
}

static const struct arg_def *
arg_lookup(const char *arg, size_t klen)
{
	size_t i;

	for (i = 0; i < sizeof(arg_table) / sizeof(arg_table[0]); i++)
		if (strlen(arg_table[i].name) == klen &&
		    strncmp(arg_table[i].name, arg, klen) == 0)
			return &arg_table[i];
	return NULL;
}

static int
arg_one(struct options *o, const char *raw, const struct log *errlog)
{
	const struct arg_def *d;
	char *arg = NULL, *eq, *v = NULL;
	int r;

	if ((r = arg_unbracket(raw, &arg)) != ERR_OK)
		goto fail;
	eq = strchr(arg, '=');
	d = arg_lookup(arg, eq != NULL ? (size_t)(eq - arg) : strlen(arg));
	r = ERR_CONFIG;
	if (d == NULL || (d->kind == ARG_FLAG) != (eq == NULL))
		goto fail;
	if (d->kind == ARG_FLAG) {
		*(bool *)(void *)((char *)o + d->off) = true;
		r = ERR_OK;
		goto fail;
	}
	if ((v = strdup(eq + 1)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	r = arg_value(o, d, v, errlog);
fail:
	if (r == ERR_CONFIG)
		log_msg(errlog, "invalid module argument \"%s\"", raw);
	free(arg);
	return r;
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
	if (o->prompt == NULL)
		o->prompt = strdup(ARGS_PROMPT_DEFAULT);
	if (o->cue_prompt == NULL)
		o->cue_prompt = strdup(ARGS_CUE_DEFAULT);
	if (o->origin == NULL || o->appid == NULL || o->prompt == NULL ||
	    o->cue_prompt == NULL)
		return ERR_NOMEM;
	return ERR_OK;
}

/* What needs CTAP2 is refused by name, never downgraded. */
static int
args_check_ctap2(const struct options *o, const struct log *errlog)
{
	if (o->userverification == 1) {
		log_msg(errlog, "userverification=1 needs FIDO2 (CTAP2), "
		    "which is not supported yet");
		return ERR_CONFIG;
	}
	if (o->pinverification == 1) {
		log_msg(errlog, "pinverification=1 needs FIDO2 (CTAP2), "
		    "which is not supported yet");
		return ERR_CONFIG;
	}
	return ERR_OK;
}

int
args_parse(struct options *o, int argc, const char **argv,
    const struct log *errlog)
{
	int i, r, first = ERR_OK;

	memset(o, 0, sizeof(*o));
	o->max_devices = ARGS_MAX_DEVICES_DEFAULT;
	o->userpresence = -1;
	o->userverification = -1;
	o->pinverification = -1;
	o->timeout = ARGS_TIMEOUT_DEFAULT;
	if (argc < 0 || (argc > 0 && argv == NULL))
		return ERR_INVAL;
	/* Report every bad argument, not just the first. */
	for (i = 0; i < argc; i++) {
		r = argv[i] != NULL ? arg_one(o, argv[i], errlog) : ERR_CONFIG;
		if (r == ERR_NOMEM)
			return r;
		if (r != ERR_OK && first == ERR_OK)
			first = r;
	}
	if (first != ERR_OK)
		return first;
	if ((r = args_check_ctap2(o, errlog)) != ERR_OK)
		return r;
	return args_finish(o, errlog);
}

void
args_free(struct options *o)
{
	size_t i;

	if (o == NULL)
		return;
	free(o->debug_file);
	free(o->origin);
	free(o->appid);
	free(o->authfile);
	free(o->authpending_file);
	free(o->prompt);
	free(o->cue_prompt);
	free(o->conf);
	for (i = 0; i < o->ndevices; i++)
		free(o->devices[i]);
	free(o->devices);
	memset(o, 0, sizeof(*o));
}

bool
args_presence(const struct options *o)
{
	return o->userpresence != 0;
}
