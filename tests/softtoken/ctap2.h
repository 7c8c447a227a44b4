/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 authenticator of the software token, inside: its state, the
 * status codes it answers, and the functions its files share
 * (ctap2tok.c: dispatch, GetInfo, Selection, Reset, faults; ctap2op.c:
 * MakeCredential, GetAssertion; ctap2pin.c: ClientPIN and pinUvAuthParam
 * checks; ctap2cred.c: credential keys and ids; ctap2att.c: attestation;
 * ctap2req.c: request maps). Token-side crypto is OpenSSL, directly. */
#ifndef ST_CTAP2_H
#define ST_CTAP2_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "base/cbor.h"
#include "token.h"

/* Status codes (CTAP 2.1 section 8.2). */
enum {
	ST_OK = 0x00,
	ST_INVALID_COMMAND = 0x01,
	ST_INVALID_PARAMETER = 0x02,
	ST_INVALID_LENGTH = 0x03,
	ST_CBOR_UNEXPECTED_TYPE = 0x11,
	ST_INVALID_CBOR = 0x12,
	ST_MISSING_PARAMETER = 0x14,
	ST_LIMIT_EXCEEDED = 0x15,
	ST_UNSUPPORTED_ALGORITHM = 0x26,
	ST_OPERATION_DENIED = 0x27,
	ST_KEY_STORE_FULL = 0x28,
	ST_UNSUPPORTED_OPTION = 0x2B,
	ST_INVALID_OPTION = 0x2C,
	ST_KEEPALIVE_CANCEL = 0x2D,
	ST_NO_CREDENTIALS = 0x2E,
	ST_USER_ACTION_TIMEOUT = 0x2F,
	ST_NOT_ALLOWED = 0x30,
	ST_PIN_INVALID = 0x31,
	ST_PIN_BLOCKED = 0x32,
	ST_PIN_AUTH_INVALID = 0x33,
	ST_PIN_AUTH_BLOCKED = 0x34,
	ST_PIN_NOT_SET = 0x35,
	ST_PUAT_REQUIRED = 0x36,
	ST_PIN_POLICY_VIOLATION = 0x37,
	ST_UV_BLOCKED = 0x3C,
	ST_INVALID_SUBCOMMAND = 0x3E,
	ST_UV_INVALID = 0x3F,
	ST_UNAUTHORIZED_PERMISSION = 0x40,
	ST_OTHER = 0x7F,
	ST_PENDING = 0x100 /* internal: not done yet (see keepalive) */
};

#define CTAP2_PIN_RETRIES_MAX 8
#define CTAP2_UV_RETRIES_MAX 8
#define CTAP2_PIN_FAILS_MAX 3 /* consecutive: PIN_AUTH_BLOCKED */
#define CTAP2_UV_MS 300       /* simulated built-in UV takes this long */
#define CTAP2_UP_TIMEOUT_MS 30000
#define CTAP2_PUAT_LEN 32
#define CTAP2_CRED_MAX 300 /* longest credential id (RS256: 285) */
#define CTAP2_PK_MAX 300   /* longest COSE_Key we write (RS256) */

#define CTAP2_RK_SLOTS_DEFAULT 25 /* --rk-slots */
#define CTAP2_RK_SLOTS_MAX 256
#define CTAP2_USER_ID_MAX 64 /* user.id, bytes */
#define CTAP2_NAME_MAX 64    /* name, displayName: truncated to this */
#define CTAP2_RPID_MAX 255   /* the rpId kept with an rk (truncated) */
#define CTAP2_NEXT_MS 30000  /* GetNextAssertion's timer */

#define COSE_ES256 (-7)
#define COSE_EDDSA (-8)
#define COSE_RS256 (-257)

#define PERM_MC 0x01
#define PERM_GA 0x02

enum ctap2_uv_state { UV_IDLE = 0, UV_RUNNING, UV_PASSED };

/* A resident (discoverable) credential: kept in the state file. The
 * private key is in the wrapped credential id (ctap2cred.c). */
struct ctap2_rk {
	uint64_t seq; /* creation order: newest is highest */
	int prot;     /* credProtect 1..3 */
	uint8_t rph[32];
	char rp[CTAP2_RPID_MAX + 1];
	uint8_t uid[CTAP2_USER_ID_MAX];
	size_t uid_len;
	char name[CTAP2_NAME_MAX + 1];
	char display[CTAP2_NAME_MAX + 1];
	uint8_t id[CTAP2_CRED_MAX];
	size_t id_len;
};

