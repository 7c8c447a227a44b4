/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for the memory-only half of common/proto/u2f/msg.c: the APDU bytes
 * u2f_apdu builds for VERSION, REGISTER and AUTHENTICATE and its size
 * limits, the status words u2f_status maps to errors, and the strict
 * parsers u2f_parse_register and u2f_parse_authenticate, run against the
 * FIDO U2F example vectors (tests/proto/u2ffix.h) and every truncation,
 * trailing byte and damaged field of them. The exchanges over CTAPHID (version,
 * register, authenticate) are in tests/proto/test_u2fop.c. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "base/err.h"
#include "proto/u2f/u2f.h"
#include "test.h"
#include "u2ffix.h"

/* --- APDU and status words --------------------------------------------- */

static void
apdu_register_bytes(void)
{
	uint8_t data[64], out[U2F_APDU_MAX], want[73];
	size_t n = 0, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i + 1);
	memcpy(want, "\x00\x01\x00\x00\x00\x00\x40", 7);
	memcpy(want + 7, data, 64);
	want[71] = want[72] = 0x00;
	T_EQ_ERR(u2f_apdu(U2F_INS_REGISTER, 0, data, 64, out, sizeof(out), &n),
	    ERR_OK);
	T_EQ_INT(n, 73);
	T_EQ_MEM(out, want, 73);
	/* exactly enough room, then one byte too little */
	T_EQ_ERR(u2f_apdu(U2F_INS_REGISTER, 0, data, 64, out, 73, &n), ERR_OK);
	T_EQ_INT(n, 73);
	T_EQ_ERR(
	    u2f_apdu(U2F_INS_REGISTER, 0, data, 64, out, 72, &n), ERR_TOO_BIG);
	T_EQ_INT(n, 0);
	T_EQ_ERR(u2f_apdu(U2F_INS_REGISTER, 0, NULL, 64, out, sizeof(out), &n),
	    ERR_INVAL);
}

static void
apdu_authenticate_bytes(void)
{
	uint8_t data[2 * 32 + 1 + U2F_KH_MAX], out[U2F_APDU_MAX];
	size_t n = 0, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0xa0 ^ i);
	/* 64-byte key handle: Lc = 32 + 32 + 1 + 64 = 0x81 */
	T_EQ_ERR(u2f_apdu(U2F_INS_AUTHENTICATE, U2F_AUTH_ENFORCE, data, 129,
		     out, sizeof(out), &n),
	    ERR_OK);
	T_EQ_INT(n, 7 + 129 + 2);
	T_EQ_MEM(out, "\x00\x02\x03\x00\x00\x00\x81", 7);
	T_EQ_MEM(out + 7, data, 129);
	T_EQ_MEM(out + 7 + 129, "\x00\x00", 2);
	/* largest key handle: Lc = 0x0140 and U2F_APDU_MAX bytes in all */
	T_EQ_ERR(u2f_apdu(U2F_INS_AUTHENTICATE, U2F_AUTH_CHECK_ONLY, data,
		     sizeof(data), out, sizeof(out), &n),
	    ERR_OK);
	T_EQ_INT(n, U2F_APDU_MAX);
	T_EQ_MEM(out, "\x00\x02\x07\x00\x00\x01\x40", 7);
	T_EQ_MEM(out + 7, data, sizeof(data));
	T_EQ_MEM(out + U2F_APDU_MAX - 2, "\x00\x00", 2);
}

static void
apdu_version_and_limits(void)
{
	uint8_t out[16], *big;
	size_t n = 0;

	/* no data: no Lc, only the extended-length marker and Le */
	T_EQ_ERR(u2f_apdu(U2F_INS_VERSION, 0, NULL, 0, out, sizeof(out), &n),
	    ERR_OK);
	T_EQ_INT(n, 7);
	T_EQ_MEM(out, "\x00\x03\x00\x00\x00\x00\x00", 7);
	T_EQ_ERR(
	    u2f_apdu(U2F_INS_VERSION, 0, NULL, 0, out, 6, &n), ERR_TOO_BIG);
	if ((big = calloc(1, 0x10000)) == NULL)
		abort();
	T_EQ_ERR(u2f_apdu(U2F_INS_REGISTER, 0, big, 0x10000, big, 0x10000, &n),
	    ERR_TOO_BIG);
	free(big);
	T_EQ_ERR(
	    u2f_apdu(U2F_INS_VERSION, 0, NULL, 0, NULL, 16, &n), ERR_INVAL);
}

