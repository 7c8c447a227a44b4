/* authcmd=: running the checked command (authcmd.h): the child's set-up,
 * then the parent's bounded read and wait. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "authcmd.h"
#include "base/err.h"
#include "base/util.h"

#define AC_CHILD_FAIL 127
#define AC_CHUNK 4096
#define AC_EXEC_FD 3 /* the checked executable, in the child */

/* The child has one thread: the system calls themselves, not glibc's
 * wrappers that signal every thread of the parent's (32-bit ABIs: the
 * *32 calls, with 32-bit ids). */
#ifdef SYS_setgroups32
#define AC_SYS_SETGROUPS SYS_setgroups32
#define AC_SYS_SETRESGID SYS_setresgid32
#define AC_SYS_SETRESUID SYS_setresuid32
#else
#define AC_SYS_SETGROUPS SYS_setgroups
#define AC_SYS_SETRESGID SYS_setresgid
#define AC_SYS_SETRESUID SYS_setresuid
#endif

/* Every descriptor from lowfd up is closed. */
static void
close_from(int lowfd)
{
	long max;
	int fd;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0) == 0)
		return;
#endif
	max = sysconf(_SC_OPEN_MAX);
	for (fd = lowfd; fd < (max > 0 ? max : 65536); fd++)
		(void)close(fd);
}

static int
child_fds(int out, int exe)
{
	int null;

	/* exe and out above 2 first, so that the dup2s below do not
	 * overwrite them. */
	if ((exe = fcntl(exe, F_DUPFD_CLOEXEC, 10)) < 0 ||
	    (out = fcntl(out, F_DUPFD, 10)) < 0 ||
	    (null = open("/dev/null", O_RDWR)) < 0 || dup2(null, 0) < 0 ||
	    dup2(out, 1) < 0 || dup2(null, 2) < 0 ||
	    dup3(exe, AC_EXEC_FD, O_CLOEXEC) < 0)
		return -1;
	close_from(AC_EXEC_FD + 1);
	return 0;
}

static int
child_signals(void)
{
	struct sigaction sa;
	sigset_t all;
	int s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (s = 1; s < NSIG; s++)
		(void)sigaction(s, &sa, NULL); /* SIGKILL, SIGSTOP: EINVAL */
	sigemptyset(&all);
	return sigprocmask(SIG_SETMASK, &all, NULL);
}

static int
child_creds(const struct authcmd_run *run)
{
	if (getuid() == run->uid && geteuid() == run->uid &&
	    getgid() == run->gid && getegid() == run->gid)
		return 0;
	if (syscall(AC_SYS_SETGROUPS, run->ngroups, run->groups) != 0 ||
	    syscall(AC_SYS_SETRESGID, run->gid, run->gid, run->gid) != 0 ||
	    syscall(AC_SYS_SETRESUID, run->uid, run->uid, run->uid) != 0)
		return -1;
	/* The drop must hold. */
	if (run->uid != 0 &&
	    syscall(AC_SYS_SETRESUID, (uid_t)0, (uid_t)-1, (uid_t)-1) == 0)
		return -1;
	return 0;
}

/* In the child, after fork: only async-signal-safe calls. */
static void __attribute__((noreturn))
child(const struct authcmd_run *run, int out)
{
	char path[] = AUTHCMD_ENV_PATH;
	char *const env[] = {path, NULL};

	if (setpgid(0, 0) != 0 || child_fds(out, run->fd) != 0 ||
	    child_signals() != 0 || child_creds(run) != 0 || chdir("/") != 0)
		_exit(AC_CHILD_FAIL);
	syscall(SYS_execveat, AC_EXEC_FD, "", run->argv, env, AT_EMPTY_PATH);
	/* A script: its interpreter needs a path (authcmd.h). */
	if (errno == ENOENT)
		execve(run->argv[0], run->argv, env);
	_exit(AC_CHILD_FAIL);
}

struct ac_wait {
	int rfd;
	int pidfd;
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
 * (ECHILD: SIGCHLD ignored) is for reap() to report. */
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
			WEXITED | WNOHANG | WNOWAIT) != 0) {
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

/* Kill what is left of the process group (the unreaped leader keeps its
 * id ours), then reap the child: *status, or ERR_SYSTEM when its status
 * was lost (SIGCHLD ignored by the application). */
static int
reap(pid_t pid, int *status)
{
	pid_t r;

	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL);
	do
		r = waitpid(pid, status, 0);
	while (r < 0 && errno == EINTR);
	return r == pid ? ERR_OK : ERR_SYSTEM;
}

static const char *
status_why(int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return NULL;
	if (WIFEXITED(st) && WEXITSTATUS(st) == AC_CHILD_FAIL)
		return "exited with status 127 (or could not be started)";
	if (WIFEXITED(st))
		return "exited with a status other than 0";
	return "was killed by a signal";
}

/* Output, then the exit within the deadline, then the verdict. */
static int
supervise(struct ac_wait *w, struct authcmd_result *res)
{
	int r, rr, st = 0;

	r = read_output(w);
	if (r == ERR_OK)
		r = wait_exit(w);
	/* The child is killed only now: its exit status below is what it
	 * chose if it had ended, the SIGKILL's otherwise. */
	rr = reap(w->pid, &st);
	if (r == ERR_TIMEOUT)
		res->why = "did not finish before the deadline (killed)";
	else if (r == ERR_TOO_BIG)
		res->why = "wrote more than the output limit (killed)";
	else if (r != ERR_OK)
		res->why = "could not be read from or waited for (killed)";
	else if (rr != ERR_OK)
		res->why = "ended with its status lost (SIGCHLD ignored?)";
	else {
		res->status = st;
		res->why = status_why(st);
	}
	return res->why == NULL ? ERR_OK : ERR_UNAVAIL;
}

static int
run_ok(const struct authcmd_run *run)
{
	return run != NULL && run->argv != NULL && run->argv[0] != NULL &&
	    run->fd >= 0 && run->timeout_ms > 0 && run->max_out > 0 &&
	    run->max_out < SIZE_MAX - 1 &&
	    (run->groups != NULL || run->ngroups == 0);
}

int
authcmd_exec(const struct authcmd_run *run, char **out, size_t *len,
    struct authcmd_result *res)
{
	struct ac_wait w = {-1, -1, -1, 0, NULL, 0, 0};
	int p[2] = {-1, -1}, r = ERR_SYSTEM;

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
	if (pipe2(p, O_CLOEXEC) != 0 || (w.pid = fork()) < 0) {
		res->why = "could not be started (pipe or fork failed)";
		goto fail;
	}
	if (w.pid == 0)
		child(run, p[1]);
	res->pid = w.pid;
	(void)setpgid(w.pid, w.pid); /* the child does too: no race */
	close(p[1]);
	p[1] = -1;
	w.rfd = p[0];
#ifdef SYS_pidfd_open
	w.pidfd = (int)syscall(SYS_pidfd_open, w.pid, 0);
#endif
	if ((r = supervise(&w, res)) != ERR_OK)
		goto fail;
	w.buf[w.len] = '\0';
	*out = w.buf;
	*len = w.len;
	w.buf = NULL;
fail:
	util_freezero(w.buf, w.max + 1);
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (w.pidfd >= 0)
		close(w.pidfd);
	return r;
}
