/* SPDX-License-Identifier: BSD-2-Clause */
/* The device operations and the one-touch authentication, end to end over
 * the real transport (unix: sockets) against software tokens. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "crypto/crypto.h"
#include "device/dev.h"
#include "base/err.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"

#define ORIGIN "pam://test-host"
#define OPEN_MS 2000
/* The module re-sends a request waiting for a touch this often
 * (U2F_POLL_MS in common/proto/u2f/protocol.c). */
#define RESEND_MS 100

static int
enroll(const char *path, const char *origin, struct reg_result *out)
{
	struct reg_req req;
	struct dev *d = NULL;
	int r;

	memset(&req, 0, sizeof(req));
	memset(out, 0, sizeof(*out));
	req.rp_id = origin;
	req.type = COSE_ES256;
	req.presence = true;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK)
		return r;
	if ((r = dev_open_path(path, NULL, OPEN_MS, &d)) != ERR_OK)
		return r;
	r = dev_register(d, &req, out, 5000);
	dev_close(&d);
	return r;
}

static void
auth_req_init(
    struct auth_req *req, const struct cred *creds, size_t n, int timeout_ms)
{
	memset(req, 0, sizeof(*req));
	req->creds = creds;
	req->ncreds = n;
	req->origin = ORIGIN;
	req->appid = ORIGIN;
	req->presence = true;
	req->timeout_ms = timeout_ms;
}

/* Open the given token paths and run auth_run. */
static int
run_auth(const char *const *paths, size_t npaths, const struct auth_req *req,
    struct auth_result *res)
{
	struct dev **devs = NULL;
	size_t ndevs = 0;
	int r, first;

	r = dev_open_all(
	    paths, npaths, 0, NULL, OPEN_MS, 0, &devs, &ndevs, &first);
	if (r == ERR_OK)
		r = auth_run(devs, ndevs, req, res);
	auth_result_clear(res);
	dev_close_all(devs, ndevs);
	return r;
}

static void
test_register_then_authenticate(void)
{
	struct tokenctl t;
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	T_EQ_ERR(enroll(t.path, ORIGIN, &reg), ERR_OK);
	T_TRUE(reg.cred.kh_len > 0 && reg.cred.pk_len == 65);
	T_TRUE(reg.cert_len > 0);
	auth_req_init(&req, &reg.cred, 1, 5000);
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_OK);
	T_EQ_INT(res.cred_index, 0);
	T_TRUE(res.assertion.flags & 0x01);
	T_TRUE(res.assertion.counter > 0);
	/* One presence request signed, one register. */
	T_EQ_INT(tokenctl_count(&t, "p1=03 sw=9000"), 1);
	reg_result_clear(&reg);
	tokenctl_stop(&t);
}

static void
test_probe_own_and_foreign(void)
{
	struct tokenctl a, b;
	struct reg_result reg;
	struct dev *d = NULL;

	T_EQ_INT(tokenctl_start(&a, "--presence", "now", NULL), 0);
	T_EQ_INT(tokenctl_start(&b, "--presence", "now", NULL), 0);
	T_EQ_ERR(enroll(a.path, ORIGIN, &reg), ERR_OK);
	T_EQ_ERR(dev_open_path(a.path, NULL, OPEN_MS, &d), ERR_OK);
	if (d != NULL) {
		T_EQ_STR(d->proto->name, "u2f");
		/* check-only on its own key handle: 6985 = "yes" */
		T_EQ_ERR(dev_probe(d, ORIGIN, &reg.cred, 2000), ERR_OK);
		/* same key handle, other origin: 6A80 */
		T_EQ_ERR(
		    dev_probe(d, "pam://other", &reg.cred, 2000), ERR_WRONG_KH);
	}
	dev_close(&d);
	T_EQ_INT(tokenctl_count(&a, "p1=07 sw=6985"), 1);
	T_EQ_INT(tokenctl_count(&a, "p1=07 sw=6a80"), 1);
	T_EQ_ERR(dev_open_path(b.path, NULL, OPEN_MS, &d), ERR_OK);
	if (d != NULL)
		T_EQ_ERR(dev_probe(d, ORIGIN, &reg.cred, 2000), ERR_WRONG_KH);
	dev_close(&d);
	reg_result_clear(&reg);
	tokenctl_stop(&a);
	tokenctl_stop(&b);
}

