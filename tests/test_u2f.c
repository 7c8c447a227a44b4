/* Unit tests for common/u2f.c: APDU bytes, status words, strict reply
 * parsing with the FIDO U2F example vectors, and the exchanges over the
 * real CTAPHID framing with a scripted device behind the hid_io seam. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto.h"
#include "ctaphid.h"
#include "err.h"
#include "u2f.h"
#include "test.h"

#define REG_APP                                                                \
	"f0e6a6a97042a4f1f1c87f5f7d44315b2d852c2df5c7991cc66241bf7072d1c4"
#define REG_CHAL                                                               \
	"4142d21c00d94ffb9d504ada8f99b721f4b191ae4e37ca0140f696b6983cfacb"
#define REG_KEY                                                                \
	"04b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c26da51b657c"   \
	"1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e60385d2f6d9"
#define REG_KH                                                                 \
	"2a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8fe2e3925a60"   \
	"19551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772d70c25"
#define REG_REPLY                                                              \
	"0504b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c26da51b"     \
	"657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e60385d2"     \
	"f6d9402a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8fe2"     \
	"e3925a6019551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772"     \
	"d70c253082013c3081e4a003020102020a47901280001155957352300a06082a"     \
	"8648ce3d0403023017311530130603550403130c476e756262792050696c6f74"     \
	"301e170d3132303831343138323933325a170d3133303831343138323933325a"     \
	"3031312f302d0603550403132650696c6f74476e756262792d302e342e312d34"     \
	"373930313238303030313135353935373335323059301306072a8648ce3d0201"     \
	"06082a8648ce3d030107034200048d617e65c9508e64bcc5673ac82a6799da3c"     \
	"1446682c258c463fffdf58dfd2fa3e6c378b53d795c4a4dffb4199edd7862f23"     \
	"abaf0203b4b8911ba0569994e101300a06082a8648ce3d040302034700304402"     \
	"2060cdb6061e9c22262d1aac1d96d8c70829b2366531dda268832cb836bcd30d"     \
	"fa0220631b1459f09e6330055722c8d89b7f48883b9089b88d60d1d9795902b3"     \
	"0410df304502201471899bcc3987e62e8202c9b39c33c19033f7340352dba80f"     \
	"cab017db9230e402210082677d673d891933ade6f617e5dbde2e247e70423fd5"     \
	"ad7804a6d3d3961ef871"
#define REG_KH_OFF (1 + 65 + 1)
#define REG_CERT_OFF (REG_KH_OFF + 64)
#define REG_CERT_LEN 320
#define REG_SIG_OFF (REG_CERT_OFF + REG_CERT_LEN)
#define REG_SIG_LEN 71

#define AUTH_APP                                                               \
	"4b0be934baebb5d12d26011b69227fa5e86df94e7d94aa2949a89f2d493992ca"
#define AUTH_CHAL                                                              \
	"ccd6ee2e47baef244d49a222db496bad0ef5b6f93aa7cc4d30c4821b3b9dbc57"
#define AUTH_KEY                                                               \
	"04d368f1b665bade3c33a20f1e429c7750d5033660c019119d29aa4ba7abc04aa7"   \
	"c80a46bbe11ca8cb5674d74f31f8a903f6bad105fb6ab74aefef4db8b0025e1d"
#define AUTH_REPLY                                                             \
	"0100000001304402204b5f0cd17534cedd8c34ee09570ef542a353df4436030ce4"   \
	"3d406de870b847780220267bb998fac9b7266eb60e7cb0b5eabdfd5ba9614f53c7"   \
	"b22272ec10047a923f"
#define AUTH_SIG_OFF 5
#define AUTH_SIG_LEN 70

static uint8_t *
unhex(const char *hex, size_t *len)
{
	size_t n;
	uint8_t *p = test_unhex(hex, &n);

	if (len != NULL)
		*len = n;
	return p;
}

/* Concatenate a and b (b may be NULL) into a new buffer. */
static uint8_t *
cat(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	uint8_t *p = malloc(alen + blen + 1);

	if (p == NULL)
		abort();
	memcpy(p, a, alen);
	if (blen > 0)
		memcpy(p + alen, b, blen);
	return p;
}

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

