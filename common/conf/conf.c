/* The configuration file, parsed with libconfuse from memory after
 * safefile_read has vetted and read the file.
 *
 * libconfuse hands its callbacks (error, value parsing, validation) only
 * the cfg_t, which has no user-data pointer in 3.3. To reach our per-call
 * context without a global, the schema is built per call with one hidden
 * CFGT_PTR option whose "simple value" pointer is the context's self
 * pointer: cfg_getptr() on it returns the context. Its name holds a space,
 * which the lexer cannot produce unquoted, and its parse callback refuses
 * every value, so a file cannot set it ("no such option").
 *
 * libconfuse's lexer keeps its state in process globals (flex buffers,
 * the quoted-string buffer, the include stack), so two threads must not
 * parse at once: conf_mutex serialises every use of libconfuse here. It is
 * the one piece of process state in common/, and it holds no data. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <confuse.h>

#include "conf.h"
#include "confscan.h"
#include "base/err.h"
#include "base/safefile.h"

#ifndef PAM_U2F_CONF_DEFAULT
#define PAM_U2F_CONF_DEFAULT "/etc/security/pam_u2f.conf"
#endif

#define CONF_CTX_OPT "pam_u2f conf ctx" /* hidden; see above */
#define CONF_MSG_MAX 512
#define CONF_QUOTE_MAX 64    /* bytes of a value shown in a message */
#define CONF_KEY_ECHO_MAX 32 /* bytes of an unknown key shown */
#define CONF_INT_DIGITS 12

enum conf_type { CT_BOOL, CT_INT, CT_STR, CT_LIST };

enum conf_check {
	CK_NONE,       /* numbers and booleans */
	CK_NONEMPTY,   /* a string that may not be empty */
	CK_EMPTY_OK,   /* authpending_file: "" disables it */
	CK_DEBUG_FILE, /* "stderr", "syslog" or an absolute path */
	CK_DEVICE      /* "/dev/..." or "unix:/..." */
};

struct conf_def {
	const char *name;
	enum conf_type type;
	enum conf_check check;
	long min, max; /* CT_INT */
	size_t off;    /* field in struct conf */
};

#define OFF(f) offsetof(struct conf, f)

/* Indexed by enum conf_key. */
static const struct conf_def conf_defs[CONF_NKEYS] = {
    [CONF_DEBUG] = {"debug", CT_BOOL, CK_NONE, 0, 0, OFF(debug)},
    [CONF_DEBUG_FILE] = {"debug_file", CT_STR, CK_DEBUG_FILE, 0, 0,
	OFF(debug_file)},
    [CONF_ORIGIN] = {"origin", CT_STR, CK_NONEMPTY, 0, 0, OFF(origin)},
    [CONF_APPID] = {"appid", CT_STR, CK_NONEMPTY, 0, 0, OFF(appid)},
    [CONF_AUTHFILE] = {"authfile", CT_STR, CK_NONEMPTY, 0, 0, OFF(authfile)},
    [CONF_EXPAND] = {"expand", CT_BOOL, CK_NONE, 0, 0, OFF(expand)},
    [CONF_AUTHPENDING_FILE] = {"authpending_file", CT_STR, CK_EMPTY_OK, 0, 0,
	OFF(authpending_file)},
    [CONF_NOUSEROK] = {"nouserok", CT_BOOL, CK_NONE, 0, 0, OFF(nouserok)},
    [CONF_OPENASUSER] = {"openasuser", CT_BOOL, CK_NONE, 0, 0, OFF(openasuser)},
    [CONF_ALWAYSOK] = {"alwaysok", CT_BOOL, CK_NONE, 0, 0, OFF(alwaysok)},
    [CONF_MAX_DEVICES] = {"max_devices", CT_INT, CK_NONE, CONF_MAX_DEVICES_MIN,
	CONF_MAX_DEVICES_MAX, OFF(max_devices)},
    [CONF_INTERACTIVE] = {"interactive", CT_BOOL, CK_NONE, 0, 0,
	OFF(interactive)},
    [CONF_PROMPT] = {"prompt", CT_STR, CK_NONEMPTY, 0, 0, OFF(prompt)},
    [CONF_MANUAL] = {"manual", CT_BOOL, CK_NONE, 0, 0, OFF(manual)},
    [CONF_CUE] = {"cue", CT_BOOL, CK_NONE, 0, 0, OFF(cue)},
    [CONF_CUE_PROMPT] = {"cue_prompt", CT_STR, CK_NONEMPTY, 0, 0,
	OFF(cue_prompt)},
    [CONF_NODETECT] = {"nodetect", CT_BOOL, CK_NONE, 0, 0, OFF(nodetect)},
    [CONF_USERPRESENCE] = {"userpresence", CT_INT, CK_NONE, -1, 1,
	OFF(userpresence)},
    [CONF_USERVERIFICATION] = {"userverification", CT_INT, CK_NONE, -1, 1,
	OFF(userverification)},
    [CONF_PINVERIFICATION] = {"pinverification", CT_INT, CK_NONE, -1, 1,
	OFF(pinverification)},
    [CONF_SSHFORMAT] = {"sshformat", CT_BOOL, CK_NONE, 0, 0, OFF(sshformat)},
    [CONF_TIMEOUT] = {"timeout", CT_INT, CK_NONE, CONF_TIMEOUT_MIN,
	CONF_TIMEOUT_MAX, OFF(timeout)},
    [CONF_DEVICES] = {"devices", CT_LIST, CK_DEVICE, 0, 0, OFF(devices)},
};

