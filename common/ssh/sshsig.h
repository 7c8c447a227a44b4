/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the ssh layer: the SSHSIG challenge we ask the agent to sign
 * and the check of the FIDO signature it returns.
 *
 * The message (what SSHSIG hashes; our own encoding, SSH wire format):
 *   string  "pam_u2f remote auth v1"
 *   string  nonce      32 fresh random bytes
 *   string  user       the user being authenticated
 *   string  service    the PAM service
 *   string  host       this host's name
 *   uint64  time       seconds since the epoch (CLOCK_REALTIME)
 * The data signed (PROTOCOL.sshsig, what `ssh-keygen -Y sign` hands the
 * agent):
 *   byte[6] "SSHSIG"
 *   string  namespace  SSHAUTH_NAMESPACE
 *   string  reserved   ""
 *   string  hash_alg   "sha512"
 *   string  H(message) SHA-512 of the message
 * The FIDO key signs SHA256(application) || flags || uint32 counter ||
 * SHA256(data signed) (PROTOCOL.u2f). */
#ifndef PU_SSHSIG_H
#define PU_SSHSIG_H

#include <stddef.h>
#include <stdint.h>

#include "ssh.h"

#define SSHSIG_MAGIC "SSHSIG"
#define SSHSIG_MSG_TAG "pam_u2f remote auth v1"
#define SSHSIG_NONCE_LEN 32

struct sshsig_chal {
	uint8_t *msg; /* the message (owned) */
	size_t msg_len;
	uint8_t *data; /* the data signed (owned) */
	size_t data_len;
};

/* A fresh challenge for user, service and host at time t: a new nonce
 * from util_random. ERR_INVAL (a NULL or over-long name), ERR_RANDOM,
 * ERR_NOMEM, ERR_CRYPTO. Free with sshsig_chal_clear. */
int sshsig_chal_new(const char *user, const char *service, const char *host,
    uint64_t t, struct sshsig_chal *c);
/* The data signed for any message under namespace ns (the second half
 * of the above, with SSHAUTH_NAMESPACE): into c->data. */
int sshsig_data(
    const char *ns, const uint8_t *msg, size_t msg_len, struct sshsig_chal *c);
void sshsig_chal_clear(struct sshsig_chal *c);

/* Check an agent's signature blob (string type, string sig, byte flags,
 * uint32 counter, nothing after) by key k over data: the type must be
 * k's, the signature verify with crypto_verify. ERR_OK fills flags and
 * counter (and checks no flag: sshsig_flags_ok does); ERR_VERIFY for a
 * signature that does not verify; ERR_AGENT_REPLY for a malformed blob
 * (a wrong type name, bad mpints, trailing bytes). */
int sshsig_verify(const struct sshpub *k, const uint8_t *data, size_t data_len,
    const uint8_t *sig, size_t sig_len, uint8_t *flags, uint32_t *counter);
/* The flags a key's line and the caller ask for: ERR_NO_PRESENCE without
 * UP (unless no_touch_required), ERR_NO_UV without UV when need_uv or
 * verify_required; else ERR_OK. */
int sshsig_flags_ok(const struct sshpub *k, bool need_uv, uint8_t flags);

#endif
