/* SPDX-License-Identifier: BSD-2-Clause */
/* Which requests are sent again when a key goes silent, and what
 * becomes of the late replies, on the virtual clock: the
 * software token (tests/softtoken) behind the scripted HID device of
 * tests/lib/fakehid.c, through the real CTAPHID framing, device layer and
 * CTAP2 protocol. The device drops one chosen request (a key slow to
 * answer, or a reply lost from a full hidraw queue) and never sends a
 * keepalive for it; every read takes READ_MS of virtual time.
 *  - getPinToken (ClientPIN) is sent once: no zero-filled copy of its
 *    wiped message and no second PIN try; the operation ends at its
 *    deadline;
 *  - MakeCredential is sent once: never two credentials;
 *  - GetAssertion is sent again, not before C2_STALL_MS (2 s) of
 *    silence, and the assertion then succeeds;
 *  - U2F without a probe (nodetect): the first AUTHENTICATE is answered
 *    only after it was sent again, so two "not mine" replies come for
 *    the first allow-list entry; the late one is dropped, not read as
 *    the second entry's answer, and the second entry signs
 *    (common/proto/u2f/wire.c). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "device/dev.h"
#include "fakehid.h"
#include "proto/ctap2/ctap2.h"
#include "softtoken/token.h"
#include "test.h"
#include "transport/ctaphid.h"
#include "transport/hid.h"
#include "vclock.h"

#define RP "pam://resend"
#define PIN "4711"
#define READ_MS 10
#define OP_MS 10000
#define STALL_MS 2000 /* C2_STALL_MS in common/proto/ctap2/client.h */
#define NSEEN 64

/* One CBOR request the device received. */
struct seen {
	uint8_t cmd; /* CTAP2 command byte */
	int sub;     /* ClientPIN subCommand, else -1 */
	int zero;    /* every byte of the message is 0 */
	int64_t at;  /* virtual ms */
};

struct key {
	struct token *tok;
	struct fakehid *f;
	uint8_t drop_cmd; /* drop the first request with this command */
	int drop_sub;     /* ... and (ClientPIN) this subCommand, or -1 */
	int dropped;
	int u2f_late;  /* U2F: no answer to the first AUTHENTICATE; its
			* answer comes with the next one's */
	int u2f_auths; /* AUTHENTICATE requests seen */
	struct seen seen[NSEEN];
	size_t nseen;
};

/* ClientPIN's subCommand: key 2 of the canonical request map. */
static int
pin_sub(const uint8_t *d, size_t len)
{
	if (len >= 6 && d[0] == CTAP2_CLIENT_PIN && d[2] == 0x01 &&
	    d[4] == 0x02)
		return d[5];
	return -1;
}

static int
all_zero(const uint8_t *d, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (d[i] != 0)
			return 0;
	}
	return 1;
}

/* A U2F message (an APDU): AUTHENTICATE (INS 02) as u2f_late says. */
static void
on_apdu(struct fakehid *f, const uint8_t cid[4], struct key *k,
    const uint8_t *data, size_t len)
{
	static uint8_t rep[TOKEN_REPLY_MAX];
	size_t rlen = 0;
	int auth = len >= 2 && data[1] == 0x02;

	k->u2f_auths += auth;
	if (k->u2f_late && auth && k->u2f_auths == 1)
		return; /* answered with the second */
	if (token_apdu(k->tok, vclock_now_ms(), TOKEN_ANSWER, data, len, rep,
		&rlen) != ERR_OK)
		return;
	if (k->u2f_late && auth && k->u2f_auths == 2)
		(void)fakehid_queue_msg(f, cid, CTAPHID_MSG, rep, rlen);
	(void)fakehid_queue_msg(f, cid, CTAPHID_MSG, rep, rlen);
}