static void
test_presence_denied_times_out(void)
{
	struct tokenctl t;
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];
	int64_t t0, el;
	size_t n;

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	T_EQ_ERR(enroll(t.path, ORIGIN, &reg), ERR_OK);
	T_EQ_INT(tokenctl_restart(&t, "--presence", "never", NULL), 0);
	auth_req_init(&req, &reg.cred, 1, 800);
	t0 = util_now_ms();
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_TIMEOUT);
	el = util_now_ms() - t0;
	T_TRUE(el >= 700);
	T_EQ_INT(tokenctl_count(&t, "p1=03 sw=9000"), 0);
	/* Asked for a touch within the 800 ms only: at most one request per
	 * RESEND_MS (a loaded machine sends fewer, never more), the first
	 * and one at the deadline. Neither a flood nor a wait past it. */
	n = tokenctl_count(&t, "p1=03 sw=6985");
	printf("# %zu touch requests in %lld ms\n", n, (long long)el);
	T_TRUE(n >= 1 && n <= 800 / RESEND_MS + 2);
	reg_result_clear(&reg);
	tokenctl_stop(&t);
}

static void
test_keepalive_during_delayed_touch(void)
{
	struct tokenctl t;
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	T_EQ_ERR(enroll(t.path, ORIGIN, &reg), ERR_OK);
	T_EQ_INT(tokenctl_restart(
		     &t, "--presence", "after:400", "--keepalive", NULL),
	    0);
	auth_req_init(&req, &reg.cred, 1, 5000);
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_OK);
	T_TRUE(tokenctl_count(&t, "keepalive") >= 1);
	T_EQ_INT(tokenctl_count(&t, "p1=03 sw=9000"), 1);
	reg_result_clear(&reg);
	tokenctl_stop(&t);
}

static void
test_delayed_touch_classic(void)
{
	struct tokenctl t;
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	T_EQ_ERR(enroll(t.path, ORIGIN, &reg), ERR_OK);
	T_EQ_INT(tokenctl_restart(&t, "--presence", "after:400", NULL), 0);
	auth_req_init(&req, &reg.cred, 1, 5000);
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_OK);
	/* The key said "touch needed" a few times, then signed once. */
	T_TRUE(tokenctl_count(&t, "p1=03 sw=6985") >= 2);
	T_EQ_INT(tokenctl_count(&t, "p1=03 sw=9000"), 1);
	reg_result_clear(&reg);
	tokenctl_stop(&t);
}

static void
test_two_tokens_credential_on_second(void)
{
	struct tokenctl a, b;
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	const char *paths[2];

	T_EQ_INT(tokenctl_start(&a, "--presence", "now", NULL), 0);
	T_EQ_INT(tokenctl_start(&b, "--presence", "now", NULL), 0);
	paths[0] = a.path;
	paths[1] = b.path;
	T_EQ_ERR(enroll(b.path, ORIGIN, &reg), ERR_OK);
	auth_req_init(&req, &reg.cred, 1, 5000);
	T_EQ_ERR(run_auth(paths, 2, &req, &res), ERR_OK);
	T_EQ_INT(res.dev_index, 1);
	T_EQ_INT(tokenctl_count(&a, "p1=03"), 0);
	T_EQ_INT(tokenctl_count(&b, "p1=03 sw=9000"), 1);
	reg_result_clear(&reg);
	tokenctl_stop(&a);
	tokenctl_stop(&b);
}

static void
test_five_credentials_one_touch(void)
{
	struct tokenctl t;
	struct reg_result reg[5];
	struct cred creds[5];
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];
	size_t i;

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	for (i = 0; i < 5; i++) {
		T_EQ_ERR(enroll(t.path, ORIGIN, &reg[i]), ERR_OK);
		creds[i] = reg[i].cred;
	}
	auth_req_init(&req, creds, 5, 5000);
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_OK);
	T_EQ_INT(res.presence_requests, 1);
	T_EQ_INT(tokenctl_count(&t, "p1=03"), 1);
	T_EQ_INT(tokenctl_count(&t, "p1=07"), 5);
	for (i = 0; i < 5; i++)
		reg_result_clear(&reg[i]);
	tokenctl_stop(&t);
}