/* What GetNextAssertion goes on with (CTAP 2.1 6.3). */
struct ctap2_next {
	int active;
	int64_t at; /* the last GetAssertion/GetNextAssertion reply */
	uint8_t cdh[32];
	uint8_t rph[32];
	int up, uv;
	size_t n, pos; /* idx[pos..n): still to come */
	size_t idx[CTAP2_RK_SLOTS_MAX];
};

struct ctap2 {
	/* configuration */
	enum token_ctap2 version;
	int u2f;
	enum token_uv uv;
	int always_uv;
	int hmac; /* hmac-secret (CTAP 2.1 12.5): 1 listed and done, 2
		   * listed and every input refused, 0 neither */
	enum token_attest attest;
	unsigned max_list; /* maxCredentialCountInList; 0: none, no limit */
	/* kept in the state file */
	int pin_set;
	uint8_t pin_hash[16]; /* LEFT(SHA-256(PIN), 16) */
	unsigned pin_retries;
	unsigned uv_retries;
	/* per power cycle */
	EVP_PKEY *ka; /* key agreement key (P-256) */
	uint8_t puat[CTAP2_PUAT_LEN];
	int puat_valid;
	int puat_proto;
	unsigned puat_perm;
	int puat_has_rp;
	uint8_t puat_rp[32]; /* SHA-256 of the permissions RP ID */
	unsigned pin_fails;  /* consecutive wrong PINs */
	/* the request in progress */
	int64_t op_start; /* -1: none */
	enum ctap2_uv_state uv_state;
	int64_t uv_start;
	uint8_t keepalive; /* status while ST_PENDING */
	/* resident credentials (kept in the state file) */
	struct ctap2_rk *rk;
	size_t nrk;
	unsigned rk_slots;
	struct ctap2_next next;
};

/* A request map: the raw items of integer keys 1..CTAP2_REQ_KEYS. */
#define CTAP2_REQ_KEYS 15
struct ctap2_req {
	const uint8_t *v[CTAP2_REQ_KEYS + 1];
	size_t n[CTAP2_REQ_KEYS + 1];
};

/* The options of MakeCredential/GetAssertion: -1 absent, 0, 1. */
struct ctap2_opts {
	int up, uv, rk;
};

/* A credential key (ctap2cred.c). */
struct ctap2_key {
	int alg;
	EVP_PKEY *pkey;
	int prot; /* credProtect 1..3 (in the credential id) */
	int rk;   /* resident (in the credential id) */
	int hmac; /* made with hmac-secret (in the credential id) */
};

/* What MakeCredential and GetAssertion share (ctap2op.c). */
struct ctap2_op {
	int mc;      /* MakeCredential */
	unsigned kp; /* request key of pinUvAuthParam */
	const uint8_t *cdh;
	uint8_t rph[32];
	struct ctap2_opts o;
};

/* ---- ctap2tok.c ---- */
int ctap2_new(struct ctap2 **out, const struct token_config *cfg);
void ctap2_free(struct ctap2 **cp);
/* The AAGUID of the token. */
extern const uint8_t ctap2_aaguid[16];
/* Presence for request of t: ST_OK, ST_PENDING (keepalive 2) or an error
 * (cancelled, timed out). */
int ctap2_presence(struct token *t, int64_t now, enum token_mode mode);
/* Built-in UV: ST_OK once passed, ST_PENDING (keepalive 1) while it runs,
 * else an error (UV_INVALID, UV_BLOCKED, NOT_ALLOWED without UV). */
int ctap2_builtin_uv(struct token *t, int64_t now, enum token_mode mode);

/* ---- ctap2req.c ---- */
/* Parse a request map into q: ST_OK, ST_INVALID_CBOR, or
 * ST_CBOR_UNEXPECTED_TYPE. */
int ctap2_req_parse(const uint8_t *p, size_t len, struct ctap2_req *q);
int ctap2_req_has(const struct ctap2_req *q, unsigned key);
/* Typed fields: ST_MISSING_PARAMETER if absent, ST_CBOR_UNEXPECTED_TYPE if
 * of another type. */
int ctap2_req_bytes(
    const struct ctap2_req *q, unsigned key, const uint8_t **p, size_t *n);