static void
on_msg(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	static const uint8_t invalid_cmd[1] = {0x01};
	static uint8_t rep[CTAP2_REPLY_MAX];
	struct key *k = arg;
	struct seen *s;
	size_t rlen = 0;
	uint8_t ka = 0;

	if (cmd == CTAPHID_MSG) {
		on_apdu(f, cid, k, data, len);
		return;
	}
	if (cmd != CTAPHID_CBOR || len == 0)
		return; /* CANCEL: nothing to answer */
	if (!token_has_ctap2(k->tok)) {
		(void)fakehid_queue_msg(
		    f, cid, CTAPHID_ERROR, invalid_cmd, sizeof(invalid_cmd));
		return;
	}
	if (k->nseen < NSEEN) {
		s = &k->seen[k->nseen];
		s->cmd = data[0];
		s->sub = pin_sub(data, len);
		s->zero = all_zero(data, len);
		s->at = vclock_now_ms();
	}
	k->nseen++;
	if (!k->dropped && data[0] == k->drop_cmd &&
	    (k->drop_sub < 0 || pin_sub(data, len) == k->drop_sub)) {
		k->dropped = 1;
		return;
	}
	if (token_cbor(k->tok, vclock_now_ms(), TOKEN_ANSWER, data, len, rep,
		&rlen, &ka) == ERR_OK)
		(void)fakehid_queue_msg(f, cid, CTAPHID_CBOR, rep, rlen);
}

/* A token (CTAP 2.1 with a PIN if pin, or U2F only) behind a fake device
 * whose reads each take READ_MS; nothing dropped yet. */
static struct dev *
key_open_as(struct key *k, enum token_ctap2 v, const char *pin)
{
	static const uint8_t cid[4] = {0x11, 0x22, 0x33, 0x44};
	static const uint8_t other[64] = {0x09, 0x09, 0x09, 0x09,
	    CTAPHID_PING}; /* another program's channel */
	struct token_config cfg;
	struct xport *x = NULL;
	struct dev *d = NULL;

	memset(k, 0, sizeof(*k));
	memset(&cfg, 0, sizeof(cfg));
	cfg.presence = TOKEN_PRESENCE_NOW;
	cfg.pin_retries = -1;
	cfg.ctap2 = v;
	cfg.pin = pin;
	k->drop_cmd = 0;
	k->drop_sub = -1;
	if (token_new(&k->tok, &cfg) != ERR_OK ||
	    (k->f = fakehid_new(0)) == NULL)
		abort();
	fakehid_auto_init(k->f, cid);
	fakehid_set_handler(k->f, on_msg, k);
	fakehid_set_read_ms(k->f, READ_MS);
	fakehid_set_repeat(k->f, other, sizeof(other));
	if (xport_open_io(&fakehid_io, fakehid_path(k->f), 0, 0, NULL, 1000,
		&x) != ERR_OK ||
	    dev_open_xport(x, NULL, 1000, &d) != ERR_OK) {
		T_FAIL_AT("the fake CTAP2 key did not open");
		return NULL;
	}
	T_EQ_STR(d->proto->name, v == TOKEN_CTAP2_OFF ? "u2f" : "ctap2");
	k->nseen = 0;
	return d;
}

static struct dev *
key_open(struct key *k, const char *pin)
{
	return key_open_as(k, TOKEN_CTAP2_21, pin);
}

static void
key_close(struct key *k, struct dev **d)
{
	dev_close(d);
	fakehid_free(k->f);
	token_free(&k->tok);
}

static size_t
count(const struct key *k, uint8_t cmd, int sub)
{
	size_t i, n = 0;

	for (i = 0; i < k->nseen && i < NSEEN; i++) {
		if (k->seen[i].cmd == cmd && (sub < 0 || k->seen[i].sub == sub))
			n++;
	}
	return n;
}

static size_t
count_zero(const struct key *k)
{
	size_t i, n = 0;

	for (i = 0; i < k->nseen && i < NSEEN; i++)
		n += (size_t)k->seen[i].zero;
	return n;
}

