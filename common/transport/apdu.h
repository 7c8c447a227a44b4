/* SPDX-License-Identifier: BSD-2-Clause */
/* ISO 7816-4 framing of FIDO messages for keys on a smart-card reader
 * (CTAP 2.1 section 11.3, FIDO U2F NFC protocol): SELECT of the FIDO
 * applet, U2F APDUs as they are, CTAP2 requests in NFCCTAP_MSG with
 * NFCCTAP_GETRESPONSE polled while the key answers 9100, command
 * chaining for long requests and 61xx + GET RESPONSE for long replies.
 * No I/O of its own: a card is a transmit function (struct apdu_card),
 * the PC/SC transport's (pcsc.c) or a test's scripted one. */
#ifndef PU_APDU_H
#define PU_APDU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* The FIDO applet's AID. */
#define APDU_FIDO_AID "\xA0\x00\x00\x06\x47\x2F\x00\x01"
#define APDU_FIDO_AID_LEN 8

/* Data bytes of one chained command APDU (short encoding, as libfido2). */
#define APDU_CHUNK 240
/* One command APDU: header, Lc, data, Le. */
#define APDU_CMD_MAX (5 + 255 + 1)
/* One response APDU: up to 256 data bytes and SW1 SW2. */
#define APDU_RSP_MAX (256 + 2)
/* The longest reply we collect (a whole CTAPHID message), and the longest
 * request we send. */
#define APDU_REPLY_MAX 7609
#define APDU_REQUEST_MAX 7609
/* Between NFCCTAP_GETRESPONSE polls while the key is busy. */
#define APDU_POLL_MS 100
/* One command APDU's exchange with the card (pcsc.c runs it in a worker
 * and stops waiting then); a FIDO key answers each at once, 9100 while
 * it works. */
#define APDU_XMIT_MS 3000
/* One exchange as a whole (a command, its chained parts and the GET
 * RESPONSE rounds of its reply) when the operation ends no sooner. */
#define APDU_EXCHANGE_MS 10000
/* GET RESPONSE rounds in one exchange: a reply of APDU_REPLY_MAX bytes
 * takes 30 full ones (256 bytes each); a card that hands out its reply in
 * smaller pieces (61 01, one byte a time) is refused at the cap. */
#define APDU_MORE_MAX 64
/* NFCCTAP_GETRESPONSE polls of one CTAP2 request (10 min at
 * APDU_POLL_MS): the operation's deadline ends a key that stays busy
 * sooner; the cap bounds a request that was given none. */
#define APDU_POLLS_MAX 6000

/* Status words. */
#define APDU_SW_OK 0x9000
#define APDU_SW_UPDATE 0x9100 /* NFCCTAP: still processing */
#define APDU_SW_NOT_FOUND 0x6A82
#define APDU_SW_NO_PRESENCE 0x6985

/* A card: send one command APDU, receive one response APDU (data, SW1,
 * SW2) of at most cap bytes within ms. ERR_OK, ERR_TIMEOUT, ERR_NODEV
 * (the card went away), ERR_IO, ... */
struct apdu_card {
	int (*transmit)(void *arg, const uint8_t *cmd, size_t len, uint8_t *rsp,
	    size_t cap, size_t *rlen, int ms);
	void *arg;
};

/* A status word (not 9000, 61xx or 9100) as one of our errors. */
int apdu_sw_err(uint16_t sw);
/* A short command APDU: header, Lc and data (len <= 255, none if 0), Le
 * = 00 if le. */
int apdu_build(const uint8_t hdr[4], const uint8_t *data, size_t len, bool le,
    uint8_t *out, size_t cap, size_t *olen);
/* Split a command APDU (short or extended encoding, as the U2F code
 * builds them) into its header and data. ERR_PROTO if malformed. */
int apdu_parse_cmd(const uint8_t *apdu, size_t len, uint8_t hdr[4],
    const uint8_t **data, size_t *dlen);