/* One parse. Reached from libconfuse's callbacks through the hidden
 * option (self), never through a global. */
struct conf_ctx {
	void *self;
	const char *path;
	char *errbuf;
	size_t errlen;
	bool failed;          /* errbuf holds the first error */
	int line[CONF_NKEYS]; /* where each key was set, 0: not */
};

static pthread_mutex_t conf_mutex = PTHREAD_MUTEX_INITIALIZER;

const char *
conf_default_path(void)
{
	return PAM_U2F_CONF_DEFAULT;
}

const char *
conf_key_name(enum conf_key k)
{
	if ((unsigned int)k >= CONF_NKEYS)
		return NULL;
	return conf_defs[k].name;
}

bool
conf_isset(const struct conf *c, enum conf_key k)
{
	if (c == NULL || (unsigned int)k >= CONF_NKEYS)
		return false;
	return (c->set & (UINT32_C(1) << (unsigned int)k)) != 0;
}

static struct conf_ctx *
conf_ctx_of(cfg_t *cfg)
{
	return cfg_getptr(cfg, CONF_CTX_OPT);
}

/* The first error wins: later ones are usually its echoes. */
static void
conf_set_error(struct conf_ctx *ctx, int line, const char *msg)
{
	if (ctx->failed || ctx->errlen == 0)
		return;
	if (line > 0)
		snprintf(ctx->errbuf, ctx->errlen, "%s:%d: %s", ctx->path, line,
		    msg);
	else
		snprintf(ctx->errbuf, ctx->errlen, "%s: %s", ctx->path, msg);
	ctx->failed = true;
}

/* Is a token from the file fit to be echoed in a log line? Key names and
 * punctuation are; anything else (say, a line of /etc/shadow named by a
 * mistaken conf=) is not. */
static bool
conf_echo_ok(const char *tok)
{
	size_t i, n = strlen(tok);

	if (n == 1)
		return true;
	if (n == 0 || n > CONF_KEY_ECHO_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((tok[i] >= 'a' && tok[i] <= 'z') ||
			(tok[i] >= 'A' && tok[i] <= 'Z') ||
			(tok[i] >= '0' && tok[i] <= '9') || tok[i] == '_' ||
			tok[i] == '-'))
			return false;
	return true;
}

/* libconfuse's own messages ("no such option '%s'", "unexpected token
 * '%s'") quote a token of the file: it is dropped unless conf_echo_ok. Our
 * callbacks' messages (more than one conversion) quote values through
 * conf_quote already. */
static void conf_cb_error(cfg_t *cfg, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

static void
conf_cb_error(cfg_t *cfg, const char *fmt, va_list ap)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	char msg[CONF_MSG_MAX], shown[CONF_MSG_MAX];
	const char *conv = strstr(fmt, "%s"), *tok;
	va_list aq;

	if (ctx == NULL)
		return;
	if (conv != NULL && strchr(fmt, '%') == conv &&
	    strchr(conv + 2, '%') == NULL) {
		va_copy(aq, ap);
		tok = va_arg(aq, const char *);
		va_end(aq);
		snprintf(shown, sizeof(shown), "%.*s%s%s", (int)(conv - fmt),
		    fmt, tok != NULL && conf_echo_ok(tok) ? tok : "(not shown)",
		    conv + 2);
		conf_set_error(ctx, cfg->line, shown);
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	conf_set_error(ctx, cfg->line, msg);
}

/* A value as it may appear in a message: bounded, printable ASCII. */
static void
conf_quote(char *dst, size_t n, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i] != '\0' && i < CONF_QUOTE_MAX; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	if (n > 0)
		dst[i] = '\0';
}

