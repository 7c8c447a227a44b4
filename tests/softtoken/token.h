/* SPDX-License-Identifier: BSD-2-Clause */
/* The U2F authenticator of the software token: one APDU in, one reply
 * (data || SW) out. Stateless key handles (AES-256-GCM wrapped private
 * keys), a self-signed attestation certificate, a signature counter and a
 * presence policy. No I/O except the optional state and log files. */
#ifndef ST_TOKEN_H
#define ST_TOKEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOKEN_REPLY_MAX 1024 /* longest reply incl. SW (register ~ 600) */
#define TOKEN_KH_LEN 92      /* nonce 12 || ciphertext 64 || tag 16 */

#define TOKEN_SW_OK 0x9000
#define TOKEN_SW_PRESENCE 0x6985
#define TOKEN_SW_WRONG_DATA 0x6A80
#define TOKEN_SW_WRONG_P1P2 0x6A86
#define TOKEN_SW_WRONG_LENGTH 0x6700
#define TOKEN_SW_INS 0x6D00
#define TOKEN_SW_CLA 0x6E00

enum token_presence {
	TOKEN_PRESENCE_NOW,   /* every presence request granted at once */
	TOKEN_PRESENCE_NEVER, /* never granted */
	TOKEN_PRESENCE_AFTER  /* granted once, after_ms after first asked */
};

/* Fault modes, one bit each; see README. Token faults act on APDU replies,
 * device faults on CTAPHID framing. */
enum token_fault {
	FAULT_WRONG_CID = 1u << 0,
	FAULT_SHORT_INIT = 1u << 1,
	FAULT_BCNT_LARGE = 1u << 2,
	FAULT_BAD_SEQ = 1u << 3,
	FAULT_MISSING_CONT = 1u << 4,
	FAULT_ENDLESS_KEEPALIVE = 1u << 5,
	FAULT_ERROR_FRAMES = 1u << 6,
	FAULT_BURST = 1u << 7,
	FAULT_VANISH = 1u << 8,
	FAULT_GARBAGE_REPLY = 1u << 9,
	FAULT_BAD_SIG = 1u << 10,
	FAULT_WRONG_SIG = 1u << 11,
	FAULT_NO_PRESENCE_FLAG = 1u << 12,
	FAULT_COUNTER_BACK = 1u << 13,
	/* CTAP2 faults (ctap2tok.c) */
	FAULT_CBOR_GARBAGE = 1u << 14,
	FAULT_CBOR_NONCANON = 1u << 15,
	FAULT_CBOR_STATUS = 1u << 16,
	FAULT_UV_LIE = 1u << 17,
	FAULT_UV_SKIP = 1u << 18,
	FAULT_CBOR_OVERSIZED = 1u << 19,
	FAULT_ENDLESS_PROCESSING = 1u << 20,
	FAULT_GETINFO_GARBAGE = 1u << 21,
	/* NFC card faults (nfc_card.c, front_vpcd.c) */
	FAULT_CARD_STALL = 1u << 22,
	FAULT_CARD_BAD_SW = 1u << 23,
	FAULT_CARD_TRUNCATED = 1u << 24,
	FAULT_CARD_REMOVE = 1u << 25,
	FAULT_CARD_WRONG_SELECT = 1u << 26,
	FAULT_CARD_ENDLESS_61 = 1u << 27,
	FAULT_ATTEST_OU = 1u << 28
};

/* --ctap2: which CTAP2 the token speaks (OFF: U2F only). */
enum token_ctap2 {
	TOKEN_CTAP2_OFF = 0,
	TOKEN_CTAP2_20,    /* FIDO_2_0 */
	TOKEN_CTAP2_21PRE, /* + FIDO_2_1_PRE */
	TOKEN_CTAP2_21     /* + FIDO_2_1 */
};

/* --uv: the simulated built-in user verification. */
enum token_uv { TOKEN_UV_NONE = 0, TOKEN_UV_OK, TOKEN_UV_FAIL };

/* --attest: the attestation statement of MakeCredential. */
enum token_attest {
	TOKEN_ATTEST_PACKED = 0, /* packed with x5c */
	TOKEN_ATTEST_SELF,       /* packed, signed by the credential key */
	TOKEN_ATTEST_U2F,        /* fido-u2f (ES256 only, else packed) */
	TOKEN_ATTEST_NONE
};

