/* SPDX-License-Identifier: BSD-2-Clause */
/* The real pam_u2f.so through the real libpam against a malicious token
 * (faults of its own, and a lying proxy in front of it), devices that
 * never answer, two transactions at once, and no secrets in the debug
 * log. test_pam_files.c has the file and environment attacks. Reuses the
 * module tests' harness (tests/module/modtest.h) read-only. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "mitm.h"
#include "modtest.h"
#include "mtmain.h"
#include "pamrig.h"
#include "usermsg_text.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"

/* ---- a malicious device, through libpam ---- */

struct pam_fault {
	const char *fault;
	const char *logged; /* what the debug log must name */
	const char *shown;  /* the one PAM_ERROR_MSG, or NULL for none */
};

#define MUTE TELL_NO_KEY_MUTE

static const struct pam_fault pam_faults[] = {
    {"wrong-cid", "frame for another channel", MUTE},
    {"short-init", "INIT reply of 16 bytes", MUTE},
    {"bcnt-too-large", "message of 7610 bytes refused", MUTE},
    {"seq-out-of-order", "authentication failed: malformed reply", NULL},
    /* The probe's reply was whole; the signature's never ends, which
     * the module cannot tell from a key still waiting for its touch. */
    {"missing-continuation", "authentication failed: timed out",
	"Timed out: the security key was not touched within 2 s. Try again "
	"and touch the key when it blinks."},
    {"endless-keepalive", "U2F VERSION failed: timed out", MUTE},
    {"error-frames", "device error 0x7f", MUTE},
    {"vanish", "authentication failed: no such device", NULL},
    {"garbage-reply", "authentication failed: malformed reply", NULL},
    {"bad-signature", "authentication failed: malformed reply", NULL},
    {"wrong-signature", "authentication failed: signature verification", NULL},
    {"presence-flag-clear", "authentication failed: user presence flag", NULL},
};

/* What the fault showed the user: exactly f->shown as the one
 * PAM_ERROR_MSG (or no error message), and no cue (none was asked). */
static void
check_shown(const struct pam_fault *f, const struct mt_conv *cv)
{
	char want[TELL_MAX + 4];

	if (f->shown == NULL) {
		if (cv->nerror != 0)
			T_FAIL_AT("%s: showed %s", f->fault, cv->shown);
		return;
	}
	snprintf(want, sizeof(want), "E:%s\n", f->shown);
	if (cv->nerror != 1 || strcmp(cv->shown, want) != 0)
		T_FAIL_AT("%s: showed \"%s\", expected \"%s\"", f->fault,
		    cv->shown, want);
}

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
		/* ended by the error it names (a timeout: the module's
		 * deadline), not by a wall-clock bound of the test's */
		if (!mt_debug_has(f->logged))
			T_FAIL_AT(
			    "%s: debug log lacks \"%s\"", f->fault, f->logged);
		check_shown(f, &cv);
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
	rig_service(&g, "counter", MT_OK_TIMEOUT);
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
	rig_service(&g, "secrets", MT_OK_TIMEOUT);
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

/* ---- two transactions at once, one of them against a hostile key ---- */

static void
test_threads_one_hostile(void)
{
	struct rig a;
	struct tokenctl tb;
	struct cred cb;
	struct mt_thr th[2] = {{"thr_a", "alice", -1}, {"thr_b", "bob", -1}};
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
	rig_service(&a, "thr_a", MT_OK_TIMEOUT);
	snprintf(args, sizeof(args),
	    "origin=" ORIGIN " devices=%s " MT_OK_TIMEOUT, tb.path);
	mt_service("thr_b", args);
	for (i = 0; i < 2; i++)
		T_EQ_INT(pthread_create(&id[i], NULL, mt_thr_run, &th[i]), 0);
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

#define SILENT_MAX 12
/* Long enough for valgrind at load 10 to reach the key, short enough that
 * the silent devices opened one after another would outlast it: what
 * makes reaching the key behind them a test of opening in parallel. */
#define SILENT_TIMEOUT_S 10
_Static_assert(SILENT_MAX *OPEN_MS > SILENT_TIMEOUT_S * 1000,
    "silent devices opened one after another outlast the timeout");

/* nsilent silent devices, then the real one when key, timeout=timeout_s:
 * the PAM result and how long it took. */
static int
with_silent(struct rig *g, int nsilent, bool key, int timeout_s, int64_t *el)
{
	char args[ARGS_MAX], path[256];
	int fds[SILENT_MAX], i, n, r = -1;

	n = snprintf(args, sizeof(args),
	    "origin=" ORIGIN " timeout=%d devices=", timeout_s);
	for (i = 0; i < nsilent; i++) {
		snprintf(path, sizeof(path), "%s/silent%d.sock", mt.dir, i);
		if ((fds[i] = tokenctl_silent(path)) < 0) {
			T_FAIL_AT("cannot listen on %s", path);
			nsilent = i;
			goto out;
		}
		n += snprintf(args + n, sizeof(args) - (size_t)n, "%sunix:%s",
		    i > 0 ? "," : "", path);
	}
	if (key)
		snprintf(args + n, sizeof(args) - (size_t)n, ",%s", g->t.path);
	mt_service("silent", args);
	*el = util_now_ms();
	r = mt_auth("silent", "alice", NULL);
	*el = util_now_ms() - *el;
	printf("# %d silent device(s)%s, timeout=%d: %d in %lld ms\n", nsilent,
	    key ? " and the key" : "", timeout_s, r, (long long)*el);
out:
	for (i = 0; i < nsilent; i++)
		close(fds[i]);
	return r;
}

/* Each device may take OPEN_MS to open. Six that stall used to hold the
 * module for six seconds and, with timeout=2, keep the key behind them
 * from being reached (PAM_AUTH_ERR); they are now opened at the same
 * time as the key, which is reached and touched within the timeout.
 * Silent devices alone end in PAM_AUTH_ERR, each named in the log with
 * its open timed out, looked for once (no second round of six). */
static void
test_silent_devices_within_timeout(void)
{
	char needle[64];
	struct rig g;
	int64_t el = 0;
	int i;

	T_EQ_INT(rig_up(&g), 0);
	T_EQ_INT(with_silent(&g, SILENT_MAX, true, SILENT_TIMEOUT_S, &el),
	    PAM_SUCCESS);
	T_EQ_INT(touches_of(&g), 1);
	T_EQ_INT(with_silent(&g, SILENT_MAX, false, 1, &el), PAM_AUTH_ERR);
	T_TRUE(el >= OPEN_MS - 100); /* each had its open time */
	for (i = 0; i < SILENT_MAX; i++) {
		snprintf(
		    needle, sizeof(needle), "/silent%d.sock: timed out", i);
		T_EQ_INT(mt_debug_count(needle), 1);
	}
	T_EQ_INT(mt_debug_count("transport backend: native"), 1);
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
	    TEST(test_threads_one_hostile),
	    TEST(test_silent_devices_within_timeout),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
