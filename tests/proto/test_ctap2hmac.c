/* SPDX-License-Identifier: BSD-2-Clause */
/* The hmac-secret extension's CTAP2 messages (proto/ctap2/msg.c, issue
 * 30) byte for byte as python3-fido2 0.9.1 writes them
 * (tests/proto/hmackat.h, made by tests/proto/hmackat.py): MakeCredential
 * asking for it (alone and after credProtect, canonical order),
 * GetAssertion with the input under PIN protocols 1 and 2 (saltEnc and
 * saltAuth computed here by pinproto.c from the same fixed keys must be
 * python's too); the authData outputs parsed and decrypted to the
 * output; malformed ones refused. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "crypto/pinproto.h"
#include "crypto/pinproto_int.h"
#include "ctap2kat.h"
#include "hmackat.h"
#include "proto/ctap2/ctap2.h"
#include "test.h"

static uint8_t cdh[32], kh[16], uid[32];
static struct cred cr;

static void
setup(void)
{
	size_t i;

	for (i = 0; i < sizeof(cdh); i++)
		cdh[i] = (uint8_t)i;
	memset(kh, 0xaa, sizeof(kh));
	memset(uid, 0x01, sizeof(uid));
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

static void
mc_with(int prot, const char *hex)
{
	uint8_t buf[CTAP2_MSG_MAX];
	struct reg_req req;
	struct ctap2_mc mc;
	size_t len = 0;

	setup();
	memset(&req, 0, sizeof(req));
	req.rp_id = "example.org";
	memcpy(req.cdh, cdh, sizeof(cdh));
	req.type = COSE_ES256;
	req.user.id = uid;
	req.user.id_len = sizeof(uid);
	req.user.name = req.user.display_name = "alice";
	req.cred_protect = prot;
	req.hmac_secret = true;
	memset(&mc, 0, sizeof(mc));
	mc.req = &req;
	mc.rk = mc.uv = -1;
	T_EQ_ERR(ctap2_build_mc(&mc, buf, &len), ERR_OK);
	expect_bytes(buf, len, hex);
}

static void
test_mc_as_python_fido2(void)
{
	mc_with(0, HK_MC);
	mc_with(2, HK_MC_PROT);
}

/* The shared secret of protocol proto from the fixed keys. */
static void
shared_of(int proto, struct pin_shared *s)
{
	uint8_t *priv, *ax, *ay, x[32], y[32];
	size_t n;

	priv = test_unhex(PIN_PLAT_PRIV, &n);
	ax = test_unhex(PIN_AUTH_X, &n);
	ay = test_unhex(PIN_AUTH_Y, &n);
	T_EQ_ERR(pin_agree_with(proto, priv, ax, ay, x, y, s), ERR_OK);
	free(priv);
	free(ax);
	free(ay);
}

static void
ga_with(int proto, const char *enc_hex, const char *auth_hex, const char *hex)
{
	uint8_t buf[CTAP2_MSG_MAX], pa[32], auth[PIN_AUTH_MAX], enc[48];
	uint8_t *px, *py, *salt, *want_enc;
	struct ctap2_hmac_in in;
	struct pin_shared s;
	struct ctap2_ga ga;
	size_t n, len = 0, alen = 0, elen = 0, wlen;

	setup();
	shared_of(proto, &s);
	px = test_unhex(PIN_PLAT_X, &n);
	py = test_unhex(PIN_PLAT_Y, &n);
	salt = test_unhex(HK_SALT, &n);
	want_enc = test_unhex(enc_hex, &wlen);
	/* Protocol 1's saltEnc is ours byte for byte (IV 0); protocol 2's
	 * IV is random, so ours must at least decrypt to the salt. */
	T_EQ_ERR(pin_encrypt(&s, salt, 32, enc, sizeof(enc), &elen), ERR_OK);
	if (proto == 1)
		expect_bytes(enc, elen, enc_hex);
	else
		T_EQ_INT(elen, 48);
	/* saltAuth over python's saltEnc is python's. */
	T_EQ_ERR(pin_auth_shared(&s, want_enc, wlen, auth, &alen), ERR_OK);
	expect_bytes(auth, alen, auth_hex);
	memset(&in, 0, sizeof(in));
	in.ka_x = px;
	in.ka_y = py;
	in.salt_enc = want_enc;
	in.salt_enc_len = wlen;
	in.salt_auth = auth;
	in.salt_auth_len = alen;
	in.proto = proto;
	memset(pa, 0x55, sizeof(pa));
	memset(&ga, 0, sizeof(ga));
	ga.rp_id = "example.org";
	ga.cdh = cdh;
	ga.cred = &cr;
	ga.up = ga.uv = -1;
	ga.pin_auth = pa;
	ga.pin_auth_len = proto == 1 ? 16 : 32;
	ga.pin_proto = proto;
	ga.hmac = &in;
	T_EQ_ERR(ctap2_build_ga(&ga, buf, &len), ERR_OK);
	expect_bytes(buf, len, hex);
	pin_shared_clear(&s);
	free(px);
	free(py);
	free(salt);
	free(want_enc);
}

