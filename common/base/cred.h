/* SPDX-License-Identifier: BSD-2-Clause */
/* A credential as the module and the tool see it: protocol-neutral. */
#ifndef PU_CRED_H
#define PU_CRED_H

#include <stddef.h>
#include <stdint.h>

#define COSE_ES256 (-7)
#define COSE_EDDSA (-8)
#define COSE_RS256 (-257)

#define CRED_PRESENCE 0x01     /* "+presence" */
#define CRED_VERIFICATION 0x02 /* "+verification" (needs CTAP2) */
#define CRED_PIN 0x04          /* "+pin" (needs CTAP2) */
#define CRED_RESIDENT 0x08     /* key handle "*" (needs CTAP2) */
#define CRED_APPID 0x10        /* old 1.0 format: signed under appid */

struct cred {
	uint8_t *kh; /* key handle (owned) */
	size_t kh_len;
	uint8_t *pk; /* public key (owned): es256 = 65-byte point */
	size_t pk_len;
	int type;       /* COSE_* */
	unsigned flags; /* CRED_* */
	/* Attestation evidence stored with the credential (owned; opaque
	 * here, proto/evidence.h reads it), or NULL. */
	uint8_t *att;
	size_t att_len;
};

/* "es256", "eddsa", "rs256" for a COSE_* type; NULL for anything else. */
const char *cred_type_name(int type);
void cred_clear(struct cred *c);
void cred_free_list(struct cred *list, size_t n);

#endif
