/* SPDX-License-Identifier: BSD-2-Clause */
/* Authenticator protocols behind one interface: detect, make a credential,
 * assert over an allow list, cancel. Two protocols: U2F (CTAP1,
 * u2f/protocol.c: proto_u2f) and CTAP2 (ctap2/driver.c: proto_ctap2,
 * with PINs, built-in UV and resident credentials). The request and
 * result types carry what CTAP2 needs (resident keys, user verification,
 * a PIN/UV token, the user entity, an exclude list; results with the
 * credential id, the user handle and authData), and U2F fills its
 * results in the same authData | cdh shape, so that one check
 * (proto_check_assertion) serves every protocol and manual mode. This
 * folder holds that interface and check (proto.c) and the WebAuthn data
 * formats that both protocols, manual mode and the tools read (cose,
 * authdata, attest); u2f/ and ctap2/ hold one protocol each. Operations are
 * split (begin, then step) so that a caller can wait on many devices in one
 * poll(2): a step never blocks; it does what is due and reads what has arrived.
 */
#ifndef PU_PROTO_H
#define PU_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cred.h"
#include "base/util.h"
#include "transport/xport.h"

#define PROTO_CDH_LEN 32       /* client data hash / U2F challenge */
#define PROTO_RPID_HASH 32     /* SHA-256 of the rp id */
#define PROTO_AUTHDATA_MIN 37  /* rpIdHash | flags | counter */
#define PROTO_HMAC_SALT_LEN 32 /* one hmac-secret salt, one output */

/* authData flags. */
#define PROTO_UP 0x01 /* user present */
#define PROTO_UV 0x04 /* user verified */

/* The user entity of a new credential (CTAP2; U2F has none). */
struct proto_user {
	const uint8_t *id;
	size_t id_len;
	const char *name;
	const char *display_name;
};

/* Asking the user for a PIN, and telling them things about it (wrong
 * PIN, tries left), for the protocol that needs one. get fills pin (NUL
 * terminated, at most cap - 1 bytes) and returns ERR_OK, or an error
 * (ERR_CANCELLED: the user gave none); dev names the key for the user:
 * its product name and path, "NAME (PATH)", or the path alone when the
 * name is unknown, printable ASCII only (xport_label). The caller asks
 * the user at most once per transaction and wipes the PIN after it.
 * retries_floor > 0: before the PIN is asked for, the key is asked how
 * many PIN tries it has left (getPINRetries); with retries_floor or
 * fewer, the PIN is neither asked for nor sent, the user is told
 * (tell), and the operation ends with ERR_DENIED. So a program that
 * answers every prompt with the password cannot block the key. */
struct proto_pin {
	int (*get)(void *arg, const char *dev, char *pin, size_t cap);
	void (*tell)(void *arg, const char *msg);
	void *arg;
	int retries_floor;
};

/* Registration request: rp_id is the origin string ("pam://host"). */
struct reg_req {
	const char *rp_id;
	uint8_t cdh[PROTO_CDH_LEN];
	int type;                 /* COSE_ES256, COSE_EDDSA, COSE_RS256 */
	bool presence;            /* false = -P */
	bool resident;            /* a discoverable credential (rk) */
	bool uv;                  /* ask for user verification */
	const uint8_t *pin_token; /* PIN/UV auth token, or NULL */
	size_t pin_token_len;
	struct proto_user user;
	const struct cred *exclude; /* credentials the key must not hold */
	size_t nexclude;
	const char *rp_name; /* CTAP2 rp.name (pamu2fcfg -i); NULL: rp_id */
	bool pin;            /* verify with the PIN (pamu2fcfg -N) */
	const struct proto_pin *pin_cb; /* NULL: no PIN can be asked for */
	int cred_protect; /* credProtect level 1-3 (CTAP 2.1 12.1); 0 none */
	bool pin_gate;    /* as in assert_req */
	bool hmac_secret; /* ask for the hmac-secret extension (CTAP2 keys
			   * that list it; else ERR_UNSUPPORTED) */
};

/* A registration whose attestation signature has been verified. */
struct reg_result {
	struct cred cred; /* kh, pk (65-byte point for es256), type */
	uint8_t *cert;    /* attestation certificate (DER, owned) */
	size_t cert_len;
	uint8_t *authdata; /* authData (owned; NULL for U2F) */
	size_t authdata_len;
	/* The attestation evidence (evidence.h; owned): the statement and
	 * what it signed, for pamu2fcfg to store under a policy */
	uint8_t *evidence;
	size_t evidence_len;
};

/* Assertion request over an allow list. Credentials flagged CRED_APPID
 * are asked for under appid (the U2F appid, CTAP2's appid extension),
 * the others under rp_id. */
struct assert_req {
	const char *rp_id;
	const char *appid; /* NULL: rp_id */
	uint8_t cdh[PROTO_CDH_LEN];
	const struct cred *allow; /* empty: resident credentials (CTAP2) */
	size_t nallow;
	bool presence; /* require the presence flag (userpresence != 0;
			* a credential's +presence requires it anyway) */
	bool uv;       /* require user verification of every credential */
	bool probe;    /* find the credentials the key holds first (no
			* touch); else ask for each in turn */
	const uint8_t *pin_token;
	size_t pin_token_len;
	/* pam-u2f's userverification= and pinverification=: -1 unset, 0, 1
	 * (a credential's +verification / +pin win over 0). */
	int userverification;
	int pinverification;
	const struct proto_pin *pin_cb; /* NULL: no PIN can be asked for */
	/* Stop before asking for a PIN (the "gate") until the caller says
	 * how to go on (proto.ungate): the PIN goes only to a key the user
	 * picked when several would ask for it. */
	bool pin_gate;
	/* hmac-secret (CTAP 2.1 12.5, issue 30): NULL, or one entry per
	 * allow-list entry, NULL or PROTO_HMAC_SALT_LEN bytes of salt. The
	 * extension is asked only of keys whose GetInfo lists it, only for
	 * an entry with a salt, and only when the user is verified (PIN or
	 * built-in UV); the output is in assertion.hmac_secret. */
	const uint8_t *const *hmac_salt;
};

