/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: the child's set-up before the exec (authcmd.h, authcmd_int.h).
 * A step that fails is reported to the parent over the report pipe and
 * the child exits: such a failure is the module's, never the command's
 * answer. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "authcmd_int.h"

#define AC_EXEC_FD 3   /* the checked executable, in the child */
#define AC_REPORT_FD 4 /* the report pipe, in the child */
#define AC_GROUPS_LOOK 1024

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

/* glibc declares getrlimit's resource as __rlimit_resource_t (an enum
 * under _GNU_SOURCE: clang's -Wsign-conversion refuses an int there). */
#ifdef __GLIBC__
typedef __rlimit_resource_t ac_res_t;
#else
typedef int ac_res_t;
#endif

/* The limits the command gets, whatever the caller of the host set
 * (a user running a setuid program chooses that program's limits): the
 * values sudo gives itself, the kernel's defaults for the rest, each
 * capped at init's hard limit (authcmd_limits). */
static const struct {
	ac_res_t res;
	rlim_t soft, hard;
} ac_limits[] = {
    {RLIMIT_AS, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_CPU, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_DATA, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_FSIZE, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_RSS, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_NPROC, RLIM_INFINITY, RLIM_INFINITY},
    {RLIMIT_NOFILE, 1024, 4096},
    {RLIMIT_STACK, 8 * 1024 * 1024, RLIM_INFINITY},
    {RLIMIT_MEMLOCK, 8 * 1024 * 1024, 8 * 1024 * 1024},
    {RLIMIT_CORE, 0, 0},
};
_Static_assert(
    sizeof(ac_limits) / sizeof(ac_limits[0]) == AC_NLIMITS, "AC_NLIMITS");

const char *
authcmd_step_str(int step)
{
	switch (step) {
	case AC_STEP_PGID:
		return "its own process group";
	case AC_STEP_LIMITS:
		return "resetting the resource limits";
	case AC_STEP_FDS:
		return "setting up its descriptors";
	case AC_STEP_SIGNALS:
		return "resetting the signals";
	case AC_STEP_GROUPS:
		return "authcmd_user's supplementary groups";
	case AC_STEP_GID:
		return "authcmd_user's group id";
	case AC_STEP_UID:
		return "authcmd_user's user id";
	case AC_STEP_DROP:
		return "checking the drop to authcmd_user";
	case AC_STEP_CHDIR:
		return "changing to /";
	case AC_STEP_FORK:
		return "forking the command";
	case AC_STEP_EXEC:
		return "the exec";
	default:
		return "an unknown step";
	}
}

void
authcmd_limits(struct rlimit *lim)
{
	struct rlimit init;
	size_t i;

	for (i = 0; i < AC_NLIMITS; i++) {
		lim[i].rlim_cur = ac_limits[i].soft;
		lim[i].rlim_max = ac_limits[i].hard;
		if (prlimit(1, ac_limits[i].res, NULL, &init) != 0 ||
		    init.rlim_max == RLIM_INFINITY)
			continue;
		if (lim[i].rlim_max == RLIM_INFINITY ||
		    lim[i].rlim_max > init.rlim_max)
			lim[i].rlim_max = init.rlim_max;
		if (lim[i].rlim_cur == RLIM_INFINITY ||
		    lim[i].rlim_cur > init.rlim_max)
			lim[i].rlim_cur = init.rlim_max;
	}
}

static void __attribute__((noreturn)) fail(int report, int step)
{
	struct ac_report rep;

	rep.step = step;
	rep.err = errno;
	(void)!write(report, &rep, sizeof(rep));
	_exit(AC_CHILD_FAIL);
}

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

/* Is limit a at least b? */
static int
rl_atleast(rlim_t a, rlim_t b)
{
	return a == RLIM_INFINITY || (b != RLIM_INFINITY && a >= b);
}

/* One limit of child_limits. */
static int
child_limit(ac_res_t res, const struct rlimit *want)
{
	struct rlimit rl;

	if (setrlimit(res, want) == 0)
		return 0;
	if (getrlimit(res, &rl) != 0)
		return -1;
	/* What is held already is enough (valgrind refuses any change of
	 * RLIMIT_NOFILE). */
	if (rl_atleast(rl.rlim_cur, want->rlim_cur))
		return 0;
	if (geteuid() == 0)
		return -1;
	rl.rlim_cur = rl_atleast(rl.rlim_max, want->rlim_cur) ? want->rlim_cur
							      : rl.rlim_max;
	return setrlimit(res, &rl);
}

/* As root, each limit of lim, hard limits too; a limit held already at
 * least as high is kept. Root without CAP_SYS_RESOURCE (a container)
 * cannot raise a hard limit the caller lowered, and then fails. A
 * process that is not root (no privilege boundary: the cache is not
 * used there) raises each soft limit as far as its hard limit allows. */
static int
child_limits(const struct rlimit *lim)
{
	size_t i;

	for (i = 0; i < AC_NLIMITS; i++)
		if (child_limit(ac_limits[i].res, &lim[i]) != 0)
			return -1;
	return 0;
}

/* stdin and stderr /dev/null, stdout out, the executable at AC_EXEC_FD
 * and the report pipe at AC_REPORT_FD (both close on exec), nothing
 * else. *report follows the report pipe as it moves. */
