/* SPDX-License-Identifier: BSD-2-Clause */
/* A malicious device against the one-touch authentication (auth_run), over
 * the real transport: a credential is enrolled on a healthy software
 * token, then the same token (same state file, so it still knows the key
 * handle) is restarted with a fault; the faults the token cannot put into
 * the authentication reply come from a lying proxy in front of it
 * (mitm.c). Every fault must end in a named failure within the timeout;
 * only counter-backwards (which U2F cannot detect without state, see
 * SECURITY.md) and a keepalive burst whose reply still arrives intact may
 * succeed, and then only with a verified signature. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "crypto/crypto.h"
#include "device/dev.h"
#include "base/err.h"
#include "mitm.h"
#include "test.h"
#include "tokenctl.h"

#define ORIGIN "pam://hostile"
#define OPEN_MS 1500
#define AUTH_MS 2500
#define CAP_MAX 32768

/* The log sink: every line the library logs, one after the other. */
struct cap {
	char text[CAP_MAX];
	size_t len;
};

struct outcome {
	int open_err; /* dev_open_all's first_err */
	size_t ndevs;
	int r;      /* auth_run, or ERR_NO_KEY with no device */
	int64_t ms; /* open + auth_run */
	struct auth_result res;
	struct cap cap;
};

struct rig {
	struct tokenctl t;
	struct reg_result reg;
	bool up;
};

static void
cap_line(void *arg, const char *line)
{
	struct cap *c = arg;
	int n;

	n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%s\n", line);
	if (n > 0 && (size_t)n < sizeof(c->text) - c->len)
		c->len += (size_t)n;
}

static bool
cap_has(const struct cap *c, const char *needle)
{
	return strstr(c->text, needle) != NULL;
}

/* A healthy token holding one credential for ORIGIN. */
static int
rig_up(struct rig *g)
{
	struct reg_req req;
	struct dev *d = NULL;
	int r;

	memset(g, 0, sizeof(*g));
	memset(&req, 0, sizeof(req));
	if (tokenctl_start(&g->t, "--presence", "now", NULL) != 0)
		return ERR_SYSTEM;
	g->up = true;
	req.rp_id = ORIGIN;
	req.type = COSE_ES256;
	req.presence = true;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK)
		return r;
	if ((r = dev_open_path(g->t.path, NULL, OPEN_MS, &d)) != ERR_OK)
		return r;
	r = dev_register(d, &req, &g->reg, 5000);
	dev_close(&d);
	return r;
}

static void
rig_down(struct rig *g)
{
	reg_result_clear(&g->reg);
	if (g->up)
		tokenctl_stop(&g->t);
	g->up = false;
}

/* Open the device at path and run auth_run once, timing both. */
static void
attempt_at(struct rig *g, const char *path, bool nodetect, bool presence,
    struct outcome *o)
{
	const struct log lg = {cap_line, &o->cap};
	const char *paths[1] = {path};
	struct auth_req req;
	struct dev **devs = NULL;
	int64_t t0 = util_now_ms();
	int r;

	memset(o, 0, sizeof(*o));
	memset(&req, 0, sizeof(req));
	req.creds = &g->reg.cred;
	req.ncreds = 1;
	req.origin = ORIGIN;
	req.appid = ORIGIN;
	req.presence = presence;
	req.nodetect = nodetect;
	req.timeout_ms = AUTH_MS;
	req.log = &lg;
	r = dev_open_all(
	    paths, 1, 0, &lg, OPEN_MS, 0, &devs, &o->ndevs, &o->open_err);
	if (r == ERR_OK)
		r = auth_run(devs, o->ndevs, &req, &o->res);
	auth_result_clear(&o->res);
	dev_close_all(devs, o->ndevs);
	o->r = r;
	o->ms = util_now_ms() - t0;
	printf("# %s%s: open %s, auth %s, %lld ms\n",
	    nodetect ? "nodetect" : "probe", presence ? "" : " no-presence",
	    err_name(o->open_err), err_name(o->r), (long long)o->ms);
}

static void
attempt(struct rig *g, bool nodetect, bool presence, struct outcome *o)
{
	attempt_at(g, g->t.path, nodetect, presence, o);
}

/* Restart the rig's token with a fault (and one more option, or NULL),
 * then attempt. */
static void
fault_attempt(struct rig *g, const char *fault, const char *more, bool nodetect,
    struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	if (tokenctl_restart(&g->t, "--presence", "now", "--fault", fault, more,
		NULL) != 0) {
		T_FAIL_AT("token did not start with --fault %s", fault);
		o->r = ERR_SYSTEM;
		return;
	}
	attempt(g, nodetect, true, o);
}

/* The common promise: a failure that is not a success. "In time" is not
 * a wall-clock bound here: every caller checks the error that ended it
 * (a timeout is the deadline's), and a wait that ignored its deadline
 * would not end at all. */
static void
check_failed(const struct outcome *o)
{
	T_TRUE(o->r != ERR_OK);
}

/* A framing fault that the host meets while opening the device (the
 * token applies framing faults to every MSG reply, U2F VERSION
 * included): no device is opened, the first error is kept. */