/* What one credential asks of a key under a request (pam-u2f's
 * parse_opts): up 1 = presence required (the request's presence or the
 * credential's +presence), 0 = not required (up:false is sent); uv and
 * pin -1 unset, 0 or 1. */
struct cred_opts {
	int up, uv, pin;
};
void proto_cred_opts(
    const struct assert_req *req, const struct cred *c, struct cred_opts *o);

/* A verified assertion. assertion_clear frees the owned buffers (the
 * scalar fields stay). */
struct assertion {
	size_t cred_index; /* the allow-list entry that signed */
	uint8_t flags;
	uint32_t counter;
	uint8_t *cred_id; /* credential id (= key handle) */
	size_t cred_id_len;
	uint8_t *user_handle; /* CTAP2 resident credentials; else NULL */
	size_t user_handle_len;
	uint8_t *authdata; /* rpIdHash | flags | counter [| extensions] */
	size_t authdata_len;
	uint8_t *sig; /* over authdata | cdh */
	size_t sig_len;
	/* The decrypted hmac-secret output for the salt asked for
	 * (assert_req.hmac_salt): hmac_secret_len PROTO_HMAC_SALT_LEN, or 0
	 * when none was asked for or the key gave none. Wiped by
	 * assertion_clear. */
	uint8_t hmac_secret[PROTO_HMAC_SALT_LEN];
	size_t hmac_secret_len;
};

void reg_result_clear(struct reg_result *r);
void assertion_clear(struct assertion *a);

/* What a protocol operation runs on: the device's transport, where it
 * logs, and the protocol's own state (opaque to everyone else). */
struct proto_ctx {
	struct xport *x;
	const struct log *log;
	void *st;
};

struct proto {
	const char *name; /* "u2f" */
	int (*state_new)(void **st);
	/* Does the device behind c->x speak it? ERR_OK yes (c->st is a
	 * fresh state, which may keep what detection learnt). */
	int (*detect)(struct proto_ctx *c, int ms);
	void (*state_free)(void *st);
	int (*reg_begin)(struct proto_ctx *c, const struct reg_req *req);
	int (*reg_step)(struct proto_ctx *c, struct reg_result *out);
	/* Begin an assertion; probes (req->probe) finish before deadline.
	 * ERR_WRONG_KH when the device holds none of the credentials. */
	int (*assert_begin)(struct proto_ctx *c, const struct assert_req *req,
	    int64_t deadline);
	int (*assert_step)(struct proto_ctx *c, struct assertion *out);
	/* Does the device hold cred under rp_id (no touch)? ERR_OK yes,
	 * ERR_WRONG_KH no. */
	int (*probe)(struct proto_ctx *c, const char *rp_id,
	    const struct cred *cred, int ms);
	/* The descriptor to poll for input the operation waits for, or
	 * -1 (nothing expected now, or a transport without one). */
	int (*poll_fd)(const struct proto_ctx *c);
	/* When the operation in progress needs a step even if nothing
	 * arrives (util_now_ms clock; INT64_MAX: only on input). */
	int64_t (*wake_at)(const struct proto_ctx *c);
	/* Is the device waiting for a touch right now (for the cue)? */
	bool (*wants_touch)(const struct proto_ctx *c);
	void (*cancel)(struct proto_ctx *c);
	/* The PIN gate (assert_req.pin_gate); NULL for protocols without a
	 * PIN. gated: is the assertion stopped before asking for the PIN
	 * (nothing in flight)? ungate: go on, asking for the PIN now, or
	 * (select) first having the user pick this key with a touch
	 * (authenticatorSelection, or CTAP 2.0's MakeCredential with an
	 * empty pinAuth). chosen: did the user pick it? */
	bool (*gated)(const struct proto_ctx *c);
	int (*ungate)(struct proto_ctx *c, bool select);
	bool (*chosen)(const struct proto_ctx *c);
};

extern const struct proto proto_u2f;
extern const struct proto proto_ctap2;

/* Can some protocol we speak use this credential? ERR_OK, or
 * ERR_UNSUPPORTED with *why naming what it needs ("+pin", "eddsa", ...):
 * such a credential is refused by name, never downgraded. */
int proto_cred_supported(const struct cred *c, const char **why);

/* The one check of an assertion for every protocol and manual mode:
 * authdata is rpIdHash | flags | counter [| more] with rpIdHash equal to
 * rpid_hash (= SHA-256 of the rp id the request named; else
 * ERR_MISMATCH), sig a valid signature by the credential's key over
 * authdata | cdh (else ERR_VERIFY), and the presence flag set if presence
 * is required (else ERR_NO_PRESENCE). ERR_OK fills *flags and *counter. */
int proto_check_assertion(const struct cred *c,
    const uint8_t rpid_hash[PROTO_RPID_HASH], const uint8_t cdh[PROTO_CDH_LEN],
    bool presence, const uint8_t *authdata, size_t authdata_len,
    const uint8_t *sig, size_t sig_len, uint8_t *flags, uint32_t *counter);

#endif
