/* SPDX-License-Identifier: BSD-2-Clause */
/* The options table (opts.h) as data, and the one value parser and setter
 * that the configuration file (conf.c), the module's arguments
 * (pam_u2f/args.c) and pamu2fcfg (pamu2fcfg/) share. No libconfuse here. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "confpolicy.h"
#include "opts.h"
#include "base/err.h"

#define OPT_QUOTE_MAX 64 /* bytes of a value shown in a message */
#define OPT_INT_DIGITS 12

#define CONF_NOFF_BOOL(f) 0
#define CONF_NOFF_INT(f) 0
#define CONF_NOFF_ENUM(f) 0
#define CONF_NOFF_STR(f) 0
#define CONF_NOFF_LIST(f) offsetof(struct conf, n##f)
#define CONF_X_ROW(                                                            \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	[CONF_##key] = {name, CONF_T_##type, CONF_CK_##check, min, max,        \
	    values, def, where, offsetof(struct conf, field),                  \
	    CONF_NOFF_##type(field), doc},

static const struct conf_opt conf_opts[CONF_NOPTS] = {CONF_OPTIONS(CONF_X_ROW)};

/* The file's keys come first (CONF_NKEYS counts them), and every bit of
 * struct conf's set fits. */
#define CONF_X_ORDER(                                                          \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	_Static_assert(((where)&CONF_IN_FILE) != 0 ? CONF_##key < CONF_NKEYS   \
						   : CONF_##key >= CONF_NKEYS, \
	    name " is out of order");
CONF_OPTIONS(CONF_X_ORDER)
_Static_assert(CONF_NOPTS <= 32, "struct conf's set has 32 bits");

const struct conf_opt *
conf_opt(enum conf_key k)
{
	if ((unsigned int)k >= CONF_NOPTS)
		return NULL;
	return &conf_opts[k];
}

enum conf_key
conf_opt_find(const char *name, size_t n)
{
	size_t k;

	for (k = 0; name != NULL && n > 0 && k < CONF_NOPTS; k++)
		if (conf_opts[k].name[0] == name[0] &&
		    strlen(conf_opts[k].name) == n &&
		    memcmp(conf_opts[k].name, name, n) == 0)
			return (enum conf_key)k;
	return CONF_NOPTS;
}

const char *
conf_opt_value(enum conf_key k, int v)
{
	const struct conf_opt *d = conf_opt(k);
	int i;

	if (d == NULL || d->type != CONF_T_ENUM || v < 0)
		return NULL;
	for (i = 0; d->values[i] != NULL; i++)
		if (i == v)
			return d->values[i];
	return NULL;
}

bool
conf_isset(const struct conf *c, enum conf_key k)
{
	if (c == NULL || (unsigned int)k >= CONF_NOPTS)
		return false;
	return (c->set & (UINT32_C(1) << (unsigned int)k)) != 0;
}

void
conf_mark(struct conf *c, enum conf_key k)
{
	if ((unsigned int)k < CONF_NOPTS)
		c->set |= UINT32_C(1) << (unsigned int)k;
}

/* A value as it may appear in a message: bounded, printable ASCII. */
static void
opt_quote(char *dst, size_t n, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i] != '\0' && i < OPT_QUOTE_MAX; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	if (n > 0)
		dst[i] = '\0';
}

/* "name: " pre value post in why, value quoted by opt_quote (none if
 * NULL). */
static int
opt_fail(char *why, size_t whylen, const char *name, const char *pre,
    const char *value, const char *post)
{
	char q[OPT_QUOTE_MAX + 1] = "";

	if (value != NULL)
		opt_quote(q, sizeof(q), value);
	if (whylen > 0)
		snprintf(why, whylen, "%s: %s%s%s", name, pre, q, post);
	return ERR_CONFIG;
}

/* true, yes, on / false, no, off, as libconfuse reads them. */
static int
opt_bool(const struct conf_opt *d, const char *v, long *num, char *why,
    size_t whylen)
{
	static const char *const yes[] = {"true", "yes", "on"};
	static const char *const no[] = {"false", "no", "off"};
	size_t i;

	for (i = 0; i < 3; i++) {
		if (strcasecmp(v, yes[i]) == 0 || strcasecmp(v, no[i]) == 0) {
			*num = strcasecmp(v, yes[i]) == 0;
			return ERR_OK;
		}
	}
	return opt_fail(why, whylen, d->name, "\"", v,
	    "\" is not a boolean (true or false)");
}

