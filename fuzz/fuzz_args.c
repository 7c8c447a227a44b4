/* SPDX-License-Identifier: BSD-2-Clause */
/* Module arguments: args_parse on the input split at newlines into argv
 * (at most 64 arguments), with an error log that counts its lines. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "base/err.h"
#include "fuzz.h"

#define MAX_ARGS 64
#define LOG_LINE_MAX 512

struct input {
	int argc;
	const char **argv;
};

static void
count_line(void *arg, const char *line)
{
	size_t *n = arg;

	FUZZ_CHECK(line != NULL && strlen(line) < LOG_LINE_MAX);
	(*n)++;
}

static void
check_ok(const struct options *o)
{
	size_t i;

	FUZZ_CHECK(o->origin != NULL && o->appid != NULL);
	FUZZ_CHECK(o->prompt != NULL && o->cue_prompt != NULL);
	FUZZ_CHECK(o->timeout >= 1 && o->timeout <= ARGS_TIMEOUT_MAX);
	FUZZ_CHECK(
	    o->max_devices >= 1 && o->max_devices <= ARGS_MAX_DEVICES_MAX);
	FUZZ_CHECK(o->userpresence >= -1 && o->userpresence <= 1);
	FUZZ_CHECK(o->userverification >= -1 && o->userverification <= 1);
	FUZZ_CHECK(o->pinverification >= -1 && o->pinverification <= 1);
	FUZZ_CHECK(!o->sshformat || strcmp(o->origin, ARGS_SSH_ORIGIN) == 0);
	/* conf= names a file that was read and parsed (it exists). */
	FUZZ_CHECK(o->conf == NULL || o->conf[0] != '\0');
	FUZZ_CHECK((o->devices == NULL) == (o->ndevices == 0));
	for (i = 0; i < o->ndevices; i++) {
		FUZZ_CHECK(o->devices[i] != NULL);
		FUZZ_CHECK(o->devices[i][0] == '/' ||
		    strncmp(o->devices[i], "unix:/", 6) == 0 ||
		    (strncmp(o->devices[i], "pcsc:", 5) == 0 &&
			o->devices[i][5] != '\0'));
	}
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	struct options o;
	size_t lines = 0;
	struct log lg = {count_line, &lines};
	int r;

	FUZZ_CALL(r, args_parse(&o, in->argc, in->argv, &lg));
	FUZZ_CHECK(r == ERR_OK || r == ERR_CONFIG || r == ERR_NOMEM ||
	    r == ERR_SYSTEM);
	if (r == ERR_CONFIG)
		FUZZ_CHECK(lines > 0);
	if (r == ERR_OK)
		check_ok(&o);
	args_free(&o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const char *argv[MAX_ARGS];
	struct input in = {0, argv};
	char *buf = NULL, *p, *nl;

	if ((buf = malloc(len + 1)) == NULL)
		return 0;
	memcpy(buf, data, len);
	buf[len] = '\0';
	for (p = buf; in.argc < MAX_ARGS; p = nl + 1) {
		argv[in.argc++] = p;
		if ((nl = memchr(p, '\n', len - (size_t)(p - buf))) == NULL)
			break;
		*nl = '\0';
	}
	fuzz_run(pass, &in, data, len);
	free(buf);
	return 0;
}
