/* SPDX-License-Identifier: BSD-2-Clause */
/* proto/ctap2/msg.c and info.c: requests byte for byte as an
 * independent client writes them (python3-fido2 0.9.1: fido2.cbor.encode
 * of fido2.ctap2.base.args(...), the way its Ctap2 class builds each
 * command; outputs recorded below), replies parsed strictly, and every
 * CTAP2 status code mapped to one of our errors. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "proto/ctap2/ctap2.h"
#include "test.h"

static uint8_t cdh[32], kh[16];
static struct cred cr;

static void
setup(void)
{
	size_t i;

	for (i = 0; i < sizeof(cdh); i++)
		cdh[i] = (uint8_t)i;
	memset(kh, 0xaa, sizeof(kh));
	memset(&cr, 0, sizeof(cr));
	cr.kh = kh;
	cr.kh_len = sizeof(kh);
	cr.type = COSE_ES256;
}

static void
expect_bytes(const uint8_t *got, size_t len, const char *hex)
{
	size_t n;
	uint8_t *want = test_unhex(hex, &n);

	T_EQ_INT(len, n);
	if (len == n)
		T_EQ_MEM(got, want, n);
	free(want);
}

/* args("example.org", cdh, [{"id": kh, "type": "public-key"}], None,
 * {"up": False}, None, None) */
