/* SPDX-License-Identifier: BSD-2-Clause */
/* pam_u2f/privdrop.c: privileges dropped per thread to read a user's
 * file, and given back; a restore that fails ends the process with
 * SIGABRT instead of leaving the thread at the user's ids.
 *
 * Each case runs in a forked child, so that nothing done to its
 * credentials reaches the test. As root, the failure is real: the child
 * drops to uid/gid 65534, then gives up its real and saved uid too, so
 * that the restore's setresuid really fails (EPERM). Without root,
 * privdrop does nothing (documented), which is what is checked then. */
#include "config.h"

#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "privdrop.h"
#include "test.h"

#define NOBODY 65534

static struct passwd
nobody(void)
{
	static char name[] = "nobody";
	struct passwd pw;

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = name;
	pw.pw_uid = NOBODY;
	pw.pw_gid = NOBODY;
	return pw;
}

/* Child: drop, check, optionally sabotage, restore, check. Exit codes:
 * 0 restored, 1 drop failed, 2 wrong ids while dropped, 3 wrong ids
 * after the restore, 4 the sabotage failed, 5 the restore returned
 * after the sabotage. */
static int
child(int sabotage)
{
	struct passwd pw = nobody();
	struct privdrop p;
	uid_t uid = geteuid();
	struct rlimit nocore = {0, 0};

	setrlimit(RLIMIT_CORE, &nocore);
	if (privdrop_drop(&p, &pw) != ERR_OK)
		return 1;
	if (uid == 0 && (geteuid() != NOBODY || getegid() != NOBODY))
		return 2;
	if (uid != 0 && geteuid() != uid)
		return 2;
	if (sabotage && syscall(SYS_setresuid, NOBODY, NOBODY, NOBODY) != 0)
		return 4;
	privdrop_restore(&p);
	if (sabotage)
		return 5;
	return geteuid() == uid ? 0 : 3;
}

static int
run_child(int sabotage)
{
	int st = 0;
	pid_t pid = fork();

	if (pid < 0)
		abort();
	if (pid == 0)
		_exit(child(sabotage));
	if (waitpid(pid, &st, 0) != pid)
		abort();
	return st;
}

static void
test_drop_and_restore(void)
{
	int st = run_child(0);

	T_TRUE(WIFEXITED(st));
	T_EQ_INT(WEXITSTATUS(st), 0);
}

static void
test_failed_restore_aborts(void)
{
	int st;

	if (geteuid() != 0) {
		printf("# a failing restore needs root (privdrop does nothing "
		       "otherwise)\n");
		return;
	}
	st = run_child(1);
	T_TRUE(WIFSIGNALED(st));
	T_EQ_INT(WIFSIGNALED(st) ? WTERMSIG(st) : -WEXITSTATUS(st), SIGABRT);
}

TEST_MAIN(TEST(test_drop_and_restore), TEST(test_failed_restore_aborts))
