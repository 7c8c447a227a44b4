/* SPDX-License-Identifier: BSD-2-Clause */
/* Operations through the libu2f-host transport (built with
 * --with-libu2f-host), driven through the stand-in for the library of
 * tests/transport/u2fhfix.c in front of the software token: register, probe and
 * authenticate, with every reply through the same strict parsers and
 * signature checks as the native transport (hostile replies refused);
 * the reply lengths offered to the library bounded by the protocol, and
 * its worst writes past a reply contained in our oversized buffers (the
 * asan stage checks the bounds); auth_run and cancel; and the exchange
 * that libu2f-host would wait on forever (endless KEEPALIVE, a hung
 * discovery) cut off at our deadline. Selection, discovery and error
 * mapping are in tests/transport/test_u2fh.c. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "auth/auth.h"
#include "transport/ctaphid.h"
#include "device/dev.h"
#include "base/err.h"
#include "softtoken/token.h"
#include "test.h"
#include "u2fhfix.h"

#define OP_MS 2000

static int
enroll(struct dev *d, const char *origin, struct reg_result *out)
{
	struct reg_req req;

	memset(&req, 0, sizeof(req));
	req.rp_id = origin;
	req.type = COSE_ES256;
	req.presence = true;
	if (util_random(req.cdh, sizeof(req.cdh)) != ERR_OK)
		return ERR_RANDOM;
	return dev_register(d, &req, out, OP_MS);
}

static int
assert_once(struct dev *d, const struct cred *c, struct assertion *out)
{
	struct assert_req req;
	int64_t deadline = util_now_ms() + OP_MS;
	int r;

	memset(out, 0, sizeof(*out));
	memset(&req, 0, sizeof(req));
	req.rp_id = ORIGIN;
	req.allow = c;
	req.nallow = 1;
	req.presence = true;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK ||
	    (r = dev_assert_begin(d, &req, deadline)) != ERR_OK)
		return r;
	r = dev_assert_wait(d, out, util_ms_left(deadline));
	assertion_clear(out); /* the scalar fields stay */
	return r;
}

/* Register on a clean token through the stand-in. */
static int
enroll_clean(struct reg_result *reg)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int r;

	T_EQ_INT(u2fhfix_reset(0), 0);
	if ((r = u2fhfix_open(0, &devs, &n, NULL)) == ERR_OK)
		r = n == 1 ? enroll(devs[0], ORIGIN, reg) : ERR_NODEV;
	dev_close_all(devs, n);
	return r;
}

static void
test_register_probe_assert(void)
{
	struct reg_result reg, other;
	struct assertion as;
	struct dev **devs = NULL;
	const uint8_t *cert;
	size_t n = 0, cert_len = 0;

	T_EQ_INT(u2fhfix_reset(0), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 1);
	if (n != 1)
		goto out;
	T_EQ_STR(xport_path(devs[0]->ctx.x), "libu2f-host:0");
	T_EQ_STR(xport_name(devs[0]->ctx.x), "libu2f-host");
	T_EQ_STR(devs[0]->proto->name, "u2f");
	T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
	cert = token_attest_cert(u2fhfix_fk.tok, &cert_len);
	T_EQ_INT(reg.cert_len, cert_len);
	T_TRUE(reg.cert != NULL && memcmp(reg.cert, cert, cert_len) == 0);
	T_EQ_ERR(dev_probe(devs[0], ORIGIN, &reg.cred, OP_MS), ERR_OK);
	T_EQ_ERR(dev_probe(devs[0], "pam://elsewhere", &reg.cred, OP_MS),
	    ERR_WRONG_KH);
	T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_OK);
	T_EQ_INT(as.flags & 0x01, 0x01);
	T_EQ_INT(as.counter, token_counter(u2fhfix_fk.tok));
	/* A credential of another key pair: the signature must not pass. */
	T_EQ_ERR(enroll(devs[0], ORIGIN, &other), ERR_OK);
	memcpy(other.cred.pk, reg.cred.pk, reg.cred.pk_len);
	T_EQ_ERR(assert_once(devs[0], &other.cred, &as), ERR_VERIFY);
	reg_result_clear(&other);
	reg_result_clear(&reg);
out:
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_fk.done, 1);
}

/* Each reply may take libu2f-host ~4 s per 64-byte frame: it is only
 * allowed as many bytes as the protocol's longest reply. */
static void
test_reply_sizes_bounded(void)
{
	struct reg_result reg;
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_INT(u2fhfix_reset(0), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	if (n != 1) {
		T_EQ_INT(n, 1);
		return;
	}
	T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
	T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_OK);
	/* The protocol's longest reply, plus what libu2f-host's length
	 * check needs to let that through. */
	T_EQ_INT(u2fhfix_fk.maxlen[0x03], 64 + 63); /* VERSION */
	T_EQ_INT(
	    u2fhfix_fk.maxlen[0x02], 1 + 4 + 72 + 2 + 63); /* AUTHENTICATE */
	T_EQ_INT(u2fhfix_fk.maxlen[0x01], CTAPHID_MAX_MSG + 63); /* REGISTER */
	reg_result_clear(&reg);
	dev_close_all(devs, n);
}

