/* SPDX-License-Identifier: BSD-2-Clause */
/* authenticatorData (WebAuthn 6.1), parsed strictly: rpIdHash(32) |
 * flags(1) | signCount(4) [| attestedCredentialData: aaguid(16) |
 * credIdLen(2) | credId | COSE_Key] [| extensions CBOR map], with the AT
 * and ED flags saying which parts follow, and nothing left over. */
#ifndef PU_AUTHDATA_H
#define PU_AUTHDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/cosesig.h"

#define AUTHDATA_UP 0x01
#define AUTHDATA_UV 0x04
#define AUTHDATA_BE 0x08
#define AUTHDATA_BS 0x10
#define AUTHDATA_AT 0x40
#define AUTHDATA_ED 0x80
#define AUTHDATA_CRED_ID_MAX 1023

struct authdata {
	const uint8_t *rpid_hash; /* 32 bytes, points into the input */
	uint8_t flags;
	uint32_t counter;
	bool attested;          /* AT: the fields below are set */
	const uint8_t *aaguid;  /* 16 bytes */
	const uint8_t *cred_id; /* points into the input */
	size_t cred_id_len;
	int type; /* COSE_* of the credential key */
	uint8_t pk[COSESIG_PK_MAX];
	size_t pk_len;
	const uint8_t *ext; /* the extensions map, or NULL */
	size_t ext_len;
};

/* Parse p[0..len). want_attested: MakeCredential (AT must be set) or
 * GetAssertion (AT must be clear). ERR_PARSE names nothing secret. */
int authdata_parse(
    const uint8_t *p, size_t len, bool want_attested, struct authdata *out);

#endif
