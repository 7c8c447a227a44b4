/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's CTAP2 side (token_cbor), in memory
 * with a virtual clock. The host side is the project's: requests written
 * with common/base/cbor.h, replies checked with cbor_check and parsed with
 * common/proto (authData, attestation statements), PIN protocols through
 * common/crypto/pinproto.h (ctap2host.c, ctap2hpin.c). They cover GetInfo
 * per version, MakeCredential and GetAssertion for ES256, EdDSA and RS256
 * with each attestation format, ClientPIN with protocols 1 and 2 (setPIN,
 * changePIN, tokens with permissions), PIN retries and blocking, built-in
 * UV, alwaysUv, presence, errors, the state file and the log. Faults and
 * CTAPHID are in test_ctap2f.c and test_ctap2hid.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "../lib/test.h"
#include "ctap2host.h"
#include "token.h"

#define RP "pam://test"

static const int es256[] = {-7, 0};
static const int eddsa[] = {-8, 0};
static const int rs256[] = {-257, 0};
static const int unknown_then_eddsa[] = {-35, -8, -7, 0};

static void
test_info_versions(void)
{
	struct token_config c;
	struct ch_info in;
	struct ch h;

	ch_config(&c);
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.nversions, 2);
	T_EQ_STR(in.versions[0], "U2F_V2");
	T_EQ_STR(in.versions[1], "FIDO_2_0");
	T_EQ_INT(in.nprotos, 1);
	T_EQ_INT(in.protos[0], 1);
	T_EQ_INT(in.opt_clientpin, 0);
	T_EQ_INT(in.opt_puat, -1);
	T_EQ_INT(in.opt_uv, -1);
	token_free(&h.t);

	c.u2f_off = 1;
	c.pin = "1234";
	ch_init(&h, TOKEN_CTAP2_21PRE, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.nversions, 2);
	T_EQ_STR(in.versions[0], "FIDO_2_0");
	T_EQ_STR(in.versions[1], "FIDO_2_1_PRE");
	T_EQ_INT(in.nprotos, 2);
	T_EQ_INT(in.protos[0], 2);
	T_EQ_INT(in.opt_clientpin, 1);
	T_EQ_INT(in.opt_puat, -1);
	T_TRUE(!token_has_u2f(h.t) && token_has_ctap2(h.t));
	token_free(&h.t);

	ch_config(&c);
	c.uv = TOKEN_UV_OK;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.nversions, 4);
	T_EQ_STR(in.versions[3], "FIDO_2_1");
	T_EQ_INT(in.opt_puat, 1);
	T_EQ_INT(in.opt_uv, 1);
	T_EQ_INT(in.opt_rk, 1);
	T_EQ_INT(in.opt_alwaysuv, -1);
	token_free(&h.t);
}

/* MakeCredential then GetAssertion with one algorithm list. */
static void
mc_ga(const int *algs, int want_type, const char *want_fmt,
    enum token_attest att, size_t want_id_len)
{
	struct token_config c;
	struct ch_cred cred, other;
	struct ch_req q;
	struct ch h;
	uint8_t flags = 0xff;
	uint32_t ctr = 0, ctr2 = 0;
	static const uint8_t junk[61] = {1, 2, 3};

	ch_config(&c);
	c.attest = att;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	q.algs = algs;
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	T_EQ_INT(cred.type, want_type);
	T_EQ_STR(cred.fmt, want_fmt);
	T_EQ_INT(cred.id_len, want_id_len);
	T_EQ_INT(cred.flags, 0x41); /* UP | AT, no UV */
	q.allow[0] = &cred;
	q.nallow = 1;
	q.junk_id = junk; /* not ours: skipped */
	q.junk_len = sizeof(junk);
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x01);
	T_EQ_INT(ctr, cred.counter + 1);
	q.up = 0; /* silent: no UP flag, still signed, counter up */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr2), 0);
	T_EQ_INT(flags, 0x00);
	T_EQ_INT(ctr2, ctr + 1);
	ch_req_init(&q, "pam://other"); /* another RP: not ours */
	q.allow[0] = &cred;
	q.nallow = 1;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x2E);
	ch_req_init(&q, RP); /* no allowList: no resident credentials */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x2E);
	other = cred; /* a credential id changed in one byte */
	other.id[other.id_len - 1] ^= 1;
	q.allow[0] = &other;
	q.nallow = 1;
	T_EQ_INT(ch_get_assert(&h, &q, &other, &flags, &ctr), 0x2E);
	token_free(&h.t);
}

