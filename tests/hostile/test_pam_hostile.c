/* The real pam_u2f.so through the real libpam against a malicious token,
 * and regression tests for the attacks on similar modules that
 * tests/module/ does not already cover (see SECURITY.md). Reuses the
 * module tests' harness (tests/module/modtest.h) read-only. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "b64.h"
#include "cred.h"
#include "err.h"
#include "mitm.h"
#include "modtest.h"
#include "test.h"
#include "tokenctl.h"
#include "util.h"

#define ORIGIN "pam://hostile"
#define TIMEOUT_S 2
#define OPEN_MS 1000 /* the module's TOUCH_OPEN_MS */
#define SLACK_MS 2000
#define ARGS_MAX 1024
#define NODEV "devices=unix:/nonexistent/sock timeout=1"

/* One token holding one credential of alice's, in her default file. */
struct rig {
	struct tokenctl t;
	struct cred c;
};

static int
rig_up(struct rig *g)
{
	char *line = NULL;

	memset(g, 0, sizeof(*g));
	if (tokenctl_start(&g->t, "--presence", "now", NULL) != 0)
		return -1;
	if (mt_enroll(g->t.path, ORIGIN, &g->c) != ERR_OK)
		return -1;
	if ((line = mt_line("alice", &g->c, 1)) == NULL)
		return -1;
	mt_keys(&mt.alice, line);
	free(line);
	return 0;
}

static void
rig_down(struct rig *g)
{
	cred_clear(&g->c);
	tokenctl_stop(&g->t);
}

static void
rig_service(const struct rig *g, const char *name, const char *more)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s",
	    g->t.path, more);
	mt_service(name, args);
}

static size_t
touches_of(const struct rig *g)
{
	return tokenctl_count(&g->t, "ins=02 p1=03 sw=9000");
}

/* ---- a malicious device, through libpam ---- */

struct pam_fault {
	const char *fault;
	const char *logged; /* what the debug log must name */
};

static const struct pam_fault pam_faults[] = {
    {"wrong-cid", "frame for another channel"},
    {"short-init", "INIT reply of 16 bytes"},
    {"bcnt-too-large", "message of 7610 bytes refused"},
    {"seq-out-of-order", "authentication failed: malformed reply"},
    {"missing-continuation", "authentication failed: timed out"},
    {"endless-keepalive", "U2F VERSION failed: timed out"},
    {"error-frames", "device error 0x7f"},
    {"vanish", "authentication failed: no such device"},
    {"garbage-reply", "authentication failed: malformed reply"},
    {"bad-signature", "authentication failed: malformed reply"},
    {"wrong-signature", "authentication failed: signature verification"},
    {"presence-flag-clear", "authentication failed: user presence flag"},
};

static void
test_pam_device_faults(void)
{
	struct rig g;
	struct mt_conv cv;
	char g_args[ARGS_MAX];
	size_t i;
	int64_t t0, el;
	int r;

	T_EQ_INT(rig_up(&g), 0);
	rig_service(&g, "hostile", "timeout=2");
	snprintf(g_args, sizeof(g_args),
	    "origin=" ORIGIN " devices=%s "
	    "timeout=2",
	    g.t.path);
	for (i = 0; i < sizeof(pam_faults) / sizeof(pam_faults[0]); i++) {
		const struct pam_fault *f = &pam_faults[i];

		if (tokenctl_restart(&g.t, "--presence", "now", "--fault",
			f->fault, NULL) != 0) {
			T_FAIL_AT("token did not start with %s", f->fault);
			continue;
		}
		memset(&cv, 0, sizeof(cv));
		mt_write(mt.debug, "", 0, NULL, 0600);
		t0 = util_now_ms();
		r = mt_auth("hostile", "alice", &cv);
		el = util_now_ms() - t0;
		printf("# %s: %d in %lld ms\n", f->fault, r, (long long)el);
		if (r != PAM_AUTH_ERR)
			T_FAIL_AT("%s: PAM code %d, expected PAM_AUTH_ERR",
			    f->fault, r);
		if (el >= OPEN_MS + TIMEOUT_S * 1000 + SLACK_MS)
			T_FAIL_AT("%s: took %lld ms", f->fault, (long long)el);
		if (!mt_debug_has(f->logged))
			T_FAIL_AT(
			    "%s: debug log lacks \"%s\"", f->fault, f->logged);
		/* The module's own code, not only what libpam made of it
		 * (a PAM_IGNORE would be skipped by a required line). */
		if (tokenctl_restart(&g.t, "--presence", "now", "--fault",
			f->fault, NULL) != 0)
			continue;
		if ((r = mt_direct("alice", g_args)) != PAM_AUTH_ERR)
			T_FAIL_AT(
			    "%s: pam_sm_authenticate gave %d", f->fault, r);
	}
	rig_down(&g);
}