static int
get_pin(void *arg, const char *dev, char *pin, size_t cap)
{
	int *asked = arg;

	(void)dev;
	(*asked)++;
	snprintf(pin, cap, "%s", PIN);
	return ERR_OK;
}

static void
reg_init(struct reg_req *q, struct proto_pin *cb, int *asked)
{
	static const uint8_t uid[4] = {1, 2, 3, 4};

	memset(q, 0, sizeof(*q));
	q->rp_id = RP;
	memset(q->cdh, 0x5a, sizeof(q->cdh));
	q->type = COSE_ES256;
	q->presence = true;
	q->user.id = uid;
	q->user.id_len = sizeof(uid);
	q->user.name = q->user.display_name = "alice";
	memset(cb, 0, sizeof(*cb));
	cb->get = get_pin;
	cb->tell = NULL;
	cb->arg = asked;
	q->pin_cb = cb;
}

/* An assertion over allow[0..n), presence required, no probe. */
static void
assert_init(struct assert_req *aq, const struct cred *allow, size_t n)
{
	memset(aq, 0, sizeof(*aq));
	aq->rp_id = RP;
	memset(aq->cdh, 0x33, sizeof(aq->cdh));
	aq->allow = allow;
	aq->nallow = n;
	aq->presence = true;
	aq->userverification = aq->pinverification = -1;
}

/* The PIN-token request goes unanswered: sent once, never as zeros. */
static void
test_pin_token_once(void)
{
	struct reg_result res;
	struct proto_pin cb;
	struct reg_req q;
	struct key k;
	struct dev *d = key_open(&k, PIN);
	int64_t t0 = vclock_now_ms();
	int asked = 0;

	if (d == NULL)
		goto out;
	memset(&res, 0, sizeof(res));
	reg_init(&q, &cb, &asked);
	q.pin = true;
	k.drop_cmd = CTAP2_CLIENT_PIN;
	k.drop_sub = CTAP2_PIN_GET_TOKEN_PIN;
	T_EQ_ERR(dev_register(d, &q, &res, OP_MS), ERR_TIMEOUT);
	T_EQ_INT(k.dropped, 1);
	T_EQ_INT(asked, 1);
	T_EQ_INT(count(&k, CTAP2_CLIENT_PIN, CTAP2_PIN_GET_KA), 1);
	T_EQ_INT(count(&k, CTAP2_CLIENT_PIN, CTAP2_PIN_GET_TOKEN_PIN), 1);
	T_EQ_INT(count(&k, CTAP2_MAKE_CREDENTIAL, -1), 0);
	T_EQ_INT(count_zero(&k), 0);
	T_EQ_INT(k.nseen, 2);
	/* It waited for the whole operation, not for a stall. */
	T_TRUE(vclock_now_ms() - t0 >= OP_MS);
	reg_result_clear(&res);
out:
	key_close(&k, &d);
}

/* MakeCredential goes unanswered: sent once (never two credentials),
 * after the PIN token if pin. */
static void
make_credential_once(const char *pin)
{
	struct reg_result res;
	struct proto_pin cb;
	struct reg_req q;
	struct key k;
	struct dev *d = key_open(&k, pin);
	int asked = 0;

	if (d == NULL)
		goto out;
	memset(&res, 0, sizeof(res));
	reg_init(&q, &cb, &asked);
	q.pin = pin != NULL;
	k.drop_cmd = CTAP2_MAKE_CREDENTIAL;
	T_EQ_ERR(dev_register(d, &q, &res, OP_MS), ERR_TIMEOUT);
	T_EQ_INT(k.dropped, 1);
	T_EQ_INT(count(&k, CTAP2_MAKE_CREDENTIAL, -1), 1);
	T_EQ_INT(count(&k, CTAP2_CLIENT_PIN, CTAP2_PIN_GET_TOKEN_PIN),
	    pin != NULL ? 1 : 0);
	T_EQ_INT(count_zero(&k), 0);
	T_EQ_INT(k.nseen, pin != NULL ? 3 : 1);
	T_EQ_INT(asked, pin != NULL ? 1 : 0);
	reg_result_clear(&res);
out:
	key_close(&k, &d);
}

