/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's CTAP2 side, continued: built-in UV
 * (PROCESSING keepalives, uvRetries, UV_BLOCKED), alwaysUv, presence
 * (UPNEEDED, CANCEL, the 30 s timeout), PUAT_REQUIRED per version,
 * request errors, Selection, Reset, the log, and every CTAP2 fault mode,
 * each checked with the project's strict CBOR reader. */
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

#define RP "pam://test"

static void
test_builtin_uv(void)
{
	struct token_config c;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;
	uint8_t flags = 0, tok[32], auth[32];
	uint32_t ctr = 0;
	unsigned n = 0, i;

	ch_config(&c);
	c.uv = TOKEN_UV_OK;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	q.uv = 1;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	T_EQ_INT(cred.flags, 0x45); /* UP | UV | AT */
	T_TRUE(h.ka_processing >= 2);
	T_EQ_INT(h.ka_upneeded, 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x05);
	T_TRUE(h.ka_processing >= 2);
	T_EQ_INT(ch_get_token(&h, 2, 6, NULL, 2, RP, tok), 0); /* UV token */
	T_TRUE(h.ka_processing >= 2);
	q.uv = -1;
	q.auth = auth;
	q.auth_len = ch_auth(2, tok, q.cdh, auth);
	q.proto = 2;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x05);
	token_free(&h.t);

	c.uv = TOKEN_UV_FAIL;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	q.uv = 1;
	for (i = 0; i < 7; i++)
		T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x3F);
	T_EQ_INT(ch_uv_retries(&h, &n), 0);
	T_EQ_INT(n, 1);
	T_EQ_INT(ch_get_token(&h, 2, 6, NULL, 2, RP, tok), 0x3C);
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x3C);
	T_EQ_INT(h.ka_processing, 0); /* blocked: no UV attempted */
	token_free(&h.t);

	ch_config(&c); /* no built-in UV */
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_token(&h, 2, 6, NULL, 2, RP, tok), 0x30);
	q.nallow = 0;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x2C);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x2B);
	token_free(&h.t);
}

static void
test_always_uv(void)
{
	struct token_config c;
	struct ch_cred cred;
	struct ch_info in;
	struct ch_req q;
	struct ch h;
	uint8_t flags = 0;
	uint32_t ctr = 0;

	ch_config(&c);
	c.always_uv = 1;
	c.pin = "1234";
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.opt_alwaysuv, 1);
	T_EQ_INT(in.nversions, 3); /* no U2F_V2 */
	T_EQ_STR(in.versions[0], "FIDO_2_0");
	T_TRUE(!token_has_u2f(h.t));
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x36);
	token_free(&h.t);

	c.uv = TOKEN_UV_OK; /* built-in UV is done without asking */
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	T_EQ_INT(cred.flags, 0x45);
	q.allow[0] = &cred;
	q.nallow = 1;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x05);
	q.up = 0; /* alwaysUv does not apply to up=false */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x00);
	T_EQ_INT(h.ka_processing, 0);
	token_free(&h.t);
}

static void
test_puat_required(void)
{
	struct token_config c;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;
	uint8_t empty[1];

	ch_config(&c);
	c.pin = "1234";
	ch_req_init(&q, RP);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x36);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21PRE, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x36);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21, &c); /* makeCredUvNotRqd */
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	q.auth = empty; /* zero length: touch, then PIN_INVALID */
	q.auth_len = 0;
	q.proto = 1;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x31);
	token_free(&h.t);
	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x35);
	token_free(&h.t);
}

static void
test_presence(void)
{
	struct token_config c;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;
	uint8_t flags = 0;
	uint32_t ctr = 0;

	ch_config(&c);
	c.presence = TOKEN_PRESENCE_AFTER;
	c.after_ms = 500;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	T_EQ_INT(h.ka_upneeded, 5);
	T_EQ_INT(h.ka_processing, 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	q.up = 0; /* no touch wanted: answered at once */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(h.polls, 0);
	q.up = -1;
	h.cancel_after = 3;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x2D);
	T_EQ_INT(h.polls, 3);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x2D); /* Selection */
	h.cancel_after = 0;
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0);
	token_free(&h.t);

	c.presence = TOKEN_PRESENCE_NEVER;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x2F); /* after 30 s */
	T_EQ_INT(h.polls, 300);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0x01); /* no Selection */
	token_free(&h.t);
}

