/* The CTAP2 protocol's state, shared by its files: ctap2_op.c (requests
 * in flight, assertions), ctap2_reg.c (MakeCredential), ctap2_pin.c
 * (getting a PIN/UV auth token). */
#ifndef PU_CTAP2_ST_H
#define PU_CTAP2_ST_H

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

enum c2_op { C2_OP_NONE, C2_OP_REGISTER, C2_OP_ASSERT };
enum c2_phase {
	C2_PH_RETRIES,
	C2_PH_KA,
	C2_PH_TOKEN,
	C2_PH_MAIN,
	C2_PH_SELECT
};
/* How the user is verified for the request being asked. */
enum c2_how {
	C2_HOW_NONE,     /* no verification */
	C2_HOW_PIN,      /* a token from the PIN (0x05 or 0x09) */
	C2_HOW_UV_TOKEN, /* a token from built-in UV (0x06) */
	C2_HOW_UV_OPT    /* the uv option (2.0 built-in UV) */
};

struct c2_st {
	struct ctap2_info info;
	enum c2_op op;
	enum c2_phase phase;
	enum c2_how how;
	uint8_t *msg; /* the request in flight (CTAP2_MSG_MAX) */
	size_t msg_len;
	uint8_t *rx; /* its reply (CTAP2_MSG_MAX) */
	bool in_flight, touch;
	bool resend; /* the request in flight may be sent again (c2_send) */
	/* the PIN gate (ctap2_sel.c): stopped before the PIN; let through;
	 * picked by the user */
	bool gated, ungated, chosen;
	int64_t sent_at, alive_at;
	uint8_t cdh[PROTO_CDH_LEN];
	const struct proto_pin *pin_cb;
	/* PIN/UV auth */
	int pin_proto;
	struct pin_shared shared;
	uint8_t token[CTAP2_TOKEN_MAX];
	size_t token_len;
	const char *token_rp; /* the rp id the token was asked for */
	/* assertion */
	const struct assert_req *areq;
	size_t *cand; /* allow-list entries to ask for */
	struct cred_opts *copts;
	size_t ncand, next;
	bool walk;
	/* resident credentials: the allow-list entries "*" that the key can
	 * meet, asked for together (one candidate, C2_RK) with an empty
	 * allow list; numberOfCredentials and the replies read so far */
	size_t *rk;
	size_t nrk, rk_total, rk_seen;
	/* registration */
	const struct reg_req *rreq;
};

/* A next request was sent (ERR_OK): the operation goes on. */
static inline int
c2_pending(int r)
{
	return r == ERR_OK ? ERR_PENDING : r;
}

/* ctap2_op.c */
/* Send st->msg[0..msg_len). Only a request that may be sent twice is
 * sent again when it goes silent (C2_STALL_MS): GetAssertion and
 * authenticatorSelection, which change nothing on the key but its
 * signature counter. Never ClientPIN (a getPinToken costs a PIN try, and
 * its message is wiped once sent), MakeCredential (a second credential),
 * or GetNextAssertion (a credential skipped): for those the wait goes on
 * until the operation's deadline. */
int c2_send(struct proto_ctx *c);
/* Wipe the request in flight (it held a secret): it is never sent
 * again. */
void c2_msg_wipe(struct c2_st *st);
/* One exchange, waiting up to ms (detection, probes, retries). */
int c2_call(struct proto_ctx *c, const uint8_t *msg, size_t len, uint8_t *reply,
    size_t *rlen, int ms);
/* The status byte of reply[0..len): ERR_OK (body at reply + 1) or the
 * error it maps to, logged with the raw code. */
int c2_status(const struct proto_ctx *c, const uint8_t *reply, size_t len,
    const char *what);
void c2_reset(struct c2_st *st);
/* Read what has arrived for the request in flight: ERR_PENDING, or the
 * reply (status byte first, *len bytes) in st->rx. */
int c2_recv_step(struct proto_ctx *c, size_t *len);
/* Abandon what is in flight (CTAPHID_CANCEL) and forget the operation. */
void c2_cancel(struct proto_ctx *c);

/* ctap2_ga.c */
/* The rp id the current candidate is asked for under. */
const char *c2_cand_rp(const struct c2_st *st);
int c2_assert_begin(
    struct proto_ctx *c, const struct assert_req *req, int64_t deadline);
int c2_assert_step(struct proto_ctx *c, struct assertion *out);
int c2_probe(
    struct proto_ctx *c, const char *rp_id, const struct cred *cr, int ms);

/* ctap2_sel.c */
/* Stop at the PIN gate if the request has one and the key was neither
 * let through nor picked: true when stopped (nothing sent). */
bool c2_gate_here(struct proto_ctx *c);
bool c2_gated(const struct proto_ctx *c);
int c2_ungate(struct proto_ctx *c, bool select);
bool c2_chosen(const struct proto_ctx *c);
/* A reply in phase SELECT: the key was picked (the PIN is asked for
 * next: ERR_PENDING) or the error. */
int c2_select_reply(struct proto_ctx *c, int r);

/* ctap2_pin.c */
/* Start getting a token for st->how: getPINRetries first where the
 * PIN has a floor (proto_pin.retries_floor), else getKeyAgreement;
 * perms and rp_id for 0x06/0x09. */
int c2_pin_begin(struct proto_ctx *c);
/* A reply in phase RETRIES, KA or TOKEN: ERR_PENDING when the next
 * request went out, ERR_OK when the token is there (phase MAIN, nothing
 * sent), ERR_DENIED when too few PIN tries are left. */
int c2_pin_step(struct proto_ctx *c, const uint8_t *body, size_t len);
/* Is err a refused PIN or UV (one the user is told about)? */
bool c2_pin_refused(int err);
/* After a refused PIN or UV: tell the user what is left. */
void c2_pin_failed(struct proto_ctx *c, int err);
/* pinUvAuthParam over the cdh with the token. */
int c2_pin_auth(
    const struct c2_st *st, uint8_t out[PIN_AUTH_MAX], size_t *out_len);
void c2_pin_forget(struct c2_st *st);

/* ctap2_reg.c */
int c2_reg_begin(struct proto_ctx *c, const struct reg_req *req);
int c2_reg_step(struct proto_ctx *c, struct reg_result *out);
/* Send the MakeCredential itself. */
int c2_send_mc(struct proto_ctx *c);

#endif
