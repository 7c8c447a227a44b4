/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd= (common/mapping/authcmd*.c): the command line, the checked
 * walk, and runs of the system's own root-owned programs under /usr/bin
 * as the calling user (so without root: the privilege drop itself is
 * tests/tool/authcmd.sh's, as root). Nothing is written. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "mapping/authcmd.h"
#include "test.h"

struct outcome {
	int r;
	char *out;
	size_t len;
	struct authcmd_result res;
};

/* Run cmd for user with timeout ms and output cap max, as uid/gid with
 * groups (ngroups of them). */
static void
run_as(const char *cmd, const char *user, int ms, size_t max,
    const gid_t *groups, size_t ngroups, struct outcome *o)
{
	struct authcmd_run rn;
	const char *why = NULL;
	char **av = NULL;
	size_t at = 0;
	int fd = -1;

	memset(o, 0, sizeof(*o));
	memset(&rn, 0, sizeof(rn));
	T_EQ_ERR(authcmd_argv(cmd, user, &av), ERR_OK);
	if (av == NULL)
		return;
	T_EQ_ERR(authcmd_open(av[0], &fd, &why, &at), ERR_OK);
	rn.argv = av;
	rn.fd = fd;
	rn.uid = geteuid();
	rn.gid = getegid();
	rn.groups = groups;
	rn.ngroups = ngroups;
	rn.timeout_ms = ms;
	rn.max_out = max;
	o->r = authcmd_exec(&rn, &o->out, &o->len, &o->res);
	if (fd >= 0)
		close(fd);
	authcmd_argv_free(av);
}

/* The same as the calling user, with no supplementary group. */
static void
run(const char *cmd, const char *user, int ms, size_t max, struct outcome *o)
{
	run_as(cmd, user, ms, max, NULL, 0, o);
}

static void
done(struct outcome *o)
{
	util_freezero(o->out, o->len);
}

/* The child was reaped: its pid no longer names a process of ours. */
static void
check_gone(pid_t pid)
{
	T_TRUE(pid > 0);
	T_TRUE(kill(pid, 0) != 0 && errno == ESRCH);
}

static void
argv_is(const char *cmd, const char *user, const char *const *want)
{
	char **av = NULL;
	size_t i;

	T_EQ_ERR(authcmd_argv(cmd, user, &av), ERR_OK);
	for (i = 0; av != NULL && want[i] != NULL; i++)
		T_EQ_STR(av[i], want[i]);
	T_TRUE(av != NULL && av[i] == NULL);
	authcmd_argv_free(av);
}

static void
test_argv(void)
{
	char **av = NULL;
	char many[400] = "/x";
	int i;

	argv_is("/usr/bin/x", "alice",
	    (const char *const[]){"/usr/bin/x", "alice", NULL});
	argv_is(" /x\t--user=%u  %%u 100%% ", "alice",
	    (const char *const[]){"/x", "--user=alice", "%u", "100%", NULL});
	/* The name stays one argument, whatever it holds. */
	argv_is("/x %u", "a b;$(c)'d\"",
	    (const char *const[]){"/x", "a b;$(c)'d\"", NULL});
	T_EQ_ERR(authcmd_argv("/x %h", "alice", &av), ERR_CONFIG);
	T_EQ_ERR(authcmd_argv("/x 50%", "alice", &av), ERR_CONFIG);
	T_EQ_ERR(authcmd_argv("/x/%u", "alice", &av), ERR_CONFIG);
	T_EQ_ERR(authcmd_argv("x %u", "alice", &av), ERR_CONFIG);
	T_EQ_ERR(authcmd_argv("  ", "alice", &av), ERR_CONFIG);
	T_EQ_ERR(authcmd_argv("/x", "", &av), ERR_INVAL);
	T_EQ_ERR(authcmd_argv("/x", "a\nb", &av), ERR_INVAL);
	T_TRUE(av == NULL);
	for (i = 0; i < AUTHCMD_ARGS_MAX; i++)
		strcat(many, " a");
	T_EQ_ERR(authcmd_argv(many, "alice", &av), ERR_CONFIG);
	many[strlen(many) - 2] = '\0';
	T_EQ_ERR(authcmd_argv(many, "alice", &av), ERR_OK);
	authcmd_argv_free(av);
}

static void
open_refused(const char *path, int want, const char *why, size_t at)
{
	const char *w = NULL;
	size_t a = 0;
	int fd = 5;

	T_EQ_ERR(authcmd_open(path, &fd, &w, &a), want);
	T_EQ_INT(fd, -1);
	if (why != NULL) {
		T_EQ_STR(w, why);
		T_EQ_INT(a, at);
	}
}

/* /tmp (world-writable, sticky) is refused as sshd refuses it. */
static void
test_walk(void)
{
	const char *why = NULL;
	size_t at = 0;
	int fd = -1;

	T_EQ_ERR(authcmd_open("/usr/bin/true", &fd, &why, &at), ERR_OK);
	T_TRUE(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	close(fd);
	open_refused(
	    "/tmp/x", ERR_FILE_UNSAFE, "is writable by group or others", 4);
	open_refused("/bin/true", ERR_FILE_UNSAFE, "is a symbolic link", 4);
	open_refused("/usr/bin/sh", ERR_FILE_UNSAFE, "is a symbolic link", 11);
	open_refused("/usr/bin", ERR_FILE_UNSAFE, "is not a regular file", 8);
	open_refused(
	    "/usr/bin/true/x", ERR_FILE_UNSAFE, "is not a directory", 13);
	open_refused("/dev/null", ERR_FILE_UNSAFE, "is not a regular file", 9);
	open_refused("/usr/bin/no-such-program", ERR_FILE, NULL, 0);
	open_refused("/usr//bin/true", ERR_CONFIG, NULL, 0);
	open_refused("/usr/./bin/true", ERR_CONFIG, NULL, 0);
	open_refused("/usr/bin/../bin/true", ERR_CONFIG, NULL, 0);
	open_refused("/usr/bin/", ERR_CONFIG, NULL, 0);
	open_refused("usr/bin/true", ERR_CONFIG, NULL, 0);
	open_refused("/", ERR_CONFIG, NULL, 0);
}

static void
test_output(void)
{
	struct outcome o;

	run("/usr/bin/printf [%%s] %u", "a b;$(c)", 10000, 100, &o);
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_STR(o.out, "[a b;$(c)]");
	T_EQ_INT(o.len, 10);
	check_gone(o.res.pid);
	done(&o);
	run("/usr/bin/true", "alice", 10000, 100, &o);
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_INT(o.len, 0);
	done(&o);
}

/* valgrind preloads its own libraries into the programs it runs. */
static bool
under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p != NULL && strstr(p, "vgpreload") != NULL;
}

/* The environment is PATH only; stdin and stderr are /dev/null; no
 * descriptor of ours reaches the command, not even one without
 * FD_CLOEXEC. */
static void
test_clean_child(void)
{
	struct outcome o;
	int fd = open("/dev/null", O_RDONLY), hi;

	T_TRUE(fd >= 0);
	hi = dup2(fd, 42); /* no O_CLOEXEC */
	T_EQ_INT(hi, 42);
	run("/usr/bin/env -u NONE", "alice", 10000, 1000, &o);
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_STR(o.out, AUTHCMD_ENV_PATH "\n");
	done(&o);
	/* ls's own descriptor for the directory is 3. Under valgrind
	 * (tests/analyze.sh, --trace-children), the forked set-up child's
	 * log file is open in the command too, valgrind's own: then our
	 * fd 42 must still be absent. */
	run("/usr/bin/ls /proc/self/fd", "alice", 10000, 1000, &o);
	T_EQ_ERR(o.r, ERR_OK);
	if (under_valgrind()) {
		T_TRUE(strncmp(o.out, "0\n1\n2\n3\n", 8) == 0);
		T_TRUE(strstr(o.out, "\n42\n") == NULL);
	} else
		T_EQ_STR(o.out, "0\n1\n2\n3\n");
	done(&o);
	run("/usr/bin/readlink /proc/self/fd/0 /proc/self/fd/2 /proc/self/cwd",
	    "alice", 10000, 1000, &o);
	T_EQ_STR(o.out, "/dev/null\n/dev/null\n/\n");
	done(&o);
	close(hi);
	close(fd);
}

/* cmd is unavailable for the reason why, and its child is gone. */
static void
unavail(const char *cmd, int ms, size_t max, const char *why)
{
	struct outcome o;

	run(cmd, "alice", ms, max, &o);
	T_EQ_ERR(o.r, ERR_UNAVAIL);
	T_EQ_STR(o.res.why, why);
	/* Only exit status 1 is "unreachable" (pam_u2f(8)). */
	T_EQ_INT(o.res.unreachable,
	    o.res.ended && WIFEXITED(o.res.status) &&
		WEXITSTATUS(o.res.status) == 1);
	T_TRUE(o.out == NULL && o.len == 0);
	check_gone(o.res.pid);
	done(&o);
}

static void
test_status(void)
{
	unavail("/usr/bin/false", 10000, 100,
	    "exited with a status other than 0 (1: its source is unreachable)");
	unavail("/usr/bin/dash -c exit${IFS}3", 10000, 100,
	    "exited with a status other than 0 or 1");
	/* Killed by a signal (dash splits its own words on IFS). */
	unavail("/usr/bin/dash -c kill${IFS}-9${IFS}$$", 10000, 100,
	    "was killed by a signal");
}

/* A command past its deadline is killed and reaped. */
static void
test_deadline(void)
{
	unavail("/usr/bin/sleep 60", 200, 100,
	    "did not finish before the deadline (killed)");
}

/* Exactly the cap is fine; one byte more is unavailable. */
static void
test_cap(void)
{
	struct outcome o;
	char cmd[128];

	snprintf(
	    cmd, sizeof(cmd), "/usr/bin/head -c %d /dev/zero", AUTHCMD_OUT_MAX);
	run(cmd, "alice", 10000, AUTHCMD_OUT_MAX, &o);
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_INT(o.len, AUTHCMD_OUT_MAX);
	done(&o);
	snprintf(cmd, sizeof(cmd), "/usr/bin/head -c %d /dev/zero",
	    AUTHCMD_OUT_MAX + 1);
	unavail(cmd, 10000, AUTHCMD_OUT_MAX,
	    "wrote more than the output limit (killed)");
	/* Endless output: the cap, not the deadline, stops it. */
	unavail("/usr/bin/cat /dev/zero", 60000, AUTHCMD_OUT_MAX,
	    "wrote more than the output limit (killed)");
}

/* With SIGCHLD ignored (the kernel reaps a forked child at once), the
 * command's output and status still arrive: it is made without an exit
 * signal and waited for by its pidfd. */
static void
test_sigchld_ignored(void)
{
	struct sigaction ign, old;
	struct outcome o;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	T_EQ_INT(sigaction(SIGCHLD, &ign, &old), 0);
	run("/usr/bin/printf ok", "alice", 10000, 100, &o);
	if (o.res.relayed) {
		T_EQ_ERR(o.r, ERR_OK);
		T_EQ_STR(o.out, "ok");
		done(&o);
		unavail("/usr/bin/dash -c exit${IFS}3", 10000, 100,
		    "exited with a status other than 0 or 1");
	} else {
		/* The fork fall-back (valgrind): the status is lost, an
		 * error of its own, never "unavailable". */
		T_EQ_ERR(o.r, ERR_SYSTEM);
		T_EQ_STR(
		    o.res.why, "ended with its status lost (SIGCHLD ignored?)");
		T_EQ_INT(o.res.unreachable, 0);
		done(&o);
	}
	T_EQ_INT(sigaction(SIGCHLD, &old, NULL), 0);
}

/* The caller's resource limits do not reach the command: an
 * RLIMIT_NOFILE of 10 (the child's own set-up needs descriptors above
 * it) and a CPU limit are reset. */
static void
test_limits_reset(void)
{
	struct rlimit nofile, cpu, low;
	struct outcome o;

	T_EQ_INT(getrlimit(RLIMIT_NOFILE, &nofile), 0);
	T_EQ_INT(getrlimit(RLIMIT_CPU, &cpu), 0);
	low = nofile;
	low.rlim_cur = 10;
	T_EQ_INT(setrlimit(RLIMIT_NOFILE, &low), 0);
	low = cpu;
	low.rlim_cur = 100;
	T_EQ_INT(setrlimit(RLIMIT_CPU, &low), 0);
	run("/usr/bin/dash -c ulimit${IFS}-n;ulimit${IFS}-t", "alice", 10000,
	    100, &o);
	T_EQ_INT(setrlimit(RLIMIT_NOFILE, &nofile), 0);
	T_EQ_INT(setrlimit(RLIMIT_CPU, &cpu), 0);
	if (!o.res.relayed && o.r == ERR_SYSTEM) {
		/* valgrind refuses to change RLIMIT_NOFILE: not started. */
		T_EQ_STR(o.res.step, "resetting the resource limits");
		done(&o);
		return;
	}
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_STR(o.out, "1024\nunlimited\n");
	done(&o);
}

/* cmd could not be started: its set-up failed at step with err. */
static void
not_started(
    const char *cmd, const gid_t *g, size_t ng, const char *step, int err)
{
	struct outcome o;

	run_as(cmd, "alice", 10000, 100, g, ng, &o);
	T_EQ_ERR(o.r, ERR_SYSTEM);
	T_EQ_STR(o.res.why, "could not be started");
	T_EQ_STR(o.res.step, step);
	T_EQ_INT(o.res.err, err);
	T_EQ_INT(o.res.unreachable, 0);
	T_TRUE(o.out == NULL);
	check_gone(o.res.pid);
	done(&o);
}

/* Exactly the groups asked for, also when the process runs as that
 * account already (root may set them: they are set; a process that may
 * not must hold exactly those, or the command does not run); a set-up
 * step that fails is reported as its own error. */
static void
test_groups(void)
{
	gid_t g[2] = {getegid(), 4711}, *many;
	struct outcome o;
	char want[64];

	if (geteuid() != 0) {
		not_started("/usr/bin/id -G", g, 2,
		    "authcmd_user's supplementary groups", EPERM);
		return;
	}
	run_as("/usr/bin/id -G", "alice", 10000, 100, g, 2, &o);
	snprintf(want, sizeof(want), "%u 4711\n", (unsigned)g[0]);
	T_EQ_ERR(o.r, ERR_OK);
	T_EQ_STR(o.out, want);
	done(&o);
	run_as("/usr/bin/id -G", "alice", 10000, 100, NULL, 0, &o);
	snprintf(want, sizeof(want), "%u\n", (unsigned)g[0]);
	T_EQ_STR(o.out, want);
	done(&o);
	/* More groups than the kernel takes. */
	T_TRUE((many = calloc(70000, sizeof(*many))) != NULL);
	if (many != NULL)
		not_started("/usr/bin/true", many, 70000,
		    "authcmd_user's supplementary groups", EINVAL);
	free(many);
}

static void
test_bad_calls(void)
{
	struct authcmd_run rn;
	struct authcmd_result res;
	char *out = NULL;
	size_t len = 0;

	memset(&rn, 0, sizeof(rn));
	rn.fd = -1;
	T_EQ_ERR(authcmd_exec(&rn, &out, &len, &res), ERR_INVAL);
	T_EQ_ERR(authcmd_exec(NULL, &out, &len, &res), ERR_INVAL);
	T_EQ_INT(res.pid, 0);
}

TEST_MAIN(TEST(test_argv), TEST(test_walk), TEST(test_output),
    TEST(test_clean_child), TEST(test_status), TEST(test_deadline),
    TEST(test_cap), TEST(test_sigchld_ignored), TEST(test_limits_reset),
    TEST(test_groups), TEST(test_bad_calls))
