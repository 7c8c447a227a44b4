/* SPDX-License-Identifier: BSD-2-Clause */
/* Start and stop software tokens (tests/softtoken/softtoken) for tests. */
#ifndef PU_TOKENCTL_H
#define PU_TOKENCTL_H

#include <stddef.h>
#include <sys/types.h>

struct tokenctl {
	pid_t pid;
	char dir[64];    /* private temp dir */
	char path[128];  /* "unix:DIR/tok.sock" */
	char log[128];   /* DIR/tok.log (one line per APDU) */
	char state[128]; /* DIR/tok.state */
};

/* Start a token daemon with extra options (NULL-terminated list), e.g.
 * tokenctl_start(&t, "--presence", "now", NULL). Returns 0 or -1. */
int tokenctl_start(struct tokenctl *t, ...);
/* Restart with the same state file (same master key) and new options. */
int tokenctl_restart(struct tokenctl *t, ...);
void tokenctl_stop(struct tokenctl *t);
/* Lines of the token's APDU log containing needle. */
size_t tokenctl_count(const struct tokenctl *t, const char *needle);
/* Lines of the file at path containing needle (0 if it cannot be read). */
size_t tokenctl_count_lines(const char *path, const char *needle);

/* A unix: device at path that takes connections (the kernel queues them)
 * and never answers: its CTAPHID INIT stalls for the whole open time.
 * Returns the listening descriptor (close it to remove the device) or
 * -1. */
int tokenctl_silent(const char *path);

#endif
