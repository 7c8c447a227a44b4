/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: running the checked command (authcmd.h): the child's set-up,
 * then the parent's bounded read and wait. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "authcmd_int.h"
#include "base/err.h"
#include "base/util.h"

#define AC_CHUNK 4096
#define AC_P_PIDFD 3 /* idtype_t P_PIDFD (Linux 5.4) */

/* clone3's arguments (Linux 5.3), version 0: what we use of them. */
struct ac_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls;
};

struct ac_wait {
	int rfd;     /* the output pipe */
	int repfd;   /* the report pipe (authcmd_int.h) */
	int pidfd;   /* -1 without one */
	int relayed; /* made by clone3 (authcmd_result) */
	pid_t pid;
	int64_t deadline;
	char *buf;
	size_t len, max;
};

/* Sleep until fd is readable or the deadline: ERR_OK or ERR_TIMEOUT. */
static int
wait_readable(int fd, int64_t deadline)
{
	struct pollfd p;
	int ms, n;

	for (;;) {
		if ((ms = util_ms_left(deadline)) == 0)
			return ERR_TIMEOUT;
		p.fd = fd;
		p.events = POLLIN;
		p.revents = 0;
		n = poll(&p, 1, ms);
		if (n > 0)
			return ERR_OK;
		if (n == 0)
			return ERR_TIMEOUT;
		if (errno != EINTR)
			return ERR_SYSTEM;
	}
}

/* The output up to end of file; more than w->max is ERR_TOO_BIG. */
static int
read_output(struct ac_wait *w)
{
	ssize_t n;
	size_t room;
	int r;

	for (;;) {
		if ((r = wait_readable(w->rfd, w->deadline)) != ERR_OK)
			return r;
		room = w->max + 1 - w->len;
		n = read(
		    w->rfd, w->buf + w->len, room < AC_CHUNK ? room : AC_CHUNK);
		if (n == 0)
			return ERR_OK;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return ERR_SYSTEM;
		w->len += (size_t)n;
		if (w->len > w->max)
			return ERR_TOO_BIG;
	}
}

/* Sleep until the child has exited (it is not reaped here) or the
 * deadline: on its pidfd, or without one (before Linux 5.3, under
 * valgrind, in some sandboxes) by waitid(WNOWAIT) looks with sleeps of
 * 1 ms doubling to 64 ms between them. A child that is gone already
 * (ECHILD) is for reap() to report. */
static int
wait_exit(const struct ac_wait *w)
{
	siginfo_t si;
	int ms = 1;

	if (w->pidfd >= 0)
		return wait_readable(w->pidfd, w->deadline);
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)w->pid, &si,
			WEXITED | WNOHANG | WNOWAIT | __WALL) != 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD ? ERR_OK : ERR_SYSTEM;
		}
		if (si.si_pid == w->pid)
			return ERR_OK;
		if (util_ms_left(w->deadline) == 0)
			return ERR_TIMEOUT;
		util_sleep_ms(util_cap_ms(ms, w->deadline));
		ms = ms < 64 ? 2 * ms : 64;
	}
}

/* Wait for the child to end, by its pidfd (P_PIDFD, Linux 5.4) or its
 * pid (the unreaped child keeps it); *status in wait(2)'s form. */
static int
wait_status(const struct ac_wait *w, int *status)
{
	siginfo_t si;
	int r;

	for (;;) {
		memset(&si, 0, sizeof(si));
		r = -1;
		if (w->pidfd >= 0)
			r = waitid((idtype_t)AC_P_PIDFD, (id_t)w->pidfd, &si,
			    WEXITED | __WALL);
		if (w->pidfd < 0 || (r != 0 && errno == EINVAL))
			r = waitid(P_PID, (id_t)w->pid, &si, WEXITED | __WALL);
		if (r == 0)
			break;
		if (errno != EINTR)
			return ERR_SYSTEM;
	}
	if (si.si_code == CLD_EXITED)
		*status = (si.si_status & 0xff) << 8;
	else
		*status = si.si_status & 0x7f;
	return ERR_OK;
}

/* Kill what is left of the process group (the unreaped leader keeps its
 * id ours) and the child by its pidfd, then reap the child: *status, or
 * ERR_SYSTEM when its status was lost (a child made by fork, without
 * clone3, is reaped by the kernel when the application ignores
 * SIGCHLD). */
static int
reap(const struct ac_wait *w, int *status)
{
	(void)kill(-w->pid, SIGKILL);
#ifdef SYS_pidfd_send_signal
	if (w->pidfd < 0 ||
	    syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0) != 0)
#endif
		(void)kill(w->pid, SIGKILL);
	return wait_status(w, status);
}

static const char *
status_why(int st, int *unreachable)
{
	*unreachable = WIFEXITED(st) && WEXITSTATUS(st) == 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return NULL;
	if (*unreachable)
		return "exited with a status other than 0 (1: its source is "
		       "unreachable)";
	if (WIFEXITED(st))
		return "exited with a status other than 0 or 1";
	return "was killed by a signal";
}

/* The report pipe: end of file once the command is exec'd (or the
 * child died before), a struct ac_report when its set-up failed.
 * ERR_OK when it ended empty; ERR_SYSTEM with res->err, res->step;
 * ERR_TIMEOUT. */
