/* SPDX-License-Identifier: BSD-2-Clause */
/* The "policy { ... }" section of pam_u2f.conf: which security keys may
 * be enrolled and used (attestation, AAGUID allow and deny lists, the
 * trusted attestation roots, an offline FIDO MDS3 BLOB). Read by the
 * module and pamu2fcfg alike (conf_load fills struct conf's policy);
 * common/policy/ applies it. Like the ldap section, its own struct
 * keeps struct conf's options table and "set" bits as they are.
 *
 * An identifier of a model is an AAGUID ("xxxxxxxx-xxxx-xxxx-xxxx-
 * xxxxxxxxxxxx", 16 bytes) or, for U2F keys, which have none, the
 * attestation certificate's key identifier (40 hex digits: the SHA-1 of
 * its subjectPublicKey, MDS's attestationCertificateKeyIdentifiers). */
#ifndef PU_CONF_POLICY_H
#define PU_CONF_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONF_POLICY_SECTION "policy"
#define CONF_POLICY_LIST_MAX 256     /* entries of an allow or deny list */
#define CONF_POLICY_ID_MAX 20        /* bytes of a key identifier */
#define CONF_POLICY_AAGUID_LEN 16    /* bytes of an AAGUID */
#define CONF_POLICY_TEXT_MAX 1024    /* bytes of a path */
#define CONF_POLICY_GRACE_DEFAULT 30 /* days after the BLOB's nextUpdate */
#define CONF_POLICY_GRACE_MAX 365
#define CONF_POLICY_STATE_DEFAULT "/var/lib/pam_u2f/mds.state"

enum conf_attestation {
	CONF_ATTEST_NONE = 0, /* no policy: nothing checked or stored */
	CONF_ATTEST_OPTIONAL, /* checked and logged, never refused */
	CONF_ATTEST_REQUIRED  /* refused unless it meets the policy */
};

enum conf_policy_key {
	CONF_POLICY_ATTESTATION = 0,
	CONF_POLICY_ALLOW,
	CONF_POLICY_DENY,
	CONF_POLICY_ROOTS,
	CONF_POLICY_MDS,
	CONF_POLICY_MDS_ROOTS,
	CONF_POLICY_MDS_STATE,
	CONF_POLICY_MDS_GRACE,
	CONF_POLICY_NKEYS
};

enum conf_policy_type { CONF_POLICY_T_STR, CONF_POLICY_T_LIST };

/* One model identifier: an AAGUID (len 16) or a key identifier (20). */
struct conf_policy_id {
	uint8_t id[CONF_POLICY_ID_MAX];
	size_t len;
};

struct conf_policy {
	enum conf_attestation attestation;
	struct conf_policy_id *allow; /* empty: every model */
	size_t nallow;
	struct conf_policy_id *deny;
	size_t ndeny;
	char *roots;     /* file or folder of PEM root certificates */
	char *mds;       /* the MDS3 BLOB (a JWT), or NULL */
	char *mds_roots; /* PEM roots the BLOB's x5c must chain to */
	char *mds_state; /* NULL: CONF_POLICY_STATE_DEFAULT */
	int mds_grace;   /* days; -1: CONF_POLICY_GRACE_DEFAULT */
};

/* Key k's name in the section and its type. */
const char *conf_policy_key_name(enum conf_policy_key k);
enum conf_policy_type conf_policy_key_type(enum conf_policy_key k);

/* A new empty policy (attestation none, grace unset) into *out. ERR_OK,
 * ERR_NOMEM. */
int conf_policy_new(struct conf_policy **out);

/* Store value (text, as in the file) for key k into p, checked:
 * attestation is none, optional or required; list entries are AAGUIDs
 * or 40-hex-digit key identifiers (any case), at most
 * CONF_POLICY_LIST_MAX; paths are absolute; mds_grace is 0 to
 * CONF_POLICY_GRACE_MAX days. ERR_OK, ERR_NOMEM, ERR_CONFIG with a
 * sentence in why (whylen > 0) naming the key, not quoting the value. */
int conf_policy_set(struct conf_policy *p, enum conf_policy_key k,
    const char *value, char *why, size_t whylen);

/* The section as a whole: optional and required need roots; the lists
 * and roots need optional or required; mds needs mds_roots (and the
 * attestation it serves). Fills in the defaults. ERR_OK, ERR_NOMEM or
 * ERR_CONFIG with the sentence in why and the key it is about in *key. */
int conf_policy_check(
    struct conf_policy *p, enum conf_policy_key *key, char *why, size_t whylen);

/* Parse an identifier (AAGUID or key identifier text) into *id. ERR_OK,
 * ERR_PARSE or ERR_NOMEM. */
int conf_policy_id_parse(const char *s, struct conf_policy_id *id);

/* The identifier as text (AAGUID: 8-4-4-4-12 lower-case hex; key id: 40
 * hex digits) into buf, which holds CONF_POLICY_ID_TEXT bytes. */
#define CONF_POLICY_ID_TEXT (2 * CONF_POLICY_ID_MAX + 1)
void conf_policy_id_text(
    const struct conf_policy_id *id, char buf[CONF_POLICY_ID_TEXT]);

void conf_policy_free(struct conf_policy *p);

#endif
