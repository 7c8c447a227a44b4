/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 insides shared by the CTAP2 protocol's files: GetInfo, the
 * status codes, request builders and reply parsers (msg.c). The
 * protocol itself (proto_ctap2) is in driver.c. */
#ifndef PU_CTAP2_H
#define PU_CTAP2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cbor.h"
#include "base/util.h"
#include "crypto/pinproto.h"
#include "proto/proto.h"

#define CTAP2_MSG_MAX 7609 /* a whole CTAPHID message */

/* Commands. */
#define CTAP2_MAKE_CREDENTIAL 0x01
#define CTAP2_GET_ASSERTION 0x02
#define CTAP2_GET_INFO 0x04
#define CTAP2_CLIENT_PIN 0x06
#define CTAP2_GET_NEXT_ASSERTION 0x08
#define CTAP2_SELECTION 0x0B

/* GetInfo: the extensions we use, one bit each. */
#define CTAP2_EXT_CRED_PROTECT 0x01
#define CTAP2_CRED_PROTECT_MAX 3   /* userVerificationRequired */
#define CTAP2_EXT_HMAC_SECRET 0x02 /* CTAP 2.1 12.5 */
#define CTAP2_HMAC_SALT_LEN 32     /* one salt; we never send two */
/* numberOfCredentials we walk at most (a key holding more for one rp is
 * cut short: the rest is not asked for). */
#define CTAP2_RK_MAX 64
/* Credentials we send in one allow list at most (a silent check). */
#define CTAP2_LIST_MAX 64

/* ClientPIN subcommands. */
#define CTAP2_PIN_GET_RETRIES 0x01
#define CTAP2_PIN_GET_KA 0x02
#define CTAP2_PIN_GET_TOKEN 0x05
#define CTAP2_PIN_GET_TOKEN_UV 0x06
#define CTAP2_PIN_GET_UV_RETRIES 0x07
#define CTAP2_PIN_GET_TOKEN_PIN 0x09

/* pinUvAuthToken permissions. */
#define CTAP2_PERM_MC 0x01
#define CTAP2_PERM_GA 0x02

#define CTAP2_PIN_MAX 63   /* bytes of UTF-8 (CTAP 2.1 6.5.5.5) */
#define CTAP2_TOKEN_MAX 64 /* a decrypted pinUvAuthToken */

/* GetInfo: versions. */
#define CTAP2_V_U2F 0x01
#define CTAP2_V_20 0x02
#define CTAP2_V_21PRE 0x04
#define CTAP2_V_21 0x08

/* GetInfo: the options we read, one bit each. */
enum ctap2_opt {
	CTAP2_OPT_RK = 1u << 0,
	CTAP2_OPT_UP = 1u << 1,
	CTAP2_OPT_UV = 1u << 2,
	CTAP2_OPT_CLIENT_PIN = 1u << 3,
	CTAP2_OPT_PIN_UV_TOKEN = 1u << 4,
	CTAP2_OPT_ALWAYS_UV = 1u << 5,
	CTAP2_OPT_MC_UV_NOT_RQD = 1u << 6,
	CTAP2_OPT_PLAT = 1u << 7
};

struct ctap2_info {
	unsigned versions;    /* CTAP2_V_* */
	unsigned opt_present; /* enum ctap2_opt bits the key listed */
	unsigned opt_true;    /* ... and those it listed as true */
	uint8_t aaguid[16];
	uint8_t pin_protos[4]; /* in the key's order of preference */
	size_t npin_protos;
	size_t max_msg;  /* 0: not given */
	size_t max_list; /* maxCredentialCountInList (0x07); 0: not given */
	int algs[8];     /* COSE algorithms listed (empty: not said) */
	size_t nalgs;
	unsigned exts; /* CTAP2_EXT_* the key listed */
};

/* -1 absent, 0 false, 1 true. */
int ctap2_info_opt(const struct ctap2_info *in, enum ctap2_opt o);
/* Parse a GetInfo reply body (CBOR after the status byte). */
int ctap2_parse_info(const uint8_t *p, size_t len, struct ctap2_info *out);
/* How many credentials one allow list may hold on this key: its
 * maxCredentialCountInList, 1 when it does not say, at most
 * CTAP2_LIST_MAX. */
size_t ctap2_info_list_max(const struct ctap2_info *in);
/* Does the key offer this COSE algorithm? (Keys that list none, like
 * CTAP 2.0 keys, are asked and answer for themselves.) */
bool ctap2_info_alg(const struct ctap2_info *in, int alg);

