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
#include "conf/conf.h"
#include "base/err.h"

enum arg_kind { ARG_FLAG, ARG_STRING, ARG_INT, ARG_TRI, ARG_SPECIAL };

struct arg_def {
	const char *name;
	enum arg_kind kind;
	size_t off;    /* offset of the field in struct options */
	long min, max; /* ARG_INT range */
};

#define OFF(f) offsetof(struct options, f)

static const struct arg_def arg_table[] = {
    {"debug", ARG_FLAG, OFF(debug), 0, 0},
    {"debug_file", ARG_STRING, OFF(debug_file), 0, 0},
    {"origin", ARG_STRING, OFF(origin), 0, 0},
    {"appid", ARG_STRING, OFF(appid), 0, 0},
    {"authfile", ARG_STRING, OFF(authfile), 0, 0},
    {"expand", ARG_FLAG, OFF(expand), 0, 0},
    {"authpending_file", ARG_SPECIAL, OFF(authpending_file), 0, 0},
    {"nouserok", ARG_FLAG, OFF(nouserok), 0, 0},
    {"openasuser", ARG_FLAG, OFF(openasuser), 0, 0},
    {"alwaysok", ARG_FLAG, OFF(alwaysok), 0, 0},
    {"max_devices", ARG_SPECIAL, OFF(max_devices), 0, 0},
    {"interactive", ARG_FLAG, OFF(interactive), 0, 0},
    {"prompt", ARG_STRING, OFF(prompt), 0, 0},
    {"manual", ARG_FLAG, OFF(manual), 0, 0},
    {"cue", ARG_FLAG, OFF(cue), 0, 0},
    {"cue_prompt", ARG_STRING, OFF(cue_prompt), 0, 0},
    {"nodetect", ARG_FLAG, OFF(nodetect), 0, 0},
    {"userpresence", ARG_TRI, OFF(userpresence), 0, 0},
    {"userverification", ARG_TRI, OFF(userverification), 0, 0},
    {"pinverification", ARG_TRI, OFF(pinverification), 0, 0},
    {"sshformat", ARG_FLAG, OFF(sshformat), 0, 0},
    {"conf", ARG_SPECIAL, OFF(conf), 0, 0},
    {"timeout", ARG_INT, OFF(timeout), 1, ARGS_TIMEOUT_MAX},
    {"devices", ARG_SPECIAL, OFF(devices), 0, 0},
    {"backend", ARG_SPECIAL, OFF(backend), 0, 0},
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

/* conf=PATH: the first pass (args_conf_path) validated it and loaded the
 * file; here it only names the file in o->conf. */
static int
arg_conf(struct options *o, char *v)
{
	free(o->conf);
	o->conf = v;
	return ERR_OK;
}

/* backend=native|libu2f-host; libu2f-host only if built in. */
static int
arg_backend(struct options *o, const char *v, const struct log *errlog)
{
	int r = dev_backend_parse(v, &o->backend);

	if (r == ERR_UNSUPPORTED)
		log_msg(errlog,
		    "backend=%s: not built in "
		    "(./configure --with-libu2f-host)",
		    v);
	return r == ERR_OK ? ERR_OK : ERR_CONFIG;
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
			o->max_devices =
			    n == 0 ? ARGS_MAX_DEVICES_DEFAULT : (size_t)n;
	} else if (strcmp(d->name, "devices") == 0)
		r = arg_devices(o, v);
	else if (strcmp(d->name, "backend") == 0)
		r = arg_backend(o, v, errlog);
	else
		return arg_conf(o, v);
	free(v);
	return r;
}