/* The faults the token cannot put into the authentication itself, from
 * a lying proxy in front of a healthy token (tests/hostile/mitm.c). */
struct pam_mitm_fault {
	enum mitm_fault fault;
	const char *name;
	const char *logged;
};

static const struct pam_mitm_fault pam_mitm_faults[] = {
    {MITM_WRONG_NONCE, "wrong-nonce", "no security key found"},
    {MITM_WRONG_CID, "wrong-cid", "authentication failed: timed out"},
    {MITM_BCNT_ABOVE_ASKED, "bcnt-above-asked", "message of 300 bytes refused"},
    {MITM_ERROR_FRAME, "error-frame", "device error 0x7f"},
    {MITM_ENDLESS_KEEPALIVE, "endless-keepalive",
	"authentication failed: timed out"},
    {MITM_VANISH, "vanish-mid-message",
	"authentication failed: no such device"},
};

static void
test_pam_mitm_faults(void)
{
	const struct pam_mitm_fault *f;
	struct rig g;
	struct mitm *m = NULL;
	char args[ARGS_MAX];
	size_t i;
	int64_t t0, el;
	int r;

	T_EQ_INT(rig_up(&g), 0);
	for (i = 0; i < sizeof(pam_mitm_faults) / sizeof(pam_mitm_faults[0]);
	     i++) {
		f = &pam_mitm_faults[i];
		T_EQ_INT(mitm_start(&m, g.t.path, f->fault), 0);
		if (m == NULL)
			break;
		snprintf(args, sizeof(args),
		    "origin=" ORIGIN " devices=%s "
		    "timeout=%d",
		    mitm_path(m), TIMEOUT_S);
		mt_service("mitm", args);
		t0 = util_now_ms();
		r = mt_auth("mitm", "alice", NULL);
		el = util_now_ms() - t0;
		printf("# %s: %d in %lld ms\n", f->name, r, (long long)el);
		if (r != PAM_AUTH_ERR)
			T_FAIL_AT("%s: PAM code %d", f->name, r);
		if (el >= OPEN_MS + TIMEOUT_S * 1000 + SLACK_MS)
			T_FAIL_AT("%s: took %lld ms", f->name, (long long)el);
		if (!mt_debug_has(f->logged))
			T_FAIL_AT(
			    "%s: debug log lacks \"%s\"", f->name, f->logged);
		T_TRUE(mitm_hits(m) >= 1);
		mitm_stop(&m);
	}
	rig_down(&g);
}

/* A counter going backwards is not detectable by U2F modules without
 * state (SECURITY.md); the module accepts a verified signature over it
 * and logs the counter as sent. */
static void
test_pam_counter_backwards(void)
{
	struct rig g;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	rig_service(&g, "counter", "timeout=2");
	T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", "--fault",
		     "counter-backwards", NULL),
	    0);
	T_EQ_INT(mt_auth("counter", "alice", &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("(counter 99999"));
	/* ...but not a wrong signature over it. */
	T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", "--fault",
		     "counter-backwards", "--fault", "wrong-signature", NULL),
	    0);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("counter", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("signature verification failed"));
	rig_down(&g);
}

/* ---- no secrets in logs ---- */

/* A successful and a failed authentication with debug on: the debug log
 * has neither the key handle nor the public key (in any of the encodings
 * the mapping file uses), nor the mapping line. */
