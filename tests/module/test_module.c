/* The real pam_u2f.so through the real libpam (pam_start_confdir), with
 * nss_wrapper users and software tokens on unix: sockets. Each case
 * writes its own service file, mapping files and tokens. */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "cred.h"
#include "b64.h"
#include "err.h"
#include "modtest.h"
#include "mtsign.h"
#include "test.h"
#include "tokenctl.h"
#include "util.h"

#define ORIGIN "pam://mt"
#define ARGS_MAX 1024

/* A token holding one credential of user's, written to the user's
 * default mapping file. */
static int
one_token(struct tokenctl *t, const char *presence, const struct mt_user *u,
    struct cred *c)
{
	char *line = NULL;

	memset(c, 0, sizeof(*c));
	/* Registration needs a touch: enroll first, then apply presence. */
	if (tokenctl_start(t, "--presence", "now", NULL) != 0)
		return -1;
	if (mt_enroll(t->path, ORIGIN, c) != ERR_OK)
		return -1;
	if (strcmp(presence, "now") != 0 &&
	    tokenctl_restart(t, "--presence", presence, NULL) != 0)
		return -1;
	if ((line = mt_line(u->name, c, 1)) == NULL)
		return -1;
	mt_keys(u, line);
	free(line);
	return 0;
}

static void
service_dev(const char *name, const struct tokenctl *t, const char *more)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s", t->path,
	    more);
	mt_service(name, args);
}

static size_t
touches(const struct tokenctl *t)
{
	return tokenctl_count(t, "ins=02 p1=03 sw=9000");
}

static void
test_success(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	service_dev("success", &t, "timeout=5");
	T_EQ_INT(mt_auth("success", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&t), 1);
	T_TRUE(mt_debug_has("verified"));
	T_EQ_INT(cv.nprompts, 0);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_wrong_token(void)
{
	struct tokenctl t, other;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	T_EQ_INT(tokenctl_start(&other, "--presence", "now", NULL), 0);
	service_dev("wrongtok", &other, "timeout=5 cue");
	T_EQ_INT(mt_auth("wrongtok", "alice", &cv), PAM_AUTH_ERR);
	T_EQ_INT(touches(&other), 0);
	/* The cue is shown only when a registered key is present. */
	T_EQ_INT(cv.ninfo, 0);
	cred_clear(&c);
	tokenctl_stop(&t);
	tokenctl_stop(&other);
}

static void
test_presence_denied(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	int64_t t0, el;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "never", &mt.alice, &c), 0);
	service_dev("denied", &t, "timeout=1");
	t0 = util_now_ms();
	T_EQ_INT(mt_auth("denied", "alice", &cv), PAM_AUTH_ERR);
	el = util_now_ms() - t0;
	T_TRUE(el >= 900 && el < 8000);
	T_EQ_INT(touches(&t), 0);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_second_token(void)
{
	struct tokenctl a, b;
	struct cred c;
	struct mt_conv cv;
	char args[ARGS_MAX];

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(tokenctl_start(&a, "--presence", "now", NULL), 0);
	T_EQ_INT(one_token(&b, "now", &mt.alice, &c), 0);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s,%s "
	    "timeout=5 cue",
	    a.path, b.path);
	mt_service("second", args);
	T_EQ_INT(mt_auth("second", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&a), 0);
	T_EQ_INT(touches(&b), 1);
	T_EQ_INT(cv.ninfo, 1);
	T_TRUE(strstr(cv.shown, "I:Please touch the device.\n") != NULL);
	cred_clear(&c);
	tokenctl_stop(&a);
	tokenctl_stop(&b);
}

static void
test_five_creds_one_touch(void)
{
	struct tokenctl t;
	struct cred c[5];
	struct mt_conv cv;
	char *line;
	size_t i;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	for (i = 0; i < 5; i++)
		T_EQ_ERR(mt_enroll(t.path, ORIGIN, &c[i]), ERR_OK);
	line = mt_line("alice", c, 5);
	T_TRUE(line != NULL);
	mt_keys(&mt.alice, line != NULL ? line : "");
	service_dev("five", &t, "timeout=5");
	T_EQ_INT(mt_auth("five", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&t), 1);
	free(line);
	cred_free_list(NULL, 0);
	for (i = 0; i < 5; i++)
		cred_clear(&c[i]);
	tokenctl_stop(&t);
}

