/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd=: credentials from a command, after OpenSSH's
 * AuthorizedKeysCommand (sshd_config(5)). The command line is an
 * absolute path and arguments separated by spaces or tabs (no quoting,
 * no shell); in each argument %u is the user's name and %% a '%' (any
 * other '%' is a configuration error); with no argument the user's name
 * is the only one, as sshd does. The executable and every directory
 * above it, "/" included, must be owned by root and writable by neither
 * group nor others (a sticky world-writable directory such as /tmp is
 * refused, as by sshd); symbolic links, "." and ".." components and
 * empty components are refused. The file is opened O_PATH through that
 * walk (openat, O_NOFOLLOW, fstat of each descriptor) and executed from
 * that descriptor (execveat AT_EMPTY_PATH), so what was checked is what
 * runs. A script (#!) cannot be run from a close-on-exec descriptor (its
 * interpreter needs a path): for one, the checked path is executed by
 * name; the walk showed that only root can change what it names.
 * The child is made by clone3 with a pidfd and no exit signal, so that
 * the host's SIGCHLD disposition (ignored: the kernel would reap a
 * forked child and lose its status) and its SIGCHLD handlers
 * (waitpid(-1)) cannot take it. An exec would give it SIGCHLD back, so
 * it never execs: after its set-up it forks the command, waits for it
 * and ends as the command ended. Where clone3 is missing or refused
 * (valgrind, seccomp) it is made by fork and pidfd_open, and a lost
 * status is an error. The child: its own process group, the resource limits
 * reset while it is still root (authcmd_child.c: sudo's values, so the caller
 * of a setuid host cannot make the command fail by its limits), stdin and
 * stderr /dev/null, stdout the pipe, no other descriptor, signals default and
 * unblocked, environment PATH=/usr/bin:/bin only, working directory "/",
 * exactly the supplementary groups, group and user of the caller's choice,
 * real, effective and saved (the drop is checked: setuid(0) must fail
 * afterwards; without the privilege to set them, as in a process already
 * running as that account, the groups it holds must be exactly those). A step
 * that fails is reported over a close-on-exec pipe. The parent sleeps in poll()
 * on that pipe until the exec, on the output pipe until the output ends, then
 * on the pidfd until the child exits (without one: waitid(WNOWAIT) looks,
 * sleeping 1 to 64 ms between them), at most until the deadline; then it kills
 * the process group and the child (pidfd_send_signal) with SIGKILL and reaps
 * the child. */
#ifndef PU_AUTHCMD_H
#define PU_AUTHCMD_H

#include <stddef.h>
#include <sys/types.h>

#define AUTHCMD_OUT_MAX (64 * 1024) /* bytes of output */
#define AUTHCMD_ARGS_MAX 64         /* words of the command line */
#define AUTHCMD_ENV_PATH "PATH=/usr/bin:/bin"

/* Split cmd and expand it for user into a NULL-terminated argv
 * (malloc'd, authcmd_argv_free). ERR_CONFIG for a path that is not
 * absolute, an unknown %-token, too many words; ERR_INVAL for a user
 * name that is empty or holds a control character. The name is never
 * split: whatever it holds (blanks, quotes, ';') stays inside the one
 * argument it was expanded into. */
int authcmd_argv(const char *cmd, const char *user, char ***argv);
void authcmd_argv_free(char **argv);

/* Walk path from "/" as above; *fd an O_PATH|O_CLOEXEC descriptor of the
 * executable. ERR_FILE (errno kept) when a component cannot be opened,
 * ERR_FILE_UNSAFE with *why (static text) naming the problem, ERR_CONFIG
 * for a path that is not absolute or has empty, "." or ".."
 * components (or one of 256 bytes or more). On failure *at is the
 * length of the prefix of path that names the step that failed (1 for
 * "/"), for the log. */
int authcmd_open(const char *path, int *fd, const char **why, size_t *at);

/* The same walk to a directory (authcmd_cache=, authcache.h): every
 * step, the last one too, a directory owned by root and writable by
 * neither group nor others. *fd is O_PATH|O_DIRECTORY-like (use it with
 * the *at calls). Errors as authcmd_open ("is not a directory"). */
int authcmd_open_dir(const char *path, int *fd, const char **why, size_t *at);

struct authcmd_run {
	char *const *argv; /* authcmd_argv; argv[0] the checked path */
	int fd;            /* authcmd_open's descriptor of argv[0] */
	uid_t uid;         /* run as */
	gid_t gid;
	const gid_t *groups; /* supplementary groups (ngroups of them) */
	size_t ngroups;
	int timeout_ms; /* > 0 */
	size_t max_out; /* > 0: more output is ERR_UNAVAIL */
};

struct authcmd_result {
	pid_t pid;        /* the child, for logs (0: none started) */
	int ended;        /* it ended by itself: status is its wait status */
	int status;       /* see ended */
	int unreachable;  /* it exited with status 1: its source is
			     unreachable, the only failure a cache may
			     answer (pam_u2f(8)) */
	const char *why;  /* static: why there is no answer */
	const char *step; /* static: the set-up step that failed, or NULL */
	int err;          /* errno of a set-up failure (ERR_SYSTEM) */
	int relayed;      /* made by clone3 without exit signal; 0: the
			     fork fallback (valgrind, seccomp) */
};

/* Run the command; on ERR_OK (exit status 0) *out holds its output (NUL
 * after *len bytes; malloc'd, wiped with util_freezero). ERR_UNAVAIL
 * with res->why for a command that ran and gave no answer: another exit
 * status (res->unreachable for status 1), a signal, the deadline, output
 * over max_out, a failing read. ERR_SYSTEM with res->why and res->err
 * when it could not be started: a pipe or the clone failed, a step of
 * the child's set-up or the exec failed (res->step), or its status was
 * lost. ERR_NOMEM. The child is reaped before this returns. */
int authcmd_exec(const struct authcmd_run *run, char **out, size_t *len,
    struct authcmd_result *res);

#endif