static int
child_fds(int out, int exe, int *report)
{
	int null, rep;

	/* Everything above 2 first, so that the dups below do not
	 * overwrite any of them. */
	if ((rep = fcntl(*report, F_DUPFD_CLOEXEC, 10)) < 0)
		return -1;
	*report = rep;
	if ((exe = fcntl(exe, F_DUPFD_CLOEXEC, 10)) < 0 ||
	    (out = fcntl(out, F_DUPFD, 10)) < 0 ||
	    (null = open("/dev/null", O_RDWR)) < 0 || dup2(null, 0) < 0 ||
	    dup2(out, 1) < 0 || dup2(null, 2) < 0 ||
	    dup3(exe, AC_EXEC_FD, O_CLOEXEC) < 0 ||
	    dup3(rep, AC_REPORT_FD, O_CLOEXEC) < 0)
		return -1;
	*report = AC_REPORT_FD;
	close_from(AC_REPORT_FD + 1);
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
has_gid(const gid_t *g, size_t n, gid_t gid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (g[i] == gid)
			return 1;
	return 0;
}

/* Does the process already have exactly run's supplementary groups
 * (the primary group run->gid may be listed on either side or not)? */
static int
groups_are(const struct authcmd_run *run)
{
	gid_t cur[AC_GROUPS_LOOK];
	int n, i;
	size_t j;

	if ((n = getgroups(AC_GROUPS_LOOK, cur)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (cur[i] != run->gid &&
		    !has_gid(run->groups, run->ngroups, cur[i]))
			return 0;
	for (j = 0; j < run->ngroups; j++)
		if (run->groups[j] != run->gid &&
		    !has_gid(cur, (size_t)n, run->groups[j]))
			return 0;
	return 1;
}

/* Exactly run's groups and ids, real, effective and saved, also when
 * the process runs as that account already (it may hold other groups
 * or a saved id of another account). Without the privilege to set the
 * groups, the ones held must be exactly those. *step says what failed. */
static int
child_creds(const struct authcmd_run *run, int *step)
{
	uid_t r, e, s;

	*step = AC_STEP_GROUPS;
	if (syscall(AC_SYS_SETGROUPS, run->ngroups, run->groups) != 0 &&
	    (errno != EPERM || !groups_are(run)))
		return -1;
	*step = AC_STEP_GID;
	if (syscall(AC_SYS_SETRESGID, run->gid, run->gid, run->gid) != 0)
		return -1;
	*step = AC_STEP_UID;
	if (syscall(AC_SYS_SETRESUID, run->uid, run->uid, run->uid) != 0)
		return -1;
	/* The drop must hold. */
	*step = AC_STEP_DROP;
	errno = EPERM;
	if (getresuid(&r, &e, &s) != 0 || r != run->uid || e != run->uid ||
	    s != run->uid || getegid() != run->gid || getgid() != run->gid)
		return -1;
	if (run->uid != 0 &&
	    syscall(AC_SYS_SETRESUID, (uid_t)0, (uid_t)-1, (uid_t)-1) == 0)
		return -1;
	return 0;
}

/* The command's own process, from the set-up child: a plain fork by the
 * system call (glibc's fork takes locks another thread of the host may
 * have held at the clone). */
static pid_t
raw_fork(void)
{
	return (pid_t)syscall(
	    SYS_clone, (unsigned long)SIGCHLD, 0UL, 0UL, 0UL, 0UL);
}

/* In the command's process: the exec, from the checked descriptor. */
static void __attribute__((noreturn))
child_exec(const struct authcmd_run *run, int report)
{
	char path[] = AUTHCMD_ENV_PATH;
	char *const env[] = {path, NULL};

	syscall(SYS_execveat, AC_EXEC_FD, "", run->argv, env, AT_EMPTY_PATH);
	/* A script: its interpreter needs a path (authcmd.h). */
	if (errno == ENOENT)
		execve(run->argv[0], run->argv, env);
	fail(report, AC_STEP_EXEC);
}

/* In the set-up child, holding no descriptor: wait for the command and
 * end as it ended (its exit status, or its signal), so that the parent
 * sees the command's end in ours. */
static void __attribute__((noreturn)) relay(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(AC_CHILD_FAIL);
	if (WIFEXITED(st))
		_exit(WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		(void)syscall(SYS_kill, getpid(), WTERMSIG(st));
	_exit(AC_CHILD_FAIL);
}

/* The parent's child is made without an exit signal, so the host's
 * SIGCHLD disposition cannot reap it; but an exec gives a process the
 * exit signal SIGCHLD again. So this child never execs: it does the
 * set-up, forks the command (whose parent it is, with SIGCHLD at its
 * default) and relays its end. */
void
authcmd_child(const struct authcmd_run *run, const struct rlimit *lim, int out,
    int report)
{
	pid_t pid;
	int step;

	if (setpgid(0, 0) != 0)
		fail(report, AC_STEP_PGID);
	/* The limits first: with the caller's, even the steps below
	 * could fail (RLIMIT_NOFILE), or the uid drop make the exec fail
	 * (RLIMIT_NPROC). */
	if (child_limits(lim) != 0)
		fail(report, AC_STEP_LIMITS);
	if (child_fds(out, run->fd, &report) != 0)
		fail(report, AC_STEP_FDS);
	if (child_signals() != 0)
		fail(report, AC_STEP_SIGNALS);
	if (child_creds(run, &step) != 0)
		fail(report, step);
	if (chdir("/") != 0)
		fail(report, AC_STEP_CHDIR);
	if ((pid = raw_fork()) < 0)
		fail(report, AC_STEP_FORK);
	if (pid == 0)
		child_exec(run, report);
	close_from(0);
	relay(pid);
}
