/* SPDX-License-Identifier: BSD-2-Clause */
/* Authentication through the real pam_u2f.so and the real libpam
 * (pam_start_confdir), with nss_wrapper users and software tokens on unix:
 * sockets: success and the touch count, a token without the credential,
 * presence denied or not required, several tokens and credentials at one
 * touch, the old line format and sshformat, no key present, NULL or failed
 * conversation answers, the cue, interactive, nodetect and the pending
 * file, two transactions at once, the module's exports and pam_setcred.
 * Manual mode answered by a key the test holds is test_modmanual.c. Where the
 * mapping file is, as whom it is read, and arguments refused before any device
 * is reached are in test_modfile.c. Each case writes its own service file,
 * mapping files and tokens. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "mtfix.h"
#include "mtmain.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"
#include "touchwait.h"

/* The module re-sends a request waiting for a touch this often
 * (DEV_U2F_POLL_MS), and with `interactive` looks for keys again this
 * often (TOUCH_REDISCOVER_MS in pam_u2f/touchwait.h). */
#define RESEND_MS 100
#define REDISCOVER_MS 500
/* Logged once each time the module looks for keys (dev_open_backend). */
#define LOOKED "transport backend: native"

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
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("success", &t, MT_OK_TIMEOUT);
	T_EQ_INT(mt_auth("success", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&t), 1);
	T_TRUE(mt_debug_has("verified"));
	T_EQ_INT(cv.nprompts, 0);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* devices=unix: naming a socket in a directory anyone may write to (so
 * anyone could have bound it): refused before it is asked anything, and
 * the log says why; the same socket is used once the directory is not
 * writable. */
static void
test_unix_unsafe(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	mtfix_service_dev("unixunsafe", &t, "timeout=5");
	T_EQ_INT(chmod(t.dir, 0777), 0);
	T_EQ_INT(mt_auth("unixunsafe", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has(TOUCH_UNIX_UNSAFE_MSG));
	T_TRUE(mt_debug_has("file has unsafe type, owner or permissions"));
	T_EQ_INT(touches(&t), 0);
	T_EQ_INT(chmod(t.dir, 0700), 0);
	T_EQ_INT(mt_auth("unixunsafe", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(touches(&t), 1);
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
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	T_EQ_INT(tokenctl_start(&other, "--presence", "now", NULL), 0);
	mtfix_service_dev("wrongtok", &other, "timeout=5 cue");
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
	size_t n;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "never", &mt.alice, &c), 0);
	mtfix_service_dev("denied", &t, "timeout=1");
	t0 = util_now_ms();
	T_EQ_INT(mt_auth("denied", "alice", &cv), PAM_AUTH_ERR);
	el = util_now_ms() - t0;
	T_TRUE(el >= 900);
	T_EQ_INT(touches(&t), 0);
	/* Asked for a touch within timeout=1 only: one request per RESEND_MS
	 * at most (a loaded machine sends fewer), the first and one at the
	 * deadline. */
	n = tokenctl_count(&t, "ins=02 p1=03 sw=6985");
	printf("# %zu touch requests in %lld ms\n", n, (long long)el);
	T_TRUE(n >= 1 && n <= 1000 / RESEND_MS + 2);
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
	T_EQ_INT(mtfix_one_token(&b, "now", &mt.alice, &c), 0);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s,%s " MT_OK_TIMEOUT " cue", a.path,
	    b.path);
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
	mtfix_service_dev("five", &t, MT_OK_TIMEOUT);
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
	    " devices=%s " MT_OK_TIMEOUT,
	    t.path);
	mt_service("old", args);
	T_EQ_INT(mt_auth("old", "alice", &cv), PAM_SUCCESS);
	/* Without appid= the line is signed under the origin: refused. */
	mtfix_service_dev("old2", &t, "timeout=5");
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
	    "sshformat authfile=id_sk devices=%s " MT_OK_TIMEOUT, t.path);
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

/* ---- no key, and the conversation ---- */

static void
test_no_key(void)
{
	struct mt_conv cv;
	char *line = mtfix_dummy_line("alice", NULL);
	int64_t t0;
	size_t n;

	memset(&cv, 0, sizeof(cv));
	mt_keys(&mt.alice, line);
	mt_service("nokey", "devices=unix:/nonexistent/sock timeout=30");
	T_EQ_INT(mt_auth("nokey", "alice", &cv), PAM_AUTH_ERR);
	/* at once: one look for keys, not one every REDISCOVER_MS for 30 s */
	T_EQ_INT(mt_debug_count(LOOKED), 1);
	T_TRUE(strstr(cv.shown,
		   "E:No security key found. Insert your key and try "
		   "again.\n") != NULL);
	/* interactive: prompt, then wait for a key up to the timeout. */
	memset(&cv, 0, sizeof(cv));
	mt_service("nokey2",
	    "devices=unix:/nonexistent/sock timeout=1 "
	    "interactive [prompt=Plug it in, then press ENTER]");
	t0 = util_now_ms();
	T_EQ_INT(mt_auth("nokey2", "alice", &cv), PAM_AUTH_ERR);
	T_TRUE(util_now_ms() - t0 >= 900);
	/* looked again every REDISCOVER_MS within timeout=1, then gave up */
	n = mt_debug_count(LOOKED);
	printf("# interactive, no key: looked %zu times\n", n);
	T_TRUE(n >= 2 && n <= 1000 / REDISCOVER_MS + 2);
	T_TRUE(strstr(cv.shown, "P:Plug it in, then press ENTER\n") != NULL);
	free(line);
}

