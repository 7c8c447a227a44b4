/* SPDX-License-Identifier: BSD-2-Clause */
/* The software token's insides, shared by token.c and tokstate.c. */
#ifndef PU_TOKEN_INT_H
#define PU_TOKEN_INT_H

#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>

#include "token.h"

#define STATE_MAX (1024 * 1024) /* 256 resident credentials fit */
#define CERT_MAX 600
#define SIG_MAX 72
#define POINT_LEN 65
#define PARAM_LEN 32
#define NONCE_LEN 12
#define TAG_LEN 16
#define SW_INTERNAL 0x6F00
#define TOKEN_X5C_MAX 4 /* intermediates after the leaf */

struct token {
	enum token_presence presence;
	int after_ms;
	int probe_sign;
	unsigned faults;
	char *state_path;
	FILE *log;
	int log_time; /* each log line starts with CLOCK_MONOTONIC */
	uint8_t master[32];
	EVP_PKEY *att;
	uint8_t *cert;
	size_t cert_len;
	/* attload.c: intermediates sent after cert in x5c, and the AAGUID
	 * authData claims (the token's own unless --forge-aaguid) */
	uint8_t *x5c[TOKEN_X5C_MAX];
	size_t x5c_len[TOKEN_X5C_MAX];
	size_t nx5c;
	uint8_t ad_aaguid[16];
	uint32_t counter;
	int64_t touch_start; /* -1: no presence request pending */
	struct ctap2 *c2;    /* CTAP2 state (ctap2.h), always set */
};

/* An EVP_PKEY from a 32-byte P-256 private scalar. */
int token_ec_from_priv(const uint8_t priv[32], EVP_PKEY **out);
/* ECDSA P-256 SHA-256 signature (DER, at most SIG_MAX bytes). */
int token_ec_sign(EVP_PKEY *pkey, const uint8_t *msg, size_t len, uint8_t *sig,
    size_t *siglen);
/* 1 if presence is granted now, per the policy; consumes the touch. */
int token_presence_granted(struct token *t, int64_t now);

/* attload.c: --attest-key/--attest-chain/--forge-aaguid applied to t
 * (after its keys are made or loaded): ERR_OK, ERR_FILE, ERR_PARSE,
 * ERR_MISMATCH (the leaf is not the key's), ERR_TOO_BIG, ERR_INVAL (one
 * of key and chain without the other). token_attest_clear frees x5c. */
int token_attest_load(struct token *t, const struct token_config *cfg);
void token_attest_clear(struct token *t);

/* Write the state file (if the token has one), atomically. */
int token_save_state(const struct token *t);
/* Read it; ERR_NOT_FOUND if there is no state file yet. */
int token_load_state(struct token *t);

#endif