/* The longest replies libu2f-host lets through, written the way it
 * writes them: the buffers we hand it hold them (ASan checks that in the
 * asan stage), and we refuse them as too long. */
static void
test_library_overrun_contained(void)
{
	struct reg_result reg;
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	T_EQ_INT(u2fhfix_written(1), 57);
	T_EQ_INT(u2fhfix_written(58), 116);
	T_EQ_INT(u2fhfix_written(117), 175); /* 58 past: the worst */
	T_EQ_INT(u2fhfix_longest(127), 95);
	T_EQ_INT(u2fhfix_reset(0), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
		u2fhfix_fk.claim_max_ins = 0x02;
		T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_PROTO);
		reg_result_clear(&reg);
		u2fhfix_fk.claim_max_ins = 0x01;
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_PROTO);
	}
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.claim_max_ins = 0x03;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	dev_close_all(devs, n);
}

/* A length beyond what we accept is refused, not copied. */
static void
test_claimed_length_refused(void)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.claim_extra = 64;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	/* VERSION's reply claims 72 bytes of the 64 allowed. */
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_fk.done, 1);
}

/* The token's reply faults through libu2f-host: the same strict parse
 * and verification as the native transport refuse them. */
static int
assert_with_fault(const struct cred *c, unsigned fault)
{
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;
	int r;

	T_EQ_INT(u2fhfix_reset(fault), 0);
	if ((r = u2fhfix_open(0, &devs, &n, NULL)) == ERR_OK)
		r = n == 1 ? assert_once(devs[0], c, &as) : ERR_NODEV;
	dev_close_all(devs, n);
	return r;
}

static void
test_hostile_replies_refused(void)
{
	struct reg_result reg;
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	T_EQ_ERR(assert_with_fault(&reg.cred, 0), ERR_OK);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_BAD_SIG), ERR_PROTO);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_WRONG_SIG), ERR_VERIFY);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_NO_PRESENCE_FLAG),
	    ERR_NO_PRESENCE);
	T_TRUE(assert_with_fault(&reg.cred, FAULT_GARBAGE_REPLY) != ERR_OK);
	reg_result_clear(&reg);
	/* A garbage or forged registration is never accepted. */
	T_EQ_INT(u2fhfix_reset(FAULT_GARBAGE_REPLY), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	if (n == 1)
		T_TRUE(enroll(devs[0], ORIGIN, &reg) != ERR_OK);
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_reset(FAULT_WRONG_SIG), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	if (n == 1)
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_VERIFY);
	dev_close_all(devs, n);
}

/* The split operations as auth_run drives them, with cancel. */
static void
test_auth_run_and_cancel(void)
{
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	T_EQ_INT(u2fhfix_reset(0), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	memset(&req, 0, sizeof(req));
	req.creds = &reg.cred;
	req.ncreds = 1;
	req.origin = req.appid = ORIGIN;
	req.presence = true;
	req.timeout_ms = OP_MS;
	T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_OK);
	auth_result_clear(&res);
	T_EQ_INT(res.assertion.counter, token_counter(u2fhfix_fk.tok));
	if (n == 1) {
		/* Begin, cancel, begin again: only the second is sent. */
		struct assert_req ar;

		memset(&ar, 0, sizeof(ar));
		ar.rp_id = ORIGIN;
		ar.allow = &reg.cred;
		ar.nallow = 1;
		ar.presence = true;
		T_EQ_ERR(dev_assert_begin(devs[0], &ar, util_now_ms() + OP_MS),
		    ERR_OK);
		u2fhfix_fk.sends = 0;
		devs[0]->proto->cancel(&devs[0]->ctx);
		T_EQ_INT(u2fhfix_fk.sends, 0);
	}
	dev_close_all(devs, n);
	reg_result_clear(&reg);
}

/* At most the slices of a hang given up at a deadline of ms, and those
 * of READ_SLACK_MS more: the call goes on (it is never cancelled) while
 * this thread gets back to read the count, which on a loaded machine may
 * take a while. Far fewer than a hang held to the 10 s timeout, or for
 * ever, would count. */
#define READ_SLACK_MS 1000
static bool
cut_at(unsigned slices, int ms)
{
	printf(
	    "# hung for %u slice(s) of %d ms\n", slices, U2FHFIX_HANG_SLICE_MS);
	return slices <=
	    (unsigned)((ms + READ_SLACK_MS) / U2FHFIX_HANG_SLICE_MS);
}