static void
test_wrong_public_key_refused(void)
{
	struct tokenctl t;
	struct reg_result r1, r2;
	struct cred c;
	struct auth_req req;
	struct auth_result res;
	const char *paths[1];

	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	paths[0] = t.path;
	T_EQ_ERR(enroll(t.path, ORIGIN, &r1), ERR_OK);
	T_EQ_ERR(enroll(t.path, ORIGIN, &r2), ERR_OK);
	/* Key handle of the first credential, public key of the second:
	 * the token signs, but the signature must not verify. */
	c = r1.cred;
	c.pk = r2.cred.pk;
	auth_req_init(&req, &c, 1, 3000);
	T_EQ_ERR(run_auth(paths, 1, &req, &res), ERR_VERIFY);
	reg_result_clear(&r1);
	reg_result_clear(&r2);
	tokenctl_stop(&t);
}

static void
keep_line(void *arg, const char *line)
{
	snprintf(arg, 256, "%s", line);
}

/* The one check of a credential list (auth_run's and the module's): the
 * first credential no protocol can use is named, with why. */
static void
test_check_creds(void)
{
	uint8_t kh[4] = {1, 2, 3, 4}, pk[65] = {4};
	struct cred c[3];
	char line[256] = "";
	struct log lg = {keep_line, line};
	size_t i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < 3; i++) {
		c[i].kh = kh;
		c[i].kh_len = sizeof(kh);
		c[i].pk = pk;
		c[i].pk_len = sizeof(pk);
		c[i].type = COSE_ES256;
	}
	T_EQ_ERR(auth_check_creds(c, 3, &lg), ERR_OK);
	T_EQ_STR(line, "");
	c[1].type = 77;
	c[2].type = 78;
	T_EQ_ERR(auth_check_creds(c, 3, &lg), ERR_UNSUPPORTED);
	T_EQ_STR(line,
	    "credential 2 cannot be used (an unknown key type): "
	    "refused");
	T_EQ_ERR(auth_check_creds(c, 1, NULL), ERR_OK);
}

static void
test_no_device_and_unsupported(void)
{
	struct auth_req req;
	struct auth_result res;
	struct cred c;
	uint8_t kh[4] = {1, 2, 3, 4}, pk[65] = {4};
	struct dev *d = NULL;

	memset(&c, 0, sizeof(c));
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.pk = pk;
	c.pk_len = sizeof(pk);
	c.type = COSE_ES256;
	auth_req_init(&req, &c, 1, 500);
	T_EQ_ERR(auth_run(NULL, 0, &req, &res), ERR_NO_KEY);
	c.flags = CRED_RESIDENT; /* resident credentials: no key either */
	T_EQ_ERR(auth_run(NULL, 0, &req, &res), ERR_NO_KEY);
	c.flags = 0;
	c.type = 77; /* no such COSE algorithm of ours */
	T_EQ_ERR(auth_run(NULL, 0, &req, &res), ERR_UNSUPPORTED);
	T_TRUE(
	    dev_open_path("unix:/nonexistent/sock", NULL, 500, &d) != ERR_OK);
	T_TRUE(d == NULL);
}

static void
test_register_first_touched(void)
{
	struct tokenctl a, b;
	struct reg_req rq;
	struct reg_result reg;
	struct dev **devs = NULL;
	size_t ndevs = 0, which = 9;
	const char *paths[2];
	int first;

	T_EQ_INT(tokenctl_start(&a, "--presence", "never", NULL), 0);
	T_EQ_INT(tokenctl_start(&b, "--presence", "after:300", NULL), 0);
	paths[0] = a.path;
	paths[1] = b.path;
	memset(&rq, 0, sizeof(rq));
	memset(&reg, 0, sizeof(reg));
	rq.rp_id = ORIGIN;
	rq.type = COSE_ES256;
	rq.presence = true;
	T_EQ_ERR(
	    dev_open_all(paths, 2, 0, NULL, OPEN_MS, 0, &devs, &ndevs, &first),
	    ERR_OK);
	T_EQ_INT(ndevs, 2);
	T_EQ_ERR(
	    auth_register(devs, ndevs, &rq, &reg, &which, NULL, 5000), ERR_OK);
	T_EQ_INT(which, 1);
	dev_close_all(devs, ndevs);
	reg_result_clear(&reg);
	tokenctl_stop(&a);
	tokenctl_stop(&b);
}

TEST_MAIN(TEST(test_register_then_authenticate),
    TEST(test_probe_own_and_foreign), TEST(test_presence_denied_times_out),
    TEST(test_keepalive_during_delayed_touch), TEST(test_delayed_touch_classic),
    TEST(test_two_tokens_credential_on_second),
    TEST(test_five_credentials_one_touch), TEST(test_wrong_public_key_refused),
    TEST(test_no_device_and_unsupported), TEST(test_check_creds),
    TEST(test_register_first_touched))
