/* SPDX-License-Identifier: BSD-2-Clause */
/* For the unit tests of the argument parser (test_args.c,
 * test_confargs.c): args_parse with its log lines collected, and PARSE(o,
 * s, "arg", ...) for a literal argument list. */
#ifndef PU_ARGSFIX_H
#define PU_ARGSFIX_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "base/util.h"
#include "conf/conf.h"

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

/* Hermetic: the parser must never read the system's configuration file
 * (the build's default path). As root, a call without conf= gets one
 * naming an empty root-owned file of ours; another user cannot make a file
 * the parser accepts, so then the default path must not exist. */
static char argsfix_conf_path[64];

static inline void
argsfix_conf_rm(void)
{
	if (argsfix_conf_path[0] != '\0')
		unlink(argsfix_conf_path);
}

static inline const char *
argsfix_conf(void)
{
	static char arg[80];
	int fd;

	if (geteuid() != 0) {
		if (access(conf_default_path(), F_OK) == 0 || errno != ENOENT) {
			printf("Bail out! %s exists: as a user other than "
			       "root these tests would read it\n",
			    conf_default_path());
			exit(1);
		}
		return NULL;
	}
	if (arg[0] != '\0')
		return arg;
	snprintf(argsfix_conf_path, sizeof(argsfix_conf_path),
	    "/tmp/pu-args-XXXXXX");
	if ((fd = mkstemp(argsfix_conf_path)) < 0 || fchmod(fd, 0644) != 0) {
		printf(
		    "Bail out! %s: %s\n", argsfix_conf_path, strerror(errno));
		exit(1);
	}
	close(fd);
	atexit(argsfix_conf_rm);
	snprintf(arg, sizeof(arg), "conf=%s", argsfix_conf_path);
	return arg;
}

static inline int
parse(struct options *o, struct sink *s, const char **argv, int argc)
{
	struct log lg = {sink_fn, s};
	const char *all[64], *conf = NULL;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < argc; i++)
		if (argv[i] != NULL &&
		    (strncmp(argv[i], "conf=", 5) == 0 ||
			strncmp(argv[i], "[conf=", 6) == 0))
			break;
	/* Appended, so that messages numbering the arguments stay true. */
	if (i == argc && argc < 63 && (conf = argsfix_conf()) != NULL) {
		if (argc > 0)
			memcpy(all, argv, (size_t)argc * sizeof(*argv));
		all[argc] = conf;
		return args_parse(o, argc + 1, all, &lg);
	}
	return args_parse(o, argc, argv, &lg);
}

#define PARSE(o, s, ...)                                                       \
	parse((o), (s), (const char *[]){__VA_ARGS__},                         \
	    (int)(sizeof((const char *[]){__VA_ARGS__}) /                      \
		sizeof(const char *)))

#endif
