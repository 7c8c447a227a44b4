/* SPDX-License-Identifier: BSD-2-Clause */
/* The remote-session rule of remote= (pam_u2f/remote.h, remsess.h):
 * logind's view read from a fake /proc and /run of the test's own (the
 * session id from cgroup v2 and v1 lines and from the audit session id,
 * the REMOTE= line, files that must be refused), then the whole rule on
 * a real libpam handle: PAM_RHOST first, logind next, the SSH_*
 * environment only without an answer from logind and never for
 * remote=ignore. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/err.h"
#include "remote.h"
#include "remsess.h"
#include "test.h"

static char root[64];
static char proc[128], run[128];

static void
put(const char *rel, const char *text, mode_t mode)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	if ((f = fopen(path, "w")) == NULL) {
		T_FAIL_AT("cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

/* PROC/self/environ: len bytes of text (NUL-separated). */
static void
put_env(const char *text, size_t len)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/environ", proc);
	unlink(path);
	if ((f = fopen(path, "w")) == NULL) {
		T_FAIL_AT("cannot write %s", path);
		return;
	}
	T_EQ_INT(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void
rm(const char *rel)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
}

/* A fresh fake tree: proc/self, and run/systemd/sessions if logind. */
static void
tree(bool logind)
{
	char cmd[300];

	if (root[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		T_TRUE(system(cmd) == 0);
	}
	snprintf(root, sizeof(root), "/tmp/test_remote.XXXXXX");
	T_TRUE(mkdtemp(root) != NULL);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/self' '%s'%s", proc, run,
	    logind ? "/systemd/sessions" : "");
	T_TRUE(system(cmd) == 0);
}

static int
verdict(char *id)
{
	const struct remsess_roots r = {proc, run};
	const char *why = NULL;
	enum remsess_verdict v = remsess_logind(&r, id, &why);

	T_TRUE(why != NULL);
	return (int)v;
}

#define V2 "0::/user.slice/user-1000.slice/session-7.scope\n"

static void
test_cgroup_lines(void)
{
	static const struct {
		const char *line, *id;
	} rows[] = {
	    {"0::/user.slice/user-1000.slice/session-7.scope", "7"},
	    {"1:name=systemd:/user.slice/user-1000.slice/session-c2.scope",
		"c2"},
	    {"0::/user.slice/user-0.slice/session-12.scope/sub", "12"},
	    {"0::/session-7.scope", "7"},
	    {"4:memory:/user.slice/user-1000.slice/session-7.scope", NULL},
	    {"0::/user.slice/user-1000.slice/session-.scope", NULL},
	    {"0::/user.slice/user-1000.slice/session-7.scope.d", NULL},
	    {"0::/user.slice/user-1000.slice/session-7_x.scope", NULL},
	    {"0::/user.slice/user-1000.slice/session-"
	     "123456789012345678901234567890123.scope",
		NULL},
	    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
	     "x.scope",
		NULL},
	    {"0::/", NULL},
	    {"session-7.scope", NULL},
	};
	char id[REMSESS_ID_MAX + 1];
	size_t i;
	bool got;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(id, 0, sizeof(id));
		got =
		    remsess_cgroup_line(rows[i].line, strlen(rows[i].line), id);
		if (got != (rows[i].id != NULL) ||
		    (got && strcmp(id, rows[i].id) != 0))
			T_FAIL_AT("%s: got %d '%s'", rows[i].line, got, id);
	}
}