/* --- Exchanges through the real CTAPHID code and a scripted device ------ */

#define FAKE_REPORT 64
#define FAKE_FRAMES 160

/* A device that answers INIT and replies to each MSG with a script. */
struct fake {
	uint8_t cid[4];
	uint8_t req[CTAPHID_MAX_MSG];
	size_t req_len, req_need;
	uint8_t req_cmd;
	uint8_t msg[CTAPHID_MAX_MSG]; /* the last MSG request */
	size_t msg_len;
	int msgs;
	const uint8_t *reply; /* scripted MSG reply */
	size_t reply_len;
	uint8_t out[FAKE_FRAMES][FAKE_REPORT];
	size_t nout, rpos;
};

/* The device the next open returns (tests only). */
static struct fake *fake_next;

static void *
fake_open(const char *path, int *err)
{
	(void)path;
	if (fake_next == NULL)
		*err = ERR_NODEV;
	return fake_next;
}

static void
fake_close(void *h)
{
	(void)h;
}

static void
fake_queue(struct fake *f, const uint8_t *cid, uint8_t cmd, const uint8_t *data,
    size_t len)
{
	size_t off = 0, n;
	uint8_t *fr, seq = 0;

	if (f->nout >= FAKE_FRAMES)
		abort();
	fr = f->out[f->nout++];
	memset(fr, 0, FAKE_REPORT);
	memcpy(fr, cid, 4);
	fr[4] = cmd;
	fr[5] = (uint8_t)(len >> 8);
	fr[6] = (uint8_t)len;
	n = len < FAKE_REPORT - 7 ? len : FAKE_REPORT - 7;
	memcpy(fr + 7, data, n);
	for (off = n; off < len; off += n) {
		if (f->nout >= FAKE_FRAMES)
			abort();
		fr = f->out[f->nout++];
		memset(fr, 0, FAKE_REPORT);
		memcpy(fr, cid, 4);
		fr[4] = seq++;
		n = len - off < FAKE_REPORT - 5 ? len - off : FAKE_REPORT - 5;
		memcpy(fr + 5, data + off, n);
	}
}

static void
fake_handle(struct fake *f)
{
	static const uint8_t bcast[4] = {0xff, 0xff, 0xff, 0xff};
	uint8_t init[17];

	if (f->req_cmd == CTAPHID_INIT && f->req_len == 8) {
		memcpy(init, f->req, 8);
		memcpy(init + 8, f->cid, 4);
		memcpy(init + 12, "\x02\x01\x02\x03\x01", 5);
		fake_queue(f, bcast, CTAPHID_INIT, init, sizeof(init));
	} else if (f->req_cmd == CTAPHID_MSG) {
		memcpy(f->msg, f->req, f->req_len);
		f->msg_len = f->req_len;
		f->msgs++;
		if (f->reply != NULL)
			fake_queue(
			    f, f->cid, CTAPHID_MSG, f->reply, f->reply_len);
	}
}

static int
fake_write(void *h, const uint8_t *buf, size_t len)
{
	struct fake *f = h;
	size_t n;

	if (len != FAKE_REPORT)
		return ERR_IO;
	if (buf[4] & 0x80) {
		f->req_cmd = buf[4];
		f->req_need = (size_t)buf[5] << 8 | buf[6];
		f->req_len = 0;
		if (f->req_need > sizeof(f->req))
			return ERR_IO;
		n = f->req_need < len - 7 ? f->req_need : len - 7;
		memcpy(f->req, buf + 7, n);
	} else {
		n = f->req_need - f->req_len;
		n = n < len - 5 ? n : len - 5;
		memcpy(f->req + f->req_len, buf + 5, n);
	}
	f->req_len += n;
	if (f->req_len == f->req_need)
		fake_handle(f);
	return ERR_OK;
}

static int
fake_read(void *h, uint8_t *buf, size_t cap, int ms)
{
	struct fake *f = h;

	(void)ms;
	if (f->rpos == f->nout)
		return ERR_TIMEOUT;
	if (cap < FAKE_REPORT)
		return ERR_IO;
	memcpy(buf, f->out[f->rpos++], FAKE_REPORT);
	return FAKE_REPORT;
}