static const struct conf_def *
conf_def_of(cfg_opt_t *opt, enum conf_key *key)
{
	const char *name = cfg_opt_name(opt);
	size_t i;

	for (i = 0; name != NULL && i < CONF_NKEYS; i++)
		if (strcmp(conf_defs[i].name, name) == 0) {
			if (key != NULL)
				*key = (enum conf_key)i;
			return &conf_defs[i];
		}
	return NULL;
}

static int
conf_cb_bool(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	char q[CONF_QUOTE_MAX + 1];
	int b = value != NULL ? cfg_parse_boolean(value) : -1;

	if (b != 0 && b != 1) {
		conf_quote(q, sizeof(q), value != NULL ? value : "");
		cfg_error(cfg, "%s: \"%s\" is not a boolean (true or false)",
		    cfg_opt_name(opt), q);
		return -1;
	}
	*(int *)result = b;
	return 0;
}

/* Decimal only: no sign but '-', no spaces, no octal or hex. */
static int
conf_cb_int(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	const struct conf_def *d = conf_def_of(opt, NULL);
	char q[CONF_QUOTE_MAX + 1], *end = NULL;
	const char *p = value != NULL ? value : "";
	long n;

	if (d == NULL)
		return -1;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9' || strlen(p) > CONF_INT_DIGITS ||
	    strspn(p, "0123456789") != strlen(p)) {
		conf_quote(q, sizeof(q), value != NULL ? value : "");
		cfg_error(cfg, "%s: \"%s\" is not a whole number", d->name, q);
		return -1;
	}
	errno = 0;
	n = strtol(value, &end, 10);
	if (errno != 0 || *end != '\0' || n < d->min || n > d->max) {
		conf_quote(q, sizeof(q), value);
		cfg_error(cfg, "%s: %s is out of range (%ld to %ld)", d->name,
		    q, d->min, d->max);
		return -1;
	}
	*(long *)result = n;
	return 0;
}

/* Why value is not acceptable for d, or NULL. */
static const char *
conf_str_problem(const struct conf_def *d, const char *v)
{
	size_t i, len = strlen(v);

	if (len > CONF_STRING_MAX)
		return "is too long";
	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return "contains a control character";
	switch (d->check) {
	case CK_NONEMPTY:
		return len == 0 ? "may not be empty" : NULL;
	case CK_DEBUG_FILE:
		if (strcmp(v, "stderr") == 0 || strcmp(v, "syslog") == 0 ||
		    v[0] == '/')
			return NULL;
		return "is not \"stderr\", \"syslog\" or an absolute path";
	case CK_DEVICE:
		if ((strncmp(v, "/dev/", 5) == 0 && len > 5) ||
		    (strncmp(v, "unix:/", 6) == 0 && len > 6))
			return NULL;
		return "is not a /dev/ path or a unix:/ socket path";
	case CK_EMPTY_OK:
	case CK_NONE:
		break;
	}
	return NULL;
}

static int
conf_cb_str(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	const struct conf_def *d = conf_def_of(opt, NULL);
	char q[CONF_QUOTE_MAX + 1];
	const char *why;

	if (d == NULL || value == NULL)
		return -1;
	if (d->type == CT_LIST && cfg_opt_size(opt) > CONF_DEVICES_MAX) {
		cfg_error(
		    cfg, "%s: more than %d entries", d->name, CONF_DEVICES_MAX);
		return -1;
	}
	if ((why = conf_str_problem(d, value)) != NULL) {
		conf_quote(q, sizeof(q), value);
		cfg_error(cfg, "%s: \"%s\" %s", d->name, q, why);
		return -1;
	}
	*(const char **)result = value;
	return 0;
}

/* Called once per assignment of a scalar key: a second one is an error,
 * not a silent override. */
static int
conf_cb_once(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	enum conf_key k = CONF_NKEYS;

	if (ctx == NULL || conf_def_of(opt, &k) == NULL)
		return -1;
	if (ctx->line[k] != 0) {
		cfg_error(cfg, "%s: already set on line %d", conf_defs[k].name,
		    ctx->line[k]);
		return -1;
	}
	ctx->line[k] = cfg->line > 0 ? cfg->line : 1;
	return 0;
}

/* The hidden option never takes a value from a file. */
static int
conf_cb_hidden(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	(void)value;
	(void)result;
	cfg_error(cfg, "no such option '%s'", cfg_opt_name(opt));
	return -1;
}

