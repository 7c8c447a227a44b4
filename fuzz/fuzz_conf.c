/* The configuration file: conf_parse_mem (the parser conf_load runs after
 * its file checks) on the input. Allocations inside libconfuse itself are
 * not counted by failmalloc (a shared library); conf.c's are. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/err.h"
#include "fuzz.h"

#define ERRLEN 96 /* small, so long messages are truncated */

struct input {
	const char *buf;
	size_t len;
};

static void
check_strings(const struct conf *c)
{
	static const struct {
		enum conf_key k;
		size_t off;
	} str[] = {
	    {CONF_DEBUG_FILE, offsetof(struct conf, debug_file)},
	    {CONF_ORIGIN, offsetof(struct conf, origin)},
	    {CONF_APPID, offsetof(struct conf, appid)},
	    {CONF_AUTHFILE, offsetof(struct conf, authfile)},
	    {CONF_AUTHPENDING_FILE, offsetof(struct conf, authpending_file)},
	    {CONF_PROMPT, offsetof(struct conf, prompt)},
	    {CONF_CUE_PROMPT, offsetof(struct conf, cue_prompt)},
	};
	const char *s;
	size_t i;

	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++) {
		memcpy(&s, (const char *)c + str[i].off, sizeof(s));
		if (conf_isset(c, str[i].k))
			FUZZ_CHECK(s != NULL && strlen(s) <= CONF_STRING_MAX);
		else
			FUZZ_CHECK(s == NULL);
	}
}

static void
check_ok(const struct conf *c)
{
	size_t i;

	FUZZ_CHECK((c->set >> CONF_NKEYS) == 0);
	check_strings(c);
	if (conf_isset(c, CONF_MAX_DEVICES))
		FUZZ_CHECK(c->max_devices >= CONF_MAX_DEVICES_MIN &&
		    c->max_devices <= CONF_MAX_DEVICES_MAX);
	if (conf_isset(c, CONF_TIMEOUT))
		FUZZ_CHECK(c->timeout >= CONF_TIMEOUT_MIN &&
		    c->timeout <= CONF_TIMEOUT_MAX);
	FUZZ_CHECK(c->userpresence >= -1 && c->userpresence <= 1);
	FUZZ_CHECK(c->userverification >= -1 && c->userverification <= 1);
	FUZZ_CHECK(c->pinverification >= -1 && c->pinverification <= 1);
	FUZZ_CHECK(c->ndevices <= CONF_DEVICES_MAX);
	FUZZ_CHECK(c->ndevices == 0 || c->devices != NULL);
	for (i = 0; i < c->ndevices; i++)
		FUZZ_CHECK(c->devices[i] != NULL &&
		    (c->devices[i][0] == '/' ||
			strncmp(c->devices[i], "unix:/", 6) == 0));
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
