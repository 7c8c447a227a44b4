/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file, parsed with libconfuse from memory after
 * safefile_read has vetted and read the file.
 *
 * libconfuse hands its callbacks (error, value parsing, validation) only
 * the cfg_t, which has no user-data pointer in 3.3. To reach our per-call
 * context without a global, the schema is built per call with one hidden
 * CFGT_PTR option (conf_ctx.c) whose "simple value" pointer is the context's
 * self pointer: cfg_getptr() on it returns the context. Its name holds a space,
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
#include "conf_ctx.h"
#include "conffast.h"
#include "confldap.h"
#include "confldap_schema.h"
#include "confpolicy_schema.h"
#include "confscan.h"
#include "base/err.h"
#include "base/safefile.h"

#ifndef PAM_U2F_CONF_DEFAULT
#define PAM_U2F_CONF_DEFAULT "/etc/security/pam_u2f.conf"
#endif

#define CONF_KEY_ECHO_MAX 32 /* bytes of an unknown key shown */
#define CONF_INT_TEXT 24     /* a long in decimal */

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
	return conf_opt(k)->name;
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

/* The file key libconfuse is asking about, or CONF_NOPTS. */
static enum conf_key
conf_key_of(cfg_opt_t *opt)
{
	const char *name = cfg_opt_name(opt);
	enum conf_key k;

	if (name == NULL)
		return CONF_NOPTS;
	k = conf_opt_find(name, strlen(name));
	return (unsigned int)k < CONF_NKEYS ? k : CONF_NOPTS;
}

/* Every value of the file goes through conf_opt_parse (opts.c), the
 * parser the module's arguments and pamu2fcfg use. Its message goes
 * straight to the context: through cfg_error, a message with one %s would
 * be taken for one of libconfuse's that quote a token. */
static int
conf_cb_value(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	enum conf_key k = conf_key_of(opt);
	char why[CONF_MSG_MAX];
	long num = 0;

	if (ctx == NULL || k == CONF_NOPTS)
		return -1;
	if (conf_opt(k)->type == CONF_T_LIST &&
	    cfg_opt_size(opt) > CONF_DEVICES_MAX) {
		cfg_error(cfg, "%s: more than %d entries", conf_opt(k)->name,
		    CONF_DEVICES_MAX);
		return -1;
	}
	if (conf_opt_parse(k, CONF_SRC_FILE, value != NULL ? value : "", &num,
		why, sizeof(why)) != ERR_OK) {
		conf_set_error(ctx, cfg->line, why);
		return -1;
	}
	switch (conf_opt(k)->type) {
	case CONF_T_BOOL:
		*(int *)result = (int)num;
		break;
	case CONF_T_INT:
	case CONF_T_ENUM:
		*(long *)result = num;
		break;
	case CONF_T_STR:
	case CONF_T_LIST:
		*(const char **)result = value;
		break;
	}
	return 0;
}

/* Called once per assignment of a scalar key: a second one is an error,
 * not a silent override. */
static int
conf_cb_once(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	enum conf_key k = conf_key_of(opt);

	if (ctx == NULL || k == CONF_NOPTS)
		return -1;
	if (ctx->line[k] != 0) {
		cfg_error(cfg, "%s: already set on line %d", conf_opt(k)->name,
		    ctx->line[k]);
		return -1;
	}
	ctx->line[k] = cfg->line > 0 ? cfg->line : 1;
	return 0;
}

/* The libconfuse type of each kind of option. */
static cfg_type_t
conf_cfg_type(enum conf_type t)
{
	switch (t) {
	case CONF_T_BOOL:
		return CFGT_BOOL;
	case CONF_T_INT:
	case CONF_T_ENUM: /* its index, from conf_cb_value */
		return CFGT_INT;
	case CONF_T_STR:
	case CONF_T_LIST:
		break;
	}
	return CFGT_STR;
}

/* One section of the file (ldap, policy): its options sub, its check cb. */
static void
conf_schema_section(cfg_opt_t *o, const char *name, cfg_opt_t *sub,
    int (*cb)(cfg_t *, cfg_opt_t *))
{
	o->name = name;
	o->type = CFGT_SEC;
	o->flags = CFGF_NODEFAULT;
	o->subopts = sub;
	o->validcb = cb;
}