static void
test_no_secrets_in_log(void)
{
	struct rig g;
	struct mt_conv cv;
	char *kh = NULL, *khu = NULL, *pk = NULL, *pkh = NULL;
	int round;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	T_EQ_ERR(b64_encode(g.c.kh, g.c.kh_len, &kh), ERR_OK);
	T_EQ_ERR(b64url_encode(g.c.kh, g.c.kh_len, &khu), ERR_OK);
	/* The file stores x || y, without the 04. */
	T_EQ_ERR(b64_encode(g.c.pk + 1, g.c.pk_len - 1, &pk), ERR_OK);
	T_EQ_ERR(hex_encode(g.c.pk, g.c.pk_len, &pkh), ERR_OK);
	rig_service(&g, "secrets", "timeout=2");
	for (round = 0; round < 2 && kh && khu && pk && pkh; round++) {
		if (round == 1)
			T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now",
				     "--fault", "wrong-signature", NULL),
			    0);
		mt_write(mt.debug, "", 0, NULL, 0600);
		T_EQ_INT(mt_auth("secrets", "alice", &cv),
		    round == 0 ? PAM_SUCCESS : PAM_AUTH_ERR);
		T_TRUE(mt_debug_has("pam_u2f: "));
		/* 16 characters of each are enough to recognise them. */
		kh[16] = khu[16] = pk[16] = pkh[16] = '\0';
		T_TRUE(!mt_debug_has(kh));
		T_TRUE(!mt_debug_has(khu));
		T_TRUE(!mt_debug_has(pk));
		T_TRUE(!mt_debug_has(pkh));
	}
	free(kh);
	free(khu);
	free(pk);
	free(pkh);
	rig_down(&g);
}

/* ---- CVE-2019-12210: the debug file's descriptor in children ---- */

/* Is path open in process pid ("self" or a number)? */
static bool
fd_open_in(const char *pid, const char *path)
{
	char dir[64], fd[320], name[320];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	if ((d = opendir(dir)) == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		snprintf(fd, sizeof(fd), "%s/%s", dir, e->d_name);
		memset(name, 0, sizeof(name));
		if (readlink(fd, name, sizeof(name) - 1) > 0 &&
		    strcmp(name, path) == 0)
			found = true;
	}
	closedir(d);
	return found;
}

struct exec_probe {
	bool parent_open; /* the module holds the file open now */
	bool child_open;  /* a child that exec'd sees it too */
	bool ran;
};

/* Called from the module's prompt: fork and exec a shell that lists its
 * own descriptors, as an application that runs a helper would. */
static char *
exec_answer(struct mt_conv *cv, const char *prompt)
{
	struct exec_probe *ep = cv->arg;
	char cmd[400], out[4096];
	size_t n;
	FILE *p;

	(void)prompt;
	ep->parent_open = fd_open_in("self", mt.debug);
	snprintf(cmd, sizeof(cmd), "ls -l /proc/self/fd/ 2>/dev/null");
	if ((p = popen(cmd, "r")) != NULL) {
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		ep->ran = pclose(p) == 0 && n > 0;
		ep->child_open = strstr(out, mt.debug) != NULL;
	}
	return strdup("");
}

static void
test_debug_fd_not_inherited(void)
{
	struct exec_probe ep;
	struct mt_conv cv;
	char *line = NULL;
	struct rig g;

	memset(&ep, 0, sizeof(ep));
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL);
	rig_service(&g, "execfd", "timeout=2 interactive");
	cv.answer = exec_answer;
	cv.arg = &ep;
	T_EQ_INT(mt_auth("execfd", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.nprompts, 1);
	T_TRUE(ep.ran);
	/* The check means something only while the module has the file
	 * open; then a child must not have it. */
	T_TRUE(ep.parent_open);
	T_TRUE(!ep.child_open);
	T_TRUE(mt_debug_has("verified"));
	free(line);
	rig_down(&g);
}

/* ---- XDG_CONFIG_HOME steering a root process ---- */

static void
xdg_file(
    const char *dir, const char *text, const struct mt_user *owner, mode_t mode)
{
	char p[400];

	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/Yubico", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/Yubico/u2f_keys", dir);
	mt_write(p, text, strlen(text), owner, mode);
}

/* As root, XDG_CONFIG_HOME can point the module at any file: it must
 * still be the user's own (or root's), safe, and read as the user. */
static void
test_xdg_other_owner(void)
{
	struct rig g;
	struct mt_conv cv;
	char dir[300], *line = NULL;

	if (!mt.root) {
		printf("# needs root (file owners)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL);
	if (line == NULL)
		goto out;
	mt_keys(&mt.alice, "");
	snprintf(dir, sizeof(dir), "%s/xdg-other", mt.dir);
	rig_service(&g, "xdgown", "timeout=2");
	setenv("XDG_CONFIG_HOME", dir, 1);
	/* The control: alice's own file there works. */
	xdg_file(dir, line, &mt.alice, 0644);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_SUCCESS);
	/* bob's file, readable by all, with alice's line in it. */
	xdg_file(dir, line, &mt.bob, 0644);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("owned by another user"));
	/* alice's file, but writable by bob's group. */
	xdg_file(dir, line, &mt.alice, 0664);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("xdgown", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("writable"));
	/* (A root-owned file is accepted, as by pam-u2f, but only if alice
	 * may read it: test_xdg in tests/module/test_module.c.) */
	T_EQ_INT(touches_of(&g), 1);
	unsetenv("XDG_CONFIG_HOME");
out:
	free(line);
	rig_down(&g);
}

