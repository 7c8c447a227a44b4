/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the software token's NFC card side (nfc_card.c) in
 * memory, over a real token and a fake clock: APDU cases and lengths,
 * SELECT, raw U2F with 61xx + GET RESPONSE and extended APDUs, CTAP2
 * through NFCCTAP_MSG, command chaining, a request waiting for the tap
 * (9100 + NFCCTAP_GETRESPONSE, or held and retried), END_GETRESPONSE,
 * power changes and every card fault. The vpcd socket is front_vpcd.c's
 * (peer_pcsc.sh runs it). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "../lib/test.h"
#include "nfc_card.h"
#include "tokfix.h"

static const uint8_t select_fido[] = {0x00, 0xA4, 0x04, 0x00, 0x08, 0xA0, 0x00,
    0x00, 0x06, 0x47, 0x2F, 0x00, 0x01};

struct rig {
	struct token *tok;
	struct nfc_card *card;
	uint8_t rep[NFC_CARD_REPLY_MAX];
	size_t n;
	enum nfc_card_act act;
};

static struct rig *
mk(enum token_ctap2 v, int u2f_off, int after_ms, unsigned faults)
{
	struct token_config c;
	struct rig *g = calloc(1, sizeof(*g));

	if (g == NULL)
		abort();
	memset(&c, 0, sizeof(c));
	c.presence = after_ms > 0 ? TOKEN_PRESENCE_AFTER : TOKEN_PRESENCE_NOW;
	c.after_ms = after_ms;
	c.faults = faults;
	c.ctap2 = v;
	c.u2f_off = u2f_off;
	c.pin_retries = -1;
	if (token_new(&g->tok, &c) != ERR_OK ||
	    nfc_card_new(&g->card, g->tok) != ERR_OK)
		abort();
	return g;
}

static void
rig_free(struct rig *g)
{
	nfc_card_free(&g->card);
	token_free(&g->tok);
	free(g);
}

/* Send an APDU at now; the SW of the reply (0 if none). */
static unsigned
tx(struct rig *g, const uint8_t *apdu, size_t len, int64_t now)
{
	g->act = nfc_card_apdu(g->card, apdu, len, now, g->rep, &g->n);
	return g->act == NFC_CARD_REPLY ? tokfix_sw(g->rep, g->n) : 0;
}

static unsigned
tx_hex(struct rig *g, const char *hex, int64_t now)
{
	uint8_t b[512];
	size_t n = 0;
	unsigned v;

	while (*hex != '\0' && sscanf(hex, "%2x", &v) == 1 && n < sizeof(b)) {
		b[n++] = (uint8_t)v;
		hex += 2;
	}
	return tx(g, b, n, now);
}

static void
test_select(void)
{
	struct rig *g = mk(TOKEN_CTAP2_OFF, 0, 0, 0);

	T_EQ_INT(tx_hex(g, "80100000010400", 0), NFC_SW_CONDITIONS);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_INT(g->n, 8);
	T_EQ_MEM(g->rep, "U2F_V2", 6);
	T_EQ_INT(tx_hex(g, "80100000010400", 0), NFC_SW_INS); /* no CTAP2 */
	T_EQ_INT(tx_hex(g, "00A40400080000000000000000", 0), 0x6A82);
	T_EQ_INT(
	    tx_hex(g, "0003000000", 0), NFC_SW_CONDITIONS); /* deselected */
	T_EQ_INT(tx_hex(g, "00A4000008A0000006472F0001", 0), NFC_SW_P1P2);
	/* Le 04: the version in two parts */
	T_EQ_INT(tx_hex(g, "00A4040008A0000006472F000104", 0), 0x6102);
	T_EQ_MEM(g->rep, "U2F_", 4);
	T_EQ_INT(tx_hex(g, "00C0000004", 0), 0x9000);
	T_EQ_INT(g->n, 4);
	T_EQ_MEM(g->rep, "V2", 2);
	T_EQ_INT(tx_hex(g, "00C0000004", 0), NFC_SW_CONDITIONS);
	rig_free(g);
	g = mk(TOKEN_CTAP2_21, 1, 0, 0);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_MEM(g->rep, "FIDO_2_0", 8);
	T_EQ_INT(tx_hex(g, "0003000000", 0), NFC_SW_INS); /* no U2F */
	rig_free(g);
	g = mk(TOKEN_CTAP2_21, 0, 0, 0);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_MEM(g->rep, "U2F_V2", 6);
	rig_free(g);
}

