/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy ("policy" section of pam_u2f.conf, conf/
 * confpolicy.h) applied to a credential's stored evidence (proto/
 * evidence.h): by pamu2fcfg when it enrolls a key, and by the module at
 * every login before any key is asked. The same function answers both,
 * so that what enrollment accepts is exactly what login accepts.
 *
 * A credential meets the policy when its evidence
 *  - is for this credential (authData's credential id and key are the
 *    mapping line's),
 *  - has a valid statement (packed with x5c, or fido-u2f; "none" and
 *    self attestation are refused),
 *  - chains to a configured root with OpenSSL's X509_STORE, as of the
 *    time of enrollment (now when enrolling; the evidence's time at
 *    login, which may not be in the future),
 *  - names a model (the certificate's AAGUID extension, which must equal
 *    authData's; else the certificate's key identifier) that is not on
 *    aaguid_deny and, if aaguid_allow is set, is on it,
 *  - and, with mds, has no status report that refuses it (policy_mds.c). */
#ifndef PU_POLICY_H
#define PU_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cred.h"
#include "base/util.h"
#include "conf/confpolicy.h"

#define POLICY_WHY_MAX 384
#define POLICY_SKEW 300 /* seconds an evidence time may be ahead of now */

struct policy;

/* What policy_check found: the model (AAGUID or key identifier text, ""
 * when none was reached) and, when refused, why (one sentence). */
struct policy_result {
	char model[CONF_POLICY_ID_TEXT];
	char why[POLICY_WHY_MAX];
};

/* Open cp for use: the roots (and the MDS BLOB) read now, each file
 * owned by root or by owner (the module passes 0; tests their own uid).
 * cp NULL or attestation none: *out is NULL and every check passes.
 * ERR_OK, or ERR_CONFIG (a file missing, unsafe or bad) with a sentence
 * in why, ERR_NOMEM. lg gets the MDS decisions. */
int policy_open(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct policy **out, char why[POLICY_WHY_MAX]);
void policy_free(struct policy *p);

/* The mode: CONF_ATTEST_NONE for p NULL. */
enum conf_attestation policy_mode(const struct policy *p);

/* Check credential c's evidence (c->att) as described above. enrolling:
 * the chain is checked as of now; else as of the evidence's time.
 * ERR_OK (meets the policy, or p NULL), ERR_DENIED with res->why, or
 * ERR_NOMEM. res->model is set whenever the model was found. */
int policy_check(const struct policy *p, const struct cred *c, bool enrolling,
    int64_t now, struct policy_result *res);

#endif
