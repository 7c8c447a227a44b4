/* SPDX-License-Identifier: BSD-2-Clause */
/* Replay of real keys' recorded CTAPHID reports (tests/proto/wiredata_fido2.h,
 * from libfido2's fuzz/wiredata_fido2.h) through our CTAPHID transport
 * (ctaphid_open, ctaphid_xfer over the scripted device of
 * tests/lib/fakehid.c) and our CTAP2 reply parsers (ctap2_parse_info,
 * ctap2_parse_cp, ctap2_parse_ga, ctap2_parse_mc, authdata_parse), and
 * the recorded U2F replies (fuzz/wiredata_u2f.h) through u2f_status,
 * u2f_parse_register and u2f_parse_authenticate.
 *
 * Each exchange: our INIT request is answered with the recorded INIT
 * report, our CBOR request with the recorded reply reports in order
 * (after the recorded KEEPALIVE report). Changes to the data, all made
 * here at run time and nowhere else:
 *  - the INIT reply's nonce is set to the nonce our code sent (it is
 *    random); for the MakeCredential reply, recorded on another channel
 *    (00910003), the INIT reply's CID is set to that channel;
 *  - the recorded GetAssertion reply has its init frame on channel
 *    00220002 and its continuation frames on 0092000e; our transport
 *    skips the foreign frames and times out (asserted as recorded), and
 *    the reply is then replayed with every frame on 00220002.
 * The replies answer other requests than ours (other challenges, other
 * key agreement keys), so signatures and the PIN token are not verified
 * here: the parse is asserted, field by field, against what the
 * recorded bytes hold. The requests sent are the command byte (CTAP2)
 * or a short APDU (U2F) alone: the recording answers whatever is asked,
 * so the request only has to reach the device as one message. Negative
 * cases: every reply without its last report, and with the CID of every
 * report flipped, fails with ERR_TIMEOUT at the deadline of virtual time
 * (tests/lib/vclock.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "fakehid.h"
#include "proto/authdata.h"
#include "proto/ctap2/ctap2.h"
#include "proto/u2f/u2f.h"
#include "test.h"
#include "transport/ctaphid.h"
#include "vclock.h"
#include "wiredata_fido2.h"

#define REPORT 64
#define DEADLINE_MS 2000

static const uint8_t wd_init[] = {WIREDATA_CTAP_INIT};
static const uint8_t wd_keepalive[] = {WIREDATA_CTAP_KEEPALIVE};
static const uint8_t wd_info[] = {WIREDATA_CTAP_CBOR_INFO};
static const uint8_t wd_authkey[] = {WIREDATA_CTAP_CBOR_AUTHKEY};
static const uint8_t wd_pintoken[] = {WIREDATA_CTAP_CBOR_PINTOKEN};
static const uint8_t wd_status[] = {WIREDATA_CTAP_CBOR_STATUS};
static const uint8_t wd_retries[] = {WIREDATA_CTAP_CBOR_RETRIES};
static const uint8_t wd_assert[] = {WIREDATA_CTAP_CBOR_ASSERT};
static const uint8_t wd_cred[] = {WIREDATA_CTAP_CBOR_CRED};
static const uint8_t wd_u2f_6985[] = {WIREDATA_CTAP_U2F_6985};
static const uint8_t wd_u2f_auth[] = {WIREDATA_CTAP_U2F_AUTH};
static const uint8_t wd_u2f_reg[] = {WIREDATA_CTAP_U2F_REGISTER};

/* How one exchange is replayed. */
struct replay {
	const uint8_t *frames; /* recorded reply reports, REPORT bytes each */
	size_t len;
	uint8_t cmd;      /* CTAPHID command of the exchange (0: CBOR) */
	uint8_t cid[4];   /* the INIT reply hands out this channel */
	int drop_last;    /* leave the last report out */
	int flip_cid;     /* flip a bit of every reply report's CID */
	int same_cid;     /* put every reply report on cid */
	uint8_t req_cmd;  /* the CTAPHID command the device received */
	uint8_t req_byte; /* ... and the first byte of its message */
};