int ctap2_req_uint(const struct ctap2_req *q, unsigned key, uint64_t *v);
int ctap2_req_text(
    const struct ctap2_req *q, unsigned key, const char **s, size_t *n);
/* A text field inside the map at key ("id" of rp). */
int ctap2_req_map_text(const struct ctap2_req *q, unsigned key,
    const char *name, const char **s, size_t *n);
/* options at key: up/uv/rk; absent ones -1. */
int ctap2_req_opts(
    const struct ctap2_req *q, unsigned key, struct ctap2_opts *o);
/* A cursor on the raw item at key (present). */
void ctap2_req_rd(const struct ctap2_req *q, unsigned key, struct cbor_rd *r);

/* ---- ctap2pin.c ---- */
int ctap2_client_pin(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w);
/* Check pinUvAuthParam (key kp) / protocol (key kproto) of an MC or GA
 * request over cdh, for permission perm and rpIdHash rph: ST_OK or an
 * error. */
int ctap2_check_puat(struct token *t, const struct ctap2_req *q, unsigned kp,
    unsigned kproto, const uint8_t cdh[32], unsigned perm,
    const uint8_t rph[32]);
/* Set the PIN from --pin (no checks but length). */
int ctap2_pin_set_initial(struct ctap2 *c, const char *pin);

/* ---- ctap2pinx.c: the protocols' crypto ---- */
/* A shared secret: HMAC key and AES key (the same for protocol 1). */
struct ctap2_shared {
	int proto;
	uint8_t hmac[32];
	uint8_t aes[32];
};
/* ECDH with the platform key at request key `key`, then the protocol's
 * KDF: ST_OK or a status (a point off the curve: INVALID_PARAMETER). */
int ctap2_pin_shared(const struct ctap2 *c, const struct ctap2_req *q,
    unsigned key, int proto, struct ctap2_shared *s);
/* 1 if param == authenticate(key, a || b) (16 or 32 bytes by protocol). */
int ctap2_pin_verify(int proto, const uint8_t key[32], const uint8_t *a,
    size_t an, const uint8_t *b, size_t bn, const uint8_t *param, size_t pn);
/* AES-256-CBC of the protocol (2: IV in front); out has room for n + 16. */
int ctap2_pin_decrypt(const struct ctap2_shared *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t *out_len);
int ctap2_pin_encrypt(const struct ctap2_shared *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t *out_len);

/* ---- ctap2op.c ---- */
int ctap2_make_credential(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w);
/* Shared with ctap2ga.c. */
int ctap2_op_cdh(const struct ctap2_req *q, unsigned key, struct ctap2_op *op);
int ctap2_op_rp_hash(const char *rp, size_t n, uint8_t rph[32]);
int ctap2_op_bad_option(const struct ctap2 *c);
int ctap2_op_empty_auth(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct ctap2_op *op);
/* 1 if the request asks for UV (pinUvAuthParam, uv=true, alwaysUv). */
int ctap2_op_wants_uv(const struct token *t, const struct ctap2_req *q,
    const struct ctap2_op *op);
int ctap2_op_uv(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, const struct ctap2_op *op, int *uv);
/* The first entry of the list at key that is ours for op->rph and
 * visible (credProtect 3 needs uv; a resident one must still be kept). */
int ctap2_op_find(const struct token *t, const struct ctap2_req *q,
    unsigned key, const struct ctap2_op *op, int uv, struct ctap2_key *k,
    const uint8_t **id, size_t *id_len);
int ctap2_op_ad_head(
    struct token *t, uint8_t flags, const uint8_t rph[32], uint8_t *ad);

/* ---- ctap2ga.c ---- */
int ctap2_get_assertion(struct token *t, int64_t now, enum token_mode mode,
    const struct ctap2_req *q, struct cbor_wr *w);
int ctap2_get_next_assertion(struct token *t, int64_t now, struct cbor_wr *w);

/* ---- ctap2hmac.c: the hmac-secret extension ---- */
#define CTAP2_HMAC_EXT_MAX 96 /* {"hmac-secret": IV | 2 outputs} */
/* GetAssertion's hmac-secret (CTAP 2.1 12.5) for the credential id/k
 * (made with the extension) when the request's extensions (key 4) ask
 * for it: ext gets the authData extensions map {"hmac-secret":
 * encrypt(shared, output1 [| output2])}, *ext_len its length (0: not
 * asked, or not for this credential). ST_OK or the status to answer. */