/* Decimal only: no sign but '-', no spaces, no octal or hex. */
static int
opt_int(const struct conf_opt *d, const char *v, long *num, char *why,
    size_t whylen)
{
	char range[64], *end = NULL;
	const char *p = v[0] == '-' ? v + 1 : v;
	long n;

	if (*p < '0' || *p > '9' || strlen(p) > OPT_INT_DIGITS ||
	    strspn(p, "0123456789") != strlen(p))
		return opt_fail(
		    why, whylen, d->name, "\"", v, "\" is not a whole number");
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < d->min || n > d->max) {
		snprintf(range, sizeof(range), " is out of range (%ld to %ld)",
		    d->min, d->max);
		return opt_fail(why, whylen, d->name, "", v, range);
	}
	*num = n;
	return ERR_OK;
}

static int
opt_enum(const struct conf_opt *d, const char *v, long *num, char *why,
    size_t whylen)
{
	char names[128] = "\" is not one of ";
	long i;

	for (i = 0; d->values[i] != NULL; i++) {
		if (strcmp(v, d->values[i]) == 0) {
			*num = i;
			return ERR_OK;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
		    "%s%s", i > 0 ? ", " : "", d->values[i]);
	}
	return opt_fail(why, whylen, d->name, "\"", v, names);
}

/* Why v is not acceptable for d from src, or NULL. */
static const char *
opt_str_problem(const struct conf_opt *d, enum conf_src src, const char *v)
{
	size_t i, len = strlen(v);

	if (len > CONF_STRING_MAX)
		return "is too long";
	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return "contains a control character";
	switch (d->check) {
	case CONF_CK_DEBUG_FILE:
		if (src != CONF_SRC_FILE || strcmp(v, "stderr") == 0 ||
		    strcmp(v, "syslog") == 0 || v[0] == '/')
			return len == 0 ? "may not be empty" : NULL;
		return "is not \"stderr\", \"syslog\" or an absolute path";
	case CONF_CK_DEVICE:
		if ((strncmp(v, "/dev/", 5) == 0 && len > 5) ||
		    (strncmp(v, "unix:/", 6) == 0 && len > 6) ||
		    (strncmp(v, "pcsc:", 5) == 0 && len > 5))
			return NULL;
		return "is not a /dev/ path, a unix:/ socket path or a pcsc: "
		       "reader";
	case CONF_CK_COMMAND:
		return v[0] == '/' ? NULL
				   : "is not an absolute path (and arguments)";
	case CONF_CK_ABSPATH:
		return v[0] == '/' ? NULL : "is not an absolute path";
	case CONF_CK_NONEMPTY:
		return len == 0 ? "may not be empty" : NULL;
	case CONF_CK_EMPTY_OK:
	case CONF_CK_NONE:
	case CONF_CK_ZERO_DEFAULT:
		break;
	}
	return NULL;
}

int
conf_opt_parse(enum conf_key k, enum conf_src src, const char *value, long *num,
    char *why, size_t whylen)
{
	const struct conf_opt *d = conf_opt(k);
	const char *problem;
	char post[64];

	if (whylen > 0)
		why[0] = '\0';
	*num = 0;
	if (d == NULL)
		return ERR_INVAL;
	if (d->type == CONF_T_BOOL && value == NULL) {
		*num = 1;
		return ERR_OK;
	}
	if (d->type == CONF_T_BOOL && src == CONF_SRC_ARG)
		return opt_fail(
		    why, whylen, d->name, "takes no value", NULL, "");
	if (value == NULL)
		return opt_fail(
		    why, whylen, d->name, "needs a value", NULL, "");
	switch (d->type) {
	case CONF_T_BOOL:
		return opt_bool(d, value, num, why, whylen);
	case CONF_T_INT:
		return opt_int(d, value, num, why, whylen);
	case CONF_T_ENUM:
		return opt_enum(d, value, num, why, whylen);
	case CONF_T_STR:
	case CONF_T_LIST:
		break;
	}
	if ((problem = opt_str_problem(d, src, value)) != NULL) {
		snprintf(post, sizeof(post), "\" %s", problem);
		return opt_fail(why, whylen, d->name, "\"", value, post);
	}
	return ERR_OK;
}

static void *
opt_field(struct conf *c, const struct conf_opt *d)
{
	return (char *)c + d->off;
}

static size_t *
opt_count(struct conf *c, const struct conf_opt *d)
{
	return (size_t *)(void *)((char *)c + d->noff);
}