/* A CTAP2 status byte as our error (every code maps to one); name for
 * logs ("PIN_INVALID", or NULL for unknown codes). */
int ctap2_status_err(uint8_t status);
const char *ctap2_status_name(uint8_t status);

/* GetAssertion's hmac-secret input (CTAP 2.1 12.5): our key agreement
 * key, saltEnc = encrypt(shared, salt), saltAuth = authenticate(shared,
 * saltEnc), and the PIN protocol they are under. */
struct ctap2_hmac_in {
	const uint8_t *ka_x, *ka_y;
	const uint8_t *salt_enc;
	size_t salt_enc_len;
	const uint8_t *salt_auth;
	size_t salt_auth_len;
	int proto;
};

/* A request: command byte | CBOR. Built into buf (CTAP2_MSG_MAX). */
struct ctap2_ga {
	const char *rp_id;
	const uint8_t *cdh;
	const struct cred *cred;        /* the one allow-list entry; NULL: list,
					 * or none (the key's resident credentials) */
	const struct cred *const *list; /* several entries (cred NULL) */
	size_t nlist;
	int up, uv;              /* -1 omit, 0 false, 1 true */
	const uint8_t *pin_auth; /* pinUvAuthParam, or NULL */
	size_t pin_auth_len;
	int pin_proto;
	const struct ctap2_hmac_in *hmac; /* the hmac-secret input, or NULL */
};
int ctap2_build_ga(const struct ctap2_ga *ga, uint8_t *buf, size_t *len);
/* GetNextAssertion and authenticatorSelection: the command byte alone. */
void ctap2_build_bare(uint8_t cmd, uint8_t *buf, size_t *len);

struct ctap2_mc {
	const struct reg_req *req;
	const char *rp_name;
	int rk, uv; /* -1 omit, 0 false, 1 true */
	const uint8_t *pin_auth;
	size_t pin_auth_len;
	int pin_proto;
};
int ctap2_build_mc(const struct ctap2_mc *mc, uint8_t *buf, size_t *len);

/* ClientPIN. ka_x/ka_y: our key agreement key (subcommands 5, 6, 9);
 * pin_hash_enc (5, 9); perms and rp_id (6, 9). */
struct ctap2_cp {
	int proto;
	int sub;
	const uint8_t *ka_x, *ka_y;
	const uint8_t *pin_hash_enc;
	size_t pin_hash_enc_len;
	unsigned perms;
	const char *rp_id;
};
int ctap2_build_cp(const struct ctap2_cp *cp, uint8_t *buf, size_t *len);

/* The parts of a ClientPIN reply we use. */
struct ctap2_cp_reply {
	bool has_ka;
	uint8_t ka_x[32], ka_y[32];
	const uint8_t *token_enc; /* points into the reply */
	size_t token_enc_len;
	int pin_retries; /* -1: absent */
	int uv_retries;  /* -1: absent */
};
int ctap2_parse_cp(const uint8_t *p, size_t len, struct ctap2_cp_reply *out);

/* A GetAssertion reply: pointers into the reply. */
struct ctap2_ga_reply {
	const uint8_t *cred_id; /* NULL when the key left it out */
	size_t cred_id_len;
	const uint8_t *authdata;
	size_t authdata_len;
	const uint8_t *sig;
	size_t sig_len;
	const uint8_t *user_id;
	size_t user_id_len;
	size_t ncreds; /* numberOfCredentials (1 to CTAP2_RK_MAX); 0: absent */
};
int ctap2_parse_ga(const uint8_t *p, size_t len, struct ctap2_ga_reply *out);

/* A MakeCredential reply. */
struct ctap2_mc_reply {
	const char *fmt;
	size_t fmt_len;
	const uint8_t *authdata;
	size_t authdata_len;
	const uint8_t *attstmt; /* the attStmt map, encoded */
	size_t attstmt_len;
};
int ctap2_parse_mc(const uint8_t *p, size_t len, struct ctap2_mc_reply *out);

/* The credProtect level in an authData extensions map (ext[0..len), as
 * authdata_parse found it, or NULL): *level 1-3, or 0 when absent. */
int ctap2_ext_cred_protect(const uint8_t *ext, size_t len, int *level);
/* The hmac-secret entry of an authData extensions map: a GetAssertion's
 * encrypted output (*p, *n point into ext; NULL when absent), or, after
 * MakeCredential, true (*on). ERR_PROTO for a malformed map or entry. */
int ctap2_ext_hmac_secret(
    const uint8_t *ext, size_t len, const uint8_t **p, size_t *n, bool *on);

#endif