static void
test_lengths(void)
{
	struct rig *g = mk(TOKEN_CTAP2_OFF, 0, 0, 0);

	tx(g, select_fido, sizeof(select_fido), 0);
	T_EQ_INT(tx_hex(g, "0003", 0), NFC_SW_LENGTH);
	T_EQ_INT(tx_hex(g, "00030000", 0), 0x9000);       /* case 1 */
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0x9000);     /* case 2S */
	T_EQ_INT(tx_hex(g, "00030000000000", 0), 0x9000); /* case 2E */
	T_EQ_INT(g->n, 8);
	T_EQ_INT(tx_hex(g, "000300000201", 0), NFC_SW_LENGTH);     /* Lc 2, 1 */
	T_EQ_INT(tx_hex(g, "00030000010102", 0), 0x6700);          /* token */
	T_EQ_INT(tx_hex(g, "000300000000", 0), NFC_SW_LENGTH);     /* 6 bytes */
	T_EQ_INT(tx_hex(g, "0003000000000101", 0), 0x6700);        /* 3E */
	T_EQ_INT(tx_hex(g, "00030000000002AA", 0), NFC_SW_LENGTH); /* short */
	T_EQ_INT(tx_hex(g, "4203000000", 0), NFC_SW_CLA);
	T_EQ_INT(tx_hex(g, "00EE000000", 0), 0x6D00);
	rig_free(g);
}

/* U2F REGISTER: short (61xx + GET RESPONSE) and extended (in one). */
static void
test_u2f_register(void)
{
	struct rig *g = mk(TOKEN_CTAP2_OFF, 0, 0, 0);
	uint8_t apdu[80], all[1024], data[64];
	size_t n = 0, gets = 0;
	unsigned sw;

	tx(g, select_fido, sizeof(select_fido), 0);
	memcpy(apdu, "\x00\x01\x03\x00\x40", 5);
	memcpy(apdu + 5, tokfix_chal, 32);
	memcpy(apdu + 37, tokfix_app, 32);
	apdu[69] = 0x00; /* Le 256 */
	sw = tx(g, apdu, 70, 0);
	while ((sw & 0xFF00) == NFC_SW_MORE && n + g->n < sizeof(all)) {
		T_EQ_INT(g->n, 258);
		memcpy(all + n, g->rep, g->n - 2);
		n += g->n - 2;
		sw = tx_hex(g, "00C0000000", 0);
		gets++;
	}
	T_EQ_INT(sw, 0x9000);
	memcpy(all + n, g->rep, g->n - 2);
	n += g->n - 2;
	T_TRUE(gets >= 2);
	T_TRUE(n > 512);
	T_EQ_INT(all[0], 0x05);
	T_EQ_INT(all[66], TOKEN_KH_LEN);
	/* extended: the whole reply at once */
	memcpy(data, tokfix_chal, 32);
	memcpy(data + 32, tokfix_app, 32);
	n = tokfix_apdu(apdu, 0x01, 0x03, data, 64);
	T_EQ_INT(tx(g, apdu, n, 0), 0x9000);
	T_TRUE(g->n > 514);
	T_EQ_INT(g->rep[0], 0x05);
	/* another command drops what GET RESPONSE had left */
	apdu[69] = 0x00;
	memcpy(apdu, "\x00\x01\x03\x00\x40", 5);
	memcpy(apdu + 5, tokfix_chal, 32);
	memcpy(apdu + 37, tokfix_app, 32);
	T_EQ_INT(tx(g, apdu, 70, 0), NFC_SW_MORE);
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0x9000);
	T_EQ_INT(tx_hex(g, "00C0000000", 0), NFC_SW_CONDITIONS);
	rig_free(g);
}