/* The schema for one parse, from the file's rows of the options table;
 * opts has CONF_NKEYS + 4 entries, sec (the ldap section's)
 * CONF_LDAP_NKEYS + 2, psec (the policy section's) CONF_POLICY_NKEYS + 2. */
static void
conf_schema(
    cfg_opt_t *opts, cfg_opt_t *sec, cfg_opt_t *psec, struct conf_ctx *ctx)
{
	static const cfg_opt_t end = CFG_END();
	const struct conf_opt *d;
	size_t i;

	memset(opts, 0, (CONF_NKEYS + 4) * sizeof(*opts));
	for (i = 0; i < CONF_NKEYS; i++) {
		d = conf_opt((enum conf_key)i);
		opts[i].name = d->name;
		opts[i].type = conf_cfg_type(d->type);
		opts[i].flags = CFGF_NODEFAULT;
		opts[i].parsecb = conf_cb_value;
		opts[i].validcb = conf_cb_once;
		if (d->type == CONF_T_LIST) {
			opts[i].flags |= CFGF_LIST;
			opts[i].validcb = NULL; /* called per element */
		}
	}
	conf_schema_ldap(sec, ctx);
	conf_schema_section(
	    &opts[i++], CONF_LDAP_SECTION, sec, conf_cb_ldap_section);
	conf_schema_policy(psec, ctx);
	conf_schema_section(
	    &opts[i], CONF_POLICY_SECTION, psec, conf_cb_policy_section);
	conf_schema_hidden(&opts[i + 1], ctx);
	opts[i + 2] = end;
}

