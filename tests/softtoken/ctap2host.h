/* SPDX-License-Identifier: BSD-2-Clause */
/* The host side of the software token's CTAP2 unit tests: requests
 * written with the project's CBOR writer, replies checked with its strict
 * reader (cbor_check) and parsed with common/proto (authData, COSE keys,
 * attestation statements), the PIN/UV auth protocols through
 * common/crypto/pinproto.h, signatures through common/crypto/crypto.h.
 * So the token (OpenSSL directly) and the host code check each other. */
#ifndef ST_CTAP2HOST_H
#define ST_CTAP2HOST_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/cosesig.h"
#include "token.h"

#define CH_MAX_KEEPALIVES 400 /* 40 s of 100 ms steps */

/* One exchange: the request, the reply, what the token said meanwhile. */
struct ch {
	struct token *t;
	int64_t now;      /* virtual clock, ms */
	int cancel_after; /* > 0: cancel after that many keepalives */
	uint8_t rep[CTAP2_REPLY_MAX];
	size_t rlen;
	unsigned ka_processing; /* KEEPALIVE 1 seen */
	unsigned ka_upneeded;   /* KEEPALIVE 2 seen */
	unsigned polls;         /* calls that stayed pending */
};

/* A CTAP2 token (aborts on failure): version, then the rest of cfg. */
struct token *ch_token(enum token_ctap2 v, const struct token_config *cfg);
/* A fresh exchange state with a new token. */
void ch_init(struct ch *h, enum token_ctap2 v, const struct token_config *cfg);
/* A config with the defaults (main.c's): presence now, 8 retries. */
void ch_config(struct token_config *c);

/* Send cmd || cbor[0..len) and run the clock (+100 ms a step) until the
 * token answers; returns the status byte (or -1 if it never answered
 * within CH_MAX_KEEPALIVES steps). */
int ch_call(struct ch *h, uint8_t cmd, const uint8_t *cbor, size_t len);
/* The reply's CBOR (after the status byte). */
const uint8_t *ch_body(const struct ch *h, size_t *len);

/* A made credential. */
struct ch_cred {
	uint8_t id[400];
	size_t id_len;
	int type;
	uint8_t pk[COSESIG_PK_MAX];
	size_t pk_len;
	uint8_t flags;
	uint32_t counter;
	char fmt[16];
	int ext_prot; /* credProtect in authData's extensions; 0: none */
};

/* What a MakeCredential/GetAssertion request carries. */
struct ch_req {
	const char *rp;
	uint8_t cdh[32];
	const int *algs;     /* MC: 0-terminated */
	int up, uv, rk;      /* -1: absent */
	const uint8_t *auth; /* pinUvAuthParam, or NULL */
	size_t auth_len;
	int proto;
	const struct ch_cred *allow[3]; /* GA allowList / MC excludeList */
	size_t nallow;
	const uint8_t *junk_id; /* an allowList entry before the others */
	size_t junk_len;
	const char *user;    /* MC: user.id and name (NULL: "user") */
	const char *display; /* MC: displayName, or NULL */
	int prot;            /* MC: credProtect extension, 0: none */
};

void ch_req_init(struct ch_req *q, const char *rp);
/* The CBOR of a MakeCredential request into buf (REQ_MAX bytes). */
#define REQ_MAX 2048
size_t ch_mc_request(const struct ch_req *q, uint8_t *buf);
/* MakeCredential: status; on 00 the credential, its attestation checked
 * with attest_verify and its authData with authdata_parse. */
int ch_make_cred(struct ch *h, const struct ch_req *q, struct ch_cred *c);
/* GetAssertion: status; on 00 the authData parsed and the signature
 * verified with c's key; *flags and *counter from the authData. */
int ch_get_assert(struct ch *h, const struct ch_req *q, const struct ch_cred *c,
    uint8_t *flags, uint32_t *counter);

/* The CBOR of a GetAssertion request into buf (REQ_MAX bytes). */
size_t ch_ga_request(const struct ch_req *q, uint8_t *buf);

/* credProtect in an authData extensions map (0 if none, -1 if bad). */
int ch_ext_prot(const uint8_t *ext, size_t len);

/* An assertion of GetAssertion (cmd 02, request q) or GetNextAssertion
 * (08): its signature verified with the credential of creds[] whose id
 * it names (over q's clientDataHash). */
struct ch_asr {
	const struct ch_cred *cred; /* which of creds[] */
	uint8_t flags;
	uint32_t counter;
	uint8_t uid[64];
	size_t uid_len; /* 0: no user entity */
	int has_name, has_display;
	uint64_t count; /* numberOfCredentials, 0: absent */
};
int ch_assert_any(struct ch *h, uint8_t cmd, const struct ch_req *q,
    const struct ch_cred *const *creds, size_t n, struct ch_asr *a);

/* ClientPIN helpers (protocol 1 or 2). */
int ch_pin_retries(struct ch *h, unsigned *retries);
int ch_uv_retries(struct ch *h, unsigned *retries);
int ch_set_pin(struct ch *h, int proto, const char *pin);
int ch_change_pin(struct ch *h, int proto, const char *old, const char *pin);
/* sub 5 (perm 0), 9 (PIN, perm and rp) or 6 (UV): the decrypted token. */
int ch_get_token(struct ch *h, int proto, unsigned sub, const char *pin,
    unsigned perm, const char *rp, uint8_t token[32]);
/* pinUvAuthParam = authenticate(token, cdh) into out (16 or 32 bytes). */
size_t ch_auth(
    int proto, const uint8_t token[32], const uint8_t cdh[32], uint8_t out[32]);

/* GetInfo: status; fills what the tests look at. */
struct ch_info {
	char versions[4][16];
	size_t nversions;
	int opt_clientpin, opt_uv, opt_alwaysuv, opt_puat, opt_rk;
	unsigned protos[2];
	size_t nprotos;
	long rk_remaining;   /* remainingDiscoverableCredentials, -1: absent */
	int ext_credprotect; /* extensions lists credProtect */
};
int ch_get_info(struct ch *h, struct ch_info *in);

#endif
