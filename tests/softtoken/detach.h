/* SPDX-License-Identifier: BSD-2-Clause */
/* How the software token tells whoever started it that it is up: a pid
 * file, --daemon (the parent exits once the child is ready) and
 * --ready-fd (a line on a descriptor the starter reads, for a shell that
 * keeps the token as its child and waits without polling). */
#ifndef ST_DETACH_H
#define ST_DETACH_H

struct detach_config {
	int daemon;              /* --daemon */
	const char *pidfile;     /* --pidfile */
	const char *socket_path; /* --socket: the parent checks it accepts */
	int ready_fd;            /* --ready-fd, -1 if none */
};

/* --ready-fd N: N must be an open descriptor other than 0-2; it is made
 * close-on-exec. ERR_OK or ERR_INVAL (said on stderr). */
int detach_ready_fd(const char *arg, int *fd);
/* Before serving: --daemon forks (the parent waits for the ready line and
 * exits; the child returns with the pipe to it in *ready) and writes the
 * pid file in the child; else the pid file, and *ready is --ready-fd.
 * ERR_OK, or an error said on stderr. */
int detach(const struct detach_config *c, int *ready);
/* Write line (with a newline) to *ready, close it and set it to -1;
 * nothing if it is -1. A --daemon parent prints a line that names a
 * device node ("/dev/...") on its standard output. */
void detach_ready(int *ready, const char *line);

#endif