static const struct hid_io fake_io = {
    fake_open, fake_close, fake_read, fake_write};

/* Open a channel on a fresh fake device; the device is returned too. */
static struct ctaphid *
fake_channel(struct fake **fp)
{
	struct ctaphid *ch = NULL;
	struct fake *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		abort();
	memcpy(f->cid, "\x11\x22\x33\x44", 4);
	fake_next = f;
	if (ctaphid_open(&fake_io, "fake", 0, 0, NULL, 1000, &ch) != ERR_OK)
		T_FAIL_AT("ctaphid_open on the fake device failed");
	fake_next = NULL;
	*fp = f;
	return ch;
}

static void
fake_script(struct fake *f, const uint8_t *reply, size_t len)
{
	f->reply = reply;
	f->reply_len = len;
}

static void
exchange_version(void)
{
	struct ctaphid *ch;
	struct fake *f;

	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"U2F_V2\x90\x00", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_OK);
	T_EQ_INT(f->msg_len, 7);
	T_EQ_MEM(f->msg, "\x00\x03\x00\x00\x00\x00\x00", 7);
	fake_script(f, (const uint8_t *)"U2F_V3\x90\x00", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"U2F_V2x\x90\x00", 9);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"U2F_V\x90\x00", 7);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"\x90\x00", 2);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	fake_script(f, (const uint8_t *)"\x6d\x00", 2);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_INS_NOT_SUPPORTED);
	fake_script(f, (const uint8_t *)"U2F_V2\x6a\x82", 8);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_SW);
	fake_script(f, (const uint8_t *)"\x90", 1);
	T_EQ_ERR(u2f_version(ch, 1000), ERR_PROTO);
	T_EQ_INT(f->msgs, 8);
	fake_script(f, NULL, 0); /* no answer at all */
	T_EQ_ERR(u2f_version(ch, 50), ERR_TIMEOUT);
out:
	ctaphid_close(&ch);
	free(f);
}

static void
exchange_register(void)
{
	uint8_t *body, *reply, *app, *chal, want[73];
	struct ctaphid *ch;
	struct u2f_reg reg;
	struct fake *f;
	size_t len;

	body = unhex(REG_REPLY, &len);
	app = unhex(REG_APP, NULL);
	chal = unhex(REG_CHAL, NULL);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	fake_script(f, reply, len + 2);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_OK);
	memcpy(want, "\x00\x01\x00\x00\x00\x00\x40", 7);
	memcpy(want + 7, chal, 32); /* challenge first, then app */
	memcpy(want + 39, app, 32);
	want[71] = want[72] = 0;
	T_EQ_INT(f->msg_len, 73);
	T_EQ_MEM(f->msg, want, 73);
	T_EQ_INT(reg.kh_len, 64);
	T_EQ_INT(reg.cert_len, REG_CERT_LEN);
	T_EQ_INT(reg.sig_len, REG_SIG_LEN);
	T_EQ_ERR(crypto_verify_u2f_register(reg.cert, reg.cert_len, app, chal,
		     reg.kh, reg.kh_len, reg.pubkey, reg.sig, reg.sig_len),
	    ERR_OK);
	u2f_reg_clear(&reg);
	free(reply);
	/* touch needed: nothing parsed, nothing to free */
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_PRESENCE);
	T_TRUE(reg.cert == NULL && reg.kh_len == 0);
	/* a trailing byte before the status word */
	reply = cat(body, len, (const uint8_t *)"\x00\x90\x00", 3);
	fake_script(f, reply, len + 3);
	T_EQ_ERR(u2f_register(ch, chal, app, &reg, 1000), ERR_PROTO);
	T_TRUE(reg.cert == NULL);
	free(reply);
out:
	ctaphid_close(&ch);
	free(f);
	free(body);
	free(app);
	free(chal);
}

