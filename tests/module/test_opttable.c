/* SPDX-License-Identifier: BSD-2-Clause */
/* The options table (common/conf/opts.h) reaches every source it names.
 * For every row, values made from its type, check and range (never from
 * a list of option names, so that a new row is covered as it is):
 * - a module option (CONF_IN_MODULE) given to args_parse as name=value (a
 *   bare name for a boolean) lands in struct options with the value the
 *   table's setter gives; a bad value is refused with a log line;
 * - a key of the file (CONF_IN_FILE) gives that same value through
 *   conf_parse_mem, and the same refusals, with a message;
 * - pamu2fcfg (CONF_IN_TOOL) takes it on its command line through the
 *   setter, and config_apply (pamu2fcfg/config.c) takes the file's value when
 *   the command line has none, and not when it has one.
 * Besides acceptance, a module may refuse a good value only by name:
 * userverification=1 and pinverification=1 need FIDO2, a backend may not
 * be built in, and conf= names a file that only root may own (its sample
 * is an empty file in our directory). The file parts of the pamu2fcfg
 * checks need root for the same reason. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "argsfix.h"
#include "base/err.h"
#include "conf/conf.h"
#include "device/dev.h"
#include "test.h"
#include "tool.h"

#define SAMPLES_MAX 8
#define TEXT_MAX 600

static char dir[] = "/tmp/test_opttable.XXXXXX";
static char empty_path[300]; /* an empty configuration file */
static char file_path[300];  /* the file config_apply reads */

/* Values for one row: good ones (accepted by every source it has, as a
 * module argument in arg[], in the file's syntax in file[]) and bad
 * ones (refused by every source). NULL in arg[] is a bare name. */
struct samples {
	const char *arg[SAMPLES_MAX], *file[SAMPLES_MAX];
	size_t ngood;
	const char *bad_arg[SAMPLES_MAX], *bad_file[SAMPLES_MAX];
	size_t nbad;
	char num[SAMPLES_MAX][24];
	size_t nnum;
};

static const char *
num_text(struct samples *s, long n)
{
	char *t = s->num[s->nnum++];

	snprintf(t, sizeof(s->num[0]), "%ld", n);
	return t;
}

static void
good(struct samples *s, const char *arg, const char *file)
{
	s->arg[s->ngood] = arg;
	s->file[s->ngood++] = file;
}

static void
bad(struct samples *s, const char *arg, const char *file)
{
	s->bad_arg[s->nbad] = arg;
	s->bad_file[s->nbad++] = file;
}

static void
samples_of(const struct conf_opt *d, struct samples *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	switch (d->type) {
	case CONF_T_BOOL:
		good(s, NULL, "true");
		bad(s, "1", "maybe");
		break;
	case CONF_T_INT:
		good(s, num_text(s, d->min), num_text(s, d->min));
		good(s, num_text(s, d->max), num_text(s, d->max));
		bad(s, num_text(s, d->min - 1), num_text(s, d->min - 1));
		bad(s, num_text(s, d->max + 1), num_text(s, d->max + 1));
		bad(s, "x", "x");
		bad(s, "+1", "+1");
		break;
	case CONF_T_ENUM:
		for (i = 0; d->values[i] != NULL && i + 1 < SAMPLES_MAX; i++)
			good(s, d->values[i], d->values[i]);
		bad(s, "bogus", "bogus");
		break;
	case CONF_T_STR:
		good(s, empty_path, empty_path);
		if (d->check == CONF_CK_EMPTY_OK)
			good(s, "", "");
		else
			bad(s, "", "");
		if (d->check == CONF_CK_COMMAND)
			bad(s, "bin/cmd %u", "bin/cmd %u");
		if (d->check == CONF_CK_ABSPATH)
			bad(s, "var/cache", "var/cache");
		bad(s, "a\tb", "a\tb");
		break;
	case CONF_T_LIST:
		good(s, "/dev/hidraw9", "/dev/hidraw9");
		good(s, "unix:/run/sample", "unix:/run/sample");
		bad(s, "relative", "relative");
		bad(s, "", "");
		break;
	}
}