static void
test_ga_as_python_fido2(void)
{
	ga_with(1, HK1_SALT_ENC, HK1_SALT_AUTH, HK1_GA);
	ga_with(2, HK2_SALT_ENC, HK2_SALT_AUTH, HK2_GA);
}

/* python's encrypted output, found in the extensions and decrypted to
 * the output; two outputs decrypt to 64 bytes (the client refuses any
 * length but 32: proto/ctap2/hmac.c). */
static void
out_with(int proto, const char *ext_hex, size_t want_len)
{
	uint8_t out[64], *ext, *want;
	const uint8_t *p;
	struct pin_shared s;
	size_t n, elen, len = 0;
	bool on = true;

	shared_of(proto, &s);
	ext = test_unhex(ext_hex, &elen);
	want = test_unhex(HK_OUTPUT, &n);
	T_EQ_ERR(ctap2_ext_hmac_secret(ext, elen, &p, &n, &on), ERR_OK);
	T_TRUE(p != NULL && !on);
	if (p != NULL) {
		T_EQ_ERR(pin_decrypt(&s, p, n, out, sizeof(out), &len), ERR_OK);
		T_EQ_INT(len, want_len);
		T_EQ_MEM(out, want, 32);
	}
	pin_shared_clear(&s);
	free(ext);
	free(want);
}

static void
test_output_as_python_fido2(void)
{
	out_with(1, HK1_EXT_OUT, 32);
	out_with(2, HK2_EXT_OUT, 32);
	out_with(1, HK1_EXT_TWO, 64);
	out_with(2, HK2_EXT_TWO, 64);
}

/* After MakeCredential: true; absent: nothing; malformed: refused. */
static void
test_ext_parse(void)
{
	static const uint8_t no_ext[] = {0xa1, 0x61, 0x78, 0x01}; /* {"x":1} */
	static const uint8_t bad_type[] = {0xa1, 0x6b, 'h', 'm', 'a', 'c', '-',
	    's', 'e', 'c', 'r', 'e', 't', 0x01}; /* {"hmac-secret": 1} */
	static const uint8_t not_map[] = {0x01};
	uint8_t *ext;
	const uint8_t *p;
	size_t n, elen;
	bool on = false;

	ext = test_unhex(HK_EXT_MC, &elen);
	T_EQ_ERR(ctap2_ext_hmac_secret(ext, elen, &p, &n, &on), ERR_OK);
	T_TRUE(on && p == NULL);
	free(ext);
	T_EQ_ERR(ctap2_ext_hmac_secret(NULL, 0, &p, &n, &on), ERR_OK);
	T_TRUE(!on && p == NULL);
	T_EQ_ERR(
	    ctap2_ext_hmac_secret(no_ext, sizeof(no_ext), &p, &n, &on), ERR_OK);
	T_TRUE(!on && p == NULL);
	T_EQ_ERR(ctap2_ext_hmac_secret(bad_type, sizeof(bad_type), &p, &n, &on),
	    ERR_PROTO);
	T_EQ_ERR(ctap2_ext_hmac_secret(not_map, sizeof(not_map), &p, &n, &on),
	    ERR_PROTO);
}

/* GetInfo's extensions: hmac-secret gives its bit. */
static void
test_info_lists_it(void)
{
	/* {1: ["FIDO_2_0"], 2: ["credProtect", "hmac-secret"],
	 *  3: aaguid(16 zero bytes)} */
	static const uint8_t info[] = {0xa3, 0x01, 0x81, 0x68, 'F', 'I', 'D',
	    'O', '_', '2', '_', '0', 0x02, 0x82, 0x6b, 'c', 'r', 'e', 'd', 'P',
	    'r', 'o', 't', 'e', 'c', 't', 0x6b, 'h', 'm', 'a', 'c', '-', 's',
	    'e', 'c', 'r', 'e', 't', 0x03, 0x50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0};
	struct ctap2_info in;

	T_EQ_ERR(ctap2_parse_info(info, sizeof(info), &in), ERR_OK);
	T_TRUE((in.exts & CTAP2_EXT_HMAC_SECRET) != 0);
	T_TRUE((in.exts & CTAP2_EXT_CRED_PROTECT) != 0);
}

TEST_MAIN(TEST(test_mc_as_python_fido2), TEST(test_ga_as_python_fido2),
    TEST(test_output_as_python_fido2), TEST(test_ext_parse),
    TEST(test_info_lists_it))
