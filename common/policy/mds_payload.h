/* SPDX-License-Identifier: BSD-2-Clause */
/* The MDS3 BLOB's payload (FIDO Metadata Service 3.0, 3.1.6), read once
 * its signature has been verified (policy_mds.c): its serial number, its
 * nextUpdate, and per entry the identifiers (aaguid,
 * attestationCertificateKeyIdentifiers), the model's description and
 * the first status report that refuses the key. */
#ifndef PU_MDS_PAYLOAD_H
#define PU_MDS_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MDS_ENTRIES_MAX 20000
#define MDS_KEYIDS_MAX 64 /* per entry */
#define MDS_DESC_MAX 96
#define MDS_STATUS_MAX 40

struct mds_entry {
	bool has_aaguid;
	uint8_t aaguid[16];
	uint8_t (*keyids)[20];
	size_t nkeyids;
	char desc[MDS_DESC_MAX];     /* metadataStatement.description */
	char status[MDS_STATUS_MAX]; /* a refusing status, or "" */
};

struct mds_payload {
	int64_t no;
	int64_t next_update; /* seconds since the epoch (00:00 UTC) */
	struct mds_entry *entries;
	size_t n, cap;
};

/* Parse the payload's JSON text (len bytes). A status refuses the key
 * when it is REVOKED, ATTESTATION_KEY_COMPROMISE,
 * USER_VERIFICATION_BYPASS or USER_KEY_REMOTE_COMPROMISE, in any report
 * of the entry (a later report does not lift it). ERR_OK, ERR_PARSE
 * (malformed, a required member missing), ERR_TOO_BIG, ERR_NOMEM. */
int mds_payload_parse(const char *text, size_t len, struct mds_payload *out);
void mds_payload_free(struct mds_payload *p);

#endif
