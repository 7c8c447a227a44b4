/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode, the pure parts: the challenge lines `fido2-assert -G`
 * reads, and checking the lines it prints. No PAM, no I/O. */
#ifndef PU_MANUAL_H
#define PU_MANUAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cred.h"
#include "proto/proto.h"

#define MANUAL_AUTHDATA_LEN PROTO_AUTHDATA_MIN /* rpIdHash|flags|counter */

/* "cdh-base64\nrp-id\ncredential-id-base64\n": the input of
 * fido2-assert -G (see fido2-assert(1)). Caller frees. */
int manual_challenge(const uint8_t cdh[PROTO_CDH_LEN], const char *rp_id,
    const struct cred *c, char **out);

/* The four lines fido2-assert -G prints, in order. */
struct manual_answer {
	const char *cdh; /* client data hash, base64 */
	const char *rp_id;
	const char *authdata; /* CBOR byte string, base64 */
	const char *sig;      /* DER signature, base64 */
};

/* The fido2-assert flags an answer for a credential with options o
 * (proto_cred_opts) needs: "-p" when presence is required, "-v" when
 * user verification or the PIN is; "-p -v", or "" for none. */
const char *manual_flags(const struct cred_opts *o);

/* Check an answer against our challenge: same cdh and rp id, authdata a
 * CBOR byte string of exactly rpIdHash|flags|counter with rpIdHash =
 * SHA-256(rp_id), the signature (over authdata|cdh) valid for the
 * credential's key, and the flags a plugged-in key would be asked for
 * under o (proto_cred_opts): UP when o->up is 1, UV when o->uv or o->pin
 * is 1. Surrounding blanks and a CR are ignored. ERR_OK only for a
 * verified answer; ERR_PARSE for malformed lines, ERR_MISMATCH when the
 * answer echoes another cdh or rp id or was signed for another rp id,
 * ERR_VERIFY for a bad signature, ERR_NO_PRESENCE (UP clear), ERR_NO_UV
 * (UV clear), ERR_UNSUPPORTED for non-es256 keys. */
int manual_verify(const uint8_t cdh[PROTO_CDH_LEN], const char *rp_id,
    const struct cred *c, const struct cred_opts *o,
    const struct manual_answer *a, struct assertion *out);

#endif