int ctap2_hmac_get(struct token *t, const struct ctap2_req *q,
    const struct ctap2_key *k, const uint8_t *id, size_t id_len, int uv,
    uint8_t ext[CTAP2_HMAC_EXT_MAX], size_t *ext_len);
/* ECDH with the platform key at the cursor r (a COSE_Key), then the
 * protocol's KDF (ctap2pinx.c). */
int ctap2_pin_shared_rd(const struct ctap2 *c, struct cbor_rd *r, int proto,
    struct ctap2_shared *s);

/* ---- ctap2rk.c: the resident credentials ---- */
/* ST_OK if r can be stored (it replaces one of the same rph and user id,
 * or a slot is free), else ST_KEY_STORE_FULL. */
int ctap2_rk_room(const struct ctap2 *c, const struct ctap2_rk *r);
/* Store r (a new seq), replacing the one of the same rph and user id. */
int ctap2_rk_put(struct ctap2 *c, const struct ctap2_rk *r);
unsigned ctap2_rk_remaining(const struct ctap2 *c);
/* The kept credential with this id, or NULL. */
const struct ctap2_rk *ctap2_rk_by_id(
    const struct ctap2 *c, const uint8_t *id, size_t n);
/* Indices of the credentials of rph visible without an allowList (level
 * 1, or any level with uv), newest first; returns how many. */
size_t ctap2_rk_list(
    const struct ctap2 *c, const uint8_t rph[32], int uv, size_t *idx);
void ctap2_rk_clear(struct ctap2 *c);
void ctap2_rk_write(const struct ctap2 *c, FILE *f);
/* One "rk ..." state line's value: ERR_OK or ERR_PARSE. */
int ctap2_rk_line(struct ctap2 *c, const char *v);

/* ---- ctap2cred.c ---- */
int ctap2_key_gen(int alg, struct ctap2_key *k);
void ctap2_key_clear(struct ctap2_key *k);
/* Credential id: tag byte || nonce(12) || AES-256-GCM(master, private) ||
 * tag(16), with rpIdHash || tag byte as additional data. The tag byte is
 * alg (1 ES256, 2 EdDSA, 3 RS256) | 0x08 if resident | (credProtect - 1)
 * << 4 | 0x40 if made with hmac-secret, so a plain level-1 id is as
 * before. k->prot and k->rk are read
 * from it by unwrap. */
int ctap2_cred_wrap(const struct token *t, const struct ctap2_key *k,
    const uint8_t rph[32], uint8_t *id, size_t *id_len);
/* ERR_OK and the key if id is one of ours for rph, else ERR_WRONG_KH. */
int ctap2_cred_unwrap(const struct token *t, const uint8_t *id, size_t len,
    const uint8_t rph[32], struct ctap2_key *k);
/* The public key as a COSE_Key. */
int ctap2_cose_write(
    const struct ctap2_key *k, uint8_t *out, size_t cap, size_t *len);
/* Sign msg with the key's algorithm (ES256: DER, EdDSA: 64 bytes, RS256:
 * PKCS #1 v1.5 SHA-256). sig has room for 512 bytes. */
int ctap2_sign(EVP_PKEY *pkey, int alg, const uint8_t *msg, size_t len,
    uint8_t *sig, size_t *siglen);
#define CTAP2_SIG_MAX 512

/* ---- ctap2att.c ---- */
/* Write the fmt (key 1), authData (key 2) and attStmt (key 3) entries of
 * a MakeCredential reply. */
int ctap2_attest(struct token *t, const struct ctap2_key *k, const uint8_t *ad,
    size_t ad_len, const uint8_t cdh[32], const uint8_t *cred, size_t cred_len,
    struct cbor_wr *w);

/* The attestation certificate's subject (C, O, OU "Authenticator
 * Attestation", CN "pam_u2f softtoken") and extensions (basicConstraints
 * CA:FALSE, id-fido-gen-ce-aaguid), as WebAuthn 8.2.1 wants them. */
int ctap2_cert_name(X509_NAME *name, bool bad_ou);
int ctap2_cert_exts(X509 *x);

/* ---- state file (ctap2tok.c) ---- */
void ctap2_state_write(const struct ctap2 *c, FILE *f);
/* ERR_OK, ERR_PARSE, or ERR_NOT_FOUND for a name that is not CTAP2's. */
int ctap2_state_line(struct ctap2 *c, const char *name, const char *v);

#endif