static void
test_old_format(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char *line, args[ARGS_MAX];

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	T_EQ_ERR(mt_enroll(t.path, "pam://old-appid", &c), ERR_OK);
	line = mt_line_old("alice", &c);
	T_TRUE(line != NULL);
	mt_keys(&mt.alice, line != NULL ? line : "");
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " appid=pam://old-appid"
	    " devices=%s timeout=5",
	    t.path);
	mt_service("old", args);
	T_EQ_INT(mt_auth("old", "alice", &cv), PAM_SUCCESS);
	/* Without appid= the line is signed under the origin: refused. */
	service_dev("old2", &t, "timeout=5");
	T_EQ_INT(mt_auth("old2", "alice", &cv), PAM_AUTH_ERR);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_sshformat(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char *file, path[300], args[ARGS_MAX];

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	T_EQ_ERR(mt_enroll(t.path, "ssh:", &c), ERR_OK);
	file = mt_sshfile(&c, 0x01);
	T_TRUE(file != NULL);
	snprintf(path, sizeof(path), "%s/id_sk", mt.alice.home);
	mt_write(path, file != NULL ? file : "", file ? strlen(file) : 0,
	    &mt.alice, 0600);
	snprintf(args, sizeof(args),
	    "sshformat authfile=id_sk devices=%s "
	    "timeout=5",
	    t.path);
	mt_service("ssh", args);
	T_EQ_INT(mt_auth("ssh", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&t), 1);
	/* sshformat with another origin is a configuration error. */
	snprintf(args, sizeof(args),
	    "sshformat origin=pam://x "
	    "authfile=id_sk devices=%s",
	    t.path);
	mt_service("ssh2", args);
	T_EQ_INT(mt_auth("ssh2", "alice", &cv), PAM_SERVICE_ERR);
	free(file);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* ---- mapping-file faults: no device is ever reached ---- */

#define NODEV "devices=unix:/nonexistent/sock timeout=1"

/* A well-formed line for user with the point of the U2F example. */
static char *
dummy_line(const char *user, const char *opts)
{
	static const char pk[] =
	    "04b174bc49c7ca254b70d2e5c207cee9cf174820eb"
	    "d77ea3c65508c26da51b657c1cc6b952f8621697936482da0a6d3d3826a59095"
	    "daf6cd7c03e2e60385d2f6d9";
	struct cred c;
	uint8_t kh[64];
	char *line = NULL, *out = NULL;

	memset(&c, 0, sizeof(c));
	memset(kh, 0x5a, sizeof(kh));
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.pk = test_unhex(pk, &c.pk_len);
	c.type = COSE_ES256;
	c.flags = CRED_PRESENCE;
	line = mt_line(user, &c, 1);
	free(c.pk);
	if (line != NULL && opts != NULL) {
		line[strlen(line) - 1] = '\0';
		if (asprintf(&out, "%s%s\n", line, opts) < 0)
			out = NULL;
		free(line);
		return out;
	}
	return line;
}

static int
run(const char *svc, const char *args, const char *user)
{
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	mt_service(svc, args);
	return mt_auth(svc, user, &cv);
}

static void
keys_path(char *p, size_t n)
{
	mt_keys_path(&mt.alice, p, n);
}

static void
test_file_symlink(void)
{
	char path[300], target[300];
	char *line = dummy_line("alice", NULL);

	snprintf(target, sizeof(target), "%s/real_keys", mt.alice.home);
	mt_write(target, line, strlen(line), &mt.alice, 0644);
	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(symlink(target, path), 0);
	T_EQ_INT(run("symlink", NODEV, "alice"), PAM_AUTHINFO_UNAVAIL);
	T_EQ_INT(
	    run("symlink", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("u2f_keys"));
	free(line);
}

static void
test_file_fifo(void)
{
	char path[300];
	int64_t t0 = util_now_ms();

	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(mkfifo(path, 0644), 0);
	if (mt.root)
		T_EQ_INT(chown(path, mt.alice.uid, mt.alice.gid), 0);
	T_EQ_INT(run("fifo", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(util_now_ms() - t0 < 3000);
	T_TRUE(mt_debug_has("not a regular file"));
	unlink(path);
	/* A directory, too. */
	T_EQ_INT(mkdir(path, 0755), 0);
	T_EQ_INT(run("dir", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	rmdir(path);
}

static void
test_file_modes(void)
{
	char path[300];
	char *line = dummy_line("alice", NULL);

	keys_path(path, sizeof(path));
	mt_write(path, line, strlen(line), &mt.alice, 0664);
	T_EQ_INT(run("gw", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("writable"));
	mt_write(path, line, strlen(line), &mt.alice, 0646);
	T_EQ_INT(run("ww", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	/* Unreadable is not "no credentials" (CVE-2020-24612). */
	mt_write(path, line, strlen(line), &mt.alice, 0000);
	if (access(path, R_OK) != 0 || mt.root)
		T_EQ_INT(run("unread", NODEV " nouserok", "alice"),
		    PAM_AUTHINFO_UNAVAIL);
	if (mt.root) {
		/* Owned by another user (bob). */
		mt_write(path, line, strlen(line), &mt.bob, 0644);
		T_EQ_INT(run("owner", NODEV " nouserok", "alice"),
		    PAM_AUTHINFO_UNAVAIL);
		T_TRUE(mt_debug_has("owned by another user"));
	} else
		printf("# other-owner check needs root\n");
	free(line);
}

static void
test_file_malformed(void)
{
	char text[512];
	char *bob = dummy_line("bob", NULL);

	/* The user's malformed line: fails closed; the line's text never
	 * reaches the log, its number does. */
	snprintf(
	    text, sizeof(text), "# comment\nalice:SECRETGARBAGE,xyz\n%s", bob);
	mt_keys(&mt.alice, text);
	T_EQ_INT(run("malformed", NODEV, "alice"), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("line 2"));
	T_TRUE(!mt_debug_has("SECRETGARBAGE"));
	T_EQ_INT(
	    run("malformed", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	free(bob);
}

static void
test_file_nul(void)
{
	char path[300];
	char *line = dummy_line("alice", NULL);
	size_t n = strlen(line);

	line[n / 2] = '\0';
	keys_path(path, sizeof(path));
	mt_write(path, line, n, &mt.alice, 0644);
	T_EQ_INT(run("nul", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	free(line);
}

static void
test_file_too_big(void)
{
	char path[300];
	size_t n = 1024 * 1024 + 10;
	char *big = malloc(n);

	T_TRUE(big != NULL);
	if (big == NULL)
		return;
	memset(big, '#', n);
	big[n - 1] = '\n';
	keys_path(path, sizeof(path));
	mt_write(path, big, n, &mt.alice, 0644);
	T_EQ_INT(run("big", NODEV " nouserok", "alice"), PAM_AUTHINFO_UNAVAIL);
	free(big);
}

static void
test_no_credentials(void)
{
	char path[300];
	char *bob = dummy_line("bob", NULL);

	mt_keys(&mt.alice, bob);
	T_EQ_INT(run("noline", NODEV, "alice"), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	mt_keys(&mt.alice, "alice:\n");
	T_EQ_INT(run("empty", NODEV, "alice"), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	keys_path(path, sizeof(path));
	unlink(path);
	T_EQ_INT(run("nofile", NODEV, "alice"), PAM_USER_UNKNOWN);
	T_EQ_INT(mt_direct("alice", NODEV " nouserok"), PAM_IGNORE);
	/* Through a stack: PAM_IGNORE lets the next module decide. */
	mt_service_lines("stack", NODEV " nouserok",
	    "auth required "
	    "pam_permit.so\n");
	T_EQ_INT(mt_auth("stack", "alice", NULL), PAM_SUCCESS);
	mt_service_lines("stack2", NODEV " nouserok",
	    "auth required "
	    "pam_deny.so\n");
	T_EQ_INT(mt_auth("stack2", "alice", NULL), PAM_AUTH_ERR);
	/* A user unknown to the system is never "no credentials". */
	T_EQ_INT(mt_direct("zed", NODEV " nouserok"), PAM_USER_UNKNOWN);
	free(bob);
}

static void
test_ctap2_credentials(void)
{
	char *line = dummy_line("alice", "+pin");

	mt_keys(&mt.alice, line);
	T_EQ_INT(run("pin", NODEV, "alice"), PAM_AUTHINFO_UNAVAIL);
	T_TRUE(mt_debug_has("needs FIDO2"));
	free(line);
	line = dummy_line("alice", "+verification");
	mt_keys(&mt.alice, line);
	T_EQ_INT(run("uv", NODEV, "alice"), PAM_AUTHINFO_UNAVAIL);
	free(line);
}

/* ---- arguments ---- */

static void
test_bad_arguments(void)
{
	static const char *const bad[] = {
	    "frobnicate",
	    "timeout=0",
	    "timeout=3601",
	    "timeout=abc",
	    "timeout=",
	    "timeout=5x",
	    "max_devices=-1",
	    "origin=",
	    "userpresence=2",
	    "userverification=1",
	    "pinverification=1",
	    "cue=1",
	    "debug=yes",
	    "devices=",
	    "devices=hidraw0",
	    "authfile=",
	    "conf=",
	};
	char args[ARGS_MAX];
	char *line = dummy_line("alice", NULL);
	size_t i;

	mt_keys(&mt.alice, line);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args), NODEV " %s", bad[i]);
		if (run("badarg", args, "alice") != PAM_SERVICE_ERR)
			T_FAIL_AT("argument %s not refused", bad[i]);
	}
	T_EQ_INT(run("badarg", NODEV " frobnicate", "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("frobnicate"));
	T_EQ_INT(
	    run("uv", NODEV " userverification=1", "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("not supported yet"));
	/* Accepted values still reach the (absent) device. */
	T_EQ_INT(run("ok",
		     NODEV " userverification=0 pinverification=-1 "
			   "userpresence=1 max_devices=0",
		     "alice"),
	    PAM_AUTH_ERR);
	free(line);
}

static void
test_conf_refused(void)
{
	char args[ARGS_MAX], path[300];

	/* More in test_confmod (tests/conf.mk). */
	snprintf(path, sizeof(path), "%s/bad.conf", mt.dir);
	mt_write(path, "bogus = 1\n", 10, NULL, 0644);
	snprintf(args, sizeof(args), NODEV " conf=%s", path);
	T_EQ_INT(run("conf", args, "alice"), PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has(mt.root
		? "bad.conf:1: no such option 'bogus'"
		: "bad.conf: refused: the file is not owned by root"));
	T_EQ_INT(run("conf", NODEV " conf=/nonexistent/x.conf", "alice"),
	    PAM_SERVICE_ERR);
	T_TRUE(mt_debug_has("No such file"));
}

static void
test_alwaysok(void)
{
	char *line = dummy_line("alice", NULL);

	mt_keys(&mt.alice, line);
	T_EQ_INT(run("alwaysok", NODEV " alwaysok", "alice"), PAM_SUCCESS);
	T_TRUE(mt_debug_has("alwaysok"));
	/* But never for a bad argument. */
	T_EQ_INT(
	    run("alwaysok", NODEV " alwaysok bogus", "alice"), PAM_SERVICE_ERR);
	free(line);
}

static void
test_no_key(void)
{
	struct mt_conv cv;
	char *line = dummy_line("alice", NULL);
	int64_t t0;

	memset(&cv, 0, sizeof(cv));
	mt_keys(&mt.alice, line);
	mt_service("nokey", "devices=unix:/nonexistent/sock timeout=30");
	t0 = util_now_ms();
	T_EQ_INT(mt_auth("nokey", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(util_now_ms() - t0 < 3000); /* at once, not after 30 s */
	T_TRUE(strstr(cv.shown, "E:no security key found\n") != NULL);
	/* interactive: prompt, then wait for a key up to the timeout. */
	memset(&cv, 0, sizeof(cv));
	mt_service("nokey2",
	    "devices=unix:/nonexistent/sock timeout=1 "
	    "interactive [prompt=Plug it in, then press ENTER]");
	t0 = util_now_ms();
	T_EQ_INT(mt_auth("nokey2", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(util_now_ms() - t0 >= 900);
	T_TRUE(strstr(cv.shown, "P:Plug it in, then press ENTER\n") != NULL);
	free(line);
}

static void
test_null_answers(void)
{
	struct mt_conv cv;
	char *line = dummy_line("alice", NULL);

	mt_keys(&mt.alice, line);
	mt_service("nullint", NODEV " interactive");
	memset(&cv, 0, sizeof(cv));
	cv.null_answer = true;
	T_EQ_INT(mt_auth("nullint", "alice", &cv), PAM_CONV_ERR);
	memset(&cv, 0, sizeof(cv));
	cv.null_resp = true;
	T_EQ_INT(mt_auth("nullint", "alice", &cv), PAM_CONV_ERR);
	memset(&cv, 0, sizeof(cv));
	cv.fail = true;
	T_EQ_INT(mt_auth("nullint", "alice", &cv), PAM_CONV_ERR);
	mt_service("nullman", "origin=" ORIGIN " manual");
	memset(&cv, 0, sizeof(cv));
	cv.null_answer = true;
	T_EQ_INT(mt_auth("nullman", "alice", &cv), PAM_CONV_ERR);
	memset(&cv, 0, sizeof(cv));
	cv.fail = true;
	T_EQ_INT(mt_auth("nullman", "alice", &cv), PAM_CONV_ERR);
	/* Empty answers are answers, but do not verify. */
	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mt_auth("nullman", "alice", &cv), PAM_AUTH_ERR);
	T_EQ_INT(cv.nprompts, 4);
	free(line);
}

/* ---- manual mode, answered by a key the test holds ---- */

struct manual_script {
	struct mt_key *k;
	const char *sign_rp;
	uint8_t flags;
	char *lines[4];
	int next;
};

static char *
manual_answer(struct mt_conv *cv, const char *prompt)
{
	struct manual_script *ms = cv->arg;
	const char *p;
	char cdh64[64], rp[128];
	uint8_t *cdh = NULL;
	size_t n = 0;

	(void)prompt;
	if (ms->next == 0) {
		/* The challenge: the second info message. */
		p = strstr(cv->shown, "\nI:");
		if (p == NULL ||
		    sscanf(p + 3, "%63[^\n]\n%127[^\n]", cdh64, rp) != 2 ||
		    b64_decode(cdh64, strlen(cdh64), &cdh, &n) != ERR_OK ||
		    n != 32)
			return strdup("");
		mt_answer(ms->k, cdh, rp, ms->sign_rp ? ms->sign_rp : rp,
		    ms->flags, 7, ms->lines);
		free(cdh);
	}
	if (ms->next >= 4 || ms->lines[ms->next] == NULL)
		return strdup("");
	return strdup(ms->lines[ms->next++]);
}

static int
manual_run(
    const char *args, uint8_t flags, const char *sign_rp, struct mt_conv *cv)
{
	struct manual_script ms;
	struct cred c;
	uint8_t point[65], kh[48];
	char *line;
	int i, r;

	memset(&ms, 0, sizeof(ms));
	memset(&c, 0, sizeof(c));
	memset(cv, 0, sizeof(*cv));
	if ((ms.k = mt_key_new(point)) == NULL)
		return -1;
	memset(kh, 0x33, sizeof(kh));
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.pk = point;
	c.pk_len = 65;
	c.type = COSE_ES256;
	c.flags = CRED_PRESENCE;
	line = mt_line("alice", &c, 1);
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	ms.flags = flags;
	ms.sign_rp = sign_rp;
	cv->answer = manual_answer;
	cv->arg = &ms;
	mt_service("manual", args);
	r = mt_auth("manual", "alice", cv);
	for (i = 0; i < 4; i++)
		free(ms.lines[i]);
	mt_key_free(ms.k);
	return r;
}

static void
test_manual(void)
{
	struct mt_conv cv;

	T_EQ_INT(manual_run("origin=" ORIGIN " manual", 0x01, NULL, &cv),
	    PAM_SUCCESS);
	T_EQ_INT(cv.nprompts, 4);
	/* fido2-assert takes the device as its operand (-d is debug) */
	T_TRUE(strstr(cv.shown, "'fido2-assert -G -p $DEVICE'") != NULL);
	T_TRUE(strstr(cv.shown, "\n" ORIGIN "\n") != NULL);
	/* Presence flag clear: refused unless userpresence=0. */
	T_EQ_INT(manual_run("origin=" ORIGIN " manual", 0x00, NULL, &cv),
	    PAM_AUTH_ERR);
	T_EQ_INT(manual_run("origin=" ORIGIN " manual userpresence=0", 0x00,
		     NULL, &cv),
	    PAM_SUCCESS);
	/* Signed for another relying party. */
	T_EQ_INT(
	    manual_run("origin=" ORIGIN " manual", 0x01, "pam://evil", &cv),
	    PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("not for the challenge shown"));
	T_TRUE(!mt_debug_has("signature verification failed"));
}

/* ---- where the mapping file is, and as whom it is read ---- */

static void
test_expand(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char dir[300], path[400], args[ARGS_MAX], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	line = mt_line("alice", &c, 1);
	snprintf(dir, sizeof(dir), "%s/keys", mt.dir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/alice.keys", dir);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	mt_keys(&mt.alice, "");
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s timeout=5 "
	    "expand authfile=%s/%%u.keys",
	    t.path, dir);
	mt_service("expand", args);
	T_EQ_INT(mt_auth("expand", "alice", &cv), PAM_SUCCESS);
	/* Without expand, "%u" is literal: no such file. */
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s timeout=5 "
	    "authfile=%s/%%u.keys",
	    t.path, dir);
	mt_service("noexpand", args);
	T_EQ_INT(mt_auth("noexpand", "alice", &cv), PAM_USER_UNKNOWN);
	/* %h: relative to the home directory. */
	snprintf(path, sizeof(path), "%s/my.keys", mt.alice.home);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s timeout=5 "
	    "expand authfile=%%h/my.keys",
	    t.path);
	mt_service("expandh", args);
	T_EQ_INT(mt_auth("expandh", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(run("expandbad", NODEV " expand authfile=/x/%q", "alice"),
	    PAM_SERVICE_ERR);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_openasuser(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char path[300], args[ARGS_MAX], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	line = mt_line("alice", &c, 1);
	/* A central file only root may read. */
	snprintf(path, sizeof(path), "%s/central_keys", mt.dir);
	mt_write(path, line, strlen(line), NULL, 0600);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s timeout=5 "
	    "authfile=%s",
	    t.path, path);
	mt_service("central", args);
	T_EQ_INT(mt_auth("central", "alice", &cv), PAM_SUCCESS);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s timeout=5 "
	    "openasuser authfile=%s",
	    t.path, path);
	mt_service("asuser", args);
	if (mt.root) {
		/* Read as alice: permission denied, not "no credentials". */
		T_EQ_INT(mt_auth("asuser", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
		T_TRUE(mt_debug_has("Permission denied"));
		chmod(path, 0644);
	}
	T_EQ_INT(mt_auth("asuser", "alice", &cv), PAM_SUCCESS);
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_xdg(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char dir[300], path[400], *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	line = mt_line("alice", &c, 1);
	mt_keys(&mt.alice, "");
	snprintf(dir, sizeof(dir), "%s/xdg", mt.dir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/Yubico", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/Yubico/u2f_keys", dir);
	mt_write(path, line, strlen(line), &mt.alice, 0644);
	setenv("XDG_CONFIG_HOME", dir, 1);
	service_dev("xdg", &t, "timeout=5");
	T_EQ_INT(mt_auth("xdg", "alice", &cv), PAM_SUCCESS);
	if (mt.root) {
		/* Read with privileges dropped, even here: a root-only
		 * file is unreadable. */
		mt_write(path, line, strlen(line), NULL, 0600);
		T_EQ_INT(mt_auth("xdg", "alice", &cv), PAM_AUTHINFO_UNAVAIL);
	}
	unsetenv("XDG_CONFIG_HOME");
	free(line);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* ---- the rest of the contract ---- */

static void
test_cue_and_pending(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char pending[300], more[512];

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "after:300", &mt.alice, &c), 0);
	snprintf(pending, sizeof(pending), "%s/pending", mt.dir);
	snprintf(more, sizeof(more),
	    "timeout=5 cue "
	    "[cue_prompt=Touch [it\\] now] authpending_file=%s",
	    pending);
	service_dev("cue", &t, more);
	T_EQ_INT(mt_auth("cue", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.ninfo, 1);
	T_TRUE(strstr(cv.shown, "I:Touch [it] now\n") != NULL);
	T_TRUE(mt_debug_has("authpending file"));
	T_TRUE(access(pending, F_OK) != 0); /* removed after */
	/* A failed cue is a failure, even after the touch. */
	T_EQ_INT(tokenctl_restart(&t, "--presence", "now", NULL), 0);
	memset(&cv, 0, sizeof(cv));
	cv.fail = true;
	T_EQ_INT(mt_auth("cue", "alice", &cv), PAM_CONV_ERR);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_debug_file(void)
{
	char target[300], link[300], args[ARGS_MAX], fds[300], name[300];
	struct dirent *e;
	struct stat st;
	DIR *d;
	char *line = dummy_line("alice", NULL);

	mt_keys(&mt.alice, line);
	/* A symlink as debug_file is not followed. */
	snprintf(target, sizeof(target), "%s/target.log", mt.dir);
	snprintf(link, sizeof(link), "%s/link.log", mt.dir);
	mt_write(target, "", 0, NULL, 0600);
	unlink(link);
	T_EQ_INT(symlink(target, link), 0);
	snprintf(args, sizeof(args), "%s debug debug_file=%s", NODEV, link);
	T_EQ_INT(run("dbglink", args, "alice"), PAM_AUTH_ERR);
	T_EQ_INT(stat(target, &st), 0);
	T_EQ_INT(st.st_size, 0);
	/* No descriptor is left open after the call (CVE-2019-12210). */
	T_EQ_INT(run("dbgfd", NODEV, "alice"), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has("pam_u2f: "));
	T_TRUE((d = opendir("/proc/self/fd")) != NULL);
	while (d != NULL && (e = readdir(d)) != NULL) {
		snprintf(fds, sizeof(fds), "/proc/self/fd/%s", e->d_name);
		memset(name, 0, sizeof(name));
		if (readlink(fds, name, sizeof(name) - 1) > 0 &&
		    strcmp(name, mt.debug) == 0)
			T_FAIL_AT("debug file still open as fd %s", e->d_name);
	}
	if (d != NULL)
		closedir(d);
	free(line);
}

static void
test_userpresence_off(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "never", &mt.alice, &c), 0);
	service_dev("upoff", &t, "timeout=2 userpresence=0");
	T_EQ_INT(mt_auth("upoff", "alice", &cv), PAM_SUCCESS);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_nodetect_interactive(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(one_token(&t, "now", &mt.alice, &c), 0);
	/* nodetect: no check-only probe, the cue before the touch. */
	service_dev("nodetect", &t, "timeout=5 nodetect cue");
	T_EQ_INT(mt_auth("nodetect", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(tokenctl_count(&t, "ins=02 p1=07"), 0);
	T_EQ_INT(touches(&t), 1);
	T_EQ_INT(cv.ninfo, 1);
	/* interactive with a key present: one prompt, then the touch. */
	memset(&cv, 0, sizeof(cv));
	service_dev("interactive", &t, "timeout=5 interactive");
	T_EQ_INT(mt_auth("interactive", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.nprompts, 1);
	T_TRUE(strstr(cv.shown,
		   "P:Insert your U2F device, then press "
		   "ENTER.\n") != NULL);
	T_EQ_INT(touches(&t), 2);
	cred_clear(&c);
	tokenctl_stop(&t);
}

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
test_concurrent(void)
{
	struct tokenctl ta, tb, tc;
	struct cred ca, cb;
	struct thr th[2] = {{"conc_a", "alice", -1}, {"conc_b", "bob", -1}};
	pthread_t id[2];
	int round, i;

	T_EQ_INT(one_token(&ta, "after:400", &mt.alice, &ca), 0);
	T_EQ_INT(one_token(&tb, "after:400", &mt.bob, &cb), 0);
	T_EQ_INT(tokenctl_start(&tc, "--presence", "now", NULL), 0);
	for (round = 0; round < 2; round++) {
		/* Round 0: each user with their own token; round 1: bob's
		 * transaction is given a token without his credential and
		 * must fail while alice's succeeds. */
		service_dev("conc_a", &ta, "timeout=5");
		service_dev("conc_b", round == 0 ? &tb : &tc, "timeout=2");
		for (i = 0; i < 2; i++)
			T_EQ_INT(
			    pthread_create(&id[i], NULL, thr_run, &th[i]), 0);
		for (i = 0; i < 2; i++)
			pthread_join(id[i], NULL);
		T_EQ_INT(th[0].result, PAM_SUCCESS);
		T_EQ_INT(th[1].result, round == 0 ? PAM_SUCCESS : PAM_AUTH_ERR);
		/* (The token log is kept across restarts.) */
		T_EQ_INT(touches(&ta), round + 1);
		T_EQ_INT(touches(&tb), 1);
		T_EQ_INT(
		    tokenctl_restart(&ta, "--presence", "after:400", NULL), 0);
	}
	cred_clear(&ca);
	cred_clear(&cb);
	tokenctl_stop(&ta);
	tokenctl_stop(&tb);
	tokenctl_stop(&tc);
}

static void
test_exports(void)
{
	char cmd[700], out[4096];
	size_t n;
	FILE *p;
	void *h;

	snprintf(cmd, sizeof(cmd),
	    "nm -D --defined-only %s | "
	    "awk '{print $3}' | sort",
	    mt.module);
	T_TRUE((p = popen(cmd, "r")) != NULL);
	if (p == NULL)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	T_EQ_INT(pclose(p), 0);
	T_EQ_STR(out, "pam_sm_authenticate\npam_sm_setcred\n");
	T_TRUE((h = dlopen(mt.module, RTLD_NOW | RTLD_LOCAL)) != NULL);
	if (h == NULL)
		return;
	T_TRUE(dlsym(h, "pam_sm_authenticate") != NULL);
	T_TRUE(dlsym(h, "pam_sm_setcred") != NULL);
	T_TRUE(dlsym(h, "args_parse") == NULL);
	dlclose(h);
	/* Built with -z nodelete: still mapped after the last dlclose, as
	 * after libpam's pam_end (see CAVEATS in pam_u2f(8)). */
	T_TRUE((h = dlopen(mt.module, RTLD_NOW | RTLD_NOLOAD)) != NULL);
	if (h != NULL)
		dlclose(h);
}

static void
test_setcred(void)
{
	struct mt_conv cv;
	struct pam_conv conv;
	pam_handle_t *pamh = NULL;

	memset(&cv, 0, sizeof(cv));
	mt_service("setcred", NODEV);
	conv.conv = NULL;
	conv.appdata_ptr = NULL;
	T_EQ_INT(
	    pam_start_confdir("setcred", "alice", &conv, mt.confdir, &pamh),
	    PAM_SUCCESS);
	T_EQ_INT(pam_setcred(pamh, PAM_ESTABLISH_CRED), PAM_SUCCESS);
	pam_end(pamh, PAM_SUCCESS);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_exports),
	    TEST(test_setcred),
	    TEST(test_success),
	    TEST(test_wrong_token),
	    TEST(test_presence_denied),
	    TEST(test_second_token),
	    TEST(test_five_creds_one_touch),
	    TEST(test_old_format),
	    TEST(test_sshformat),
	    TEST(test_file_symlink),
	    TEST(test_file_fifo),
	    TEST(test_file_modes),
	    TEST(test_file_malformed),
	    TEST(test_file_nul),
	    TEST(test_file_too_big),
	    TEST(test_no_credentials),
	    TEST(test_ctap2_credentials),
	    TEST(test_bad_arguments),
	    TEST(test_conf_refused),
	    TEST(test_alwaysok),
	    TEST(test_no_key),
	    TEST(test_null_answers),
	    TEST(test_manual),
	    TEST(test_expand),
	    TEST(test_openasuser),
	    TEST(test_xdg),
	    TEST(test_cue_and_pending),
	    TEST(test_debug_file),
	    TEST(test_userpresence_off),
	    TEST(test_nodetect_interactive),
	    TEST(test_concurrent),
	};
	const char *only = getenv("PU_MODTEST_ONLY");
	size_t i;
	int r;

	(void)argc;
	if ((r = mt_setup(argv)) != 0)
		return r == 77 ? 0 : r;
	/* PU_MODTEST_ONLY=test_name runs one case (for debugging). */
	for (i = 0; only != NULL && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, only) == 0)
			break;
	if (only != NULL && i < sizeof(cases) / sizeof(cases[0]))
		r = test_run(&cases[i], 1);
	else
		r = test_run(cases, sizeof(cases) / sizeof(cases[0]));
	mt_teardown();
	return r;
}