/* What token_apdu does when presence is needed but not (yet) granted. */
enum token_mode {
	TOKEN_ANSWER, /* answer 6985 at once */
	TOKEN_HOLD,   /* return ERR_PENDING, no reply, no log line */
	TOKEN_CANCEL  /* the host cancelled: answer 6985 */
};

struct token_config {
	enum token_presence presence;
	int after_ms;           /* for TOKEN_PRESENCE_AFTER */
	int probe_sign;         /* P1 07 signs like a non-conforming key */
	unsigned faults;        /* enum token_fault bits */
	const char *state_path; /* NULL: fresh keys, nothing saved */
	FILE *log;              /* NULL: no log; not owned */
	int log_time;           /* --log-time: lines start "SEC.NSEC " */
	/* CTAP2 (all zero: off, U2F on) */
	enum token_ctap2 ctap2;
	int u2f_off;      /* --u2f off (implied by --always-uv) */
	const char *pin;  /* --pin: set at start if the state has none */
	enum token_uv uv; /* --uv */
	int always_uv;    /* --always-uv */
	int hmac_off;     /* --hmac-secret: 0 on, 1 off (not listed, not
			   * done), 2 refuse (listed, any input refused
			   * with INVALID_PARAMETER) */
	int pin_retries;  /* --pin-retries start value; < 0: 8 */
	int rk_slots;     /* --rk-slots: resident credentials; 0: 25 */
	/* --max-list: maxCredentialCountInList, reported in GetInfo and
	 * enforced (a longer allowList: LIMIT_EXCEEDED); 0: the
	 * default, 8 from 2.1-pre on, not reported (no limit) by 2.0 */
	int max_list;
	enum token_attest attest;
	/* --attest-key / --attest-chain: PEM files (tests/softtoken/
	 * attload.c); --forge-aaguid: 16 bytes authData claims, or NULL */
	const char *attest_key;
	const char *attest_chain;
	const uint8_t *forge_aaguid;
};

struct token;

/* Create a token: load state_path if it exists, else create keys (and save
 * them there if a path was given). */
int token_new(struct token **out, const struct token_config *cfg);
void token_free(struct token **tp);

/* Process one APDU at time now_ms. On ERR_OK *rlen bytes (data || SW) are in
 * rep (at least TOKEN_REPLY_MAX bytes). ERR_PENDING only in TOKEN_HOLD mode:
 * presence is not granted yet, ask again later with the same APDU. */
int token_apdu(struct token *t, int64_t now_ms, enum token_mode mode,
    const uint8_t *apdu, size_t len, uint8_t *rep, size_t *rlen);

/* Process one CTAPHID_CBOR request (command byte || CBOR) at now_ms. On
 * ERR_OK *rlen bytes (status || CBOR) are in rep (CTAP2_REPLY_MAX bytes).
 * ERR_PENDING in TOKEN_HOLD mode while the request waits: *keepalive is
 * the KEEPALIVE status to send (1 processing, 2 user presence needed);
 * ask again later with the same request. TOKEN_CANCEL ends a pending
 * request with status 0x2D. Implemented in ctap2tok.c. */
#define CTAP2_REPLY_MAX 7609
int token_cbor(struct token *t, int64_t now_ms, enum token_mode mode,
    const uint8_t *req, size_t len, uint8_t *rep, size_t *rlen,
    uint8_t *keepalive);
/* Nonzero when the token speaks CTAP2 / U2F (CTAPHID capabilities). */
int token_has_ctap2(const struct token *t);
int token_has_u2f(const struct token *t);

unsigned token_faults(const struct token *t);
uint32_t token_counter(const struct token *t);
/* Append a free-form line (e.g. "keepalive") to the log, if any. */
void token_log_line(struct token *t, const char *line);
/* Append a formatted line to the log, if any, flushed; with log_time it
 * starts with CLOCK_MONOTONIC as "SECONDS.NANOSECONDS ". */
void token_logf(struct token *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* DER attestation certificate (for tests). */
const uint8_t *token_attest_cert(const struct token *t, size_t *len);

/* Fault names: "wrong-cid" -> FAULT_WRONG_CID. ERR_INVAL if unknown. */
int token_fault_parse(const char *name, unsigned *bit);
/* All fault names, NULL-terminated, in bit order. */
const char *const *token_fault_names(void);

#endif
