/* SPDX-License-Identifier: BSD-2-Clause */
/* U2F (CTAP1) messages: APDU building and strict reply parsing. The
 * exchanges themselves are the U2F protocol's (u2f/protocol.c, behind
 * struct proto, with u2f/wire.c timing the request in flight); callers
 * outside common/proto use device/dev.h. */
#ifndef PU_U2F_H
#define PU_U2F_H

#include <stddef.h>
#include <stdint.h>

#define U2F_INS_REGISTER 0x01
#define U2F_INS_AUTHENTICATE 0x02
#define U2F_INS_VERSION 0x03

#define U2F_AUTH_ENFORCE 0x03 /* enforce presence and sign */
#define U2F_AUTH_CHECK_ONLY 0x07
#define U2F_AUTH_NO_PRESENCE 0x08

#define U2F_SW_NO_ERROR 0x9000
#define U2F_SW_WRONG_LENGTH 0x6700
#define U2F_SW_CONDITIONS 0x6985
#define U2F_SW_WRONG_DATA 0x6a80
#define U2F_SW_WRONG_DATA_ALT 0x6984
#define U2F_SW_INS 0x6d00

#define U2F_PARAM_LEN 32 /* challenge and application parameters */
#define U2F_POINT_LEN 65 /* uncompressed P-256 point, 0x04 first */
#define U2F_KH_MAX 255
#define U2F_SIG_MIN 8  /* smallest plausible DER ECDSA signature */
#define U2F_SIG_MAX 72 /* largest DER ECDSA P-256 signature */
#define U2F_APDU_MAX (7 + 2 * U2F_PARAM_LEN + 1 + U2F_KH_MAX + 2)

/* A parsed REGISTER reply; the buffers are owned (u2f_reg_clear frees). */
struct u2f_reg {
	uint8_t pubkey[U2F_POINT_LEN];
	uint8_t kh[U2F_KH_MAX];
	size_t kh_len;
	uint8_t *cert;
	size_t cert_len;
	uint8_t sig[U2F_SIG_MAX];
	size_t sig_len;
};

/* A parsed AUTHENTICATE reply. */
struct u2f_auth {
	uint8_t flags;
	uint32_t counter;
	uint8_t sig[U2F_SIG_MAX];
	size_t sig_len;
};

/* Build an extended-length APDU: 00 INS P1 00 | 00 Lc_hi Lc_lo | data |
 * 00 00. (Lc omitted when len is 0.) */
int u2f_apdu(uint8_t ins, uint8_t p1, const uint8_t *data, size_t len,
    uint8_t *out, size_t cap, size_t *outlen);
/* Split a reply into body and status word; map the status word to ERR_OK,
 * ERR_PRESENCE, ERR_WRONG_KH, ERR_WRONG_LENGTH, ERR_INS_NOT_SUPPORTED or
 * ERR_SW. A reply shorter than 2 bytes is ERR_PROTO. */
int u2f_status(
    const uint8_t *reply, size_t len, size_t *body_len, uint16_t *sw);
/* Strict parses of the reply bodies (status word already removed). */
int u2f_parse_register(const uint8_t *body, size_t len, struct u2f_reg *out);
int u2f_parse_authenticate(
    const uint8_t *body, size_t len, struct u2f_auth *out);
void u2f_reg_clear(struct u2f_reg *reg);

#endif