static void
status_words(void)
{
	static const struct {
		uint16_t sw;
		int err;
	} map[] = {
	    {0x9000, ERR_OK},
	    {0x6985, ERR_PRESENCE},
	    {0x6a80, ERR_WRONG_KH},
	    {0x6984, ERR_WRONG_KH},
	    {0x6700, ERR_WRONG_LENGTH},
	    {0x6d00, ERR_INS_NOT_SUPPORTED},
	    {0x6a82, ERR_SW},
	    {0x6f00, ERR_SW},
	    {0x0000, ERR_SW},
	    {0x9001, ERR_SW},
	    {0x8590, ERR_SW},
	    {0x0090, ERR_SW},
	};
	uint8_t reply[5] = {0xde, 0xad, 0xbe, 0, 0};
	size_t i, body = 99;
	uint16_t sw = 0;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		reply[3] = (uint8_t)(map[i].sw >> 8);
		reply[4] = (uint8_t)map[i].sw;
		T_EQ_ERR(u2f_status(reply, 5, &body, &sw), map[i].err);
		T_EQ_INT(body, 3);
		T_EQ_INT(sw, map[i].sw);
		T_EQ_ERR(u2f_status(reply + 3, 2, &body, &sw), map[i].err);
		T_EQ_INT(body, 0);
	}
	T_EQ_ERR(u2f_status(reply, 1, &body, &sw), ERR_PROTO);
	T_EQ_ERR(u2f_status(reply, 0, &body, &sw), ERR_PROTO);
	T_EQ_ERR(u2f_status(NULL, 2, &body, &sw), ERR_PROTO);
}

/* --- REGISTER reply parsing --------------------------------------------- */

static void
register_kat_parses_and_verifies(void)
{
	uint8_t *body, *key, *kh, *app, *chal;
	struct u2f_reg reg;
	size_t len;

	body = unhex(REG_REPLY, &len);
	key = unhex(REG_KEY, NULL);
	kh = unhex(REG_KH, NULL);
	app = unhex(REG_APP, NULL);
	chal = unhex(REG_CHAL, NULL);
	T_EQ_ERR(u2f_parse_register(body, len, &reg), ERR_OK);
	T_EQ_MEM(reg.pubkey, key, U2F_POINT_LEN);
	T_EQ_INT(reg.kh_len, 64);
	T_EQ_MEM(reg.kh, kh, 64);
	T_EQ_INT(reg.cert_len, REG_CERT_LEN);
	T_TRUE(reg.cert != NULL && reg.cert[0] == 0x30);
	T_EQ_INT(reg.sig_len, REG_SIG_LEN);
	T_EQ_MEM(reg.sig, body + REG_SIG_OFF, REG_SIG_LEN);
	T_EQ_ERR(crypto_verify_u2f_register(reg.cert, reg.cert_len, app, chal,
		     reg.kh, reg.kh_len, reg.pubkey, reg.sig, reg.sig_len),
	    ERR_OK);
	u2f_reg_clear(&reg);
	T_TRUE(reg.cert == NULL);
	T_EQ_INT(reg.cert_len, 0);
	T_EQ_INT(reg.kh_len, 0);
	T_EQ_INT(reg.sig_len, 0);
	u2f_reg_clear(&reg); /* twice is harmless */
	u2f_reg_clear(NULL);
	free(body);
	free(key);
	free(kh);
	free(app);
	free(chal);
}

/* Parse a modified copy of the registration vector; ERR_PROTO expected. */
static int
reg_parse(const uint8_t *body, size_t len)
{
	struct u2f_reg reg;
	int r;

	r = u2f_parse_register(body, len, &reg);
	if (r != ERR_OK &&
	    (reg.cert != NULL || reg.kh_len != 0 || reg.sig_len != 0))
		r = ERR_LAST - 1; /* a failed parse must leave nothing */
	u2f_reg_clear(&reg);
	return r;
}

