/* SPDX-License-Identifier: BSD-2-Clause */
/* Pid file, --daemon and --ready-fd: see detach.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/err.h"
#include "detach.h"

#define READY_MAX 128 /* the longest ready line */

int
detach_ready_fd(const char *arg, int *fd)
{
	char *end;
	long n;
	int fl;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno != 0 || *arg < '0' || *arg > '9' || *end != '\0' || n < 3 ||
	    n > 1023 || (fl = fcntl((int)n, F_GETFD)) < 0 ||
	    fcntl((int)n, F_SETFD, fl | FD_CLOEXEC) < 0) {
		fprintf(stderr,
		    "softtoken: --ready-fd %s: not an open descriptor above "
		    "2\n",
		    arg);
		return ERR_INVAL;
	}
	*fd = (int)n;
	return ERR_OK;
}

static int
write_pidfile(const char *path)
{
	FILE *f;

	if ((f = fopen(path, "we")) == NULL) {
		fprintf(stderr, "softtoken: pidfile %s: %s\n", path,
		    strerror(errno));
		return ERR_FILE;
	}
	fprintf(f, "%ld\n", (long)getpid());
	if (fclose(f) != 0) {
		fprintf(stderr, "softtoken: pidfile %s: %s\n", path,
		    strerror(errno));
		return ERR_FILE;
	}
	return ERR_OK;
}

/* 1 if a client can connect to the socket at path. */
static int
socket_accepts(const char *path)
{
	struct sockaddr_un sa;
	int fd, ok;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

void
detach_ready(int *ready, const char *line)
{
	char buf[READY_MAX];
	size_t n;

	if (*ready < 0)
		return;
	snprintf(buf, sizeof(buf), "%s\n", line);
	n = strlen(buf);
	if (write(*ready, buf, n) != (ssize_t)n)
		fprintf(stderr, "softtoken: cannot signal readiness: %s\n",
		    strerror(errno));
	close(*ready);
	*ready = -1;
}

/* The --daemon parent: wait for the child's ready line (EOF: it failed),
 * check its socket, print a device node it names; exit. */
static void
parent_wait(const struct detach_config *c, int rfd, pid_t child)
{
	char buf[READY_MAX];
	ssize_t n, got = 0;

	while (got < (ssize_t)sizeof(buf) - 1 &&
	    (n = read(rfd, buf + got, sizeof(buf) - 1 - (size_t)got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += n;
	}
	buf[got] = '\0';
	if (got == 0 || buf[got - 1] != '\n' ||
	    (c->socket_path != NULL && !socket_accepts(c->socket_path))) {
		kill(child, SIGTERM); /* don't leave a useless daemon */
		_exit(1);
	}
	if (strncmp(buf, "/dev/", 5) == 0)
		fputs(buf, stdout);
	_exit(fflush(stdout) == 0 ? 0 : 1);
}

/* Fork; the parent exits (parent_wait); returns in the child, with the
 * pipe to the parent in *ready. */
static int
daemonize(const struct detach_config *c, int *ready)
{
	int p[2], fd;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		fprintf(stderr, "softtoken: fork: %s\n", strerror(errno));
		return ERR_SYSTEM;
	}
	if (pid > 0) {
		close(p[1]);
		parent_wait(c, p[0], pid);
	}
	close(p[0]);
	setsid();
	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	if (c->pidfile != NULL && write_pidfile(c->pidfile) != ERR_OK)
		_exit(1);
	*ready = p[1];
	return ERR_OK;
}

int
detach(const struct detach_config *c, int *ready)
{
	*ready = -1;
	if (c->daemon)
		return daemonize(c, ready);
	*ready = c->ready_fd;
	return c->pidfile != NULL ? write_pidfile(c->pidfile) : ERR_OK;
}