static void
exchange_authenticate(void)
{
	uint8_t *body, *reply, *app, *chal, *kh, want[7 + 129 + 2];
	struct ctaphid *ch;
	struct u2f_auth a;
	struct fake *f;
	size_t len;

	body = unhex(AUTH_REPLY, &len);
	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	reply = cat(body, len, (const uint8_t *)"\x90\x00", 2);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, reply, len + 2);
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_OK);
	T_EQ_INT(a.flags, 0x01);
	T_EQ_INT(a.counter, 1);
	T_EQ_INT(a.sig_len, AUTH_SIG_LEN);
	memcpy(want, "\x00\x02\x03\x00\x00\x00\x81", 7);
	memcpy(want + 7, chal, 32);
	memcpy(want + 39, app, 32);
	want[71] = 64;
	memcpy(want + 72, kh, 64);
	want[136] = want[137] = 0;
	T_EQ_INT(f->msg_len, sizeof(want));
	T_EQ_MEM(f->msg, want, sizeof(want));
	/* the split form sends the same bytes and reads the same reply */
	f->msg_len = 0;
	T_EQ_ERR(u2f_authenticate_send(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64),
	    ERR_OK);
	T_EQ_INT(f->msg_len, sizeof(want));
	T_EQ_MEM(f->msg, want, sizeof(want));
	T_EQ_ERR(u2f_authenticate_recv(ch, &a, 1000), ERR_OK);
	T_EQ_INT(a.counter, 1);
	/* nothing more to read */
	T_EQ_ERR(u2f_authenticate_recv(ch, &a, 20), ERR_TIMEOUT);
	T_EQ_INT(a.sig_len, 0);
out:
	ctaphid_close(&ch);
	free(f);
	free(reply);
	free(body);
	free(app);
	free(chal);
	free(kh);
}

static void
exchange_authenticate_errors(void)
{
	uint8_t *app, *chal, *kh, big[100];
	struct ctaphid *ch;
	struct u2f_auth a;
	struct fake *f;

	app = unhex(AUTH_APP, NULL);
	chal = unhex(AUTH_CHAL, NULL);
	kh = unhex(REG_KH, NULL);
	if ((ch = fake_channel(&f)) == NULL)
		goto out;
	fake_script(f, (const uint8_t *)"\x69\x85", 2);
	T_EQ_ERR(u2f_authenticate(
		     ch, U2F_AUTH_CHECK_ONLY, chal, app, kh, 64, &a, 1000),
	    ERR_PRESENCE);
	T_EQ_INT(f->msg[2], U2F_AUTH_CHECK_ONLY);
	fake_script(f, (const uint8_t *)"\x6a\x80", 2);
	T_EQ_ERR(u2f_authenticate(
		     ch, U2F_AUTH_CHECK_ONLY, chal, app, kh, 64, &a, 1000),
	    ERR_WRONG_KH);
	fake_script(f, (const uint8_t *)"\x69\x84", 2);
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_WRONG_KH);
	/* a reply too long to be an authentication */
	memset(big, 0, sizeof(big));
	big[98] = 0x90;
	fake_script(f, big, sizeof(big));
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 64, &a, 1000),
	    ERR_PROTO);
	/* key handles of no length or too long are never sent */
	f->msgs = 0;
	T_EQ_ERR(
	    u2f_authenticate(ch, U2F_AUTH_ENFORCE, chal, app, kh, 0, &a, 1000),
	    ERR_INVAL);
	T_EQ_ERR(u2f_authenticate_send(
		     ch, U2F_AUTH_ENFORCE, chal, app, kh, U2F_KH_MAX + 1),
	    ERR_INVAL);
	T_EQ_INT(f->msgs, 0);
out:
	ctaphid_close(&ch);
	free(f);
	free(app);
	free(chal);
	free(kh);
}

TEST_MAIN(TEST(apdu_register_bytes), TEST(apdu_authenticate_bytes),
    TEST(apdu_version_and_limits), TEST(status_words),
    TEST(register_kat_parses_and_verifies), TEST(register_every_truncation),
    TEST(register_trailing_and_header), TEST(register_key_handle_lengths),
    TEST(register_bad_cert), TEST(register_bad_signatures),
    TEST(auth_kat_parses_and_verifies), TEST(auth_strictness),
    TEST(exchange_version), TEST(exchange_register),
    TEST(exchange_authenticate), TEST(exchange_authenticate_errors))
