/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's resident credentials: MakeCredential
 * with rk (stored, replaced for the same user id, KEY_STORE_FULL),
 * GetAssertion without an allowList (newest first, numberOfCredentials,
 * the user entity), GetNextAssertion and when its state is lost,
 * credProtect 1/2/3 with and without UV (resident and not), the state
 * file across a reload, Selection (0B) per version, and the log's
 * "touch", "pin ok" and "pin bad" lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cbor.h"
#include "base/err.h"
#include "../lib/test.h"
#include "ctap2host.h"
#include "token.h"

#define RP "pam://rk"

/* A resident credential for user (and credProtect prot, 0: none). */
static int
mk_rk(struct ch *h, const char *user, int prot, struct ch_cred *c)
{
	struct ch_req q;

	ch_req_init(&q, RP);
	q.rk = 1;
	q.user = user;
	q.display = "Display Name";
	q.prot = prot;
	return ch_make_cred(h, &q, c);
}

static int
uid_is(const struct ch_asr *a, const char *user)
{
	return a->uid_len == strlen(user) &&
	    memcmp(a->uid, user, a->uid_len) == 0;
}

/* GetAssertion with allowList [] (an empty array): its status. */
static int
empty_allow_list(struct ch *h)
{
	struct cbor_wr w;
	uint8_t buf[128], cdh[32];
	size_t n = 0;

	memset(cdh, 0xcd, sizeof(cdh));
	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_map(&w, 3);
	cbor_put_uint(&w, 1);
	cbor_put_str(&w, RP);
	cbor_put_uint(&w, 2);
	cbor_put_bytes(&w, cdh, 32);
	cbor_put_uint(&w, 3);
	cbor_put_array(&w, 0);
	if (cbor_wr_end(&w, &n) != ERR_OK)
		abort();
	return ch_call(h, 0x02, buf, n);
}

static void
test_discover_newest_first(void)
{
	struct token_config c;
	struct ch_cred cr[4];
	const struct ch_cred *all[4] = {&cr[0], &cr[1], &cr[2], &cr[3]};
	struct ch_info in;
	struct ch_asr a;
	struct ch_req q;
	struct ch h;
	uint32_t ctr;

	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.opt_rk, 1);
	T_EQ_INT(in.rk_remaining, 25);
	T_EQ_INT(in.ext_credprotect, 1);
	T_EQ_INT(mk_rk(&h, "alice", 0, &cr[0]), 0);
	T_EQ_INT(cr[0].ext_prot, 0);
	T_EQ_INT(cr[0].flags & 0x80, 0); /* no ED without the extension */
	T_EQ_INT(mk_rk(&h, "bob", 0, &cr[1]), 0);
	T_EQ_INT(mk_rk(&h, "carol", 0, &cr[2]), 0);
	ch_req_init(&q, RP); /* a non-resident one is never discovered */
	T_EQ_INT(ch_make_cred(&h, &q, &cr[3]), 0);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 22);

	ch_req_init(&q, RP);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[2] && uid_is(&a, "carol"));
	T_EQ_INT(a.count, 3);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.has_name + a.has_display, 0); /* no UV: id only */
	ctr = a.counter;
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[1] && uid_is(&a, "bob"));
	T_EQ_INT(a.count, 0);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.counter, ctr + 1);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[0] && uid_is(&a, "alice"));
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 4, &a), 0x30); /* no more */

	ch_req_init(&q, "pam://other");
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0x2E);
	T_EQ_INT(empty_allow_list(&h), 0); /* [] is no allowList */
	T_EQ_INT(h.rep[1], 0xA5);          /* 5 entries: numberOfCredentials */
	ch_req_init(&q, RP); /* an allowList finds a resident one too */
	q.allow[0] = &cr[1];
	q.nallow = 1;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[1]);
	T_EQ_INT(a.count, 0);
	token_free(&h.t);
}

static void
test_replace_and_full(void)
{
	struct token_config c;
	struct ch_cred cr[4];
	const struct ch_cred *all[4] = {&cr[0], &cr[1], &cr[2], &cr[3]};
	struct ch_info in;
	struct ch_asr a;
	struct ch_req q;
	struct ch h;

	ch_config(&c);
	c.rk_slots = 2;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 2);
	T_EQ_INT(mk_rk(&h, "alice", 0, &cr[0]), 0);
	T_EQ_INT(mk_rk(&h, "bob", 0, &cr[1]), 0);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 0);
	T_EQ_INT(mk_rk(&h, "carol", 0, &cr[2]), 0x28); /* KEY_STORE_FULL */
	T_EQ_INT(h.polls, 0);
	T_EQ_INT(mk_rk(&h, "alice", 0, &cr[3]), 0); /* replaces alice */
	ch_req_init(&q, RP);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[3] && uid_is(&a, "alice"));
	T_EQ_INT(a.count, 2);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 4, &a), 0);
	T_TRUE(a.cred == &cr[1]);
	q.allow[0] = &cr[0]; /* the replaced one is gone */
	q.nallow = 1;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0x2E);
	q.allow[0] = &cr[3];
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0);
	T_EQ_INT(ch_call(&h, 0x07, NULL, 0), 0); /* Reset: all gone */
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 2);
	q.nallow = 0;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 4, &a), 0x2E);
	token_free(&h.t);
}