/* ---- CVE-2019-12209: a user's symlink to a file only root may read ---- */

/* ~/.config/Yubico is alice's, so she can make it a symlink to any
 * directory: the final-component O_NOFOLLOW does not help there, reading
 * as alice does. The target file holds a valid line for her key; read as
 * root it would let her in. */
static void
test_symlinked_dir_root_file(void)
{
	struct rig g;
	struct mt_conv cv;
	char dir[300], file[512], link[400], *line = NULL, *text = NULL;

	if (!mt.root) {
		printf("# needs root (a root-only file)\n");
		return;
	}
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	line = mt_line("alice", &g.c, 1);
	T_TRUE(line != NULL && asprintf(&text, "# ROOTSECRET\n%s", line) > 0);
	if (text == NULL)
		goto out;
	snprintf(dir, sizeof(dir), "%s/rootonly", mt.dir);
	mkdir(dir, 0755);
	snprintf(file, sizeof(file), "%s/u2f_keys", dir);
	mt_write(file, text, strlen(text), NULL, 0600);
	snprintf(link, sizeof(link), "%s/.config/Yubico", mt.alice.home);
	snprintf(file, sizeof(file), "%s/u2f_keys", link);
	unlink(file);
	T_EQ_INT(rmdir(link), 0);
	T_EQ_INT(symlink(dir, link), 0);
	rig_service(&g, "symdir", "timeout=2");
	T_EQ_INT(mt_auth("symdir", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("Permission denied"));
	T_TRUE(!mt_debug_has("ROOTSECRET"));
	T_EQ_INT(touches_of(&g), 0);
	/* The control: the same file readable by alice is used. */
	snprintf(file, sizeof(file), "%s/u2f_keys", dir);
	T_EQ_INT(chmod(file, 0644), 0);
	T_EQ_INT(mt_auth("symdir", "alice", &cv), PAM_SUCCESS);
	unlink(link);
	mkdir(link, 0755);
	if (chown(link, mt.alice.uid, mt.alice.gid) != 0)
		T_FAIL_AT("chown %s", link);
out:
	free(text);
	free(line);
	rig_down(&g);
}

/* A copy of this program, set-group-ID to alice's group: run by root it
 * gets AT_SECURE, as a set-ID program would. */
static int
secure_copy(char *path, size_t size)
{
	char buf[65536];
	ssize_t n;
	int in = -1, out = -1, r = -1;

	snprintf(path, size, "%s/secure-exe", mt.dir);
	if ((in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700)) <
		0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto fail;
	if (n < 0 || fchown(out, 0, mt.alice.gid) != 0 ||
	    fchmod(out, 02755) != 0)
		goto fail;
	r = 0;
fail:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return r;
}

/* Run exe in child mode; its exit code (see secure_child). */
static int
run_child(const char *exe)
{
	pid_t pid;
	int st;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		execl(exe, exe, "--xdg-child", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* In the child: authenticate root (known without nss_wrapper, which a
 * secure process does not preload) and tell which file was used:
 * 0 the default under the home directory, 1 the one XDG_CONFIG_HOME
 * named, 2 not a secure process although one was expected, 3 neither. */
static int
secure_child(void)
{
	const char *dir = getenv("PU_XDG_DIR");

	if (getenv("PU_EXPECT_SECURE") != NULL && getauxval(AT_SECURE) == 0)
		return 2;
	(void)mt_auth("xdgsec", "root", NULL);
	if (dir != NULL && mt_debug_has(dir))
		return 1;
	if (mt_debug_has("/.config/Yubico/u2f_keys"))
		return 0;
	return 3;
}

/* secure_getenv: in a set-ID process XDG_CONFIG_HOME is not used at all
 * (the other half of the lesson, privileges dropped, is test_xdg in
 * tests/module/test_module.c and test_xdg_other_owner above). */
static void
test_xdg_ignored_when_secure(void)
{
	char dir[300], exe[300], *pre = NULL;
	int r;

	if (!mt.root) {
		printf("# needs root (a set-group-ID copy)\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/xdg-secure", mt.dir);
	xdg_file(dir, "root:NOT-A-CREDENTIAL\n", NULL, 0644);
	mt_service("xdgsec", NODEV);
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("PU_XDG_DIR", dir, 1);
	/* The control: an ordinary process follows XDG_CONFIG_HOME. */
	T_EQ_INT(run_child("/proc/self/exe"), 1);
	T_EQ_INT(secure_copy(exe, sizeof(exe)), 0);
	setenv("PU_EXPECT_SECURE", "1", 1);
	mt_write(mt.debug, "", 0, NULL, 0600);
	/* ld.so would refuse (and complain about) nss_wrapper anyway. */
	if ((pre = getenv("LD_PRELOAD")) != NULL)
		pre = strdup(pre);
	unsetenv("LD_PRELOAD");
	r = run_child(exe);
	if (pre != NULL)
		setenv("LD_PRELOAD", pre, 1);
	free(pre);
	if (r == 2)
		printf("# no AT_SECURE here (nosuid mount?): not tested\n");
	else
		T_EQ_INT(r, 0);
	unsetenv("PU_EXPECT_SECURE");
	unsetenv("PU_XDG_DIR");
	unsetenv("XDG_CONFIG_HOME");
	unlink(exe);
}

/* ---- lines cut at a buffer size ---- */

/* alice's line: n made-up credentials, then the real one (with opts
 * appended to it, if not NULL). Longer than any line buffer. */
static char *
long_line(const struct cred *real, size_t n, const char *opts)
{
	struct cred *c = calloc(n + 1, sizeof(*c));
	uint8_t kh[64];
	char *line = NULL, *out = NULL;
	size_t i;

	if (c == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		c[i] = *real;
		c[i].kh = kh;
		c[i].kh_len = sizeof(kh);
	}
	c[n] = *real;
	memset(kh, 0x5a, sizeof(kh));
	line = mt_line("alice", c, n + 1);
	free(c);
	if (line == NULL || opts == NULL)
		return line;
	line[strlen(line) - 1] = '\0';
	if (asprintf(&out, "%s%s\n", line, opts) < 0)
		out = NULL;
	free(line);
	return out;
}

static void
test_long_line(void)
{
	struct rig g;
	struct mt_conv cv;
	char *line = NULL;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(rig_up(&g), 0);
	rig_service(&g, "long", "timeout=2 max_devices=1");
	/* 60 credentials (about 12 KB): the last one, the real one, must be
	 * seen whole... */
	line = long_line(&g.c, 60, NULL);
	T_TRUE(line != NULL && strlen(line) > 10000);
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	T_EQ_INT(mt_auth("long", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches_of(&g), 1);
	/* ...and so must its options at the very end (CTAP2 only: refused,
	 * not silently treated as a presence-only credential). */
	line = long_line(&g.c, 60, "+pin");
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	mt_write(mt.debug, "", 0, NULL, 0600);
	T_EQ_INT(mt_auth("long", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("FIDO2"));
	T_EQ_INT(touches_of(&g), 1);
	rig_down(&g);
}

/* ---- two transactions at once, one of them against a hostile key ---- */

struct thr {
	const char *service;
	const char *user;
	int result;
};

static void *
thr_run(void *arg)
{
	struct thr *th = arg;
	struct mt_conv *cv = calloc(1, sizeof(*cv));

	th->result = cv != NULL ? mt_auth(th->service, th->user, cv) : -1;
	free(cv);
	return NULL;
}

static void
test_threads_one_hostile(void)
{
	struct rig a;
	struct tokenctl tb;
	struct cred cb;
	struct thr th[2] = {{"thr_a", "alice", -1}, {"thr_b", "bob", -1}};
	char args[ARGS_MAX], *line = NULL;
	pthread_t id[2];
	int i;

	memset(&cb, 0, sizeof(cb));
	T_EQ_INT(rig_up(&a), 0);
	T_EQ_INT(tokenctl_start(&tb, "--presence", "now", NULL), 0);
	T_EQ_ERR(mt_enroll(tb.path, ORIGIN, &cb), ERR_OK);
	line = mt_line("bob", &cb, 1);
	mt_keys(&mt.bob, line != NULL ? line : "");
	free(line);
	/* alice's key answers after a touch; bob's signs wrongly. */
	T_EQ_INT(tokenctl_restart(&a.t, "--presence", "after:300", NULL), 0);
	T_EQ_INT(tokenctl_restart(&tb, "--presence", "now", "--fault",
		     "wrong-signature", NULL),
	    0);
	rig_service(&a, "thr_a", "timeout=5");
	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s timeout=5",
	    tb.path);
	mt_service("thr_b", args);
	for (i = 0; i < 2; i++)
		T_EQ_INT(pthread_create(&id[i], NULL, thr_run, &th[i]), 0);
	for (i = 0; i < 2; i++)
		pthread_join(id[i], NULL);
	T_EQ_INT(th[0].result, PAM_SUCCESS);
	T_EQ_INT(th[1].result, PAM_AUTH_ERR);
	T_EQ_INT(touches_of(&a), 1);
	cred_clear(&cb);
	tokenctl_stop(&tb);
	rig_down(&a);
}

/* ---- devices that never answer: the timeout still holds ---- */

#define SILENT_MAX 6

/* A unix: device that takes the connection (the kernel queues it) and
 * never answers: its CTAPHID INIT stalls for the whole open time. */
static int
silent_device(const char *path)
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

/* nsilent silent devices before the real one, timeout=timeout_s: the
 * PAM result and how long it took. */
static int
with_silent(struct rig *g, int nsilent, int timeout_s, int64_t *el)
{
	char args[ARGS_MAX], path[256];
	int fds[SILENT_MAX], i, n, r = -1;
	size_t len;

	n = snprintf(args, sizeof(args),
	    "origin=" ORIGIN " timeout=%d devices=", timeout_s);
	for (i = 0; i < nsilent; i++) {
		snprintf(path, sizeof(path), "%s/silent%d.sock", mt.dir, i);
		if ((fds[i] = silent_device(path)) < 0) {
			T_FAIL_AT("cannot listen on %s", path);
			nsilent = i;
			goto out;
		}
		n += snprintf(
		    args + n, sizeof(args) - (size_t)n, "unix:%s,", path);
	}
	len = strlen(args);
	snprintf(args + len, sizeof(args) - len, "%s", g->t.path);
	mt_service("silent", args);
	*el = util_now_ms();
	r = mt_auth("silent", "alice", NULL);
	*el = util_now_ms() - *el;
	printf("# %d silent device(s), timeout=%d: %d in %lld ms\n", nsilent,
	    timeout_s, r, (long long)*el);
out:
	for (i = 0; i < nsilent; i++)
		close(fds[i]);
	return r;
}

/* Each device may take OPEN_MS to open; six that stall used to hold the
 * module for six seconds and then let the key behind them answer, with
 * timeout=2. Now the timeout starts before the first open and ends the
 * opening too. */
static void
test_silent_devices_within_timeout(void)
{
	struct rig g;
	int64_t el = 0;

	T_EQ_INT(rig_up(&g), 0);
	T_EQ_INT(with_silent(&g, SILENT_MAX, TIMEOUT_S, &el), PAM_AUTH_ERR);
	T_TRUE(el < TIMEOUT_S * 1000 + 1000);
	T_TRUE(mt_debug_has("deadline reached"));
	T_EQ_INT(touches_of(&g), 0);
	/* One silent device and time left: the key behind it still works. */
	T_EQ_INT(with_silent(&g, 1, 3, &el), PAM_SUCCESS);
	T_TRUE(el < 3000 + 1000);
	T_EQ_INT(touches_of(&g), 1);
	rig_down(&g);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_pam_device_faults),
	    TEST(test_pam_mitm_faults),
	    TEST(test_pam_counter_backwards),
	    TEST(test_no_secrets_in_log),
	    TEST(test_debug_fd_not_inherited),
	    TEST(test_xdg_other_owner),
	    TEST(test_symlinked_dir_root_file),
	    TEST(test_xdg_ignored_when_secure),
	    TEST(test_long_line),
	    TEST(test_threads_one_hostile),
	    TEST(test_silent_devices_within_timeout),
	};
	int r;

	if ((r = mt_setup(argv)) != 0)
		return r == 77 ? 0 : r;
	if (argc > 1 && strcmp(argv[1], "--xdg-child") == 0)
		return secure_child();
	r = test_run(cases, sizeof(cases) / sizeof(cases[0]));
	mt_teardown();
	return r;
}