/* A bare boolean key ("cue" alone on a line), for conf_scan. */
static bool
conf_is_flag(const char *name, size_t n)
{
	enum conf_key k = conf_opt_find(name, n);

	return (unsigned int)k < CONF_NKEYS && conf_opt(k)->type == CONF_T_BOOL;
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

/* Key k as the file set it into out: every value, already checked, is
 * stored by conf_opt_set (opts.c), as for every other source. */
static int
conf_take(cfg_t *cfg, enum conf_key k, struct conf *out)
{
	const struct conf_opt *d = conf_opt(k);
	unsigned int i, n = cfg_size(cfg, d->name);
	char num[CONF_INT_TEXT];
	int r = ERR_OK;

	if (d->type == CONF_T_BOOL)
		return conf_opt_set(out, k, CONF_SRC_FILE,
		    cfg_getbool(cfg, d->name) == cfg_true ? "true" : "false",
		    NULL, 0);
	if (d->type == CONF_T_INT) {
		snprintf(num, sizeof(num), "%ld", cfg_getint(cfg, d->name));
		return conf_opt_set(out, k, CONF_SRC_FILE, num, NULL, 0);
	}
	if (d->type == CONF_T_ENUM)
		return conf_opt_set(out, k, CONF_SRC_FILE,
		    conf_opt_value(k, (int)cfg_getint(cfg, d->name)), NULL, 0);
	for (i = 0; i < n && r == ERR_OK; i++) /* a string, each entry */
		r = conf_opt_set(out, k, CONF_SRC_FILE,
		    cfg_getnstr(cfg, d->name, i), NULL, 0);
	return r;
}

/* Copy every key the file set into out. */
static int
conf_extract(cfg_t *cfg, struct conf *out)
{
	size_t k;
	int r;

	for (k = 0; k < CONF_NKEYS; k++) {
		if (cfg_size(cfg, conf_opt((enum conf_key)k)->name) == 0)
			continue;
		if ((r = conf_take(cfg, (enum conf_key)k, out)) != ERR_OK)
			return r == ERR_NOMEM ? r : ERR_CONFIG;
	}
	return ERR_OK;
}

/* Parse buf under conf_mutex (libconfuse's lexer is not reentrant). */
static int
conf_parse(struct conf_ctx *ctx, const char *buf, struct conf *out)
{
	cfg_opt_t opts[CONF_NKEYS + 4], sec[CONF_LDAP_NKEYS + 2];
	cfg_opt_t psec[CONF_POLICY_NKEYS + 2];
	cfg_t *cfg = NULL;
	int r;

	conf_schema(opts, sec, psec, ctx);
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
	if ((r = conf_extract(cfg, out)) == ERR_OK &&
	    (r = conf_extract_ldap(cfg, ctx)) == ERR_OK)
		r = conf_extract_policy(cfg, ctx);
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
	const struct safefile_policy pol = {
	    .owner = 0, .max_size = CONF_MAX_SIZE};
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

/* Everything after the file checks. buf[len] need not be NUL. The ldap
 * section is always checked; kept only if ctx->ldap was set (else into
 * ctx->ldap_scratch, released here). */
static int
conf_parse_ctx(
    struct conf_ctx *ctx, const char *buf, size_t len, struct conf *out)
{
	char *copy = NULL;
	int r;

	if (ctx->ldap == NULL)
		ctx->ldap = &ctx->ldap_scratch;
	/* The usual file (key = value lines) without libconfuse; any other
	 * through it (conffast.c). */
	if ((r = conf_prepare(ctx, buf, len, &copy)) == ERR_OK &&
	    (ctx->libconfuse_only ||
		(r = conf_fast(copy, out)) == CONF_FAST_DECLINED))
		r = conf_parse(ctx, copy, out);
	free(copy);
	conf_ldap_free(&ctx->ldap_scratch);
	if (r == ERR_OK) { /* the policy section, if any, to the caller */
		out->policy = ctx->policy;
		ctx->policy = NULL;
	}
	conf_policy_free(ctx->policy);
	ctx->policy = NULL;
	return r;
}

static int
conf_parse_mem_ctx(const char *name, const char *buf, size_t len,
    struct conf *out, struct conf_ldap *ldap, bool libconfuse_only,
    char *errbuf, size_t errlen)
{
	struct conf_ctx ctx;
	int r;

	if (out == NULL || name == NULL || (buf == NULL && len > 0))
		return ERR_INVAL;
	conf_ctx_init(&ctx, name, out, errbuf, errlen);
	ctx.ldap = ldap;
	ctx.libconfuse_only = libconfuse_only;
	if ((r = conf_parse_ctx(&ctx, len > 0 ? buf : "", len, out)) != ERR_OK)
		conf_free(out);
	return r;
}

int
conf_parse_mem(const char *name, const char *buf, size_t len, struct conf *out,
    char *errbuf, size_t errlen)
{
	return conf_parse_mem_ctx(
	    name, buf, len, out, NULL, false, errbuf, errlen);
}

int
conf_parse_mem_libconfuse(const char *name, const char *buf, size_t len,
    struct conf *out, char *errbuf, size_t errlen)
{
	return conf_parse_mem_ctx(
	    name, buf, len, out, NULL, true, errbuf, errlen);
}

int
conf_parse_ldap_mem(const char *name, const char *buf, size_t len,
    struct conf_ldap *ldap, char *errbuf, size_t errlen)
{
	struct conf c;
	int r;

	if (ldap == NULL)
		return ERR_INVAL;
	memset(ldap, 0, sizeof(*ldap));
	r = conf_parse_mem_ctx(name, buf, len, &c, ldap, false, errbuf, errlen);
	conf_free(&c);
	return r;
}

static int
conf_load_ctx(const char *path, bool explicit_path, struct conf *out,
    struct conf_ldap *ldap, char *errbuf, size_t errlen)
{
	struct conf_ctx ctx;
	char *buf = NULL;
	size_t len = 0;
	int r, saved_errno;

	if (out == NULL)
		return ERR_INVAL;
	conf_ctx_init(&ctx, path != NULL ? path : conf_default_path(), out,
	    errbuf, errlen);
	ctx.ldap = ldap;
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

int
conf_load(const char *path, bool explicit_path, struct conf *out, char *errbuf,
    size_t errlen)
{
	return conf_load_ctx(path, explicit_path, out, NULL, errbuf, errlen);
}

int
conf_load_ldap(
    const char *path, struct conf_ldap *out, char *errbuf, size_t errlen)
{
	struct conf c;
	int r;

	if (out == NULL)
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	r = conf_load_ctx(path, true, &c, out, errbuf, errlen);
	conf_free(&c);
	return r;
}