/* libu2f-host waits forever on a token that sends KEEPALIVE frames: the
 * exchange is cut off at our deadline for one exchange (not the open
 * time, not the 10 s timeout) and the device dropped; the slices the hung
 * call slept through count how long it was let hang. */
static void
test_endless_keepalive_cut_off(void)
{
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.hang_ins = 0x03;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	T_TRUE(cut_at(u2fhfix_fk.hang_slices, U2FHFIX_XFER_MS));
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_TIMEOUT);
	dev_close_all(devs, n);
	/* the call still runs, on the library handle: kept until it ends */
	T_EQ_INT(u2fhfix_calls(), 1);
	T_EQ_INT(u2fhfix_fk.done, 0);
	T_EQ_INT(u2fhfix_settle(), 0);
	T_EQ_INT(u2fhfix_fk.done, 1);

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	T_EQ_INT(u2fhfix_reset(0), 0);
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	u2fhfix_fk.hang_ins = 0x02;
	memset(&req, 0, sizeof(req));
	req.creds = &reg.cred;
	req.ncreds = 1;
	req.origin = req.appid = ORIGIN;
	req.presence = true;
	req.timeout_ms = 10000;
	T_TRUE(auth_run(devs, n, &req, &res) != ERR_OK);
	auth_result_clear(&res);
	T_TRUE(cut_at(u2fhfix_fk.hang_slices, U2FHFIX_XFER_MS));
	u2fhfix_fk.hang_ins = -1; /* dropped for good, even if it heals */
	if (n == 1)
		T_EQ_ERR(
		    dev_probe(devs[0], ORIGIN, &reg.cred, OP_MS), ERR_NODEV);
	dev_close_all(devs, n);
	reg_result_clear(&reg);

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.hang_discover = true;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_TIMEOUT);
	T_TRUE(cut_at(u2fhfix_fk.hang_slices, U2FHFIX_DISCOVER_MS));
	T_TRUE(devs == NULL);
	T_EQ_INT(u2fhfix_calls(), 1);
	T_EQ_INT(u2fhfix_fk.done, 0);
	T_EQ_INT(u2fhfix_settle(), 0);
	T_EQ_INT(u2fhfix_fk.done, 1);
}

/* Calls that overrun their deadline are left to finish on their own
 * (never cancelled inside the library), each on its own copy of the
 * exchange, and there may be only U2FHFIX_CALLS_MAX of them: the next
 * call is refused without reaching the library. The devices are closed
 * while their calls still run, which then write into their own buffers
 * and release the library handle last (the asan stage checks the
 * memory). */
static void
test_stragglers_bounded(void)
{
	struct reg_result reg;
	struct dev **devs = NULL;
	size_t i, n = 0;
	unsigned sends;

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.max_index = U2FHFIX_CALLS_MAX;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, U2FHFIX_CALLS_MAX + 1);
	u2fhfix_fk.hang_ins = 0x02;
	for (i = 0; i < U2FHFIX_CALLS_MAX && i < n; i++) {
		/* returns while the call still hangs: the deadline ended it */
		T_EQ_ERR(
		    dev_probe(devs[i], ORIGIN, &reg.cred, OP_MS), ERR_TIMEOUT);
		T_EQ_INT(u2fhfix_calls(), i + 1);
	}
	sends = u2fhfix_fk.sends;
	if (n > U2FHFIX_CALLS_MAX)
		T_EQ_ERR(dev_probe(
			     devs[U2FHFIX_CALLS_MAX], ORIGIN, &reg.cred, OP_MS),
		    ERR_SYSTEM);
	T_EQ_INT(u2fhfix_fk.sends, sends); /* the library was not called */
	T_EQ_INT(u2fhfix_calls(), U2FHFIX_CALLS_MAX);
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_fk.done, 0);
	T_EQ_INT(u2fhfix_settle(), 0);
	T_EQ_INT(u2fhfix_calls(), 0);
	T_EQ_INT(u2fhfix_fk.done, 1);
	/* once they are gone, calls run again */
	u2fhfix_fk.hang_ins = -1;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	if (n > 0)
		T_EQ_ERR(dev_probe(devs[0], ORIGIN, &reg.cred, OP_MS), ERR_OK);
	dev_close_all(devs, n);
	reg_result_clear(&reg);
}

static void
test_setup(void)
{
	T_EQ_INT(u2fhfix_setup(), 0);
}

static void
test_cleanup(void)
{
	T_EQ_INT(u2fhfix_cleanup(), 0);
}

TEST_MAIN(TEST(test_setup), TEST(test_register_probe_assert),
    TEST(test_reply_sizes_bounded), TEST(test_library_overrun_contained),
    TEST(test_claimed_length_refused), TEST(test_hostile_replies_refused),
    TEST(test_auth_run_and_cancel), TEST(test_endless_keepalive_cut_off),
    TEST(test_stragglers_bounded), TEST(test_cleanup))