static void
test_logind(void)
{
	char id[REMSESS_ID_MAX + 1];

	tree(false);
	put("proc/self/cgroup", V2, 0644);
	T_EQ_INT(verdict(id), REMSESS_UNKNOWN); /* no logind */
	tree(true);
	put("proc/self/cgroup", V2, 0644);
	T_EQ_INT(verdict(id), REMSESS_UNKNOWN); /* logind lost it */
	put("run/systemd/sessions/7", "UID=1000\nREMOTE=1\nSERVICE=sshd\n",
	    0644);
	T_EQ_INT(verdict(id), REMSESS_REMOTE);
	T_EQ_STR(id, "7");
	put("run/systemd/sessions/7", "REMOTE=1", 0644); /* no newline */
	T_EQ_INT(verdict(id), REMSESS_REMOTE);
	put("run/systemd/sessions/7", "UID=1000\nREMOTE=0\n", 0644);
	T_EQ_INT(verdict(id), REMSESS_LOCAL);
	put("run/systemd/sessions/7", "UID=1000\n", 0644);
	T_EQ_INT(verdict(id), REMSESS_LOCAL);
	put("run/systemd/sessions/7", "REMOTE=10\nXREMOTE=1\n# REMOTE=1\n",
	    0644);
	T_EQ_INT(verdict(id), REMSESS_LOCAL);
	/* cgroup v1, the systemd hierarchy among others */
	put("proc/self/cgroup",
	    "5:memory:/session-9.scope\n"
	    "1:name=systemd:/user.slice/user-1000.slice/session-7.scope\n",
	    0644);
	put("run/systemd/sessions/7", "REMOTE=1\n", 0644);
	T_EQ_INT(verdict(id), REMSESS_REMOTE);
	T_EQ_STR(id, "7");
}

/* No session in the cgroup: the audit session id, unless unset. */
static void
test_audit_id(void)
{
	char id[REMSESS_ID_MAX + 1];

	tree(true);
	put("proc/self/cgroup", "0::/system.slice/cron.service\n", 0644);
	put("run/systemd/sessions/12", "REMOTE=1\n", 0644);
	T_EQ_INT(verdict(id), REMSESS_UNKNOWN); /* no sessionid file */
	put("proc/self/sessionid", "12", 0644);
	T_EQ_INT(verdict(id), REMSESS_REMOTE);
	T_EQ_STR(id, "12");
	put("proc/self/sessionid", "4294967295", 0644);
	T_EQ_INT(verdict(id), REMSESS_UNKNOWN);
	rm("proc/self/cgroup");
	put("proc/self/sessionid", "12\n", 0644);
	T_EQ_INT(verdict(id), REMSESS_REMOTE);
}

/* A state file that is not what logind writes gives no verdict. */
static void
test_refused_files(void)
{
	char path[300], target[300];

	tree(true);
	put("proc/self/cgroup", V2, 0644);
	put("run/systemd/sessions/other", "REMOTE=1\n", 0644);
	snprintf(path, sizeof(path), "%s/systemd/sessions/7", run);
	snprintf(target, sizeof(target), "%s/systemd/sessions/other", run);
	T_TRUE(symlink(target, path) == 0);
	T_EQ_INT(verdict(NULL), REMSESS_ERROR);
	unlink(path);
	put("run/systemd/sessions/7", "REMOTE=0\n", 0664);
	T_EQ_INT(verdict(NULL), REMSESS_ERROR);
	put("run/systemd/sessions/7", "REMOTE=0\n", 0646);
	T_EQ_INT(verdict(NULL), REMSESS_ERROR);
	rm("run/systemd/sessions/7");
	T_TRUE(mkdir(path, 0755) == 0);
	T_EQ_INT(verdict(NULL), REMSESS_ERROR);
	rmdir(path);
	put("proc/self/cgroup", V2, 0622);
	T_EQ_INT(verdict(NULL), REMSESS_ERROR);
}

static int
conv(int n, const struct pam_message **m, struct pam_response **r, void *a)
{
	(void)n;
	(void)m;
	(void)r;
	(void)a;
	return PAM_CONV_ERR;
}

/* remote_session on h with PAM_RHOST rhost (NULL: unset). */
static int
rule(pam_handle_t *h, const char *rhost, bool trusted, bool *remote)
{
	const struct remsess_roots r = {proc, run};
	const char *why = NULL;
	int e;

	T_EQ_INT(pam_set_item(h, PAM_RHOST, rhost), PAM_SUCCESS);
	*remote = !trusted; /* must be overwritten */
	e = remote_session(h, &r, trusted, remote, &why);
	T_TRUE(why != NULL);
	return e;
}