static void
test_request_errors(void)
{
	static const uint8_t bad[] = {0xa1, 0x01}; /* map cut short */
	static const uint8_t noncanon[] = {0xa2, 0x02, 0x00, 0x01, 0x00};
	static const uint8_t not_map[] = {0x01};
	static const int unsupported[] = {-36, -65535, 0};
	struct token_config c;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;

	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_call(&h, 0x01, bad, sizeof(bad)), 0x12);
	T_EQ_INT(ch_call(&h, 0x01, noncanon, sizeof(noncanon)), 0x12);
	T_EQ_INT(ch_call(&h, 0x02, not_map, sizeof(not_map)), 0x11);
	T_EQ_INT(ch_call(&h, 0x01, NULL, 0), 0x14);
	T_EQ_INT(ch_call(&h, 0x06, NULL, 0), 0x14);
	T_EQ_INT(ch_call(&h, 0x42, NULL, 0), 0x01);
	ch_req_init(&q, RP);
	q.algs = unsupported;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x26);
	ch_req_init(&q, RP);
	q.rk = 1; /* resident: see test_ctap2rk */
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	q.rk = -1;
	q.up = 0;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0x2C);
	token_free(&h.t);
}

static void
test_reset_and_log(void)
{
	char dir[] = "/tmp/test_ctap2f.XXXXXX", path[64], line[128];
	struct token_config c;
	struct ch_cred cred;
	struct ch_info in;
	struct ch_req q;
	struct ch h;
	uint8_t flags = 0;
	uint32_t ctr = 0;
	FILE *log;
	int pinseen = 0, lines = 0;

	T_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/log", dir);
	T_TRUE((log = fopen(path, "w+")) != NULL);
	ch_config(&c);
	c.pin = "24681357";
	c.log = log;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	T_EQ_INT(ch_call(&h, 0x07, NULL, 0), 0); /* Reset */
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.opt_clientpin, 0);
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x2E);
	token_free(&h.t);
	rewind(log);
	while (fgets(line, sizeof(line), log) != NULL) {
		lines++;
		pinseen |= strstr(line, "2468") != NULL;
	}
	T_EQ_INT(lines, 6); /* 4 commands, 2 touches (MC, Reset) */
	T_EQ_INT(pinseen, 0);
	rewind(log);
	T_TRUE(fgets(line, sizeof(line), log) != NULL);
	T_EQ_STR(line, "touch\n");
	T_TRUE(fgets(line, sizeof(line), log) != NULL);
	T_EQ_STR(line, "cbor cmd=01 status=00\n");
	fclose(log);
	unlink(path);
	rmdir(dir);
}

/* A credential made by a token without faults, then the same token (its
 * state file) with faults: the assertion's reply. */
