/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH FIDO keys through the user's (forwarded) ssh-agent: "sudo over
 * SSH" with the key in the user's own hand (issue 28, README "sudo over
 * SSH").
 *
 * - sshpub_*: one OpenSSH public key line (authorized_keys form, as
 *   ssh-add -L and ssh-keygen -y print it) of the two FIDO key types.
 * - sshauth_run: ask the agent at a unix socket to sign a fresh SSHSIG
 *   challenge with one of the user's keys and verify the answer.
 * - sshagent_list_sk: the agent's FIDO identities (pamu2fcfg --ssh-agent).
 *
 * The layer sits over base/ and crypto/ (its signature check is
 * crypto_verify) and under mapping/, auth/ and the programs. It does not
 * change privileges: the caller drops them to the user first.
 *
 * The names are sshpub_ rather than sshkey_ because mapping/sshkey.h
 * already owns sshkey_parse (OpenSSH private key files). */
#ifndef PU_SSH_H
#define PU_SSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define SSHPUB_ECDSA_NAME "sk-ecdsa-sha2-nistp256@openssh.com"
#define SSHPUB_ED25519_NAME "sk-ssh-ed25519@openssh.com"

/* The SSHSIG namespace of every challenge: no signature made for us is
 * an SSH login signature or one of ssh-keygen -Y sign -n file, and the
 * other way round. */
#define SSHAUTH_NAMESPACE "pam_u2f-remote-auth@pam_u2f"
/* The SSHSIG hash algorithm we ask for (the one ssh-keygen uses). */
#define SSHAUTH_HASHALG "sha512"

/* Bound on every agent message, either way (OpenSSH's own is 256 KiB;
 * nothing we read needs more than this). */
#define SSHAGENT_MAX_MSG (64 * 1024)
/* Bound on the identities one agent may list. */
#define SSHAGENT_MAX_KEYS 128

/* FIDO sig flags (PROTOCOL.u2f) */
#define SSHSK_FLAG_UP 0x01 /* user present */
#define SSHSK_FLAG_UV 0x04 /* user verified */

enum sshpub_type { SSHPUB_SK_ECDSA = 1, SSHPUB_SK_ED25519 = 2 };

struct sshpub {
	enum sshpub_type type;
	uint8_t pk[65]; /* ECDSA: 65-byte uncompressed point; Ed25519: 32 */
	size_t pk_len;
	char *application; /* owned, e.g. "ssh:" */
	uint8_t *blob;     /* owned: the key's wire blob, as agents list it */
	size_t blob_len;
	bool no_touch_required; /* option no-touch-required */
	bool verify_required;   /* option verify-required */
	char *comment;          /* owned; NULL when the line has none */
};

/* Parse one line: [options] keytype base64 [comment], the key type one of
 * the two above (the name inside the blob must match it). Options
 * honoured (any case, as sshd reads them): no-touch-required,
 * verify-required. Every other option, known to sshd or not (from=,
 * command=, restrict, no-pty, cert-authority, ...), refuses the line with
 * ERR_CONFIG: each would restrict the key in a way we cannot honour, so
 * fail closed. ERR_PARSE for a malformed line, base64 or blob (trailing
 * bytes, a point off the curve, an application not "ssh:..."); a type
 * that does not match the blob's; ERR_UNSUPPORTED for another key
 * type (ssh-ed25519, ssh-rsa, webauthn-sk-...); ERR_NOMEM. Leading blanks
 * and a trailing newline are allowed; k is zeroed on failure. */
int sshpub_parse(const char *line, struct sshpub *k);
/* Free what k owns and zero it. NULL-safe. */
void sshpub_clear(struct sshpub *k);
/* sshpub_clear each of list[0..n-1], then free(list). NULL-safe. */
void sshpub_free_list(struct sshpub *list, size_t n);
/* One line back: "[options ]type base64[ comment]" without newline,
 * options as "no-touch-required,verify-required" (those set); the
 * comment only when it is printable ASCII without newline. *line is the
 * caller's to free. ERR_INVAL, ERR_NOMEM. */
int sshpub_format(const struct sshpub *k, char **line);

struct sshauth_req {
	const char *sock;    /* the agent's socket path (SSH_AUTH_SOCK) */
	uid_t uid;           /* the user: owner of sock and of its peer */
	const char *user;    /* for the challenge */
	const char *service; /* PAM service, for the challenge */
	const char *host;    /* this host's name, for the challenge */
	bool need_uv;        /* UV needed whatever the key's line says */
	int timeout_ms;      /* the whole exchange, touch included; > 0 */
	int64_t deadline;    /* 0, or an earlier util_now_ms() deadline (the
				module's own) that caps timeout_ms */
	/* Called once the key is chosen, before the sign request: the cue
	 * ("touch the key on your own machine"). May be NULL. */
	void (*cue)(void *arg, const struct sshpub *key);
	void *cue_arg;
	const struct log *lg; /* one line per failure, never a secret */
};

struct sshauth_res {
	size_t key;       /* index into keys[] of the key that signed */
	uint8_t flags;    /* the signed flags byte */
	uint32_t counter; /* the signed counter (the module logs it) */
};

/* Check the socket (agent.h, agent_connect: an absolute path, not a
 * symlink, a socket owned by rq->uid in a directory no one else may
 * write, the listening peer's SO_PEERCRED uid rq->uid), connect, ask the
 * agent to sign a fresh SSHSIG challenge (sshsig.h for the message) and
 * verify the answer with crypto_verify. With one key (n == 1) the sign
 * request is the first and, when it succeeds, the only request (one
 * round trip); if the agent refuses, its identities are listed to tell
 * ERR_AGENT_NO_KEY from ERR_AGENT_REFUSED. With several, the identities
 * are listed first and the first of keys[0..n-1] the agent holds signs
 * (two round trips). The cue comes before the sign request either way.
 *
 * ERR_OK only for a verified signature by that key whose flags carry UP
 * (unless the key's line says no-touch-required) and UV (when need_uv or
 * the line says verify-required); res then names the key, flags and
 * counter. Errors: ERR_AGENT_SOCKET, ERR_AGENT_CONNECT, ERR_AGENT_TIMEOUT,
 * ERR_AGENT_NO_KEY, ERR_AGENT_REFUSED, ERR_AGENT_REPLY, ERR_VERIFY,
 * ERR_NO_PRESENCE, ERR_NO_UV, ERR_INVAL, ERR_NOMEM, ERR_RANDOM.
 *
 * Destination-constrained keys (ssh-add -h), as OpenSSH 9.2's agent
 * treats them (tests/ssh/README): on a forwarded connection a key
 * constrained to this host only is not listed (ERR_AGENT_NO_KEY); one
 * allowed beyond this host ("here>there") is listed, and every request
 * to sign anything but an SSH login is refused with SSH_AGENT_FAILURE,
 * as on a local connection (ERR_AGENT_REFUSED). The agent's answer is
 * the same as for a key not plugged in or not touched, so the two codes'
 * messages name the constraint as one cause; no reply tells it apart. */
int sshauth_run(const struct sshauth_req *rq, const struct sshpub *keys,
    size_t n, struct sshauth_res *res);

/* The agent's FIDO identities (both types above; others skipped), with
 * the agent's comments, after the same socket checks as sshauth_run.
 * *keys (caller frees with sshpub_free_list) may be empty (*n = 0). */
int sshagent_list_sk(const char *sock, uid_t uid, int timeout_ms,
    const struct log *lg, struct sshpub **keys, size_t *n);

#endif
