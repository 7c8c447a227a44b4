/* SPDX-License-Identifier: BSD-2-Clause */
/* The FIDO Metadata Service BLOB (MDS3), read offline from the file the
 * policy names (policy_mds.c): verified once per policy_open, then asked
 * about each credential's model. */
#ifndef PU_POLICY_MDS_H
#define PU_POLICY_MDS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "conf/confpolicy.h"

struct policy_mds;

/* Read and verify cp->mds against cp->mds_roots, cp->mds_state and
 * cp->mds_grace as of now. ERR_OK and *out, or ERR_CONFIG with a
 * sentence in why, ERR_NOMEM. */
int policy_mds_open(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct policy_mds **out, char *why, size_t whylen);
void policy_mds_free(struct policy_mds *m);

/* The entry of model (or keyid): ERR_OK when the BLOB has one and no
 * status in it refuses the key; ERR_DENIED with why naming the model and
 * the status, or saying the BLOB does not list the model. */
int policy_mds_check(const struct policy_mds *m,
    const struct conf_policy_id *model, const struct conf_policy_id *keyid,
    char *why, size_t whylen);

#endif
