/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file: conf_parse_mem (the parser conf_load runs after
 * its file checks) on the input, held to the same result, message and
 * values as libconfuse alone (conf_parse_mem_libconfuse: conf_parse_mem
 * reads the usual "key = value" file without it, common/conf/conffast.c).
 * Allocations inside libconfuse itself are not counted by failmalloc (a shared
 * library); conf.c's are. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conffast.h"
#include "base/err.h"
#include "fuzz.h"

#define ERRLEN 96 /* small, so long messages are truncated */

struct input {
	const char *buf;
	size_t len;
};

/* Every string and number key of the options table (conf/opts.h):
 * set, a bounded string or a number in its row's range; unset, NULL or 0. */
static void
check_values(const struct conf *c)
{
	const struct conf_opt *d;
	const char *s;
	size_t k;
	int n;

	for (k = 0; k < CONF_NKEYS; k++) {
		d = conf_opt((enum conf_key)k);
		if (d->type == CONF_T_STR) {
			memcpy(&s, (const char *)c + d->off, sizeof(s));
			if (conf_isset(c, (enum conf_key)k))
				FUZZ_CHECK(
				    s != NULL && strlen(s) <= CONF_STRING_MAX);
			else
				FUZZ_CHECK(s == NULL);
		} else if (d->type == CONF_T_INT) {
			memcpy(&n, (const char *)c + d->off, sizeof(n));
			if (conf_isset(c, (enum conf_key)k))
				FUZZ_CHECK(n >= d->min && n <= d->max);
			else
				FUZZ_CHECK(n == 0);
		}
	}
}

static void
check_ok(const struct conf *c)
{
	size_t i;

	FUZZ_CHECK((c->set >> CONF_NKEYS) == 0);
	check_values(c);
	FUZZ_CHECK(c->ndevices <= CONF_DEVICES_MAX);
	FUZZ_CHECK(c->ndevices == 0 || c->devices != NULL);
	for (i = 0; i < c->ndevices; i++)
		FUZZ_CHECK(c->devices[i] != NULL &&
		    (c->devices[i][0] == '/' ||
			strncmp(c->devices[i], "unix:/", 6) == 0 ||
			(strncmp(c->devices[i], "pcsc:", 5) == 0 &&
			    c->devices[i][5] != '\0')));
}

/* The same text through libconfuse alone gives r, err and c again
 * (unless an allocation failed in either). */
static void
check_same(const struct input *in, int r, const char *err, const struct conf *c)
{
	struct conf c2;
	char err2[ERRLEN];
	int r2;

	if (r == ERR_NOMEM)
		return;
	r2 = conf_parse_mem_libconfuse(
	    "fuzz.conf", in->buf, in->len, &c2, err2, ERRLEN);
	if (r2 != ERR_NOMEM) {
		FUZZ_CHECK(r2 == r);
		FUZZ_CHECK(strcmp(err2, err) == 0);
		FUZZ_CHECK(conf_same(&c2, c));
	}
	conf_free(&c2);
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	struct conf c;
	char *err = NULL;
	int r;

	if ((err = malloc(ERRLEN)) == NULL)
		return;
	memset(err, 'x', ERRLEN);
	FUZZ_CALL(
	    r, conf_parse_mem("fuzz.conf", in->buf, in->len, &c, err, ERRLEN));
	FUZZ_CHECK(memchr(err, '\0', ERRLEN) != NULL);
	if (r == ERR_OK) {
		FUZZ_CHECK(err[0] == '\0');
		check_ok(&c);
	} else {
		FUZZ_CHECK(r == ERR_CONFIG || r == ERR_NOMEM ||
		    r == ERR_TOO_BIG || r == ERR_SYSTEM);
		/* conf.c writes no message for ERR_NOMEM. */
		if (r != ERR_NOMEM)
			FUZZ_CHECK(err[0] != '\0');
		FUZZ_CHECK(fuzz_is_zero(&c, sizeof(c)));
	}
	check_same(in, r, err, &c);
	conf_free(&c);
	free(err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {(const char *)data, len};

	if (len > CONF_MAX_SIZE)
		return 0;
	fuzz_run(pass, &in, data, len);
	return 0;
}