static void
test_make_credential_once(void)
{
	make_credential_once(NULL);
}

static void
test_make_credential_pin_once(void)
{
	make_credential_once(PIN);
}

/* GetAssertion may be sent twice: again after STALL_MS of silence (not
 * sooner), and the assertion succeeds. */
static void
test_assertion_resent(void)
{
	struct assert_req aq;
	struct assertion as;
	struct reg_result res;
	struct proto_pin cb;
	struct reg_req q;
	struct key k;
	struct dev *d = key_open(&k, NULL);
	int asked = 0;

	if (d == NULL)
		goto out;
	memset(&res, 0, sizeof(res));
	memset(&as, 0, sizeof(as));
	reg_init(&q, &cb, &asked);
	T_EQ_ERR(dev_register(d, &q, &res, OP_MS), ERR_OK);
	assert_init(&aq, &res.cred, 1);
	k.nseen = 0;
	k.drop_cmd = CTAP2_GET_ASSERTION;
	T_EQ_ERR(dev_assert_begin(d, &aq, vclock_now_ms() + OP_MS), ERR_OK);
	T_EQ_ERR(dev_assert_wait(d, &as, OP_MS), ERR_OK);
	T_EQ_INT(k.dropped, 1);
	T_EQ_INT(count(&k, CTAP2_GET_ASSERTION, -1), 2);
	T_EQ_INT(count_zero(&k), 0);
	if (k.nseen == 2)
		T_TRUE(k.seen[1].at - k.seen[0].at >= STALL_MS);
	T_EQ_INT(as.cred_index, 0);
	assertion_clear(&as);
	reg_result_clear(&res);
out:
	key_close(&k, &d);
}

/* nodetect over U2F: the late duplicate "not mine" for the first entry
 * is dropped; the second entry, which the key holds, signs. */
static void
test_u2f_late_duplicate(void)
{
	struct key ka, kb;
	struct dev *da = key_open_as(&ka, TOKEN_CTAP2_OFF, NULL);
	struct dev *db = key_open_as(&kb, TOKEN_CTAP2_OFF, NULL);
	struct reg_result ra, rb;
	struct cred allow[2];
	struct assert_req aq;
	struct assertion as;
	struct proto_pin cb;
	struct reg_req q;
	int asked = 0;

	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	memset(&as, 0, sizeof(as));
	if (da == NULL || db == NULL)
		goto out;
	reg_init(&q, &cb, &asked);
	T_EQ_ERR(dev_register(da, &q, &ra, OP_MS), ERR_OK);
	T_EQ_ERR(dev_register(db, &q, &rb, OP_MS), ERR_OK);
	allow[0] = rb.cred; /* another key's: "not mine" on da */
	allow[1] = ra.cred;
	assert_init(&aq, allow, 2); /* no probe: each entry in turn */
	ka.u2f_late = 1;
	ka.u2f_auths = 0;
	T_EQ_ERR(dev_assert_begin(da, &aq, vclock_now_ms() + OP_MS), ERR_OK);
	T_EQ_ERR(dev_assert_wait(da, &as, OP_MS), ERR_OK);
	T_EQ_INT(as.cred_index, 1);
	/* entry 1 twice (sent again), then entry 2 */
	T_EQ_INT(ka.u2f_auths, 3);
	assertion_clear(&as);
out:
	reg_result_clear(&ra);
	reg_result_clear(&rb);
	key_close(&ka, &da);
	key_close(&kb, &db);
}

TEST_MAIN(TEST(test_pin_token_once), TEST(test_make_credential_once),
    TEST(test_make_credential_pin_once), TEST(test_assertion_resent),
    TEST(test_u2f_late_duplicate))
