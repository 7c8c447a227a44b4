/* SPDX-License-Identifier: BSD-2-Clause */
/* The card side of FIDO over ISO 7816-4 / ISO 14443 (CTAP 2.1 11.3): the
 * software token as an NFC card. SELECT of the FIDO applet, raw U2F
 * APDUs, NFCCTAP_MSG / NFCCTAP_GETRESPONSE / NFCCTAP_CONTROL for CTAP2,
 * command chaining (CLA bit 0x10) and extended APDUs for long commands,
 * 61xx + GET RESPONSE for long replies. The U2F and CTAP2 work is the
 * token's (token_apdu, token_cbor): nothing is copied. No I/O; time is
 * passed in, so unit tests drive it without sleeping. */
#ifndef ST_NFC_CARD_H
#define ST_NFC_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "token.h"

/* The longest command (after chaining) and the longest reply. */
#define NFC_CARD_CMD_MAX 8192
#define NFC_CARD_REPLY_MAX (CTAP2_REPLY_MAX + 2)
/* While a CTAP2 request waits and the host did not ask for GETRESPONSE
 * polling (NFCCTAP_MSG with P1 bit 0x80 clear), the card retries it this
 * often and answers once it is done. */
#define NFC_CARD_RETRY_MS 100

#define NFC_SW_OK 0x9000
#define NFC_SW_UPDATE 0x9100 /* CTAP2 still processing */
#define NFC_SW_MORE 0x6100   /* | bytes left (00: 256 or more) */
#define NFC_SW_LENGTH 0x6700
#define NFC_SW_CHAIN 0x6883      /* last command of a chain expected */
#define NFC_SW_CONDITIONS 0x6985 /* nothing to get, nothing pending */
#define NFC_SW_NOT_FOUND 0x6A82  /* SELECT of another AID */
#define NFC_SW_P1P2 0x6A86
#define NFC_SW_INS 0x6D00
#define NFC_SW_CLA 0x6E00
#define NFC_SW_UNKNOWN 0x6F00

/* What the front does with the outcome of an APDU. */
enum nfc_card_act {
	NFC_CARD_REPLY,  /* send the *rlen bytes in rep */
	NFC_CARD_LATER,  /* no reply yet: call nfc_card_tick (next_ms) */
	NFC_CARD_SILENT, /* never answer this APDU (fault card-stall) */
	NFC_CARD_REMOVE  /* leave the field now (fault card-remove) */
};

struct nfc_card;

/* tok is borrowed; its faults (card-*) apply. */
int nfc_card_new(struct nfc_card **out, struct token *tok);
void nfc_card_free(struct nfc_card **cp);

/* Power off, power on or reset from the reader: the applet is deselected
 * and every chain, reply and waiting request is dropped (a waiting CTAP2
 * request is cancelled in the token). */
void nfc_card_power(struct nfc_card *c, int64_t now_ms);
/* The ATR a PC/SC reader builds for an ISO 14443-4 card (PC/SC part 3). */
const uint8_t *nfc_card_atr(size_t *len);

/* One command APDU at now_ms. rep holds NFC_CARD_REPLY_MAX bytes. */
enum nfc_card_act nfc_card_apdu(struct nfc_card *c, const uint8_t *apdu,
    size_t len, int64_t now_ms, uint8_t *rep, size_t *rlen);
/* Retry the request answered NFC_CARD_LATER: NFC_CARD_REPLY once it is
 * done, else NFC_CARD_LATER again. */
enum nfc_card_act nfc_card_tick(
    struct nfc_card *c, int64_t now_ms, uint8_t *rep, size_t *rlen);
/* Milliseconds until nfc_card_tick should run, or -1 for never. */
int nfc_card_next_ms(const struct nfc_card *c, int64_t now_ms);

#endif