/* Free option k's value in c, zero it and clear its bit. */
static void
opt_clear(struct conf *c, enum conf_key k)
{
	const struct conf_opt *d = &conf_opts[k];
	char **s = opt_field(c, d), ***v = opt_field(c, d);
	size_t i, *n = opt_count(c, d);

	switch (d->type) {
	case CONF_T_STR:
		free(*s);
		*s = NULL;
		break;
	case CONF_T_LIST:
		for (i = 0; i < *n; i++)
			free((*v)[i]);
		free(*v);
		*v = NULL;
		*n = 0;
		break;
	case CONF_T_BOOL:
		*(bool *)opt_field(c, d) = false;
		break;
	case CONF_T_INT:
	case CONF_T_ENUM:
		*(int *)opt_field(c, d) = 0;
		break;
	}
	c->set &= ~(UINT32_C(1) << (unsigned int)k);
}

/* One more entry in a list; the copy is made by the caller. */
static int
opt_append(struct conf *c, const struct conf_opt *d, char *entry)
{
	char ***v = opt_field(c, d), **nv;
	size_t *n = opt_count(c, d);

	if ((nv = reallocarray(*v, *n + 1, sizeof(*nv))) == NULL) {
		free(entry);
		return ERR_NOMEM;
	}
	nv[(*n)++] = entry;
	*v = nv;
	return ERR_OK;
}