static int
arg_value(struct options *o, const struct arg_def *d, char *v,
    const struct log *errlog)
{
	char **sp;
	long n = 0;

	switch (d->kind) {
	case ARG_STRING:
		if (v[0] == '\0')
			break;
		sp = (char **)(void *)((char *)o + d->off);
		free(*sp);
		*sp = v;
		return ERR_OK;
	case ARG_INT:
		if (arg_long(v, d->min, d->max, &n) != ERR_OK)
			break;
		*(int *)(void *)((char *)o + d->off) = (int)n;
		free(v);
		return ERR_OK;
	case ARG_TRI:
		if (arg_long(v, -1, 1, &n) != ERR_OK)
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

#define CONF_TAKE(f, k)                                                        \
	do {                                                                   \
		if (conf_isset(c, (k)))                                        \
			o->f = c->f;                                           \
	} while (0)
#define CONF_TAKE_STR(f, k)                                                    \
	do {                                                                   \
		if (conf_isset(c, (k))) {                                      \
			free(o->f);                                            \
			o->f = c->f;                                           \
			c->f = NULL;                                           \
		}                                                              \
	} while (0)

/* The file's settings into o, before the arguments override them. The
 * devices list waits for args_conf_devices: an argument replaces it. */
static void
args_conf_apply(struct options *o, struct conf *c)
{
	CONF_TAKE(debug, CONF_DEBUG);
	CONF_TAKE(expand, CONF_EXPAND);
	CONF_TAKE(nouserok, CONF_NOUSEROK);
	CONF_TAKE(openasuser, CONF_OPENASUSER);
	CONF_TAKE(alwaysok, CONF_ALWAYSOK);
	CONF_TAKE(interactive, CONF_INTERACTIVE);
	CONF_TAKE(manual, CONF_MANUAL);
	CONF_TAKE(cue, CONF_CUE);
	CONF_TAKE(nodetect, CONF_NODETECT);
	CONF_TAKE(sshformat, CONF_SSHFORMAT);
	CONF_TAKE(userpresence, CONF_USERPRESENCE);
	CONF_TAKE(userverification, CONF_USERVERIFICATION);
	CONF_TAKE(pinverification, CONF_PINVERIFICATION);
	CONF_TAKE(timeout, CONF_TIMEOUT);
	CONF_TAKE_STR(debug_file, CONF_DEBUG_FILE);
	CONF_TAKE_STR(origin, CONF_ORIGIN);
	CONF_TAKE_STR(appid, CONF_APPID);
	CONF_TAKE_STR(authfile, CONF_AUTHFILE);
	CONF_TAKE_STR(prompt, CONF_PROMPT);
	CONF_TAKE_STR(cue_prompt, CONF_CUE_PROMPT);
	CONF_TAKE_STR(authpending_file, CONF_AUTHPENDING_FILE);
	o->authpending_set =
	    o->authpending_set || conf_isset(c, CONF_AUTHPENDING_FILE);
	/* 0 means the default, as for max_devices=. */
	if (conf_isset(c, CONF_MAX_DEVICES))
		o->max_devices = c->max_devices == 0 ? ARGS_MAX_DEVICES_DEFAULT
						     : (size_t)c->max_devices;
}

#undef CONF_TAKE
#undef CONF_TAKE_STR

/* devices from the file, unless devices= replaced them. */
static void
args_conf_devices(struct options *o, struct conf *c)
{
	if (o->ndevices > 0 || !conf_isset(c, CONF_DEVICES))
		return;
	free(o->devices);
	o->devices = c->devices;
	o->ndevices = c->ndevices;
	c->devices = NULL;
	c->ndevices = 0;
}

/* Load the file into c and apply it. Any problem is one logged line and
 * ERR_CONFIG (a missing conf= file too; never a fallback to defaults). */
static int
args_conf(struct options *o, int argc, const char **argv, struct conf *c,
    const struct log *errlog)
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
	o->conf_found = c->found;
	args_conf_apply(o, c);
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
		log_msg(errlog,
		    "userverification=1 needs FIDO2 (CTAP2), "
		    "which is not supported yet");
		return ERR_CONFIG;
	}
	if (o->pinverification == 1) {
		log_msg(errlog,
		    "pinverification=1 needs FIDO2 (CTAP2), "
		    "which is not supported yet");
		return ERR_CONFIG;
	}
	return ERR_OK;
}

int
args_parse(
    struct options *o, int argc, const char **argv, const struct log *errlog)
{
	struct conf c;
	int i, r, first;

	memset(o, 0, sizeof(*o));
	memset(&c, 0, sizeof(c));
	o->max_devices = ARGS_MAX_DEVICES_DEFAULT;
	o->userpresence = -1;
	o->userverification = -1;
	o->pinverification = -1;
	o->timeout = ARGS_TIMEOUT_DEFAULT;
	if (argc < 0 || (argc > 0 && argv == NULL))
		return ERR_INVAL;
	/* defaults < the file < the arguments. A bad file still lets the
	 * arguments be read, so that debug reaches its sink. */
	if ((first = args_conf(o, argc, argv, &c, errlog)) == ERR_NOMEM) {
		r = first;
		goto fail;
	}
	/* Report every bad argument, not just the first. */
	for (i = 0; i < argc; i++) {
		if (argv[i] != NULL)
			r = arg_one(o, argv[i], errlog);
		else {
			log_msg(errlog, "module argument %d is NULL", i + 1);
			r = ERR_CONFIG;
		}
		if (r == ERR_NOMEM)
			goto fail;
		if (r != ERR_OK && first == ERR_OK)
			first = r;
	}
	args_conf_devices(o, &c);
	if ((r = first) != ERR_OK ||
	    (r = args_check_ctap2(o, errlog)) != ERR_OK)
		goto fail;
	if (o->backend != DEV_BACKEND_NATIVE && o->ndevices > 0) {
		log_msg(errlog,
		    "devices= needs backend=native "
		    "(libu2f-host finds keys itself)");
		r = ERR_CONFIG;
		goto fail;
	}
	r = args_finish(o, errlog);
fail:
	conf_free(&c);
	return r;
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