static void
test_rule(void)
{
	const struct pam_conv pc = {conv, NULL};
	static const char *const local[] = {
	    "", "localhost", "LOCALHOST", "127.0.0.1", "::1", NULL};
	char host[256] = "";
	pam_handle_t *h = NULL;
	bool rem;
	size_t i;

	unsetenv("SSH_CONNECTION");
	unsetenv("SSH_CLIENT");
	tree(true);
	put("proc/self/cgroup", V2, 0644);
	put("run/systemd/sessions/7", "REMOTE=0\n", 0644);
	put("x", "", 0644); /* a service with no module */
	T_EQ_INT(pam_start_confdir("x", "alice", &pc, root, &h), PAM_SUCCESS);
	/* 1. PAM_RHOST naming another host wins over logind's "local" */
	T_EQ_ERR(rule(h, "192.0.2.7", true, &rem), ERR_OK);
	T_TRUE(rem);
	T_EQ_ERR(rule(h, "client.example.org", false, &rem), ERR_OK);
	T_TRUE(rem);
	/* ... this host or loopback does not: logind says local */
	T_TRUE(gethostname(host, sizeof(host) - 1) == 0);
	T_EQ_ERR(rule(h, host, false, &rem), ERR_OK);
	T_TRUE(!rem);
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		T_EQ_ERR(rule(h, local[i], false, &rem), ERR_OK);
		if (rem)
			T_FAIL_AT("PAM_RHOST %s: remote", local[i]);
	}
	/* 2. logind "local" is believed over the environment */
	T_EQ_INT(pam_putenv(h, "SSH_CONNECTION=192.0.2.7 5 192.0.2.1 22"),
	    PAM_SUCCESS);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(!rem);
	put("run/systemd/sessions/7", "REMOTE=1\n", 0644);
	T_EQ_ERR(rule(h, NULL, true, &rem), ERR_OK);
	T_TRUE(rem);
	/* a file logind's cannot be: an error, never an answer */
	put("run/systemd/sessions/7", "REMOTE=1\n", 0666);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_SYSTEM);
	T_EQ_ERR(rule(h, NULL, true, &rem), ERR_SYSTEM);
	/* 3. no logind: the environment, PAM's then the process's, but
	 * not for remote=ignore (trusted) */
	tree(false);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(rem);
	T_EQ_ERR(rule(h, NULL, true, &rem), ERR_OK);
	T_TRUE(!rem);
	T_EQ_INT(pam_putenv(h, "SSH_CONNECTION"), PAM_SUCCESS);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(!rem);
	setenv("SSH_CLIENT", "192.0.2.7 5 22", 1);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(rem);
	setenv("SSH_CLIENT", "", 1);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(!rem);
	unsetenv("SSH_CLIENT");
	/* the environment the process started with (sudo empties the
	 * others before PAM runs): /proc/self/environ */
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(!rem);
	put_env("A=1\0SSH_CONNECTION=192.0.2.7 5 192.0.2.1 22\0B=2", 47);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(rem);
	T_EQ_ERR(rule(h, NULL, true, &rem), ERR_OK);
	T_TRUE(!rem);
	put_env("SSH_CLIENT=192.0.2.7 5 22", 25); /* last, no NUL */
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(rem);
	put_env("SSH_CONNECTION=\0XSSH_CLIENT=1\0SSH_CLIENTX=1\0", 44);
	T_EQ_ERR(rule(h, NULL, false, &rem), ERR_OK);
	T_TRUE(!rem);
	pam_end(h, PAM_SUCCESS);
}

static void
test_cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	T_TRUE(root[0] != '\0' && system(cmd) == 0);
}

TEST_MAIN(TEST(test_cgroup_lines), TEST(test_logind), TEST(test_audit_id),
    TEST(test_refused_files), TEST(test_rule), TEST(test_cleanup))