/* The file's line for value v of d. */
static void
file_text(const struct conf_opt *d, const char *v, char *out, size_t n)
{
	switch (d->type) {
	case CONF_T_BOOL:
	case CONF_T_INT:
		snprintf(out, n, "%s = %s\n", d->name, v);
		break;
	case CONF_T_LIST:
		snprintf(out, n, "%s = { \"%s\" }\n", d->name, v);
		break;
	case CONF_T_ENUM:
	case CONF_T_STR:
		snprintf(out, n, "%s = \"%s\"\n", d->name, v);
		break;
	}
}

static bool
same_str(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_list(char **a, size_t na, char **b, size_t nb)
{
	size_t i;

	for (i = 0; na == nb && i < na; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return na == nb;
}

/* Option k's field equal in a (struct options or struct conf) and b,
 * generated from the table like the structs themselves. */
#define SAME_BOOL(a, b, f) return (a)->f == (b)->f;
#define SAME_INT(a, b, f) return (a)->f == (b)->f;
#define SAME_ENUM(a, b, f) return (a)->f == (b)->f;
#define SAME_STR(a, b, f) return same_str((a)->f, (b)->f);
#define SAME_LIST(a, b, f)                                                     \
	return same_list((a)->f, (a)->n##f, (b)->f, (b)->n##f);
#define X_SAME(                                                                \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	case CONF_##key:                                                       \
		SAME_##type(a, b, field)
#define SAME_FN(fn, type)                                                      \
	static bool fn(enum conf_key k, const type *a, const struct conf *b)   \
	{                                                                      \
		switch (k) {                                                   \
			CONF_OPTIONS(X_SAME)                                   \
		case CONF_NOPTS:                                               \
			break;                                                 \
		}                                                              \
		return false;                                                  \
	}
SAME_FN(same_opt, struct options)
SAME_FN(same_conf, struct conf)

/* What the table's setter makes of v from src (with the built-in
 * defaults if defaults). */
static int
want_of(enum conf_key k, enum conf_src src, const char *v, bool defaults,
    struct conf *want)
{
	int r;

	memset(want, 0, sizeof(*want));
	r = conf_opt_set(want, k, src, v, NULL, 0);
	if (r == ERR_OK && defaults)
		r = conf_defaults(want);
	return r;
}

/* A module's refusal of a good value, by name only. */
static bool
refusal_named(enum conf_key k, const char *log)
{
	if (strstr(log, "cannot be used") != NULL)
		return true;
	if (k == CONF_BACKEND && xport_u2fh_version() == NULL)
		return strstr(log, "not built in") != NULL;
	if (k == CONF_AUTHCMD) /* alone: args_check wants authcmd_user */
		return strstr(log, "authcmd= needs authcmd_user=") != NULL;
	if (k == CONF_AUTHCMD_CACHE) /* alone: args_check wants authcmd */
		return strstr(log, "authcmd_cache= needs authcmd=") != NULL;
	if (k == CONF_CONF && geteuid() != 0)
		return strstr(log, "not owned by root") != NULL;
	return false;
}

/* name=v (or the bare name) through args_parse. */
static void
check_arg(enum conf_key k, const char *v, bool ok)
{
	const struct conf_opt *d = conf_opt(k);
	char arg[TEXT_MAX];
	const char *argv[1] = {arg};
	struct options o;
	struct conf want;
	struct sink s;
	int r, rw;

	snprintf(arg, sizeof(arg), "%s%s%s", d->name, v != NULL ? "=" : "",
	    v != NULL ? v : "");
	rw = want_of(k, CONF_SRC_ARG, v, true, &want);
	r = parse(&o, &s, argv, 1);
	if ((rw == ERR_OK) != ok)
		T_FAIL_AT("the setter %s %s", ok ? "refuses" : "accepts", arg);
	if (ok && r == ERR_OK && !same_opt(k, &o, &want))
		T_FAIL_AT("%s: args_parse stores another value", arg);
	if (ok && r != ERR_OK && !refusal_named(k, s.text))
		T_FAIL_AT("%s refused: %s", arg, s.text);
	if (!ok && r == ERR_OK)
		T_FAIL_AT("%s accepted", arg);
	if (r != ERR_OK && s.lines == 0)
		T_FAIL_AT("%s refused without a log line", arg);
	args_free(&o);
	conf_free(&want);
}

/* "name = v" through conf_parse_mem. */
static void
check_file(enum conf_key k, const char *v, bool ok)
{
	char text[TEXT_MAX], err[512];
	struct conf c, want;
	int r;

	file_text(conf_opt(k), v, text, sizeof(text));
	(void)want_of(k, CONF_SRC_FILE, v, false, &want);
	r = conf_parse_mem("t.conf", text, strlen(text), &c, err, sizeof(err));
	if (ok && r != ERR_OK)
		T_FAIL_AT("file: %s refused: %s", text, err);
	if (ok && r == ERR_OK &&
	    (!conf_isset(&c, k) || !same_conf(k, &c, &want)))
		T_FAIL_AT("file: %s gives another value", text);
	if (!ok && (r != ERR_CONFIG || err[0] == '\0'))
		T_FAIL_AT(
		    "file: %s accepted or refused without a message", text);
	conf_free(&c);
	conf_free(&want);
}

/* The module argument and the file key agree on one good value. */
static void
check_agree(enum conf_key k, const char *arg_v, const char *file_v)
{
	char text[TEXT_MAX];
	const char *argv[1] = {text};
	struct options o;
	struct conf c;
	struct sink s;
	char err[512];

	file_text(conf_opt(k), file_v, text, sizeof(text));
	if (conf_parse_mem(
		"t.conf", text, strlen(text), &c, err, sizeof(err)) != ERR_OK ||
	    conf_defaults(&c) != ERR_OK)
		T_FAIL_AT("file: %s refused", text);
	snprintf(text, sizeof(text), "%s%s%s", conf_opt(k)->name,
	    arg_v != NULL ? "=" : "", arg_v != NULL ? arg_v : "");
	if (parse(&o, &s, argv, 1) == ERR_OK && !same_opt(k, &o, &c))
		T_FAIL_AT("%s: the file and the argument disagree", text);
	args_free(&o);
	conf_free(&c);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL || fputs(text, f) < 0 ||
	    fclose(f) != 0 || chmod(path, 0644) != 0)
		abort();
}

/* config_apply with the file saying file_v and the command line saying
 * cli_v (or nothing if cli_v is absent): which one pamu2fcfg keeps. */
static void
check_tool_file(
    enum conf_key k, const char *file_v, bool has_cli, const char *cli_v)
{
	char text[TEXT_MAX];
	struct tool_opts o;
	struct conf want;

	memset(&o, 0, sizeof(o));
	file_text(conf_opt(k), file_v, text, sizeof(text));
	write_file(file_path, text);
	if ((o.cf.conf = strdup(file_path)) == NULL)
		abort();
	conf_mark(&o.cf, CONF_CONF);
	if (has_cli)
		T_EQ_ERR(conf_opt_set(&o.cf, k, CONF_SRC_TOOL, cli_v, NULL, 0),
		    ERR_OK);
	T_EQ_ERR(config_apply(&o), ERR_OK);
	if (has_cli)
		(void)want_of(k, CONF_SRC_TOOL, cli_v, false, &want);
	else
		(void)want_of(k, CONF_SRC_FILE, file_v, false, &want);
	if (!conf_isset(&o.cf, k) || !same_conf(k, &o.cf, &want))
		T_FAIL_AT("pamu2fcfg: %s from %s is not kept", text,
		    has_cli ? "the command line" : "the file");
	conf_free(&want);
	opts_free(&o);
}

/* pamu2fcfg: every good value on the command line; for a key of the
 * file, the file's value unless the command line has another. */
static void
check_tool(enum conf_key k, const struct samples *s)
{
	const struct conf_opt *d = conf_opt(k);
	struct conf c;
	size_t i;

	for (i = 0; i < s->ngood; i++) {
		memset(&c, 0, sizeof(c));
		if (conf_opt_set(&c, k, CONF_SRC_TOOL, s->arg[i], NULL, 0) !=
		    ERR_OK)
			T_FAIL_AT("pamu2fcfg: %s refused", d->name);
		conf_free(&c);
	}
	if ((d->where & CONF_IN_FILE) == 0 || geteuid() != 0)
		return;
	for (i = 0; i < s->ngood; i++) {
		check_tool_file(k, s->file[i], false, NULL);
		if (d->type == CONF_T_BOOL)
			check_tool_file(k, "false", true, s->arg[i]);
		else if (s->ngood > 1)
			check_tool_file(
			    k, s->file[(i + 1) % s->ngood], true, s->arg[i]);
	}
}

static void
test_every_row(void)
{
	const struct conf_opt *d;
	struct samples s;
	size_t k, i;

	for (k = 0; k < CONF_NOPTS; k++) {
		d = conf_opt((enum conf_key)k);
		T_TRUE(d->where != 0 && d->doc != NULL && d->doc[0] != '\0');
		samples_of(d, &s);
		T_TRUE(s.ngood > 0 && s.nbad > 0);
		for (i = 0; i < s.ngood; i++) {
			if (d->where & CONF_IN_MODULE)
				check_arg((enum conf_key)k, s.arg[i], true);
			if (d->where & CONF_IN_FILE)
				check_file((enum conf_key)k, s.file[i], true);
			if ((d->where & CONF_FM) == CONF_FM)
				check_agree(
				    (enum conf_key)k, s.arg[i], s.file[i]);
		}
		for (i = 0; i < s.nbad; i++) {
			if (d->where & CONF_IN_MODULE)
				check_arg(
				    (enum conf_key)k, s.bad_arg[i], false);
			if (d->where & CONF_IN_FILE)
				check_file(
				    (enum conf_key)k, s.bad_file[i], false);
		}
		if (d->where & CONF_IN_TOOL)
			check_tool((enum conf_key)k, &s);
	}
}

/* The rows' order, names and defaults hold together. */
static void
test_rows(void)
{
	const struct conf_opt *d;
	struct conf c;
	size_t k;

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(conf_defaults(&c), ERR_OK);
	T_EQ_INT(c.set, 0);
	for (k = 0; k < CONF_NOPTS; k++) {
		d = conf_opt((enum conf_key)k);
		T_TRUE(conf_opt_find(d->name, strlen(d->name)) == k);
		T_TRUE(d->where == CONF_FM || d->where == CONF_FMT ||
		    d->where == CONF_MT);
		T_TRUE(((d->where & CONF_IN_FILE) != 0) == (k < CONF_NKEYS));
		T_TRUE((k < CONF_NKEYS) ==
		    (conf_key_name((enum conf_key)k) != NULL));
	}
	T_EQ_INT(c.timeout, CONF_TIMEOUT_DEFAULT);
	T_EQ_INT(c.max_devices, CONF_MAX_DEVICES_DEFAULT);
	T_EQ_STR(c.prompt, CONF_PROMPT_DEFAULT);
	T_TRUE(conf_opt(CONF_NOPTS) == NULL);
	T_TRUE(conf_opt_find("bogus", 5) == CONF_NOPTS);
	conf_free(&c);
}

/* An enum's values are the ones the layer that uses them knows. */
static void
test_backend_values(void)
{
	enum dev_backend b;
	const char *v;
	int i, r;

	for (i = 0; (v = conf_opt_value(CONF_BACKEND, i)) != NULL; i++) {
		r = dev_backend_parse(v, &b);
		T_TRUE(r == ERR_OK || r == ERR_UNSUPPORTED);
		T_EQ_STR(dev_backend_name((enum dev_backend)i), v);
	}
	T_EQ_INT(i, 2);
}

static void
setup(void)
{
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(empty_path, sizeof(empty_path), "%s/empty.conf", dir);
	snprintf(file_path, sizeof(file_path), "%s/tool.conf", dir);
	write_file(empty_path, "");
}

static void
teardown(void)
{
	unlink(empty_path);
	unlink(file_path);
	rmdir(dir);
}

static const struct test_case cases[] = {
    TEST(test_rows), TEST(test_every_row), TEST(test_backend_values)};

int
main(void)
{
	int r;

	setup();
	r = test_run(cases, sizeof(cases) / sizeof(cases[0]));
	teardown();
	return r;
}