static void
test_ga_probe_as_python_fido2(void)
{
	uint8_t buf[CTAP2_MSG_MAX];
	struct ctap2_ga ga;
	size_t len;

	setup();
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = "example.org";
	ga.cdh = cdh;
	ga.cred = &cr;
	ga.up = 0;
	ga.uv = -1;
	T_EQ_ERR(ctap2_build_ga(&ga, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "02a4016b6578616d706c652e6f7267025820000102030405060708090a0b0c0d"
	    "0e0f101112131415161718191a1b1c1d1e1f0381a262696450aaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaa64747970656a7075626c69632d6b657905a1627570f4");
}

/* args("example.org", cdh, [{"id": kh, ...}, {"id": kh2, ...}], None,
 * {"up": False}, None, None): a silent check of two credentials at once
 * (a batch of the allow list). */
static void
test_ga_list(void)
{
	uint8_t buf[CTAP2_MSG_MAX], kh2[16];
	const struct cred *list[2];
	struct cred cr2;
	struct ctap2_ga ga;
	size_t len;

	setup();
	memset(kh2, 0xbb, sizeof(kh2));
	cr2 = cr;
	cr2.kh = kh2;
	list[0] = &cr;
	list[1] = &cr2;
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = "example.org";
	ga.cdh = cdh;
	ga.list = list;
	ga.nlist = 2;
	ga.up = 0;
	ga.uv = -1;
	T_EQ_ERR(ctap2_build_ga(&ga, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "02a4016b6578616d706c652e6f7267025820000102030405060708090a0b0c0d"
	    "0e0f101112131415161718191a1b1c1d1e1f0382a262696450aaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaa64747970656a7075626c69632d6b6579a262696450bbbb"
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbb64747970656a7075626c69632d6b657905a1"
	    "627570f4");
}

/* args("pam://host", cdh, [...], None, None, b"\x11" * 16, 1) */
static void
test_ga_pin_as_python_fido2(void)
{
	uint8_t buf[CTAP2_MSG_MAX], auth[16];
	struct ctap2_ga ga;
	size_t len;

	setup();
	memset(auth, 0x11, sizeof(auth));
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = "pam://host";
	ga.cdh = cdh;
	ga.cred = &cr;
	ga.up = ga.uv = -1;
	ga.pin_auth = auth;
	ga.pin_auth_len = sizeof(auth);
	ga.pin_proto = 1;
	T_EQ_ERR(ctap2_build_ga(&ga, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "02a5016a70616d3a2f2f686f7374025820000102030405060708090a0b0c0d0e"
	    "0f101112131415161718191a1b1c1d1e1f0381a262696450aaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaa64747970656a7075626c69632d6b65790650111111111111"
	    "111111111111111111110701");
}

/* args(cdh, {"id": "pam://host", "name": "pam://host"}, {"id": b"\x07"
 * * 32, "name": "alice", "displayName": "alice"}, [{"alg": -8, "type":
 * "public-key"}], None, None, {"uv": True}, None, None) */
static void
test_mc_as_python_fido2(void)
{
	uint8_t buf[CTAP2_MSG_MAX], uid[32];
	struct reg_req req;
	struct ctap2_mc mc;
	size_t len;

	setup();
	memset(uid, 7, sizeof(uid));
	memset(&req, 0, sizeof(req));
	req.rp_id = "pam://host";
	memcpy(req.cdh, cdh, sizeof(cdh));
	req.type = COSE_EDDSA;
	req.user.id = uid;
	req.user.id_len = sizeof(uid);
	req.user.name = req.user.display_name = "alice";
	memset(&mc, 0, sizeof(mc));
	mc.req = &req;
	mc.rk = -1;
	mc.uv = 1;
	T_EQ_ERR(ctap2_build_mc(&mc, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "01a5015820000102030405060708090a0b0c0d0e0f101112131415161718191a"
	    "1b1c1d1e1f02a26269646a70616d3a2f2f686f7374646e616d656a70616d3a2f"
	    "2f686f737403a362696458200707070707070707070707070707070707070707"
	    "070707070707070707070707646e616d6565616c6963656b646973706c61794e"
	    "616d6565616c6963650481a263616c672764747970656a7075626c69632d6b65"
	    "7907a1627576f5");
	req.user.name = NULL; /* a user entity is required */
	T_EQ_ERR(ctap2_build_mc(&mc, buf, &len), ERR_INVAL);
}

/* args(2, 2) and args(2, 9, ka, None, None, b"\x03" * 32, None, None,
 * 2, "pam://host") with ka the COSE key {1: 2, 3: -25, -1: 1, -2: x,
 * -3: y} */
static void
test_client_pin_as_python_fido2(void)
{
	uint8_t buf[CTAP2_MSG_MAX], x[32], y[32], enc[32];
	struct ctap2_cp cp;
	size_t len;

	memset(&cp, 0, sizeof(cp));
	cp.proto = 2;
	cp.sub = CTAP2_PIN_GET_KA;
	T_EQ_ERR(ctap2_build_cp(&cp, buf, &len), ERR_OK);
	expect_bytes(buf, len, "06a201020202");
	memset(x, 1, sizeof(x));
	memset(y, 2, sizeof(y));
	memset(enc, 3, sizeof(enc));
	cp.sub = CTAP2_PIN_GET_TOKEN_PIN;
	cp.ka_x = x;
	cp.ka_y = y;
	cp.pin_hash_enc = enc;
	cp.pin_hash_enc_len = sizeof(enc);
	cp.perms = CTAP2_PERM_GA;
	cp.rp_id = "pam://host";
	T_EQ_ERR(ctap2_build_cp(&cp, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "06a60102020903a5010203381820012158200101010101010101010101010101"
	    "0101010101010101010101010101010101012258200202020202020202020202"
	    "0202020202020202020202020202020202020202020658200303030303030303"
	    "03030303030303030303030303030303030303030303030309020a6a70616d3a"
	    "2f2f686f7374");
}

/* A CTAP 2.1 key's GetInfo, encoded by python3-fido2 (versions U2F_V2
 * FIDO_2_0 FIDO_2_1_PRE FIDO_2_1, options with alwaysUv and
 * pinUvAuthToken, PIN protocols [2, 1], algorithms ES256 and EdDSA). */
static const char info_hex[] =
    "ab0184665532465f5632684649444f5f325f306c4649444f5f325f315f505245684649"
    "444f5f325f3102826b6372656450726f746563746b686d61632d7365637265740350ee"
    "882879721c491397753dfcce97072a04a862726bf5627570f5627576f464706c6174f4"
    "68616c776179735576f569636c69656e7450696ef56e70696e557641757468546f6b65"
    "6ef5706d616b654372656455764e6f74527164f5051904b00682020107080818800981"
    "637573620a82a263616c672664747970656a7075626c69632d6b6579a263616c672764"
    "747970656a7075626c69632d6b65790e1a00050403";

static void
test_get_info(void)
{
	struct ctap2_info in;
	size_t len;
	uint8_t *p = test_unhex(info_hex, &len);

	T_EQ_ERR(ctap2_parse_info(p, len, &in), ERR_OK);
	T_EQ_INT(
	    in.versions, CTAP2_V_U2F | CTAP2_V_20 | CTAP2_V_21PRE | CTAP2_V_21);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_UV), 0);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_CLIENT_PIN), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_ALWAYS_UV), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_PIN_UV_TOKEN), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_MC_UV_NOT_RQD), 1);
	T_EQ_INT(in.max_msg, 1200);
	T_EQ_INT(in.npin_protos, 2);
	T_EQ_INT(in.pin_protos[0], 2);
	T_TRUE(ctap2_info_alg(&in, COSE_ES256));
	T_TRUE(ctap2_info_alg(&in, COSE_EDDSA));
	T_TRUE(!ctap2_info_alg(&in, COSE_RS256));
	T_EQ_INT(in.aaguid[0], 0xee);
	/* swap "rk" and "up" in the options map: not canonical */
	p[0x58] = 'u';
	p[0x59] = 'p';
	p[0x5c] = 'r';
	p[0x5d] = 'k';
	T_EQ_ERR(ctap2_parse_info(p, len, &in), ERR_PROTO);
	free(p);
	/* {1: ["U2F_V2"]}: no CTAP2 version */
	p = test_unhex("a10181665532465f5632", &len);
	T_EQ_ERR(ctap2_parse_info(p, len, &in), ERR_UNSUPPORTED);
	free(p);
}

