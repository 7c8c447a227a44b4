/* SPDX-License-Identifier: BSD-2-Clause */
/* Software tokens under a test's control (tokenctl.h): starts
 * tests/softtoken/softtoken as a daemon on a socket in a private
 * directory, restarts it on the same state, stops it, counts lines of its
 * log, and makes silent unix: devices. Shared by the device, module and
 * hostile tests (tests/lib/libtokenctl.la), hence in tests/lib. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tokenctl.h"

#define TOKENCTL_MAXARGS 32

static int
tokenctl_spawn(struct tokenctl *t, va_list ap)
{
	const char *argv[TOKENCTL_MAXARGS];
	char bin[512], pidfile[160], errfile[160];
	const char *b = getenv("top_builddir"), *a;
	size_t n = 0;
	int status;
	pid_t pid;
	FILE *f;

	snprintf(bin, sizeof(bin), "%s/tests/softtoken/softtoken",
	    b != NULL ? b : ".");
	snprintf(pidfile, sizeof(pidfile), "%s/tok.pid", t->dir);
	snprintf(errfile, sizeof(errfile), "%s/tok.err", t->dir);
	argv[n++] = bin;
	argv[n++] = "--socket";
	argv[n++] = t->path + strlen("unix:");
	argv[n++] = "--state";
	argv[n++] = t->state;
	argv[n++] = "--log";
	argv[n++] = t->log;
	argv[n++] = "--daemon";
	argv[n++] = "--pidfile";
	argv[n++] = pidfile;
	while (
	    (a = va_arg(ap, const char *)) != NULL && n < TOKENCTL_MAXARGS - 1)
		argv[n++] = a;
	argv[n] = NULL;
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		/* The daemon's stderr goes to a file of its own: were the
		 * test to die, a daemon holding the test's stderr (the TAP
		 * driver's pipe) would keep the driver waiting. */
		int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		close(fd);
		execv(bin, (char *const *)(uintptr_t)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	if ((f = fopen(pidfile, "r")) == NULL)
		return -1;
	if (fscanf(f, "%d", &t->pid) != 1)
		t->pid = 0;
	fclose(f);
	return t->pid > 0 ? 0 : -1;
}

int
tokenctl_start(struct tokenctl *t, ...)
{
	va_list ap;
	int r;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/pu-tok-XXXXXX");
	if (mkdtemp(t->dir) == NULL)
		return -1;
	snprintf(t->path, sizeof(t->path), "unix:%s/tok.sock", t->dir);
	snprintf(t->log, sizeof(t->log), "%s/tok.log", t->dir);
	snprintf(t->state, sizeof(t->state), "%s/tok.state", t->dir);
	va_start(ap, t);
	r = tokenctl_spawn(t, ap);
	va_end(ap);
	return r;
}

/* Still running? A daemon whose parent is gone may stay a zombie until
 * init reaps it (a container's PID 1 may never do so): that is gone. */
static int
tokenctl_alive(pid_t pid)
{
	char path[64], buf[512], *p;
	size_t n;
	FILE *f;

	if (kill(pid, 0) != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) != NULL && p[1] == ' ' &&
	    (p[2] == 'Z' || p[2] == 'X'))
		return 0;
	return 1;
}

static void
tokenctl_kill(struct tokenctl *t)
{
	int i;

	if (t->pid <= 0)
		return;
	kill(t->pid, SIGTERM);
	for (i = 0; i < 200 && tokenctl_alive(t->pid); i++)
		usleep(5000);
	if (tokenctl_alive(t->pid))
		kill(t->pid, SIGKILL);
	t->pid = 0;
}

int
tokenctl_restart(struct tokenctl *t, ...)
{
	va_list ap;
	int r;

	tokenctl_kill(t);
	va_start(ap, t);
	r = tokenctl_spawn(t, ap);
	va_end(ap);
	return r;
}

void
tokenctl_stop(struct tokenctl *t)
{
	char p[192];

	tokenctl_kill(t);
	if (t->dir[0] == '\0')
		return;
	snprintf(p, sizeof(p), "%s/tok.sock", t->dir);
	unlink(p);
	unlink(t->log);
	unlink(t->state);
	snprintf(p, sizeof(p), "%s/tok.pid", t->dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/tok.err", t->dir);
	unlink(p);
	rmdir(t->dir);
	t->dir[0] = '\0';
}

size_t
tokenctl_count(const struct tokenctl *t, const char *needle)
{
	return tokenctl_count_lines(t->log, needle);
}

size_t
tokenctl_count_lines(const char *path, const char *needle)
{
	char line[4096];
	size_t n = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, needle) != NULL)
			n++;
	fclose(f);
	return n;
}

int
tokenctl_silent(const char *path)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path) ||
	    (fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	memcpy(sa.sun_path, path, strlen(path));
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fd, 8) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}