static void
test_algorithms(void)
{
	mc_ga(es256, -7, "packed", TOKEN_ATTEST_PACKED, 61);
	mc_ga(eddsa, -8, "packed", TOKEN_ATTEST_PACKED, 61);
	mc_ga(rs256, -257, "packed", TOKEN_ATTEST_PACKED, 285);
	mc_ga(unknown_then_eddsa, -8, "packed", TOKEN_ATTEST_PACKED, 61);
}

static void
test_attestation_formats(void)
{
	mc_ga(es256, -7, "packed", TOKEN_ATTEST_SELF, 61);
	mc_ga(eddsa, -8, "packed", TOKEN_ATTEST_SELF, 61);
	mc_ga(es256, -7, "fido-u2f", TOKEN_ATTEST_U2F, 61);
	mc_ga(eddsa, -8, "packed", TOKEN_ATTEST_U2F, 61);
	mc_ga(es256, -7, "none", TOKEN_ATTEST_NONE, 61);
}

/* setPIN, a token, an assertion with UV; changePIN; wrong PIN. */
static void
pin_flow(enum token_ctap2 v, int proto, unsigned sub)
{
	struct token_config c;
	struct ch_info in;
	struct ch_cred cred;
	struct ch_req q;
	struct ch h;
	uint8_t tok[32], auth[32], flags = 0;
	uint32_t ctr = 0;
	unsigned perm = sub == 9 ? 0x03 : 0;
	const char *rp = sub == 9 ? RP : NULL;

	ch_config(&c);
	ch_init(&h, v, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	T_EQ_INT(ch_get_token(&h, proto, sub, "1234", perm, rp, tok), 0x35);
	T_EQ_INT(ch_set_pin(&h, proto, "12"), 0x37); /* too short */
	T_EQ_INT(ch_set_pin(&h, proto, "1234"), 0);
	T_EQ_INT(ch_set_pin(&h, proto, "5678"), 0x30); /* already set */
	T_EQ_INT(ch_get_info(&h, &in), 0);
	T_EQ_INT(in.opt_clientpin, 1);
	T_EQ_INT(ch_get_token(&h, proto, sub, "1234", perm, rp, tok), 0);
	q.allow[0] = &cred;
	q.nallow = 1;
	q.auth = auth;
	q.auth_len = ch_auth(proto, tok, q.cdh, auth);
	q.proto = proto;
	T_EQ_INT(q.auth_len, proto == 1 ? 16 : 32);
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x05); /* UP | UV */
	auth[0] ^= 1;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x33);
	q.auth = NULL;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x01); /* no PIN: no UV */
	T_EQ_INT(ch_change_pin(&h, proto, "0000", "abcd"), 0x31);
	T_EQ_INT(ch_change_pin(&h, proto, "1234", "abcd"), 0);
	T_EQ_INT(ch_get_token(&h, proto, sub, "1234", perm, rp, tok), 0x31);
	T_EQ_INT(ch_get_token(&h, proto, sub, "abcd", perm, rp, tok), 0);
	token_free(&h.t);
}

static void
test_pin_protocols(void)
{
	uint8_t tok[32];
	struct token_config c;
	struct ch h;

	pin_flow(TOKEN_CTAP2_20, 1, 5);
	pin_flow(TOKEN_CTAP2_21PRE, 2, 5);
	pin_flow(TOKEN_CTAP2_21, 1, 9);
	pin_flow(TOKEN_CTAP2_21, 2, 9);
	ch_config(&c);
	c.pin = "1234";
	ch_init(&h, TOKEN_CTAP2_20, &c); /* 2.0: protocol 1 and 0x05 only */
	T_EQ_INT(ch_get_token(&h, 2, 5, "1234", 0, NULL, tok), 0x02);
	T_EQ_INT(ch_get_token(&h, 1, 9, "1234", 3, RP, tok), 0x3E);
	T_EQ_INT(ch_get_token(&h, 1, 5, "1234", 0, NULL, tok), 0);
	token_free(&h.t);
	ch_init(&h, TOKEN_CTAP2_21, &c); /* 2.1: 0x05 takes no permissions */
	T_EQ_INT(ch_get_token(&h, 2, 5, "1234", 3, NULL, tok), 0x02);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 0, RP, tok), 0x14);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 0x04, RP, tok), 0x40);
	T_EQ_INT(ch_get_token(&h, 3, 9, "1234", 3, RP, tok), 0x02);
	token_free(&h.t);
}