/* A module argument's comma-separated list, into tmp (all or nothing). */
static int
opt_list_arg(struct conf *tmp, enum conf_key k, const char *value, char *why,
    size_t whylen)
{
	const struct conf_opt *d = &conf_opts[k];
	const char *p = value, *comma;
	char *entry, most[32];
	long num;
	int r = ERR_OK;

	snprintf(most, sizeof(most), "more than %d entries", CONF_DEVICES_MAX);
	while (r == ERR_OK) {
		comma = strchr(p, ',');
		entry =
		    comma != NULL ? strndup(p, (size_t)(comma - p)) : strdup(p);
		if (entry == NULL)
			return ERR_NOMEM;
		if (*opt_count(tmp, d) >= CONF_DEVICES_MAX)
			r = opt_fail(why, whylen, d->name, most, NULL, "");
		else
			r = conf_opt_parse(
			    k, CONF_SRC_ARG, entry, &num, why, whylen);
		if (r == ERR_OK) {
			r = opt_append(tmp, d, entry); /* takes entry */
			entry = NULL;
		}
		free(entry);
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return r;
}

/* A checked value into c (which does not hold option k). */
static int
opt_store(struct conf *c, enum conf_key k, const char *value, long num)
{
	const struct conf_opt *d = &conf_opts[k];
	char *copy = NULL;

	switch (d->type) {
	case CONF_T_BOOL:
		*(bool *)opt_field(c, d) = num != 0;
		break;
	case CONF_T_INT:
	case CONF_T_ENUM:
		*(int *)opt_field(c, d) = (int)num;
		break;
	case CONF_T_STR:
		if ((copy = strdup(value)) == NULL)
			return ERR_NOMEM;
		*(char **)opt_field(c, d) = copy;
		break;
	case CONF_T_LIST:
		if ((copy = strdup(value)) == NULL)
			return ERR_NOMEM;
		return opt_append(c, d, copy);
	}
	return ERR_OK;
}

/* Option k moves from src (if set there) into dst, replacing dst's. */
static void
opt_move(struct conf *dst, struct conf *src, enum conf_key k)
{
	const struct conf_opt *d = &conf_opts[k];
	size_t size = d->type == CONF_T_BOOL                  ? sizeof(bool)
	    : d->type == CONF_T_STR || d->type == CONF_T_LIST ? sizeof(char *)
							      : sizeof(int);

	if (!conf_isset(src, k))
		return;
	opt_clear(dst, k);
	memcpy(opt_field(dst, d), opt_field(src, d), size);
	memset(opt_field(src, d), 0, size);
	if (d->type == CONF_T_LIST) {
		*opt_count(dst, d) = *opt_count(src, d);
		*opt_count(src, d) = 0;
	}
	src->set &= ~(UINT32_C(1) << (unsigned int)k);
	conf_mark(dst, k);
}

/* A module argument's list: new, and all or nothing. */
static int
opt_set_list_arg(struct conf *c, enum conf_key k, const char *value, char *why,
    size_t whylen)
{
	struct conf tmp;
	int r;

	if (conf_isset(c, k))
		return opt_fail(
		    why, whylen, conf_opts[k].name, "given twice", NULL, "");
	if (value == NULL || value[0] == '\0')
		return opt_fail(
		    why, whylen, conf_opts[k].name, "needs a value", NULL, "");
	memset(&tmp, 0, sizeof(tmp));
	if ((r = opt_list_arg(&tmp, k, value, why, whylen)) == ERR_OK) {
		conf_mark(&tmp, k);
		opt_move(c, &tmp, k);
	}
	conf_free(&tmp);
	return r;
}

int
conf_opt_set(struct conf *c, enum conf_key k, enum conf_src src,
    const char *value, char *why, size_t whylen)
{
	struct conf tmp;
	long num = 0;
	int r;

	if (whylen > 0)
		why[0] = '\0';
	if (c == NULL || (unsigned int)k >= CONF_NOPTS)
		return ERR_INVAL;
	if (conf_opts[k].type == CONF_T_LIST && src == CONF_SRC_ARG)
		return opt_set_list_arg(c, k, value, why, whylen);
	if ((r = conf_opt_parse(k, src, value, &num, why, whylen)) != ERR_OK)
		return r;
	if (conf_opts[k].type == CONF_T_LIST) { /* one more entry */
		if ((r = opt_store(c, k, value, num)) == ERR_OK)
			conf_mark(c, k);
		return r;
	}
	/* tmp holds option k only: clearing that one is conf_free(&tmp),
	 * without walking every option (1.3 k instructions per value). */
	memset(&tmp, 0, sizeof(tmp));
	if ((r = opt_store(&tmp, k, value, num)) == ERR_OK) {
		conf_mark(&tmp, k);
		opt_move(c, &tmp, k);
	}
	opt_clear(&tmp, k);
	return r;
}

void
conf_merge(struct conf *dst, struct conf *src, unsigned int where)
{
	size_t k;

	for (k = 0; k < CONF_NOPTS; k++)
		if ((conf_opts[k].where & where) != 0)
			opt_move(dst, src, (enum conf_key)k);
}

/* Option k's built-in default into c (its bit unchanged). */
static int
opt_default(struct conf *c, enum conf_key k)
{
	const struct conf_opt *d = &conf_opts[k];
	uint32_t set = c->set;
	long num = 0;
	int r;

	if (conf_opt_parse(k, CONF_SRC_FILE, d->def, &num, NULL, 0) != ERR_OK)
		return ERR_INVAL; /* a bad row in opts.h */
	opt_clear(c, k);
	r = opt_store(c, k, d->def, num);
	c->set = set;
	return r;
}

int
conf_defaults(struct conf *c)
{
	const struct conf_opt *d;
	size_t k;
	int r;

	for (k = 0; k < CONF_NOPTS; k++) {
		d = &conf_opts[k];
		if (d->def == NULL)
			continue;
		if (conf_isset(c, (enum conf_key)k) &&
		    !(d->check == CONF_CK_ZERO_DEFAULT &&
			*(int *)opt_field(c, d) == 0))
			continue;
		if ((r = opt_default(c, (enum conf_key)k)) != ERR_OK)
			return r;
	}
	return ERR_OK;
}

void
conf_free(struct conf *c)
{
	size_t k;

	if (c == NULL)
		return;
	for (k = 0; k < CONF_NOPTS; k++)
		opt_clear(c, (enum conf_key)k);
	conf_policy_free(c->policy);
	memset(c, 0, sizeof(*c));
}

/* Option k's values in a and b are the same (strings by content). */
static bool
opt_same(struct conf *a, struct conf *b, enum conf_key k)
{
	const struct conf_opt *d = &conf_opts[k];
	char **sa = opt_field(a, d), **sb = opt_field(b, d);
	char ***va = opt_field(a, d), ***vb = opt_field(b, d);
	size_t i;

	switch (d->type) {
	case CONF_T_STR:
		return (*sa == NULL) == (*sb == NULL) &&
		    (*sa == NULL || strcmp(*sa, *sb) == 0);
	case CONF_T_LIST:
		if (*opt_count(a, d) != *opt_count(b, d))
			return false;
		for (i = 0; i < *opt_count(a, d); i++)
			if (strcmp((*va)[i], (*vb)[i]) != 0)
				return false;
		return true;
	case CONF_T_BOOL:
		return *(bool *)opt_field(a, d) == *(bool *)opt_field(b, d);
	case CONF_T_INT:
	case CONF_T_ENUM:
		break;
	}
	return *(int *)opt_field(a, d) == *(int *)opt_field(b, d);
}

bool
conf_same(const struct conf *a, const struct conf *b)
{
	struct conf *x = (struct conf *)(uintptr_t)a;
	struct conf *y = (struct conf *)(uintptr_t)b;
	size_t k;

	if (a->set != b->set || a->found != b->found)
		return false;
	for (k = 0; k < CONF_NOPTS; k++)
		if (!opt_same(x, y, (enum conf_key)k))
			return false;
	return true;
}