/* Split a response APDU: its data's length and the status word. */
int apdu_split(const uint8_t *rsp, size_t len, size_t *dlen, uint16_t *sw);
/* The SELECT answer's data as XPORT_CAP_* flags: "U2F_V2" is U2F and
 * maybe CTAP2 (GetInfo tells), "FIDO_2_0" CTAP2 only. */
int apdu_select_caps(const uint8_t *data, size_t len, uint8_t *caps);

/* One command, chained if longer than APDU_CHUNK, and its whole reply:
 * 61xx answered by GET RESPONSE until another status word, at most
 * APDU_MORE_MAX rounds (more is ERR_PROTO). The data of every response
 * APDU goes to out (at most cap bytes: longer is ERR_TOO_BIG), the last
 * status word to *sw. Every APDU within APDU_XMIT_MS, the exchange as a
 * whole within APDU_EXCHANGE_MS and before deadline (0: none of its
 * own): ERR_TIMEOUT once that has passed. A failed link step
 * (ERR_TIMEOUT, ERR_NODEV, ...) is returned as is. */
int apdu_exchange(const struct apdu_card *card, const uint8_t hdr[4],
    const uint8_t *data, size_t len, uint8_t *out, size_t cap, size_t *olen,
    uint16_t *sw, int64_t deadline);

/* A FIDO session on one card: the request in flight and its reply. */
enum apdu_phase { APDU_IDLE = 0, APDU_QUEUED, APDU_DONE, APDU_POLL };

struct apdu_fido {
	struct apdu_card card;
	const struct log *log;
	const char *name; /* for log lines */
	enum apdu_phase phase;
	uint8_t kind;      /* XPORT_MSG or XPORT_CBOR */
	int err;           /* APDU_DONE: the request's result */
	int ka;            /* APDU_POLL: the last status (XPORT_KA_*) */
	int64_t next_poll; /* APDU_POLL: when to ask again */
	unsigned polls;    /* NFCCTAP_GETRESPONSE rounds of this request */
	/* The end of the operation the requests belong to (util_now_ms
	 * clock; 0: none): no exchange with the card runs past it. The
	 * transport sets it (xport_set_deadline). */
	int64_t deadline;
	uint8_t buf[APDU_REPLY_MAX + 2];
	size_t len;
	uint8_t req[APDU_REQUEST_MAX]; /* APDU_QUEUED: the request */
	size_t req_len;
};

/* SELECT the FIDO applet within ms: *caps from its answer. */
int apdu_fido_select(struct apdu_fido *f, int ms, uint8_t *caps);
/* Queue a request of a kind: XPORT_MSG, a U2F request APDU (the reply is
 * the data and the status word), XPORT_CBOR, a CTAP2 request (the reply
 * is the CTAP2 status byte and CBOR). Nothing goes to the card yet (no
 * I/O, ms unused): apdu_fido_recv sends it. */
int apdu_fido_send(
    struct apdu_fido *f, uint8_t kind, const uint8_t *msg, size_t len, int ms);
/* The reply to the request of that kind, at most cap bytes (longer is
 * ERR_PROTO). A queued request is sent first, within ms (0: within
 * APDU_XMIT_MS per APDU and APDU_EXCHANGE_MS in all), and never past
 * f->deadline. While the key answers 9100, waits up to ms or until
 * f->deadline (asleep until each poll), then ERR_TIMEOUT with *status its
 * keepalive status; a failed or silent APDU, or more than APDU_POLLS_MAX
 * polls, ends the request (ERR_NODEV, ERR_IO). */
int apdu_fido_recv(struct apdu_fido *f, uint8_t kind, uint8_t *buf, size_t cap,
    size_t *len, int ms, int *status);
/* Forget the request: no more polls (NFC has no cancel command). */
void apdu_fido_cancel(struct apdu_fido *f);
/* When a recv has something to do: 0 for a queued request or a reply
 * waiting, the next poll, INT64_MAX when idle. */
int64_t apdu_fido_wake_at(const struct apdu_fido *f);

#endif