static void
test_null_answers(void)
{
	struct mt_conv cv;
	char *line = mtfix_dummy_line("alice", NULL);

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

/* ---- the rest of the contract ---- */

static void
test_cue_and_pending(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;
	char pending[300], more[512];

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "after:300", &mt.alice, &c), 0);
	snprintf(pending, sizeof(pending), "%s/pending", mt.dir);
	snprintf(more, sizeof(more),
	    MT_OK_TIMEOUT " cue "
			  "[cue_prompt=Touch [it\\] now] authpending_file=%s",
	    pending);
	mtfix_service_dev("cue", &t, more);
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
test_userpresence_off(void)
{
	struct tokenctl t;
	struct cred c;
	struct mt_conv cv;

	char *line;

	memset(&cv, 0, sizeof(cv));
	T_EQ_INT(mtfix_one_token(&t, "never", &mt.alice, &c), 0);
	/* +presence wins over userpresence=0 (pam-u2f's rule) */
	mtfix_service_dev("upoff", &t, "timeout=2 userpresence=0");
	T_EQ_INT(mt_auth("upoff", "alice", &cv), PAM_AUTH_ERR);
	/* a credential enrolled with -P: userpresence=0 needs no touch */
	c.flags &= ~(unsigned)CRED_PRESENCE;
	T_TRUE((line = mt_line("alice", &c, 1)) != NULL);
	mt_keys(&mt.alice, line);
	free(line);
	memset(&cv, 0, sizeof(cv));
	mtfix_service_dev("upoffok", &t, MT_OK_TIMEOUT " userpresence=0");
	T_EQ_INT(mt_auth("upoffok", "alice", &cv), PAM_SUCCESS);
	/* and without userpresence=0 it does */
	mtfix_service_dev("upon", &t, "timeout=2");
	T_EQ_INT(mt_auth("upon", "alice", &cv), PAM_AUTH_ERR);
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
	T_EQ_INT(mtfix_one_token(&t, "now", &mt.alice, &c), 0);
	/* nodetect: no check-only probe, the cue before the touch. */
	mtfix_service_dev("nodetect", &t, MT_OK_TIMEOUT " nodetect cue");
	T_EQ_INT(mt_auth("nodetect", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(tokenctl_count(&t, "ins=02 p1=07"), 0);
	T_EQ_INT(touches(&t), 1);
	T_EQ_INT(cv.ninfo, 1);
	/* interactive with a key present: one prompt, then the touch. */
	memset(&cv, 0, sizeof(cv));
	mtfix_service_dev("interactive", &t, MT_OK_TIMEOUT " interactive");
	T_EQ_INT(mt_auth("interactive", "alice", &cv), PAM_SUCCESS);
	T_EQ_INT(cv.nprompts, 1);
	T_TRUE(strstr(cv.shown,
		   "P:Insert your U2F device, then press "
		   "ENTER.\n") != NULL);
	T_EQ_INT(touches(&t), 2);
	cred_clear(&c);
	tokenctl_stop(&t);
}

static void
test_concurrent(void)
{
	struct tokenctl ta, tb, tc;
	struct cred ca, cb;
	struct mt_thr th[2] = {{"conc_a", "alice", -1}, {"conc_b", "bob", -1}};
	pthread_t id[2];
	int round, i;

	T_EQ_INT(mtfix_one_token(&ta, "after:400", &mt.alice, &ca), 0);
	T_EQ_INT(mtfix_one_token(&tb, "after:400", &mt.bob, &cb), 0);
	T_EQ_INT(tokenctl_start(&tc, "--presence", "now", NULL), 0);
	for (round = 0; round < 2; round++) {
		/* Round 0: each user with their own token; round 1: bob's
		 * transaction is given a token without his credential and
		 * must fail while alice's succeeds. */
		mtfix_service_dev("conc_a", &ta, MT_OK_TIMEOUT);
		mtfix_service_dev("conc_b", round == 0 ? &tb : &tc,
		    round == 0 ? MT_OK_TIMEOUT : "timeout=2");
		for (i = 0; i < 2; i++)
			T_EQ_INT(
			    pthread_create(&id[i], NULL, mt_thr_run, &th[i]),
			    0);
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
	    TEST(test_unix_unsafe),
	    TEST(test_wrong_token),
	    TEST(test_presence_denied),
	    TEST(test_second_token),
	    TEST(test_five_creds_one_touch),
	    TEST(test_old_format),
	    TEST(test_sshformat),
	    TEST(test_no_key),
	    TEST(test_null_answers),
	    TEST(test_cue_and_pending),
	    TEST(test_userpresence_off),
	    TEST(test_nodetect_interactive),
	    TEST(test_concurrent),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