static void
queue_reply(struct fakehid *f, const struct replay *rp)
{
	size_t i, n = rp->len / REPORT;
	uint8_t r[REPORT];

	fakehid_queue_report(f, wd_keepalive, sizeof(wd_keepalive));
	if (rp->drop_last)
		n--;
	for (i = 0; i < n; i++) {
		memcpy(r, rp->frames + i * REPORT, REPORT);
		if (rp->same_cid)
			memcpy(r, rp->cid, 4);
		if (rp->flip_cid)
			r[3] ^= 0x01;
		fakehid_queue_report(f, r, REPORT);
	}
}

static void
device(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	struct replay *rp = arg;
	uint8_t r[REPORT];

	(void)cid;
	if (cmd == CTAPHID_INIT && len == 8) {
		memcpy(r, wd_init, REPORT);
		memcpy(r + 7, data, 8);     /* the one change: our nonce */
		memcpy(r + 15, rp->cid, 4); /* the reply's channel */
		fakehid_queue_report(f, r, REPORT);
		return;
	}
	rp->req_cmd = cmd;
	rp->req_byte = len > 0 ? data[0] : 0;
	queue_reply(f, rp);
}

/* Open a channel on the recorded INIT reply and send req as one CBOR
 * message; the reply (status byte | CBOR) lands in out. */
static int
replay(struct replay *rp, const uint8_t *req, size_t req_len, uint8_t *out,
    size_t cap, size_t *out_len, int64_t *took)
{
	struct fakehid *f = fakehid_new(0);
	struct ctaphid *ch = NULL;
	int64_t t0;
	int rc;

	if (f == NULL)
		return ERR_NOMEM;
	fakehid_set_handler(f, device, rp);
	fakehid_set_read_ms(f, 1);
	rc = ctaphid_open(
	    &fakehid_io, fakehid_path(f), 0, 0, NULL, DEADLINE_MS, &ch);
	if (rc == ERR_OK && memcmp(ch->cid, rp->cid, 4) != 0)
		rc = ERR_PROTO;
	t0 = vclock_now_ms();
	if (rc == ERR_OK)
		rc = ctaphid_xfer(ch, rp->cmd ? rp->cmd : CTAPHID_CBOR, req,
		    req_len, out, cap, out_len, DEADLINE_MS);
	*took = vclock_now_ms() - t0;
	ctaphid_close(&ch);
	fakehid_free(f);
	return rc;
}

/* A reply replayed whole must come through; without its last report or
 * with flipped CIDs it must time out at the deadline, not before. */
static int
replay_ok(const uint8_t *frames, size_t len, const uint8_t cid[4], int same_cid,
    uint8_t cmd_byte, uint8_t *out, size_t *out_len)
{
	struct replay rp;
	int64_t took;
	int variant, rc;

	for (variant = 1; variant <= 2; variant++) {
		memset(&rp, 0, sizeof(rp));
		rp.frames = frames;
		rp.len = len;
		memcpy(rp.cid, cid, 4);
		rp.same_cid = same_cid;
		rp.drop_last = variant == 1;
		rp.flip_cid = variant == 2;
		T_EQ_ERR(replay(&rp, &cmd_byte, 1, out, CTAP2_MSG_MAX, out_len,
			     &took),
		    ERR_TIMEOUT);
		T_TRUE(took >= DEADLINE_MS - 1 && took <= DEADLINE_MS + 1);
	}
	memset(&rp, 0, sizeof(rp));
	rp.frames = frames;
	rp.len = len;
	memcpy(rp.cid, cid, 4);
	rp.same_cid = same_cid;
	rc = replay(&rp, &cmd_byte, 1, out, CTAP2_MSG_MAX, out_len, &took);
	T_EQ_ERR(rc, ERR_OK);
	if (rc != ERR_OK)
		return rc;
	T_EQ_INT(rp.req_cmd, CTAPHID_CBOR);
	T_EQ_INT(rp.req_byte, cmd_byte);
	/* one 1 ms read per report: keepalive, then the reply */
	T_EQ_INT(took, (int64_t)(len / REPORT + 1));
	T_TRUE(*out_len >= 1);
	T_EQ_INT(out[0], 0x00); /* CTAP2_OK */
	return *out_len >= 1 && out[0] == 0 ? ERR_OK : ERR_PROTO;
}