static void
test_replies(void)
{
	struct ctap2_ga_reply g;
	struct ctap2_cp_reply c;
	size_t len;
	uint8_t *p = test_unhex(
	    "a401a262696450aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa64747970656a707562"
	    "6c69632d6b657902582542424242424242424242424242424242424242424242"
	    "424242424242424242424242424242034330010204a1626964420102",
	    &len);

	T_EQ_ERR(ctap2_parse_ga(p, len, &g), ERR_OK);
	T_EQ_INT(g.cred_id_len, 16);
	T_EQ_INT(g.authdata_len, 37);
	T_EQ_INT(g.sig_len, 3);
	T_EQ_INT(g.user_id_len, 2);
	T_EQ_ERR(ctap2_parse_ga(p, len - 1, &g), ERR_PROTO);
	free(p);
	p = test_unhex("a1025825424242424242424242424242424242424242424242"
		       "42424242424242424242424242424242",
	    &len); /* no signature */
	T_EQ_ERR(ctap2_parse_ga(p, len, &g), ERR_PROTO);
	free(p);
	p = test_unhex(
	    "a201a50102033818200121582001010101010101010101010101010101010101"
	    "0101010101010101010101010122582002020202020202020202020202020202"
	    "020202020202020202020202020202020307",
	    &len);
	T_EQ_ERR(ctap2_parse_cp(p, len, &c), ERR_OK);
	T_TRUE(c.has_ka);
	T_EQ_INT(c.pin_retries, 7);
	T_EQ_INT(c.uv_retries, -1);
	T_EQ_INT(c.ka_x[0], 1);
	T_EQ_INT(c.ka_y[31], 2);
	free(p);
}

/* Resident credentials: args("pam://host", cdh, None, None, {"up":
 * False}, None, None) (no allow list); args(cdh, rp, user, [{"alg": -7,
 * ...}], None, {"credProtect": 2}, {"rk": True}, None, None); a reply
 * with numberOfCredentials 3; the extension maps of authData;
 * GetNextAssertion. */