static void
register_every_truncation(void)
{
	uint8_t *body;
	size_t len, i;
	int bad = 0;

	body = unhex(REG_REPLY, &len);
	for (i = 0; i < len; i++) {
		/* a copy of exactly i bytes so that ASan sees overreads */
		uint8_t *cut = cat(body, i, NULL, 0);

		if (reg_parse(cut, i) != ERR_PROTO)
			bad++;
		free(cut);
	}
	T_EQ_INT(bad, 0);
	T_EQ_ERR(reg_parse(body, len), ERR_OK);
	free(body);
}

static void
register_trailing_and_header(void)
{
	uint8_t *body, *more;
	size_t len;

	body = unhex(REG_REPLY, &len);
	more = cat(body, len, (const uint8_t *)"\x00\x00", 2);
	T_EQ_ERR(reg_parse(more, len + 1), ERR_PROTO);
	T_EQ_ERR(reg_parse(more, len + 2), ERR_PROTO);
	free(more);
	body[0] = 0x04; /* reserved byte */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[0] = 0x00;
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[0] = 0x05;
	body[1] = 0x03; /* point not uncompressed */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[1] = 0x04;
	body[65] ^= 0x01; /* point off the curve */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[65] ^= 0x01;
	T_EQ_ERR(reg_parse(body, len), ERR_OK);
	free(body);
}

static void
register_key_handle_lengths(void)
{
	uint8_t *body, *r;
	size_t len, n;
	struct u2f_reg reg;

	body = unhex(REG_REPLY, &len);
	/* KH length 0: the rest cannot be a key handle, cert and sig */
	body[REG_KH_OFF - 1] = 0x00;
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	/* 63 and 65 misplace the certificate */
	body[REG_KH_OFF - 1] = 63;
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[REG_KH_OFF - 1] = 65;
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	/* a 255-byte key handle fills the struct exactly */
	n = len - 64 + 255;
	if ((r = malloc(n)) == NULL)
		abort();
	memcpy(r, body, REG_KH_OFF);
	r[REG_KH_OFF - 1] = 255;
	memset(r + REG_KH_OFF, 0x5a, 255);
	memcpy(r + REG_KH_OFF + 255, body + REG_CERT_OFF, len - REG_CERT_OFF);
	T_EQ_ERR(u2f_parse_register(r, n, &reg), ERR_OK);
	T_EQ_INT(reg.kh_len, 255);
	T_EQ_INT(reg.kh[254], 0x5a);
	T_EQ_INT(reg.cert_len, REG_CERT_LEN);
	T_EQ_INT(reg.sig_len, REG_SIG_LEN);
	u2f_reg_clear(&reg);
	free(r);
	free(body);
}

static void
register_bad_cert(void)
{
	uint8_t *body;
	size_t len;

	body = unhex(REG_REPLY, &len);
	body[REG_CERT_OFF] = 0x31; /* SET, not SEQUENCE */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[REG_CERT_OFF] = 0x30;
	body[REG_CERT_OFF + 3]++; /* outer length one longer */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[REG_CERT_OFF + 3] -= 2; /* one shorter */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	body[REG_CERT_OFF + 3]++;
	memset(body + REG_CERT_OFF + 4, 0xee, 16); /* garbage inside */
	T_EQ_ERR(reg_parse(body, len), ERR_PROTO);
	free(body);
}

/* A registration reply with the vector's fields and sig as signature. */
static uint8_t *
reg_with_sig(
    const uint8_t *body, const uint8_t *sig, size_t sig_len, size_t *len)
{
	uint8_t *r = cat(body, REG_SIG_OFF, sig, sig_len);

	*len = REG_SIG_OFF + sig_len;
	return r;
}