static const uint8_t cid_a[4] = {0x00, 0x22, 0x00, 0x02};
static const uint8_t cid_b[4] = {0x00, 0x91, 0x00, 0x03};

static void
test_info(void)
{
	static const uint8_t aaguid[16] = {0xf8, 0xa0, 0x11, 0xf3, 0x8c, 0x0a,
	    0x4d, 0x15, 0x80, 0x06, 0x17, 0x11, 0x1f, 0x9e, 0xdc, 0x7d};
	uint8_t *out = malloc(CTAP2_MSG_MAX);
	struct ctap2_info in;
	size_t len = 0;

	T_TRUE(out != NULL);
	if (out == NULL ||
	    replay_ok(wd_info, sizeof(wd_info), cid_a, 0, CTAP2_GET_INFO, out,
		&len) != ERR_OK)
		goto out;
	T_EQ_INT(len, 597);
	T_EQ_ERR(ctap2_parse_info(out + 1, len - 1, &in), ERR_OK);
	/* U2F_V2 FIDO_2_0 FIDO_2_1_PRE FIDO_2_1 (and FIDO_2_3, not ours) */
	T_EQ_INT(
	    in.versions, CTAP2_V_U2F | CTAP2_V_20 | CTAP2_V_21PRE | CTAP2_V_21);
	T_EQ_MEM(in.aaguid, aaguid, 16);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_RK), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_UP), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_UV), -1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_CLIENT_PIN), 0);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_PIN_UV_TOKEN), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_ALWAYS_UV), 0);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_MC_UV_NOT_RQD), 1);
	T_EQ_INT(ctap2_info_opt(&in, CTAP2_OPT_PLAT), 0);
	T_EQ_INT(in.npin_protos, 2);
	T_EQ_INT(in.pin_protos[0], 2);
	T_EQ_INT(in.pin_protos[1], 1);
	T_EQ_INT(in.max_msg, 1536);
	T_EQ_INT(in.nalgs, 3);
	T_TRUE(ctap2_info_alg(&in, COSE_ES256));
	T_TRUE(ctap2_info_alg(&in, COSE_EDDSA));
	T_TRUE(ctap2_info_alg(&in, -35));
	T_TRUE(!ctap2_info_alg(&in, COSE_RS256));
out:
	free(out);
}

static void
test_client_pin(void)
{
	static const uint8_t x4[4] = {0x2a, 0xb8, 0x2d, 0x36};
	static const uint8_t y4[4] = {0x15, 0x1b, 0xbe, 0x08};
	static const uint8_t tok4[4] = {0xee, 0x40, 0x4c, 0x85};
	uint8_t *out = malloc(CTAP2_MSG_MAX);
	struct ctap2_cp_reply cp;
	size_t len = 0;

	T_TRUE(out != NULL);
	if (out == NULL)
		return;
	/* getKeyAgreement */
	if (replay_ok(wd_authkey, sizeof(wd_authkey), cid_a, 0,
		CTAP2_CLIENT_PIN, out, &len) == ERR_OK) {
		T_EQ_INT(len, 81);
		T_EQ_ERR(ctap2_parse_cp(out + 1, len - 1, &cp), ERR_OK);
		T_TRUE(cp.has_ka);
		T_EQ_MEM(cp.ka_x, x4, 4);
		T_EQ_MEM(cp.ka_y, y4, 4);
	}
	/* getPinToken: 16 encrypted bytes (PIN protocol one); not
	 * decrypted, the shared secret is not ours */
	if (replay_ok(wd_pintoken, sizeof(wd_pintoken), cid_a, 0,
		CTAP2_CLIENT_PIN, out, &len) == ERR_OK) {
		T_EQ_ERR(ctap2_parse_cp(out + 1, len - 1, &cp), ERR_OK);
		T_EQ_INT(cp.token_enc_len, 16);
		T_TRUE(
		    cp.token_enc != NULL && memcmp(cp.token_enc, tok4, 4) == 0);
		T_TRUE(!cp.has_ka);
	}
	/* getRetries: 8 */
	if (replay_ok(wd_retries, sizeof(wd_retries), cid_a, 0,
		CTAP2_CLIENT_PIN, out, &len) == ERR_OK) {
		T_EQ_ERR(ctap2_parse_cp(out + 1, len - 1, &cp), ERR_OK);
		T_EQ_INT(cp.pin_retries, 8);
		T_EQ_INT(cp.uv_retries, -1);
	}
	/* a bare CTAP2_OK (setPIN, changePIN, reset) */
	if (replay_ok(wd_status, sizeof(wd_status), cid_a, 0, CTAP2_CLIENT_PIN,
		out, &len) == ERR_OK)
		T_EQ_INT(len, 1);
	free(out);
}

