/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 client's insides (common/proto/ctap2/): its state, cut
 * into parts that each belong to one file, and the hooks by which the
 * one phase driver (driver.c) runs an operation (assert.c, register.c).
 * Calls go one way, down this list; no file calls a file above it:
 *
 *   driver.c      the driver: proto_ctap2, begin/step, the phases
 *   assert.c      the assert hooks     register.c  the register hooks
 *   candidates.c  candidates and allow list (silent checks, batched)
 *   resident.c    the resident-credential walk
 *   select.c      the selection (the PIN gate, the user's pick)
 *   pin.c         the PIN session (a PIN/UV auth token)
 *   exchange.c    the exchange: the request in flight and its reply
 *   info.c, msg.c GetInfo, status codes, requests and replies (ctap2.h)
 *
 * A part's fields are read and written only by its own file; the others
 * go through its functions. The wiring (pointers to the exchange and to
 * GetInfo) is set once by the driver when the state is made. */
#ifndef PU_CTAP2_CLIENT_H
#define PU_CTAP2_CLIENT_H

#include "base/err.h"
#include "ctap2.h"

#define C2_PROBE_MS 3000 /* a silent (up=false) assertion */
#define C2_SEND_MS 1000  /* a device must take a request's frames */
#define C2_INFO_MS 3000  /* GetInfo, getPINRetries */
/* A request with neither an answer nor a keepalive for this long was
 * lost (e.g. hidraw dropped the reply from a full queue): send it again,
 * if it is one that may be sent twice (c2_send). */
#define C2_STALL_MS 2000

#define C2_RK SIZE_MAX /* the candidate "the key's resident credentials" */

/* A hook's answer "ask the request again" (the driver decides how: a
 * token first, the PIN gate, or the request itself). Never an error
 * code (those are negative). */
#define C2_AGAIN 1

enum c2_op { C2_OP_NONE, C2_OP_REGISTER, C2_OP_ASSERT };
/* Which part the reply in flight belongs to. */
enum c2_phase { C2_PH_MAIN, C2_PH_TOKEN, C2_PH_SELECT };
/* How the user is verified for the request being asked. */
enum c2_how {
	C2_HOW_NONE,     /* no verification */
	C2_HOW_PIN,      /* a token from the PIN (0x05 or 0x09) */
	C2_HOW_UV_TOKEN, /* a token from built-in UV (0x06) */
	C2_HOW_UV_OPT    /* the uv option (2.0 built-in UV) */
};

/* A successful step's return from a function that sent the next
 * request (ERR_OK): the operation goes on. */
static inline int
c2_pending(int r)
{
	return r == ERR_OK ? ERR_PENDING : r;
}

/* Does how need a PIN/UV auth token? */
static inline bool
c2_how_token(enum c2_how how)
{
	return how == C2_HOW_PIN || how == C2_HOW_UV_TOKEN;
}

/* ---- exchange.c: the exchange ---- */
struct c2_io {
	uint8_t *msg; /* the request in flight (CTAP2_MSG_MAX) */
	size_t msg_len;
	uint8_t *rx; /* its reply (CTAP2_MSG_MAX) */
	bool in_flight;
	bool touch;  /* the key said it waits for a touch (UPNEEDED) */
	bool resend; /* the request in flight may be sent again (c2_send) */
	int64_t sent_at, alive_at;
};
int c2_io_new(struct c2_io *io);
void c2_io_free(struct c2_io *io);
/* Forget the request and its reply (both wiped). */
void c2_io_reset(struct c2_io *io);
/* Send io->msg[0..msg_len). Only a request that may be sent twice is
 * sent again when it goes silent (C2_STALL_MS): GetAssertion and
 * authenticatorSelection, which change nothing on the key but its
 * signature counter. Never ClientPIN (a getPinToken costs a PIN try, and
 * its message is wiped once sent), MakeCredential (a second credential),
 * or GetNextAssertion (a credential skipped): for those the wait goes on
 * until the operation's deadline. */
int c2_send(const struct proto_ctx *c, struct c2_io *io);
/* Wipe the request in flight (it held a secret): it is never sent
 * again. */
void c2_msg_wipe(struct c2_io *io);
/* One exchange, waiting up to ms (detection, probes, retries). */
int c2_call(const struct proto_ctx *c, const uint8_t *msg, size_t len,
    uint8_t *reply, size_t *rlen, int ms);
/* The status byte of reply[0..len): ERR_OK (body at reply + 1) or the
 * error it maps to, logged with the raw code. */
int c2_status(const struct proto_ctx *c, const uint8_t *reply, size_t len,
    const char *what);
/* Read what has arrived for the request in flight: ERR_PENDING, or the
 * reply (status byte first, *len bytes) in io->rx. */
int c2_recv_step(const struct proto_ctx *c, struct c2_io *io, size_t *len);
/* Abandon what is in flight (CTAPHID_CANCEL) and drop its late answer. */
void c2_io_cancel(const struct proto_ctx *c, struct c2_io *io);
/* The util_now_ms time the request in flight needs a step (a stall to
 * resend, or the transport's own), INT64_MAX: only on input. */
int64_t c2_io_wake_at(const struct proto_ctx *c, const struct c2_io *io);

/* ---- pin.c: the PIN session ---- */
enum c2_pin_phase { C2_PIN_RETRIES, C2_PIN_KA, C2_PIN_TOKEN };
struct c2_pin {
	struct c2_io *io;              /* wiring */
	const struct ctap2_info *info; /* wiring */
	const struct proto_pin *cb;    /* NULL: no PIN can be asked for */
	enum c2_pin_phase phase;
	enum c2_how how;
	unsigned perms;
	int proto;
	struct pin_shared shared;
	uint8_t token[CTAP2_TOKEN_MAX];
	size_t token_len;
	const char *rp; /* the rp id the token is (being) asked for */
	uint8_t our_x[32], our_y[32]; /* our key agreement key (public) */
};
void c2_pin_init(
    struct c2_pin *p, struct c2_io *io, const struct ctap2_info *info);
/* Forget the token and the callback (the wiring stays). */
void c2_pin_reset(struct c2_pin *p);
void c2_pin_set_cb(struct c2_pin *p, const struct proto_pin *cb);
bool c2_pin_has_cb(const struct c2_pin *p);
/* Is there a token for rp? */
bool c2_pin_has_token(const struct c2_pin *p, const char *rp);
/* Forget the token and the shared secret. */
void c2_pin_forget(struct c2_pin *p);
/* Start getting a token for how (C2_HOW_PIN or C2_HOW_UV_TOKEN):
 * getPINRetries first where the PIN has a floor
 * (proto_pin.retries_floor), else getKeyAgreement; perms and rp (kept
 * until c2_pin_reset) for 0x06/0x09. */
int c2_pin_begin(const struct proto_ctx *c, struct c2_pin *p, enum c2_how how,
    const char *rp, unsigned perms);
/* A reply's body in the token phase: ERR_PENDING when the next request
 * went out, ERR_OK when the token is there (nothing sent), ERR_DENIED
 * when too few PIN tries are left. */
int c2_pin_step(const struct proto_ctx *c, struct c2_pin *p,
    const uint8_t *body, size_t len);
/* Is err a refused PIN or UV (one the user is told about)? */
bool c2_pin_refused(int err);
/* After a refused PIN or UV: tell the user what is left. */
void c2_pin_failed(const struct proto_ctx *c, struct c2_pin *p, int err);
/* The shared secret the token came under (kept with it), and our key
 * agreement key for it (x, y): for the hmac-secret salt (hmac.c). NULL
 * when there is no token. */
const struct pin_shared *c2_pin_shared(
    const struct c2_pin *p, uint8_t x[32], uint8_t y[32]);
/* pinUvAuthParam over cdh with the token; *proto its PIN protocol. */
int c2_pin_auth(const struct c2_pin *p, const uint8_t cdh[PROTO_CDH_LEN],
    uint8_t out[PIN_AUTH_MAX], size_t *out_len, int *proto);

/* ---- select.c: the selection ---- */
struct c2_sel {
	struct c2_io *io;              /* wiring */
	const struct ctap2_info *info; /* wiring */
	bool gate;                     /* the request has a PIN gate */
	const char *rp_id;             /* for CTAP 2.0's selection */
	/* stopped before the PIN; let through; picked by the user */
	bool gated, ungated, chosen;
};
void c2_sel_init(
    struct c2_sel *s, struct c2_io *io, const struct ctap2_info *info);
/* A new operation: with a PIN gate or not, for rp_id. */
void c2_sel_reset(struct c2_sel *s, bool gate, const char *rp_id);
/* Stop at the PIN gate if the request has one and the key was neither
 * let through nor picked: true when stopped (nothing sent). */
bool c2_gate_here(const struct proto_ctx *c, struct c2_sel *s);
bool c2_sel_gated(const struct c2_sel *s);
bool c2_sel_chosen(const struct c2_sel *s);
/* The user tried this key's own verification: it counts as picked. */
void c2_sel_choose(struct c2_sel *s);
/* Leave the gate: ERR_OK with nothing sent (the PIN is asked for next,
 * by the caller), or (select) ERR_OK with the user's pick asked for
 * (authenticatorSelection, or CTAP 2.0's MakeCredential with an empty
 * pinAuth): its reply goes to c2_sel_reply. */
int c2_sel_ungate(const struct proto_ctx *c, struct c2_sel *s, bool select);
/* The pick's reply (status r): ERR_OK when the key was picked (the
 * caller asks for the PIN next), or the error. */
int c2_sel_reply(const struct proto_ctx *c, struct c2_sel *s, int r);

/* ---- resident.c: the resident-credential walk ---- */
/* The allow-list entries "*" that the key can meet, asked for together
 * (one candidate, C2_RK) with an empty allow list; numberOfCredentials
 * and the replies read so far. */
struct c2_rk {
	size_t *idx;
	size_t n, total, seen;
};
int c2_rk_new(struct c2_rk *rk, size_t cap);
void c2_rk_reset(struct c2_rk *rk);
void c2_rk_add(struct c2_rk *rk, size_t i);
size_t c2_rk_count(const struct c2_rk *rk);
/* Forget them all (the key has none for the rp). */
void c2_rk_drop(struct c2_rk *rk);
/* A new walk (the GetAssertion is sent again). */
void c2_rk_restart(struct c2_rk *rk);
/* A reply arrived; ncreds its numberOfCredentials (0: absent). */
void c2_rk_seen(struct c2_rk *rk, size_t ncreds);
/* Are there more to ask for (GetNextAssertion)? */
bool c2_rk_more(const struct c2_rk *rk);
/* Which of the entries signed the reply authdata/sig (the first whose
 * key verifies it): ERR_OK with *index, ERR_WRONG_KH none, or the check's
 * error that no entry can change (a wrong rp, no presence, no memory). */
struct c2_signed {
	const uint8_t *rph; /* SHA-256 of the rp id asked for */
	const uint8_t *cdh;
	bool up; /* presence required */
	const uint8_t *authdata;
	size_t authdata_len;
	const uint8_t *sig;
	size_t sig_len;
};
int c2_rk_match(const struct proto_ctx *c, const struct c2_rk *rk,
    const struct cred *allow, const struct c2_signed *sg, size_t *index,
    uint8_t *flags, uint32_t *counter);

/* ---- candidates.c: candidates and the allow list ---- */
struct c2_cand {
	struct c2_io *io;              /* wiring */
	const struct ctap2_info *info; /* wiring */
	const struct assert_req *req;
	size_t *idx; /* allow-list entries to ask for (C2_RK: resident) */
	struct cred_opts *opts;
	size_t n, next;
	bool walk; /* "not mine" moves on to the next candidate */
};
void c2_cand_init(
    struct c2_cand *cs, struct c2_io *io, const struct ctap2_info *info);
void c2_cand_reset(struct c2_cand *cs);
/* Which allow-list entries to ask for, with their options: those the
 * key holds (found by silent checks when req->probe, sent in batches of
 * up to the key's maxCredentialCountInList), then its resident ones
 * together (into rk); only when it shows none of the others, those a
 * check may have missed, asked in turn. ERR_WRONG_KH: none held,
 * ERR_UNSUPPORTED: none the key can meet. */
int c2_cand_build(const struct proto_ctx *c, struct c2_cand *cs,
    struct c2_rk *rk, const struct assert_req *req, int64_t deadline);
/* The current candidate's entry (NULL: the resident ones), its index,
 * its options, its rp id. */
const struct cred *c2_cand_cred(const struct c2_cand *cs);
const struct assert_req *c2_cand_req(const struct c2_cand *cs);
size_t c2_cand_index(const struct c2_cand *cs);
struct cred_opts *c2_cand_opts(struct c2_cand *cs);
const char *c2_cand_rp(const struct c2_cand *cs);
/* "Not mine" for the current one: move to the next if walking; false
 * when there is none. */
bool c2_cand_advance(struct c2_cand *cs);
/* One silent check: does the key hold cr (NULL: any resident
 * credential) under rp_id? ERR_OK yes, ERR_WRONG_KH no. */
int c2_probe_one(const struct proto_ctx *c, struct c2_io *io, const char *rp_id,
    const struct cred *cr, int ms);

/* ---- register.c: the registration ---- */
struct c2_reg {
	const struct reg_req *req;
	enum c2_how how; /* what the request asks, or the PIN once the key
			  * wants it */
};

/* ---- hmac.c: the hmac-secret extension (CTAP 2.1 12.5) ---- */
struct c2_hmac {
	struct pin_shared shared; /* the salt's and the output's */
	uint8_t x[32], y[32];     /* our key agreement key */
	uint8_t salt_enc[16 + CTAP2_HMAC_SALT_LEN];
	size_t salt_enc_len;
	uint8_t salt_auth[PIN_AUTH_MAX];
	size_t salt_auth_len;
	bool asked; /* the request in flight carries it */
	bool off;   /* the key refused it: not asked again this operation */
};
/* Wipe it (after each reply), all but off. */
void c2_hmac_reset(struct c2_hmac *h);
/* Wipe it all (the operation ends). */
void c2_hmac_clear(struct c2_hmac *h);
/* The key answered the request that carried the input with an error r
 * that may be the extension's (a malformed or refused parameter): true
 * (logged) when the request is to be asked again without it, once; the
 * login then stands on the signature alone. */
bool c2_hmac_refused(const struct proto_ctx *c, struct c2_hmac *h, int r);
/* The input for the request about to be sent, in *in, when it is to
 * carry one: the current candidate has a salt, the key lists
 * hmac-secret, and the user is verified (how); the salt goes under the
 * PIN session's shared secret (pin), or, with the uv option (no token),
 * under one from a getKeyAgreement of its own. ERR_OK with h->asked
 * set, or ERR_OK and h->asked clear when not asked for; an error when
 * the key agreement fails. */
int c2_hmac_input(const struct proto_ctx *c, struct c2_hmac *h,
    const struct ctap2_info *info, const struct c2_pin *pin, enum c2_how how,
    const uint8_t *salt, struct c2_io *io, struct ctap2_hmac_in *in);
/* The output in a checked assertion's authData, when it was asked for:
 * decrypted and exactly one output long, into as->hmac_secret. A key
 * that gives none or a malformed one: hmac_secret_len 0, logged (the
 * assertion itself stands or falls on its signature alone). h is
 * wiped. */
void c2_hmac_output(const struct proto_ctx *c, struct c2_hmac *h,
    const uint8_t *authdata, size_t len, struct assertion *as);

/* ---- the operations' hooks, run by the driver (driver.c) ---- */
struct c2_st;
/* A pinUvAuthParam for the request, or none (auth == NULL). */
struct c2_auth {
	uint8_t param[PIN_AUTH_MAX];
	size_t len;
	int proto;
};
struct c2_ops {
	enum c2_op op;
	const char *what; /* the request, for logs: "GetAssertion" */
	unsigned perms;   /* of the token: CTAP2_PERM_* */
	/* How the user is verified for the request about to be asked. */
	enum c2_how (*how)(struct c2_st *st);
	/* The rp id it is asked for (the token's). */
	const char *(*rp)(const struct c2_st *st);
	/* Build and send it (phase MAIN). */
	int (*send)(const struct proto_ctx *c, struct c2_st *st,
	    const struct c2_auth *auth);
	/* Its reply (status r; body[0..len) when ERR_OK): ERR_OK with *out
	 * filled, ERR_PENDING (it sent a next request itself), C2_AGAIN,
	 * or the error. */
	int (*reply)(const struct proto_ctx *c, struct c2_st *st, int r,
	    const uint8_t *body, size_t len, void *out);
	/* A PIN or UV refused while getting the token (the user was told):
	 * C2_AGAIN to try another way, or r. NULL: r stands. */
	int (*refused)(const struct proto_ctx *c, struct c2_st *st, int r);
};

/* assert.c, register.c: the hooks, and what each checks before the
 * driver starts (ERR_OK: go; the operation's own state set up). */
extern const struct c2_ops c2_assert_ops;
extern const struct c2_ops c2_reg_ops;
int c2_assert_setup(const struct proto_ctx *c, struct c2_st *st,
    const struct assert_req *req, int64_t deadline);
int c2_reg_setup(
    const struct proto_ctx *c, struct c2_st *st, const struct reg_req *req);

/* ---- the whole state: the driver's fields, then the parts ---- */
struct c2_st {
	struct ctap2_info info;   /* GetInfo, read once (c2_detect) */
	const struct c2_ops *ops; /* the operation; NULL: none */
	enum c2_phase phase;
	enum c2_how how; /* of the request being asked (ops->how) */
	uint8_t cdh[PROTO_CDH_LEN];
	struct c2_io io;
	struct c2_pin pin;
	struct c2_sel sel;
	struct c2_cand cand;
	struct c2_rk rk;
	struct c2_reg reg;
	struct c2_hmac hmac;
};

#endif