static void
test_next_state_lost(void)
{
	struct token_config c;
	struct ch_cred cr[3];
	const struct ch_cred *all[3] = {&cr[0], &cr[1], &cr[2]};
	struct ch_info in;
	struct ch_asr a;
	struct ch_req q;
	struct ch h;

	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0x30); /* none */
	T_EQ_INT(mk_rk(&h, "u1", 0, &cr[0]), 0);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 3, &a), 0);
	T_EQ_INT(a.count, 0); /* one credential: no count, no next */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0x30);
	T_EQ_INT(mk_rk(&h, "u2", 0, &cr[1]), 0);
	T_EQ_INT(mk_rk(&h, "u3", 0, &cr[2]), 0);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 3, &a), 0);
	T_EQ_INT(a.count, 3);
	T_EQ_INT(ch_get_info(&h, &in), 0); /* another command */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0x30);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 3, &a), 0);
	h.now += 30000; /* the timer: 30 s is still fine */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0);
	T_TRUE(a.cred == &cr[1]);
	h.now += 30001; /* then too late */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0x30);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0x30);
	token_free(&h.t);
}

/* credProtect 1, 2, 3 with and without UV (a PIN token). */
static void
test_cred_protect(void)
{
	struct token_config c;
	struct ch_cred cr[4], nr;
	const struct ch_cred *all[5] = {&cr[0], &cr[1], &cr[2], &cr[3], &nr};
	struct ch_asr a;
	struct ch_req q;
	struct ch h;
	uint8_t tok[32], auth[32];

	ch_config(&c);
	c.pin = "1234";
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 3, RP, tok), 0);
	ch_req_init(&q, RP);
	q.rk = 1;
	q.user = "p1";
	T_EQ_INT(ch_make_cred(&h, &q, &cr[0]), 0x36); /* rk needs UV */
	q.auth = auth;
	q.proto = 2;
	q.auth_len = ch_auth(2, tok, q.cdh, auth);
	q.prot = 1;
	T_EQ_INT(ch_make_cred(&h, &q, &cr[0]), 0);
	T_EQ_INT(cr[0].flags, 0xC5); /* UP UV AT ED */
	T_EQ_INT(cr[0].ext_prot, 1);
	q.user = "p2";
	q.prot = 2;
	T_EQ_INT(ch_make_cred(&h, &q, &cr[1]), 0);
	T_EQ_INT(cr[1].ext_prot, 2);
	q.user = "p3";
	q.prot = 3;
	T_EQ_INT(ch_make_cred(&h, &q, &cr[2]), 0);
	T_EQ_INT(cr[2].ext_prot, 3);
	q.prot = 4;
	T_EQ_INT(ch_make_cred(&h, &q, &cr[3]), 0x02);
	q.rk = -1; /* non-resident, level 3 */
	q.prot = 3;
	T_EQ_INT(ch_make_cred(&h, &q, &nr), 0);

	ch_req_init(&q, RP); /* no UV, no allowList: level 1 only */
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0);
	T_TRUE(a.cred == &cr[0]);
	T_EQ_INT(a.count, 0);
	q.nallow = 1; /* no UV, allowList: level 2 yes, 3 no */
	q.allow[0] = &cr[1];
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0);
	q.allow[0] = &cr[2];
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0x2E);
	q.allow[0] = &nr;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0x2E);
	q.auth = auth; /* with UV: all of them */
	q.proto = 2;
	q.auth_len = ch_auth(2, tok, q.cdh, auth);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0);
	T_EQ_INT(a.flags, 0x05);
	q.allow[0] = &cr[2];
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0);
	q.nallow = 0;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 5, &a), 0);
	T_TRUE(a.cred == &cr[2] && uid_is(&a, "p3"));
	T_EQ_INT(a.count, 3);
	T_EQ_INT(a.has_name + a.has_display, 1); /* UV: name ("p3") too */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 5, &a), 0);
	T_TRUE(a.cred == &cr[1]);
	T_EQ_INT(a.flags, 0x05); /* the first one's flags */
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 5, &a), 0);
	T_TRUE(a.cred == &cr[0]);
	token_free(&h.t);
}