static void
test_assert(void)
{
	uint8_t *out = malloc(CTAP2_MSG_MAX);
	struct ctap2_ga_reply ga;
	struct authdata ad;
	size_t len = 0;
	int64_t took;
	struct replay rp;
	uint8_t cmd = CTAP2_GET_ASSERTION;

	T_TRUE(out != NULL);
	if (out == NULL)
		return;
	/* As recorded: continuations on channel 0092000e are skipped. */
	memset(&rp, 0, sizeof(rp));
	rp.frames = wd_assert;
	rp.len = sizeof(wd_assert);
	memcpy(rp.cid, cid_a, 4);
	T_EQ_ERR(
	    replay(&rp, &cmd, 1, out, CTAP2_MSG_MAX, &len, &took), ERR_TIMEOUT);
	T_TRUE(took >= DEADLINE_MS - 1 && took <= DEADLINE_MS + 1);
	if (replay_ok(wd_assert, sizeof(wd_assert), cid_a, 1, cmd, out, &len) !=
	    ERR_OK)
		goto out;
	T_EQ_INT(len, 203);
	T_EQ_ERR(ctap2_parse_ga(out + 1, len - 1, &ga), ERR_OK);
	T_EQ_INT(ga.cred_id_len, 64);
	T_EQ_INT(ga.authdata_len, 37);
	/* an ECDSA DER signature over a challenge that is not ours */
	T_EQ_INT(ga.sig_len, 71);
	T_TRUE(ga.sig != NULL && ga.sig[0] == 0x30);
	T_TRUE(ga.user_id == NULL);
	T_EQ_ERR(
	    authdata_parse(ga.authdata, ga.authdata_len, false, &ad), ERR_OK);
	T_EQ_INT(ad.flags, AUTHDATA_UV); /* UV without UP, as recorded */
	T_EQ_INT(ad.counter, 9);
	T_TRUE(!ad.attested);
	T_EQ_ERR(
	    authdata_parse(ga.authdata, ga.authdata_len, true, &ad), ERR_PARSE);
out:
	free(out);
}

static void
test_cred(void)
{
	static const uint8_t x4[4] = {0x9d, 0x95, 0xa1, 0xb5};
	uint8_t *out = malloc(CTAP2_MSG_MAX);
	struct ctap2_mc_reply mc;
	struct authdata ad;
	size_t len = 0;

	T_TRUE(out != NULL);
	if (out == NULL ||
	    replay_ok(wd_cred, sizeof(wd_cred), cid_b, 0, CTAP2_MAKE_CREDENTIAL,
		out, &len) != ERR_OK)
		goto out;
	T_EQ_INT(len, 993);
	T_EQ_ERR(ctap2_parse_mc(out + 1, len - 1, &mc), ERR_OK);
	T_TRUE(mc.fmt_len == 6 && memcmp(mc.fmt, "packed", 6) == 0);
	T_TRUE(mc.attstmt != NULL && mc.attstmt_len > 0);
	T_EQ_ERR(
	    authdata_parse(mc.authdata, mc.authdata_len, true, &ad), ERR_OK);
	T_EQ_INT(ad.flags, AUTHDATA_UP | AUTHDATA_UV | AUTHDATA_AT);
	T_EQ_INT(ad.counter, 0);
	T_TRUE(ad.attested);
	T_EQ_INT(ad.cred_id_len, 64);
	T_EQ_INT(ad.type, COSE_ES256);
	T_EQ_INT(ad.pk_len, 65); /* 04 | x | y */
	T_EQ_INT(ad.pk[0], 0x04);
	T_EQ_MEM(ad.pk + 1, x4, 4);
out:
	free(out);
}