/* GetInfo: plain, and chained (90 10 with the command byte, then 80 10
 * with nothing); a chain broken by another command. */
static void
test_ctap2_chain(void)
{
	struct rig *g = mk(TOKEN_CTAP2_21, 0, 0, 0);
	uint8_t first[NFC_CARD_REPLY_MAX];
	size_t n;

	tx(g, select_fido, sizeof(select_fido), 0);
	T_EQ_INT(tx_hex(g, "80100000010400", 0), 0x9000);
	T_EQ_INT(g->rep[0], 0x00);
	T_TRUE(g->n > 100);
	n = g->n;
	memcpy(first, g->rep, n);
	T_EQ_INT(tx_hex(g, "901000000104", 0), 0x9000);
	T_EQ_INT(g->n, 2);
	T_EQ_INT(tx_hex(g, "8010000000", 0), 0x9000);
	T_EQ_INT(g->n, n);
	T_EQ_MEM(g->rep, first, n);
	T_EQ_INT(tx_hex(g, "901000000104", 0), 0x9000);
	T_EQ_INT(tx_hex(g, "8011000000", 0), NFC_SW_CHAIN);
	T_EQ_INT(tx_hex(g, "8010000000", 0), NFC_SW_LENGTH); /* chain gone */
	T_EQ_INT(tx_hex(g, "80100100010400", 0), NFC_SW_P1P2);
	T_EQ_INT(tx_hex(g, "8013000000", 0), NFC_SW_INS);
	rig_free(g);
}

/* Selection (0B) waits for the tap (--presence after:1000). */
static void
test_ctap2_wait(void)
{
	struct rig *g = mk(TOKEN_CTAP2_21, 0, 1000, 0);

	tx(g, select_fido, sizeof(select_fido), 0);
	T_EQ_INT(tx_hex(g, "8011000000", 0), NFC_SW_CONDITIONS);
	/* P1 80: 9100 with the keepalive status, then GETRESPONSE */
	T_EQ_INT(tx_hex(g,
		     "8010800001"
		     "0B"
		     "00",
		     0),
	    NFC_SW_UPDATE);
	T_EQ_INT(g->n, 3);
	T_EQ_INT(g->rep[0], 0x02); /* UPNEEDED */
	T_EQ_INT(tx_hex(g, "8011000000", 500), NFC_SW_UPDATE);
	T_EQ_INT(nfc_card_next_ms(g->card, 500), -1); /* the host polls */
	T_EQ_INT(tx_hex(g, "8011000000", 1000), 0x9000);
	T_EQ_INT(g->n, 3);
	T_EQ_INT(g->rep[0], 0x00);
	T_EQ_INT(tx_hex(g, "8011000000", 1000), NFC_SW_CONDITIONS);
	/* P1 00: held, retried every 100 ms, answered once done */
	T_EQ_INT(tx_hex(g,
		     "8010000001"
		     "0B"
		     "00",
		     2000),
	    0);
	T_EQ_INT(g->act, NFC_CARD_LATER);
	T_EQ_INT(nfc_card_next_ms(g->card, 2000), NFC_CARD_RETRY_MS);
	T_EQ_INT(nfc_card_next_ms(g->card, 2150), 0);
	g->act = nfc_card_tick(g->card, 2500, g->rep, &g->n);
	T_EQ_INT(g->act, NFC_CARD_LATER);
	g->act = nfc_card_tick(g->card, 3000, g->rep, &g->n);
	T_EQ_INT(g->act, NFC_CARD_REPLY);
	T_EQ_INT(tokfix_sw(g->rep, g->n), 0x9000);
	T_EQ_INT(g->rep[0], 0x00);
	T_EQ_INT(nfc_card_next_ms(g->card, 3000), -1);
	/* END_GETRESPONSE cancels a waiting request */
	T_EQ_INT(tx_hex(g,
		     "8010800001"
		     "0B"
		     "00",
		     4000),
	    NFC_SW_UPDATE);
	T_EQ_INT(tx_hex(g, "80120100", 4100), 0x9000);
	T_EQ_INT(tx_hex(g, "8011000000", 5000), NFC_SW_CONDITIONS);
	/* so does a power change; and the applet is deselected */
	T_EQ_INT(tx_hex(g,
		     "8010800001"
		     "0B"
		     "00",
		     6000),
	    NFC_SW_UPDATE);
	nfc_card_power(g->card, 6100);
	T_EQ_INT(tx_hex(g, "8011000000", 7000), NFC_SW_CONDITIONS);
	T_EQ_INT(tx_hex(g, "80100000010400", 7000), NFC_SW_CONDITIONS);
	rig_free(g);
}