static void
test_state_reload(void)
{
	char dir[] = "/tmp/test_ctap2rk.XXXXXX", path[64];
	struct token_config c;
	struct ch_cred cr[2];
	const struct ch_cred *all[2] = {&cr[0], &cr[1]};
	struct ch_info in;
	struct ch_asr a;
	struct ch_req q;
	struct ch h;
	static const int rs[] = {-257, 0};

	T_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/state", dir);
	ch_config(&c);
	c.state_path = path;
	c.rk_slots = 3;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(mk_rk(&h, "alice", 2, &cr[0]), 0);
	ch_req_init(&q, RP);
	q.rk = 1;
	q.user = "bob";
	q.algs = rs; /* the longest id (RS256) fits the state file */
	T_EQ_INT(ch_make_cred(&h, &q, &cr[1]), 0);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 1);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 2, &a), 0);
	T_TRUE(a.cred == &cr[1] && uid_is(&a, "bob"));
	T_EQ_INT(a.count, 0); /* alice is level 2: not without UV */
	q.allow[0] = &cr[0];
	q.nallow = 1;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 2, &a), 0);
	T_TRUE(a.cred == &cr[0]);
	T_EQ_INT(mk_rk(&h, "bob", 0, &cr[1]), 0); /* replaced, saved */
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21, &c);
	q.nallow = 0;
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 2, &a), 0);
	T_TRUE(a.cred == &cr[1]);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.rk_remaining, 1);
	token_free(&h.t);
	unlink(path);
	rmdir(dir);
}

static void
test_selection(void)
{
	struct token_config c;
	struct ch h;

	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x01);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21PRE, &c);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x01);
	token_free(&h.t);
	c.presence = TOKEN_PRESENCE_AFTER;
	c.after_ms = 300;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x00);
	T_EQ_INT(h.ka_upneeded, 3);
	T_EQ_INT(h.rlen, 1); /* no data */
	token_free(&h.t);
	c.presence = TOKEN_PRESENCE_NEVER;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	h.cancel_after = 4;
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x2D);
	T_EQ_INT(h.ka_upneeded, 4);
	token_free(&h.t);
}

/* Count lines equal to want in the log. */
static int
count(FILE *log, const char *want)
{
	char line[128];
	int n = 0;

	rewind(log);
	while (fgets(line, sizeof(line), log) != NULL)
		n += strcmp(line, want) == 0;
	return n;
}

static void
test_log_touch_pin(void)
{
	struct token_config c;
	struct ch_cred cr[2];
	const struct ch_cred *all[2] = {&cr[0], &cr[1]};
	struct ch_asr a;
	struct ch_req q;
	struct ch h;
	uint8_t tok[32];
	FILE *log = tmpfile();

	if (log == NULL)
		abort();
	ch_config(&c);
	c.log = log;
	c.pin = "9876";
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1111", 3, RP, tok), 0x31);
	T_EQ_INT(ch_get_token(&h, 2, 9, "9876", 3, RP, tok), 0);
	T_EQ_INT(count(log, "pin bad\n"), 1);
	T_EQ_INT(count(log, "pin ok\n"), 1);
	T_EQ_INT(count(log, "touch\n"), 0);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cr[0]), 0); /* 2.1: no UV needed */
	T_EQ_INT(ch_make_cred(&h, &q, &cr[1]), 0);
	T_EQ_INT(count(log, "touch\n"), 2);
	q.allow[0] = &cr[0];
	q.nallow = 1;
	q.up = 0; /* no touch */
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 2, &a), 0);
	T_EQ_INT(a.flags, 0x00);
	T_EQ_INT(count(log, "touch\n"), 2);
	T_EQ_INT(count(log, "cbor cmd=02 status=00\n"), 1);
	T_EQ_INT(count(log, "pin ok\n") + count(log, "pin bad\n"), 2);
	T_EQ_INT(count(log, "9876\n") + count(log, "1111\n"), 0);
	token_free(&h.t);
	fclose(log);
}

/* GetNextAssertion consumes no touch. */
static void
test_next_no_touch(void)
{
	struct token_config c;
	struct ch_cred cr[3];
	const struct ch_cred *all[3] = {&cr[0], &cr[1], &cr[2]};
	struct ch_asr a;
	struct ch_req q;
	struct ch h;
	FILE *log = tmpfile();

	if (log == NULL)
		abort();
	ch_config(&c);
	c.log = log;
	ch_init(&h, TOKEN_CTAP2_21PRE, &c);
	T_EQ_INT(mk_rk(&h, "a", 0, &cr[0]), 0);
	T_EQ_INT(mk_rk(&h, "b", 0, &cr[1]), 0);
	T_EQ_INT(mk_rk(&h, "c", 0, &cr[2]), 0);
	T_EQ_INT(count(log, "touch\n"), 3);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_assert_any(&h, 0x02, &q, all, 3, &a), 0);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0);
	T_EQ_INT(ch_assert_any(&h, 0x08, &q, all, 3, &a), 0);
	T_EQ_INT(count(log, "touch\n"), 4);
	T_EQ_INT(count(log, "cbor cmd=08 status=00\n"), 2);
	token_free(&h.t);
	fclose(log);
}

TEST_MAIN(TEST(test_discover_newest_first), TEST(test_replace_and_full),
    TEST(test_next_state_lost), TEST(test_cred_protect),
    TEST(test_state_reload), TEST(test_selection), TEST(test_log_touch_pin),
    TEST(test_next_no_touch))
