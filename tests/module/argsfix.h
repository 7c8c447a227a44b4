/* For the unit tests of the argument parser (test_args.c,
 * test_confargs.c): args_parse with its log lines collected, and PARSE(o,
 * s, "arg", ...) for a literal argument list. */
#ifndef PU_ARGSFIX_H
#define PU_ARGSFIX_H

#include <stdio.h>
#include <string.h>

#include "args.h"
#include "base/util.h"

/* Collects what the parser logs. */
struct sink {
	char text[4096];
	size_t lines;
};

static inline void
sink_fn(void *arg, const char *line)
{
	struct sink *s = arg;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof(s->text) - used, "%s\n", line);
	s->lines++;
}

static inline int
parse(struct options *o, struct sink *s, const char **argv, int argc)
{
	struct log lg = {sink_fn, s};

	memset(s, 0, sizeof(*s));
	return args_parse(o, argc, argv, &lg);
}

#define PARSE(o, s, ...)                                                       \
	parse((o), (s), (const char *[]){__VA_ARGS__},                         \
	    (int)(sizeof((const char *[]){__VA_ARGS__}) /                      \
		sizeof(const char *)))

#endif