static void
check_open_fault(const char *fault, int open_err, const char *logged)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	fault_attempt(&g, fault, NULL, false, o);
	check_failed(o);
	T_EQ_INT(o->ndevs, 0);
	T_EQ_ERR(o->open_err, open_err);
	T_EQ_ERR(o->r, ERR_NO_KEY);
	if (!cap_has(&o->cap, logged))
		T_FAIL_AT("log lacks \"%s\":\n%s", logged, o->cap.text);
	free(o);
	rig_down(&g);
}

/* A fault that reaches the authentication itself, with and without the
 * check-only probe. */
static void
check_auth_fault(const char *fault, int expect, const char *logged)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	int nodetect;

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	for (nodetect = 0; nodetect < 2; nodetect++) {
		fault_attempt(&g, fault, NULL, nodetect, o);
		check_failed(o);
		T_EQ_INT(o->ndevs, 1);
		T_EQ_ERR(o->r, expect);
		if (!cap_has(&o->cap, logged))
			T_FAIL_AT("log lacks \"%s\":\n%s", logged, o->cap.text);
	}
	free(o);
	rig_down(&g);
}

static void
test_healthy_baseline(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	/* The rig itself works: without a fault, the same steps succeed. */
	T_EQ_ERR(rig_up(&g), ERR_OK);
	T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", NULL), 0);
	attempt(&g, false, true, o);
	T_EQ_ERR(o->r, ERR_OK);
	T_TRUE(o->res.assertion.flags & 0x01);
	free(o);
	rig_down(&g);
}

static void
test_wrong_cid(void)
{
	check_open_fault("wrong-cid", ERR_TIMEOUT, "another channel");
}

static void
test_short_init(void)
{
	check_open_fault("short-init", ERR_PROTO, "INIT reply of 16 bytes");
}

static void
test_bcnt_too_large(void)
{
	check_open_fault("bcnt-too-large", ERR_PROTO, "7610 bytes refused");
}

static void
test_endless_keepalive(void)
{
	check_open_fault(
	    "endless-keepalive", ERR_TIMEOUT, "U2F VERSION failed: timed out");
}

static void
test_error_frames(void)
{
	check_open_fault("error-frames", ERR_HID_OTHER, "device error 0x7f");
}

static void
test_seq_out_of_order(void)
{
	check_auth_fault(
	    "seq-out-of-order", ERR_PROTO, "sequence 0x01, expected 0x00");
}

static void
test_missing_continuation(void)
{
	check_auth_fault(
	    "missing-continuation", ERR_TIMEOUT, "auth_run: timed out");
}

static void
test_garbage_reply(void)
{
	check_auth_fault("garbage-reply", ERR_PROTO, "malformed reply");
}

static void
test_bad_signature(void)
{
	check_auth_fault("bad-signature", ERR_PROTO, "malformed reply");
}

static void
test_wrong_signature(void)
{
	check_auth_fault(
	    "wrong-signature", ERR_VERIFY, "signature verification failed");
}

static void
test_presence_flag_clear(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));

	check_auth_fault("presence-flag-clear", ERR_NO_PRESENCE,
	    "user presence flag not set");
	/* Where presence is not required (userpresence=0), a reply with
	 * flags 00 and a good signature is what the admin asked for. */
	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", "--fault",
		     "presence-flag-clear", NULL),
	    0);
	attempt(&g, false, false, o);
	T_EQ_ERR(o->r, ERR_OK);
	T_EQ_INT(o->res.assertion.flags & 0x01, 0);
	free(o);
	rig_down(&g);
}

static bool
gone(const char *path)
{
	int i;

	for (i = 0; i < 200 && access(path, F_OK) == 0; i++)
		util_sleep_ms(10);
	return access(path, F_OK) != 0;
}

/* The device goes away after the first frame of a MSG reply. */
static void
test_vanish(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	char sock[512];
	int nodetect;

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	snprintf(sock, sizeof(sock), "%s", g.t.path + strlen("unix:"));
	for (nodetect = 0; nodetect < 2; nodetect++) {
		fault_attempt(&g, "vanish", NULL, nodetect, o);
		check_failed(o);
		T_EQ_ERR(o->r, ERR_NODEV);
		if (!cap_has(&o->cap, "no such device"))
			T_FAIL_AT(
			    "log lacks the device error:\n%s", o->cap.text);
		/* It really went away (the socket goes soon after). */
		T_TRUE(gone(sock));
	}
	free(o);
	rig_down(&g);
}

/* More than 63 reports (the hidraw reader queue) before each reply. The
 * socket front loses none of them, so the host must skip all 100
 * keepalives and still verify the reply; through hidraw the reply may be
 * lost, which is then a timeout (tests/vm). Never a hang. */
static void
test_burst(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	int nodetect;

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	for (nodetect = 0; nodetect < 2; nodetect++) {
		fault_attempt(&g, "burst", NULL, nodetect, o);
		T_EQ_ERR(o->r, ERR_OK);
		T_TRUE(o->res.assertion.flags & 0x01);
	}
	T_TRUE(tokenctl_count(&g.t, "ins=02 p1=03 sw=9000") >= 2);
	free(o);
	rig_down(&g);
}