static int
faulty_assert(unsigned faults, struct ch *h, uint8_t *flags)
{
	char dir[] = "/tmp/test_ctap2f.XXXXXX", path[64];
	struct token_config c;
	struct ch_cred cred;
	struct ch_info in;
	struct ch_req q;
	uint32_t ctr = 0;
	int st;

	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/state", dir);
	ch_config(&c);
	c.state_path = path;
	ch_init(h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	if (ch_make_cred(h, &q, &cred) != 0)
		abort();
	token_free(&h->t);
	c.faults = faults;
	ch_init(h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(h, &in), 0); /* GetInfo is never faulty */
	q.allow[0] = &cred;
	q.nallow = 1;
	st = ch_get_assert(h, &q, &cred, flags, &ctr);
	token_free(&h->t);
	unlink(path);
	rmdir(dir);
	return st;
}

static void
test_reply_faults(void)
{
	const uint8_t *body;
	struct ch h;
	uint8_t flags = 0xff;
	size_t n;

	T_EQ_INT(faulty_assert(0, &h, &flags), 0); /* the control */
	T_EQ_INT(flags, 0x01);
	T_EQ_INT(faulty_assert(FAULT_CBOR_GARBAGE, &h, &flags), -1);
	body = ch_body(&h, &n);
	T_EQ_INT(h.rep[0], 0);
	T_TRUE(n > 10);
	T_EQ_ERR(cbor_check(body, n), ERR_PARSE);
	T_EQ_INT(faulty_assert(FAULT_CBOR_NONCANON, &h, &flags), -1);
	body = ch_body(&h, &n);
	T_EQ_INT(h.rep[0], 0);
	T_EQ_ERR(cbor_check(body, n), ERR_PARSE);
	T_EQ_INT(body[0], 0xa3); /* the same three entries */
	T_EQ_INT(body[body[1] == 0x02 ? 1 : 0], 0x02); /* 2 comes first */
	T_EQ_INT(faulty_assert(FAULT_CBOR_STATUS, &h, &flags), 0x7F);
	body = ch_body(&h, &n);
	T_EQ_ERR(cbor_check(body, n), ERR_OK); /* the body is kept */
	T_EQ_INT(faulty_assert(FAULT_CBOR_OVERSIZED, &h, &flags), -1);
	T_EQ_INT(h.rlen, CTAP2_REPLY_MAX);
	body = ch_body(&h, &n);
	T_TRUE(cbor_check(body, n) != ERR_OK);
	T_EQ_INT(faulty_assert(FAULT_UV_LIE, &h, &flags), 0);
	T_EQ_INT(flags, 0x05); /* UV claimed, none done */
}

static void
test_getinfo_garbage(void)
{
	struct token_config c;
	struct ch_info in;
	const uint8_t *body;
	struct ch h;
	size_t n;

	ch_config(&c);
	c.faults = FAULT_GETINFO_GARBAGE;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), -1);
	T_EQ_INT(h.rep[0], 0);
	body = ch_body(&h, &n);
	T_TRUE(n > 10);
	T_EQ_ERR(cbor_check(body, n), ERR_PARSE);
	T_EQ_INT(ch_call(&h, 0x0B, NULL, 0), 0); /* the rest works */
	token_free(&h.t);
}

static void
test_uv_skip(void)
{
	struct token_config c;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;
	uint8_t tok[32], auth[32], flags = 0;
	uint32_t ctr = 0;

	ch_config(&c);
	c.pin = "1234";
	c.faults = FAULT_UV_SKIP;
	ch_init(&h, TOKEN_CTAP2_20, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0); /* no PUAT_REQUIRED */
	T_EQ_INT(cred.flags, 0x41);
	T_EQ_INT(ch_get_token(&h, 1, 5, "1234", 0, NULL, tok), 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	q.auth = auth;
	q.auth_len = ch_auth(1, tok, q.cdh, auth);
	q.proto = 1;
	auth[0] ^= 1; /* even a wrong one is accepted */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x01); /* and the UV flag is clear */
	token_free(&h.t);
}

static void
test_endless_processing(void)
{
	struct token_config c;
	struct ch_info in;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;

	ch_config(&c);
	c.faults = FAULT_ENDLESS_PROCESSING;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), -1);
	T_EQ_INT(h.ka_processing, CH_MAX_KEEPALIVES);
	h.cancel_after = 2;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), -1); /* CANCEL ignored */
	T_EQ_INT(h.ka_upneeded, 0);
	token_free(&h.t);
}

TEST_MAIN(TEST(test_builtin_uv), TEST(test_always_uv), TEST(test_puat_required),
    TEST(test_presence), TEST(test_request_errors), TEST(test_reset_and_log),
    TEST(test_reply_faults), TEST(test_uv_skip), TEST(test_endless_processing),
    TEST(test_getinfo_garbage))