static void
register_bad_signatures(void)
{
	/* 73 bytes: SEQUENCE { INTEGER (34 bytes), INTEGER (33 bytes) } */
	uint8_t big[73], small[7] = {0x30, 0x05, 0x02, 0x01, 0x01, 0x02, 0x00};
	uint8_t *body, *r, sig[REG_SIG_LEN];
	size_t len, n;

	body = unhex(REG_REPLY, &len);
	memset(big, 0x11, sizeof(big));
	memcpy(big, "\x30\x47\x02\x22", 4);
	big[38] = 0x02;
	big[39] = 0x21;
	r = reg_with_sig(body, big, sizeof(big), &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	r = reg_with_sig(body, small, sizeof(small), &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	/* damage the DER of the good signature in several ways */
	memcpy(sig, body + REG_SIG_OFF, REG_SIG_LEN);
	sig[0] = 0x31;
	r = reg_with_sig(body, sig, REG_SIG_LEN, &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	sig[0] = 0x30;
	sig[1] = 0x44; /* SEQUENCE shorter than the rest */
	r = reg_with_sig(body, sig, REG_SIG_LEN, &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	sig[1] = 0x45;
	sig[2] = 0x03; /* not an INTEGER */
	r = reg_with_sig(body, sig, REG_SIG_LEN, &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	sig[2] = 0x02;
	sig[3] = 0x21; /* r overruns into s */
	r = reg_with_sig(body, sig, REG_SIG_LEN, &n);
	T_EQ_ERR(reg_parse(r, n), ERR_PROTO);
	free(r);
	sig[3] = 0x20;
	r = reg_with_sig(body, sig, REG_SIG_LEN, &n);
	T_EQ_ERR(reg_parse(r, n), ERR_OK);
	free(r);
	free(body);
}

/* --- AUTHENTICATE reply parsing ----------------------------------------- */

static void
auth_kat_parses_and_verifies(void)
{
	uint8_t *body, *key, *app, *chal;
	struct u2f_auth a;
	size_t len;

	body = unhex(AUTH_REPLY, &len);
	key = unhex(AUTH_KEY, NULL);
	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	T_EQ_INT(len, 1 + 4 + AUTH_SIG_LEN);
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_OK);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.counter, 1);
	T_EQ_INT(a.sig_len, AUTH_SIG_LEN);
	T_EQ_MEM(a.sig, body + AUTH_SIG_OFF, AUTH_SIG_LEN);
	T_EQ_ERR(crypto_verify_u2f_auth(
		     key, app, a.flags, a.counter, chal, a.sig, a.sig_len),
	    ERR_OK);
	/* a flags-00 copy still parses, but the signature covered flags 01 */
	body[0] = 0x00;
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_OK);
	T_EQ_INT(a.flags, 0x00);
	T_EQ_ERR(crypto_verify_u2f_auth(
		     key, app, a.flags, a.counter, chal, a.sig, a.sig_len),
	    ERR_VERIFY);
	/* counter 2 */
	body[0] = 0x01;
	body[4] = 0x02;
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_OK);
	T_EQ_INT(a.counter, 2);
	T_EQ_ERR(crypto_verify_u2f_auth(
		     key, app, a.flags, a.counter, chal, a.sig, a.sig_len),
	    ERR_VERIFY);
	body[1] = 0x80;
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_OK);
	T_EQ_INT(a.counter, 0x80000002U);
	free(body);
	free(key);
	free(app);
	free(chal);
}

static void
auth_strictness(void)
{
	uint8_t *body, *cut, *more;
	struct u2f_auth a;
	size_t len, i;
	int bad = 0;

	body = unhex(AUTH_REPLY, &len);
	for (i = 0; i < len; i++) {
		cut = cat(body, i, NULL, 0);
		if (u2f_parse_authenticate(cut, i, &a) != ERR_PROTO ||
		    a.sig_len != 0)
			bad++;
		free(cut);
	}
	T_EQ_INT(bad, 0);
	more = cat(body, len, (const uint8_t *)"\x00", 1);
	T_EQ_ERR(u2f_parse_authenticate(more, len + 1, &a), ERR_PROTO);
	T_EQ_INT(a.sig_len, 0);
	free(more);
	body[AUTH_SIG_OFF + 1]++; /* SEQUENCE length past the end */
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_PROTO);
	body[AUTH_SIG_OFF + 1] -= 2; /* and short of it */
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_PROTO);
	body[AUTH_SIG_OFF + 1]++;
	T_EQ_ERR(u2f_parse_authenticate(body, len, &a), ERR_OK);
	free(body);
}

TEST_MAIN(TEST(apdu_register_bytes), TEST(apdu_authenticate_bytes),
    TEST(apdu_version_and_limits), TEST(status_words),
    TEST(register_kat_parses_and_verifies), TEST(register_every_truncation),
    TEST(register_trailing_and_header), TEST(register_key_handle_lengths),
    TEST(register_bad_cert), TEST(register_bad_signatures),
    TEST(auth_kat_parses_and_verifies), TEST(auth_strictness))