/* U2F counters cannot be checked without state pam-u2f's formats do not
 * keep (SECURITY.md): a counter going backwards is accepted, the
 * signature over it is still verified, and the value is reported as the
 * device sent it. */
static void
test_counter_backwards(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	uint32_t first;

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	fault_attempt(&g, "counter-backwards", NULL, false, o);
	T_EQ_ERR(o->r, ERR_OK);
	first = o->res.assertion.counter;
	attempt(&g, false, true, o);
	T_EQ_ERR(o->r, ERR_OK);
	T_TRUE(o->res.assertion.counter < first);
	/* The same token with a wrong signature is still refused: what is
	 * accepted is the counter, not the reply. */
	T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", "--fault",
		     "counter-backwards", "--fault", "wrong-signature", NULL),
	    0);
	attempt(&g, false, true, o);
	T_EQ_ERR(o->r, ERR_VERIFY);
	free(o);
	rig_down(&g);
}

/* ---- the same faults where the token cannot put them: in the reply to
 * the AUTHENTICATE that asks for presence (tests/hostile/mitm.c) ---- */

static void
check_mitm_fault(
    enum mitm_fault f, int open_err, int expect, const char *logged)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	struct mitm *m = NULL;
	int nodetect;

	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	for (nodetect = 0; nodetect < 2; nodetect++) {
		T_EQ_INT(tokenctl_restart(&g.t, "--presence", "now", NULL), 0);
		T_EQ_INT(mitm_start(&m, g.t.path, f), 0);
		if (m == NULL)
			break;
		attempt_at(&g, mitm_path(m), nodetect, true, o);
		T_TRUE(mitm_hits(m) >= 1);
		mitm_stop(&m);
		T_EQ_ERR(o->open_err, open_err);
		T_EQ_ERR(o->r, expect);
		if (!cap_has(&o->cap, logged))
			T_FAIL_AT("log lacks \"%s\":\n%s", logged, o->cap.text);
	}
	free(o);
	rig_down(&g);
}

static void
test_mitm_transparent(void)
{
	struct rig g;
	struct outcome *o = calloc(1, sizeof(*o));
	struct mitm *m = NULL;

	/* Without a fault the proxy changes nothing. */
	T_TRUE(o != NULL);
	if (o == NULL)
		return;
	T_EQ_ERR(rig_up(&g), ERR_OK);
	T_EQ_INT(mitm_start(&m, g.t.path, MITM_NONE), 0);
	if (m != NULL)
		attempt_at(&g, mitm_path(m), false, true, o);
	mitm_stop(&m);
	T_EQ_ERR(o->r, ERR_OK);
	T_TRUE(o->res.assertion.flags & 0x01);
	free(o);
	rig_down(&g);
}

static void
test_mitm_wrong_nonce(void)
{
	check_mitm_fault(MITM_WRONG_NONCE, ERR_TIMEOUT, ERR_NO_KEY,
	    "INIT failed: ERR_TIMEOUT");
}

static void
test_mitm_wrong_cid(void)
{
	check_mitm_fault(
	    MITM_WRONG_CID, ERR_OK, ERR_TIMEOUT, "another channel");
}

static void
test_mitm_bcnt_too_large(void)
{
	check_mitm_fault(MITM_BCNT_TOO_LARGE, ERR_OK, ERR_PROTO,
	    "message of 7610 bytes refused");
}

static void
test_mitm_bcnt_above_asked(void)
{
	check_mitm_fault(MITM_BCNT_ABOVE_ASKED, ERR_OK, ERR_PROTO,
	    "message of 300 bytes refused");
}

static void
test_mitm_error_frame(void)
{
	check_mitm_fault(
	    MITM_ERROR_FRAME, ERR_OK, ERR_HID_OTHER, "device error 0x7f");
}

static void
test_mitm_endless_keepalive(void)
{
	check_mitm_fault(
	    MITM_ENDLESS_KEEPALIVE, ERR_OK, ERR_TIMEOUT, "auth_run: timed out");
}

static void
test_mitm_vanish_mid_message(void)
{
	check_mitm_fault(MITM_VANISH, ERR_OK, ERR_NODEV, "no such device");
}

TEST_MAIN(TEST(test_healthy_baseline), TEST(test_wrong_cid),
    TEST(test_short_init), TEST(test_bcnt_too_large),
    TEST(test_endless_keepalive), TEST(test_error_frames),
    TEST(test_seq_out_of_order), TEST(test_missing_continuation),
    TEST(test_garbage_reply), TEST(test_bad_signature),
    TEST(test_wrong_signature), TEST(test_presence_flag_clear),
    TEST(test_vanish), TEST(test_burst), TEST(test_counter_backwards),
    TEST(test_mitm_transparent), TEST(test_mitm_wrong_nonce),
    TEST(test_mitm_wrong_cid), TEST(test_mitm_bcnt_too_large),
    TEST(test_mitm_bcnt_above_asked), TEST(test_mitm_error_frame),
    TEST(test_mitm_endless_keepalive), TEST(test_mitm_vanish_mid_message))