/* The schema for one parse; opts has CONF_NKEYS + 2 entries. */
static void
conf_schema(cfg_opt_t *opts, struct conf_ctx *ctx)
{
	static const cfg_opt_t end = CFG_END();
	size_t i;

	memset(opts, 0, (CONF_NKEYS + 2) * sizeof(*opts));
	for (i = 0; i < CONF_NKEYS; i++) {
		opts[i].name = conf_defs[i].name;
		opts[i].flags = CFGF_NODEFAULT;
		opts[i].validcb = conf_cb_once;
		switch (conf_defs[i].type) {
		case CT_BOOL:
			opts[i].type = CFGT_BOOL;
			opts[i].parsecb = conf_cb_bool;
			break;
		case CT_INT:
			opts[i].type = CFGT_INT;
			opts[i].parsecb = conf_cb_int;
			break;
		case CT_LIST:
			opts[i].flags |= CFGF_LIST;
			opts[i].validcb = NULL; /* called per element */
			opts[i].type = CFGT_STR;
			opts[i].parsecb = conf_cb_str;
			break;
		case CT_STR:
			opts[i].type = CFGT_STR;
			opts[i].parsecb = conf_cb_str;
			break;
		}
	}
	opts[i].name = CONF_CTX_OPT;
	opts[i].type = CFGT_PTR;
	opts[i].flags = CFGF_NODEFAULT;
	opts[i].simple_value.ptr = &ctx->self;
	opts[i].parsecb = conf_cb_hidden;
	opts[i + 1] = end;
}

/* A bare boolean key ("cue" alone on a line), for conf_scan. */
static bool
conf_is_flag(const char *name, size_t n)
{
	size_t k;

	for (k = 0; k < CONF_NKEYS; k++)
		if (conf_defs[k].type == CT_BOOL &&
		    strlen(conf_defs[k].name) == n &&
		    memcmp(conf_defs[k].name, name, n) == 0)
			return true;
	return false;
}

/* Check buf and make the copy libconfuse parses (*out, NUL-terminated). */
static int
conf_prepare(struct conf_ctx *ctx, const char *buf, size_t len, char **out)
{
	const char *why = NULL;
	int line = 0, r;

	if ((r = conf_scan(buf, len, conf_is_flag, out, &line, &why)) ==
	    ERR_CONFIG)
		conf_set_error(ctx, line, why);
	return r;
}

static int
conf_take_list(cfg_t *cfg, const char *name, char ***out, size_t *nout)
{
	unsigned int i, n = cfg_size(cfg, name);
	char **v = NULL;

	if ((v = calloc(n, sizeof(*v))) == NULL)
		return ERR_NOMEM;
	*out = v;
	for (i = 0; i < n; i++) {
		if ((v[i] = strdup(cfg_getnstr(cfg, name, i))) == NULL)
			return ERR_NOMEM;
		*nout = i + 1;
	}
	return ERR_OK;
}

/* Copy every key the file set into out. */
static int
conf_extract(cfg_t *cfg, struct conf *out)
{
	const struct conf_def *d;
	char *base = (char *)out;
	size_t k;

	for (k = 0; k < CONF_NKEYS; k++) {
		d = &conf_defs[k];
		if (cfg_size(cfg, d->name) == 0)
			continue;
		switch (d->type) {
		case CT_BOOL:
			*(bool *)(void *)(base + d->off) =
			    cfg_getbool(cfg, d->name) == cfg_true;
			break;
		case CT_INT:
			*(int *)(void *)(base + d->off) =
			    (int)cfg_getint(cfg, d->name);
			break;
		case CT_STR:
			if ((*(char **)(void *)(base + d->off) =
				    strdup(cfg_getstr(cfg, d->name))) == NULL)
				return ERR_NOMEM;
			break;
		case CT_LIST:
			if (conf_take_list(cfg, d->name, &out->devices,
				&out->ndevices) != ERR_OK)
				return ERR_NOMEM;
			break;
		}
		out->set |= UINT32_C(1) << k;
	}
	return ERR_OK;
}