static void
test_pin_blocking(void)
{
	char dir[] = "/tmp/test_ctap2.XXXXXX", path[64];
	struct token_config c;
	uint8_t tok[32];
	unsigned n = 0;
	struct ch h;

	T_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/state", dir);
	ch_config(&c);
	c.pin = "1234";
	c.state_path = path;
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_get_token(&h, 2, 9, "0000", 2, RP, tok), 0x31);
	T_EQ_INT(ch_get_token(&h, 2, 9, "0000", 2, RP, tok), 0x31);
	T_EQ_INT(ch_get_token(&h, 2, 9, "0000", 2, RP, tok), 0x34);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 2, RP, tok), 0x34);
	T_EQ_INT(ch_pin_retries(&h, &n), 0);
	T_EQ_INT(n, 5);
	token_free(&h.t); /* power cycle: the state file keeps 5 retries */
	c.pin = "9999";   /* the stored PIN wins */
	ch_init(&h, TOKEN_CTAP2_21, &c);
	T_EQ_INT(ch_pin_retries(&h, &n), 0);
	T_EQ_INT(n, 5);
	T_EQ_INT(ch_get_token(&h, 2, 9, "9999", 2, RP, tok), 0x31);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 2, RP, tok), 0);
	T_EQ_INT(ch_pin_retries(&h, &n), 0);
	T_EQ_INT(n, 8);
	token_free(&h.t);
	unlink(path);
	rmdir(dir);

	ch_config(&c);
	c.pin = "1234";
	c.pin_retries = 1;
	ch_init(&h, TOKEN_CTAP2_20, &c);
	T_EQ_INT(ch_get_token(&h, 1, 5, "0000", 0, NULL, tok), 0x32);
	T_EQ_INT(ch_get_token(&h, 1, 5, "1234", 0, NULL, tok), 0x32);
	T_EQ_INT(ch_change_pin(&h, 1, "1234", "abcd"), 0x32);
	token_free(&h.t);
}

static void
test_permissions(void)
{
	struct token_config c;
	struct ch_cred cred, cred2;
	struct ch_req q;
	struct ch h;
	uint8_t tok[32], auth[32], flags = 0;
	uint32_t ctr = 0;

	ch_config(&c);
	c.pin = "1234";
	ch_init(&h, TOKEN_CTAP2_21, &c);
	ch_req_init(&q, RP);
	T_EQ_INT(ch_make_cred(&h, &q, &cred), 0);
	ch_req_init(&q, "pam://b");
	T_EQ_INT(ch_make_cred(&h, &q, &cred2), 0);
	T_EQ_INT(ch_get_token(&h, 2, 9, "1234", 0x01, RP, tok), 0); /* mc */
	ch_req_init(&q, RP);
	q.allow[0] = &cred;
	q.nallow = 1;
	q.auth = auth;
	q.auth_len = ch_auth(2, tok, q.cdh, auth);
	q.proto = 2;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x40);
	q.proto = 1; /* the token was made under protocol 2 */
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0x33);
	/* 0x05 in 2.1: mc|ga, bound to the first RP it is used for */
	T_EQ_INT(ch_get_token(&h, 2, 5, "1234", 0, NULL, tok), 0);
	q.auth_len = ch_auth(2, tok, q.cdh, auth);
	q.proto = 2;
	T_EQ_INT(ch_get_assert(&h, &q, &cred, &flags, &ctr), 0);
	T_EQ_INT(flags, 0x05);
	q.rp = "pam://b";
	q.allow[0] = &cred2;
	T_EQ_INT(ch_get_assert(&h, &q, &cred2, &flags, &ctr), 0x40);
	token_free(&h.t);
}

TEST_MAIN(TEST(test_info_versions), TEST(test_algorithms),
    TEST(test_attestation_formats), TEST(test_pin_protocols),
    TEST(test_pin_blocking), TEST(test_permissions))