static void
test_resident_as_python_fido2(void)
{
	uint8_t buf[CTAP2_MSG_MAX], uid[32], *p;
	struct ctap2_ga ga;
	struct ctap2_ga_reply g;
	struct ctap2_info in;
	struct reg_req req;
	struct ctap2_mc mc;
	size_t len;
	int level;

	setup();
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = "pam://host";
	ga.cdh = cdh;
	ga.up = 0;
	ga.uv = -1;
	T_EQ_ERR(ctap2_build_ga(&ga, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "02a3016a70616d3a2f2f686f7374025820000102030405060708090a0b0c0d0e"
	    "0f101112131415161718191a1b1c1d1e1f05a1627570f4");
	memset(uid, 7, sizeof(uid));
	memset(&req, 0, sizeof(req));
	req.rp_id = "pam://host";
	memcpy(req.cdh, cdh, sizeof(cdh));
	req.type = COSE_ES256;
	req.user.id = uid;
	req.user.id_len = sizeof(uid);
	req.user.name = req.user.display_name = "alice";
	req.cred_protect = 2;
	memset(&mc, 0, sizeof(mc));
	mc.req = &req;
	mc.rk = 1;
	mc.uv = -1;
	T_EQ_ERR(ctap2_build_mc(&mc, buf, &len), ERR_OK);
	expect_bytes(buf, len,
	    "01a6015820000102030405060708090a0b0c0d0e0f101112131415161718191a"
	    "1b1c1d1e1f02a26269646a70616d3a2f2f686f7374646e616d656a70616d3a2f"
	    "2f686f737403a362696458200707070707070707070707070707070707070707"
	    "070707070707070707070707646e616d6565616c6963656b646973706c61794e"
	    "616d6565616c6963650481a263616c672664747970656a7075626c69632d6b65"
	    "7906a16b6372656450726f746563740207a162726bf5");
	req.cred_protect = 4; /* no such level */
	T_EQ_ERR(ctap2_build_mc(&mc, buf, &len), ERR_INVAL);
	ctap2_build_bare(CTAP2_GET_NEXT_ASSERTION, buf, &len);
	expect_bytes(buf, len, "08");

	p = test_unhex(
	    "a501a262696450aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa64747970656a707562"
	    "6c69632d6b657902582542424242424242424242424242424242424242424242"
	    "424242424242424242424242424242034330010204a16269644201020503",
	    &len);
	T_EQ_ERR(ctap2_parse_ga(p, len, &g), ERR_OK);
	T_EQ_INT(g.ncreds, 3);
	p[len - 1] = 0x00; /* numberOfCredentials 0 */
	T_EQ_ERR(ctap2_parse_ga(p, len, &g), ERR_PROTO);
	free(p);

	p = test_unhex("a16b6372656450726f7465637403", &len);
	T_EQ_ERR(ctap2_ext_cred_protect(p, len, &level), ERR_OK);
	T_EQ_INT(level, 3);
	p[len - 1] = 0x04; /* level 4 */
	T_EQ_ERR(ctap2_ext_cred_protect(p, len, &level), ERR_PROTO);
	free(p);
	p = test_unhex(
	    "a26b6372656450726f74656374016b686d61632d736563726574f5", &len);
	T_EQ_ERR(ctap2_ext_cred_protect(p, len, &level), ERR_OK);
	T_EQ_INT(level, 1);
	free(p);
	T_EQ_ERR(ctap2_ext_cred_protect(NULL, 0, &level), ERR_OK);
	T_EQ_INT(level, 0);

	p = test_unhex(
	    "a30181684649444f5f325f3002826b6372656450726f746563746b"
	    "686d61632d736563726574035000000000000000000000000000000000",
	    &len);
	T_EQ_ERR(ctap2_parse_info(p, len, &in), ERR_OK);
	T_EQ_INT(in.exts, CTAP2_EXT_CRED_PROTECT | CTAP2_EXT_HMAC_SECRET);
	free(p);
}

/* Every status byte maps to an error; only 0 is success; the PIN and
 * UV states each have their own. */
static void
test_status_codes(void)
{
	unsigned s;

	T_EQ_ERR(ctap2_status_err(0x00), ERR_OK);
	for (s = 1; s < 256; s++)
		if (ctap2_status_err((uint8_t)s) >= 0)
			T_FAIL_AT("status 0x%02x maps to success", s);
	T_EQ_ERR(ctap2_status_err(0x31), ERR_PIN_INVALID);
	T_EQ_ERR(ctap2_status_err(0x32), ERR_PIN_BLOCKED);
	T_EQ_ERR(ctap2_status_err(0x34), ERR_PIN_AUTH_BLOCKED);
	T_EQ_ERR(ctap2_status_err(0x35), ERR_PIN_NOT_SET);
	T_EQ_ERR(ctap2_status_err(0x36), ERR_PIN_REQUIRED);
	T_EQ_ERR(ctap2_status_err(0x3c), ERR_UV_BLOCKED);
	T_EQ_ERR(ctap2_status_err(0x3f), ERR_UV_INVALID);
	T_EQ_ERR(ctap2_status_err(0x2e), ERR_WRONG_KH);
	T_EQ_ERR(ctap2_status_err(0x2d), ERR_CANCELLED);
	T_EQ_ERR(ctap2_status_err(0xf0), ERR_CTAP2);
	T_EQ_STR(ctap2_status_name(0x31), "PIN_INVALID");
	T_TRUE(ctap2_status_name(0xf0) == NULL);
}

TEST_MAIN(TEST(test_ga_probe_as_python_fido2), TEST(test_ga_list),
    TEST(test_ga_pin_as_python_fido2), TEST(test_mc_as_python_fido2),
    TEST(test_client_pin_as_python_fido2), TEST(test_get_info),
    TEST(test_replies), TEST(test_resident_as_python_fido2),
    TEST(test_status_codes))