/* A U2F reply (CTAPHID_MSG on channel 00009901): whole, the status word
 * and body; without its last report or with a flipped CID, a timeout. */
static int
u2f_replay(const uint8_t *frames, size_t len, uint8_t *out, size_t *out_len,
    size_t *body_len, uint16_t *sw)
{
	static const uint8_t cid_u[4] = {0x00, 0x00, 0x99, 0x01};
	static const uint8_t apdu[] = {0x00, 0x02, 0x03, 0x00};
	struct replay rp;
	int64_t took;
	int variant, rc = ERR_OK;

	for (variant = 2; variant >= 0; variant--) {
		memset(&rp, 0, sizeof(rp));
		rp.frames = frames;
		rp.len = len;
		rp.cmd = CTAPHID_MSG;
		memcpy(rp.cid, cid_u, 4);
		rp.drop_last = variant == 1;
		rp.flip_cid = variant == 2;
		rc = replay(&rp, apdu, sizeof(apdu), out, CTAP2_MSG_MAX,
		    out_len, &took);
		if (variant > 0) {
			T_EQ_ERR(rc, ERR_TIMEOUT);
			T_TRUE(
			    took >= DEADLINE_MS - 1 && took <= DEADLINE_MS + 1);
		}
	}
	/* variant 0: the whole reply, after the keepalive */
	T_EQ_ERR(rc, ERR_OK);
	T_EQ_INT(rp.req_cmd, CTAPHID_MSG);
	T_EQ_INT(took, (int64_t)(len / REPORT + 1));
	if (rc != ERR_OK)
		return rc;
	return u2f_status(out, *out_len, body_len, sw);
}

static void
test_u2f(void)
{
	uint8_t *out = malloc(CTAP2_MSG_MAX);
	struct u2f_auth au;
	struct u2f_reg reg;
	size_t len = 0, body = 0;
	uint16_t sw = 0;

	memset(&reg, 0, sizeof(reg));
	T_TRUE(out != NULL);
	if (out == NULL)
		return;
	T_EQ_ERR(
	    u2f_replay(wd_u2f_6985, sizeof(wd_u2f_6985), out, &len, &body, &sw),
	    ERR_PRESENCE);
	T_EQ_INT(sw, 0x6985);
	T_EQ_ERR(
	    u2f_replay(wd_u2f_auth, sizeof(wd_u2f_auth), out, &len, &body, &sw),
	    ERR_OK);
	T_EQ_ERR(u2f_parse_authenticate(out, body, &au), ERR_OK);
	T_EQ_INT(au.flags, 0x01);
	T_EQ_INT(au.counter, 0x2c);
	T_EQ_INT(au.sig_len, 71);
	T_EQ_ERR(
	    u2f_replay(wd_u2f_reg, sizeof(wd_u2f_reg), out, &len, &body, &sw),
	    ERR_OK);
	T_EQ_ERR(u2f_parse_register(out, body, &reg), ERR_OK);
	T_EQ_INT(reg.pubkey[0], 0x04);
	T_EQ_INT(reg.pubkey[1], 0x9f);
	T_TRUE(reg.kh_len > 0 && reg.cert != NULL && reg.cert_len > 0);
	T_TRUE(reg.sig_len > 0 && reg.sig[0] == 0x30);
	u2f_reg_clear(&reg);
	free(out);
}

TEST_MAIN(TEST(test_info), TEST(test_client_pin), TEST(test_assert),
    TEST(test_cred), TEST(test_u2f))