/* Parse buf under conf_mutex (libconfuse's lexer is not reentrant). */
static int
conf_parse(struct conf_ctx *ctx, const char *buf, struct conf *out)
{
	cfg_opt_t opts[CONF_NKEYS + 2];
	cfg_t *cfg = NULL;
	int r;

	conf_schema(opts, ctx);
	if (pthread_mutex_lock(&conf_mutex) != 0) {
		conf_set_error(ctx, 0, "cannot lock the parser");
		return ERR_SYSTEM;
	}
	if ((cfg = cfg_init(opts, CFGF_NONE)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	cfg_set_error_function(cfg, conf_cb_error);
	if (cfg_parse_buf(cfg, buf) != CFG_SUCCESS || ctx->failed) {
		conf_set_error(ctx, 0, "cannot be parsed");
		r = ERR_CONFIG;
		goto fail;
	}
	r = conf_extract(cfg, out);
fail:
	if (cfg != NULL)
		cfg_free(cfg);
	pthread_mutex_unlock(&conf_mutex);
	return r;
}

/* Vet and read the file; *buf stays NULL for a missing default file. */
static int
conf_read(struct conf_ctx *ctx, bool explicit_path, char **buf, size_t *len)
{
	const struct safefile_policy pol = {0, CONF_MAX_SIZE};
	const char *why = NULL;
	char msg[CONF_MSG_MAX], eb[CONF_MSG_MAX];
	int r;

	r = safefile_read(ctx->path, &pol, buf, len, &why);
	if (r == ERR_FILE && errno == ENOENT && !explicit_path)
		return ERR_OK;
	switch (r) {
	case ERR_OK:
		return ERR_OK;
	case ERR_FILE: /* strerror is not thread-safe; GNU strerror_r */
		conf_set_error(ctx, 0, strerror_r(errno, eb, sizeof(eb)));
		return r;
	case ERR_TOO_BIG:
		snprintf(msg, sizeof(msg),
		    "refused: the file is larger than %d bytes", CONF_MAX_SIZE);
		break;
	case ERR_FILE_UNSAFE:
		if (why != NULL && strcmp(why, "is owned by another user") == 0)
			why = "is not owned by root";
		snprintf(msg, sizeof(msg), "refused: the file %s",
		    why != NULL ? why : "is unsafe");
		break;
	default:
		snprintf(msg, sizeof(msg), "%s", err_str(r));
		break;
	}
	conf_set_error(ctx, 0, msg);
	return r;
}

static void
conf_ctx_init(struct conf_ctx *ctx, const char *path, struct conf *out,
    char *errbuf, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	memset(ctx, 0, sizeof(*ctx));
	ctx->self = ctx;
	ctx->path = path;
	ctx->errbuf = errbuf;
	ctx->errlen = errbuf != NULL ? errlen : 0;
}

/* Everything after the file checks. buf[len] need not be NUL. */
static int
conf_parse_ctx(
    struct conf_ctx *ctx, const char *buf, size_t len, struct conf *out)
{
	char *copy = NULL;
	int r;

	if ((r = conf_prepare(ctx, buf, len, &copy)) == ERR_OK)
		r = conf_parse(ctx, copy, out);
	free(copy);
	return r;
}

int
conf_parse_mem(const char *name, const char *buf, size_t len, struct conf *out,
    char *errbuf, size_t errlen)
{
	struct conf_ctx ctx;
	int r;

	if (out == NULL || name == NULL || (buf == NULL && len > 0))
		return ERR_INVAL;
	conf_ctx_init(&ctx, name, out, errbuf, errlen);
	if ((r = conf_parse_ctx(&ctx, len > 0 ? buf : "", len, out)) != ERR_OK)
		conf_free(out);
	return r;
}

int
conf_load(const char *path, bool explicit_path, struct conf *out, char *errbuf,
    size_t errlen)
{
	struct conf_ctx ctx;
	char *buf = NULL;
	size_t len = 0;
	int r, saved_errno;

	if (out == NULL)
		return ERR_INVAL;
	conf_ctx_init(&ctx, path != NULL ? path : conf_default_path(), out,
	    errbuf, errlen);
	if ((r = conf_read(&ctx, explicit_path, &buf, &len)) == ERR_OK &&
	    buf != NULL) {
		r = conf_parse_ctx(&ctx, buf, len, out);
		out->found = r == ERR_OK;
	}
	saved_errno = errno;
	free(buf);
	if (r != ERR_OK)
		conf_free(out);
	errno = saved_errno;
	return r;
}

void
conf_free(struct conf *c)
{
	size_t i;

	if (c == NULL)
		return;
	free(c->debug_file);
	free(c->origin);
	free(c->appid);
	free(c->authfile);
	free(c->authpending_file);
	free(c->prompt);
	free(c->cue_prompt);
	for (i = 0; i < c->ndevices; i++)
		free(c->devices[i]);
	free(c->devices);
	memset(c, 0, sizeof(*c));
}