static void
test_faults(void)
{
	struct rig *g = mk(TOKEN_CTAP2_OFF, 0, 0, FAULT_CARD_STALL);
	uint8_t apdu[80];
	size_t n;

	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0);
	T_EQ_INT(g->act, NFC_CARD_SILENT);
	rig_free(g);
	g = mk(TOKEN_CTAP2_OFF, 0, 0, FAULT_CARD_WRONG_SELECT);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_MEM(g->rep, "U2F_V3", 6);
	rig_free(g);
	g = mk(TOKEN_CTAP2_OFF, 0, 0, FAULT_CARD_BAD_SW);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0x6F00);
	T_EQ_MEM(g->rep, "U2F_V2", 6);
	T_EQ_INT(tx_hex(g, "00EE000000", 0), 0x6D00); /* other SWs kept */
	rig_free(g);
	g = mk(TOKEN_CTAP2_OFF, 0, 0, FAULT_CARD_TRUNCATED);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_INT(g->n, 8);
	tx_hex(g, "0003000000", 0);
	T_EQ_INT(g->n, 7); /* U2F_V2 90 */
	tx_hex(g, "00EE000000", 0);
	T_EQ_INT(g->n, 1);
	rig_free(g);
	g = mk(TOKEN_CTAP2_OFF, 0, 0, FAULT_CARD_ENDLESS_61);
	tx(g, select_fido, sizeof(select_fido), 0);
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0x6101);
	for (n = 0; n < 5; n++) {
		T_EQ_INT(tx_hex(g, "00C0000000", 0), 0x6100);
		T_EQ_INT(g->n, 258);
	}
	rig_free(g);
	g = mk(TOKEN_CTAP2_21, 0, 0, FAULT_CARD_REMOVE);
	T_EQ_INT(tx(g, select_fido, sizeof(select_fido), 0), 0x9000);
	T_EQ_INT(tx_hex(g, "0003000000", 0), 0x9000);     /* VERSION answered */
	T_EQ_INT(tx_hex(g, "80100000010400", 0), 0x9000); /* GetInfo too */
	n = tokfix_apdu(apdu, 0x02, 0x07, tokfix_chal, 32);
	T_EQ_INT(tx(g, apdu, n, 0), 0);
	T_EQ_INT(g->act, NFC_CARD_REMOVE);
	T_EQ_INT(tx_hex(g, "80100000010200", 0), 0);
	T_EQ_INT(g->act, NFC_CARD_REMOVE);
	rig_free(g);
}

TEST_MAIN(TEST(test_select), TEST(test_lengths), TEST(test_u2f_register),
    TEST(test_ctap2_chain), TEST(test_ctap2_wait), TEST(test_faults))