static int
read_report(const struct ac_wait *w, struct authcmd_result *res)
{
	struct ac_report rep;
	size_t got = 0;
	ssize_t n;
	int r;

	memset(&rep, 0, sizeof(rep));
	while (got < sizeof(rep)) {
		if ((r = wait_readable(w->repfd, w->deadline)) != ERR_OK)
			return r;
		n = read(w->repfd, (char *)&rep + got, sizeof(rep) - got);
		if (n == 0 && got == 0)
			return ERR_OK;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	res->step = got == sizeof(rep) ? authcmd_step_str(rep.step)
				       : "reading its report";
	res->err = got == sizeof(rep) ? rep.err : EIO;
	return ERR_SYSTEM;
}

static const char *
supervise_why(int r)
{
	switch (r) {
	case ERR_TIMEOUT:
		return "did not finish before the deadline (killed)";
	case ERR_TOO_BIG:
		return "wrote more than the output limit (killed)";
	case ERR_SYSTEM:
		return "could not be read from or waited for (killed)";
	default:
		return "could not be started";
	}
}

/* Set-up, output, then the exit within the deadline, then the verdict. */
static int
supervise(struct ac_wait *w, struct authcmd_result *res)
{
	int r, rr, st = 0, setup;

	r = read_report(w, res);
	setup = r == ERR_SYSTEM;
	if (r == ERR_OK)
		r = read_output(w);
	if (r == ERR_OK)
		r = wait_exit(w);
	/* The child is killed only now: its exit status below is what it
	 * chose if it had ended, the SIGKILL's otherwise. */
	rr = reap(w, &st);
	if (setup) {
		res->why = "could not be started";
		return ERR_SYSTEM;
	}
	if (r != ERR_OK) {
		res->why = supervise_why(r);
		return ERR_UNAVAIL;
	}
	if (rr != ERR_OK) {
		res->why = "ended with its status lost (SIGCHLD ignored?)";
		res->err = errno;
		return ERR_SYSTEM;
	}
	res->ended = 1;
	res->status = st;
	res->why = status_why(st, &res->unreachable);
	return res->why == NULL ? ERR_OK : ERR_UNAVAIL;
}

/* The child, so that the host's SIGCHLD disposition cannot take it: by
 * clone3 with a pidfd and no exit signal (no SIGCHLD, never reaped by
 * the kernel, seen only by waits with __WALL); where clone3 is missing
 * or refused (a seccomp filter, valgrind), by fork and pidfd_open. */
static pid_t
spawn(const struct authcmd_run *run, int out, int report, struct ac_wait *w)
{
	struct ac_clone_args ca;
	struct rlimit lim[AC_NLIMITS];
	int pidfd = -1;
	pid_t pid = -1;

	authcmd_limits(lim);
#ifdef SYS_clone3
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_PIDFD;
	ca.pidfd = (uint64_t)(uintptr_t)&pidfd;
	ca.exit_signal = 0;
	pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	w->relayed = pid > 0;
#else
	(void)ca;
	errno = ENOSYS;
#endif
	if (pid < 0 && (errno == ENOSYS || errno == EPERM))
		pid = fork();
	if (pid == 0)
		authcmd_child(run, lim, out, report);
	w->pidfd = pidfd;
#ifdef SYS_pidfd_open
	if (pid > 0 && w->pidfd < 0)
		w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	return pid;
}

static int
run_ok(const struct authcmd_run *run)
{
	return run != NULL && run->argv != NULL && run->argv[0] != NULL &&
	    run->fd >= 0 && run->timeout_ms > 0 && run->max_out > 0 &&
	    run->max_out < SIZE_MAX - 1 &&
	    (run->groups != NULL || run->ngroups == 0);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Start the child with its two pipes; our ends in w. */
static int
start(const struct authcmd_run *run, struct ac_wait *w,
    struct authcmd_result *res)
{
	int p[2] = {-1, -1}, q[2] = {-1, -1}, r = ERR_SYSTEM;

	if (pipe2(p, O_CLOEXEC) != 0 || pipe2(q, O_CLOEXEC) != 0) {
		res->err = errno;
		res->why = "could not be started (pipe failed)";
	} else if ((w->pid = spawn(run, p[1], q[1], w)) < 0) {
		res->err = errno;
		res->why = "could not be started (clone3 or fork failed)";
	} else {
		res->pid = w->pid;
		res->relayed = w->relayed;
		(void)setpgid(w->pid, w->pid); /* the child does too */
		w->rfd = p[0];
		w->repfd = q[0];
		p[0] = q[0] = -1;
		r = ERR_OK;
	}
	close_fd(&p[0]);
	close_fd(&p[1]);
	close_fd(&q[0]);
	close_fd(&q[1]);
	return r;
}

int
authcmd_exec(const struct authcmd_run *run, char **out, size_t *len,
    struct authcmd_result *res)
{
	struct ac_wait w = {-1, -1, -1, 0, -1, 0, NULL, 0, 0};
	int r;

	if (out == NULL || len == NULL || res == NULL)
		return ERR_INVAL;
	*out = NULL;
	*len = 0;
	memset(res, 0, sizeof(*res));
	if (!run_ok(run))
		return ERR_INVAL;
	w.max = run->max_out;
	w.deadline = util_now_ms() + run->timeout_ms;
	if ((w.buf = malloc(w.max + 1)) == NULL)
		return ERR_NOMEM;
	if ((r = start(run, &w, res)) != ERR_OK ||
	    (r = supervise(&w, res)) != ERR_OK)
		goto fail;
	w.buf[w.len] = '\0';
	*out = w.buf;
	*len = w.len;
	w.buf = NULL;
fail:
	util_freezero(w.buf, w.max + 1);
	close_fd(&w.rfd);
	close_fd(&w.repfd);
	close_fd(&w.pidfd);
	return r;
}
