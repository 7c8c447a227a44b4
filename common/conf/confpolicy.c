/* SPDX-License-Identifier: BSD-2-Clause */
/* The "policy" section's keys, their checks and its struct
 * (confpolicy.h). conf.c reads the section with libconfuse
 * (confpolicy_schema.c) and hands each value here; common/policy/ is
 * the one user of the result. Its own file, beside confldap.c, because
 * its values (identifiers, paths, an enum) have checks of their own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confpolicy.h"
#include "base/b64.h"
#include "base/err.h"

#define UUID_TEXT 36 /* 8-4-4-4-12 */
#define KEYID_TEXT 40

struct conf_policy_keydef {
	const char *name;
	enum conf_policy_type type;
};

static const struct conf_policy_keydef keys[CONF_POLICY_NKEYS] = {
    [CONF_POLICY_ATTESTATION] = {"attestation", CONF_POLICY_T_STR},
    [CONF_POLICY_ALLOW] = {"aaguid_allow", CONF_POLICY_T_LIST},
    [CONF_POLICY_DENY] = {"aaguid_deny", CONF_POLICY_T_LIST},
    [CONF_POLICY_ROOTS] = {"roots", CONF_POLICY_T_STR},
    [CONF_POLICY_MDS] = {"mds", CONF_POLICY_T_STR},
    [CONF_POLICY_MDS_ROOTS] = {"mds_roots", CONF_POLICY_T_STR},
    [CONF_POLICY_MDS_STATE] = {"mds_state", CONF_POLICY_T_STR},
    [CONF_POLICY_MDS_GRACE] = {"mds_grace", CONF_POLICY_T_STR},
};

const char *
conf_policy_key_name(enum conf_policy_key k)
{
	return (unsigned int)k < CONF_POLICY_NKEYS ? keys[k].name : NULL;
}

enum conf_policy_type
conf_policy_key_type(enum conf_policy_key k)
{
	return (unsigned int)k < CONF_POLICY_NKEYS ? keys[k].type
						   : CONF_POLICY_T_STR;
}

int
conf_policy_new(struct conf_policy **out)
{
	if ((*out = calloc(1, sizeof(**out))) == NULL)
		return ERR_NOMEM;
	(*out)->mds_grace = -1;
	return ERR_OK;
}

static int
why_key(char *why, size_t whylen, enum conf_policy_key k, const char *msg)
{
	if (why != NULL && whylen > 0)
		snprintf(why, whylen, "policy: %s %s", keys[k].name, msg);
	return ERR_CONFIG;
}

int
conf_policy_id_parse(const char *s, struct conf_policy_id *id)
{
	char hex[KEYID_TEXT + 1];
	size_t n = strlen(s), i, j = 0;
	uint8_t *bytes = NULL;
	size_t len = 0;
	int r;

	memset(id, 0, sizeof(*id));
	if (n != UUID_TEXT && n != KEYID_TEXT)
		return ERR_PARSE;
	/* An AAGUID's dashes stand exactly where 8-4-4-4-12 puts them. */
	for (i = 0; i < n; i++) {
		if (n == UUID_TEXT &&
		    (i == 8 || i == 13 || i == 18 || i == 23)) {
			if (s[i] != '-')
				return ERR_PARSE;
			continue;
		}
		hex[j++] = s[i];
	}
	if ((r = hex_decode(hex, j, &bytes, &len)) != ERR_OK)
		return r == ERR_NOMEM ? r : ERR_PARSE;
	if (len ==
	    (n == UUID_TEXT ? CONF_POLICY_AAGUID_LEN : CONF_POLICY_ID_MAX)) {
		memcpy(id->id, bytes, len);
		id->len = len;
	}
	free(bytes);
	return id->len > 0 ? ERR_OK : ERR_PARSE;
}

void
conf_policy_id_text(
    const struct conf_policy_id *id, char buf[CONF_POLICY_ID_TEXT])
{
	size_t i, n = 0;

	for (i = 0; i < id->len && i < CONF_POLICY_ID_MAX; i++) {
		if (id->len == CONF_POLICY_AAGUID_LEN &&
		    (i == 4 || i == 6 || i == 8 || i == 10))
			buf[n++] = '-';
		n += (size_t)snprintf(
		    buf + n, CONF_POLICY_ID_TEXT - n, "%02x", id->id[i]);
	}
	buf[n] = '\0';
}

static int
add_id(struct conf_policy *p, enum conf_policy_key k, const char *value,
    char *why, size_t whylen)
{
	struct conf_policy_id **list =
	    k == CONF_POLICY_ALLOW ? &p->allow : &p->deny;
	size_t *n = k == CONF_POLICY_ALLOW ? &p->nallow : &p->ndeny;
	struct conf_policy_id id, *nl;

	if (conf_policy_id_parse(value, &id) != ERR_OK)
		return why_key(why, whylen, k,
		    "entries must be AAGUIDs (8-4-4-4-12 hex digits) or "
		    "key identifiers (40 hex digits)");
	if (*n >= CONF_POLICY_LIST_MAX)
		return why_key(why, whylen, k, "has too many entries");
	if ((nl = realloc(*list, (*n + 1) * sizeof(**list))) == NULL)
		return ERR_NOMEM;
	nl[(*n)++] = id;
	*list = nl;
	return ERR_OK;
}

static char **
path_slot(struct conf_policy *p, enum conf_policy_key k)
{
	switch (k) {
	case CONF_POLICY_ROOTS:
		return &p->roots;
	case CONF_POLICY_MDS:
		return &p->mds;
	case CONF_POLICY_MDS_ROOTS:
		return &p->mds_roots;
	case CONF_POLICY_MDS_STATE:
		return &p->mds_state;
	default:
		return NULL;
	}
}

static int
set_attestation(
    struct conf_policy *p, const char *value, char *why, size_t whylen)
{
	if (strcmp(value, "none") == 0)
		p->attestation = CONF_ATTEST_NONE;
	else if (strcmp(value, "optional") == 0)
		p->attestation = CONF_ATTEST_OPTIONAL;
	else if (strcmp(value, "required") == 0)
		p->attestation = CONF_ATTEST_REQUIRED;
	else
		return why_key(why, whylen, CONF_POLICY_ATTESTATION,
		    "must be none, optional or required");
	return ERR_OK;
}

static int
set_grace(struct conf_policy *p, const char *value, char *why, size_t whylen)
{
	char *end = NULL;
	long v;

	if (value[0] < '0' || value[0] > '9' ||
	    (v = strtol(value, &end, 10)) < 0 || *end != '\0' ||
	    v > CONF_POLICY_GRACE_MAX)
		return why_key(why, whylen, CONF_POLICY_MDS_GRACE,
		    "must be 0 to 365 (days after the BLOB's nextUpdate)");
	p->mds_grace = (int)v;
	return ERR_OK;
}

int
conf_policy_set(struct conf_policy *p, enum conf_policy_key k,
    const char *value, char *why, size_t whylen)
{
	char **slot, *copy;

	if (p == NULL || value == NULL || (unsigned int)k >= CONF_POLICY_NKEYS)
		return ERR_INVAL;
	if (value[0] == '\0' || strlen(value) > CONF_POLICY_TEXT_MAX)
		return why_key(why, whylen, k, "is empty or too long");
	switch (k) {
	case CONF_POLICY_ATTESTATION:
		return set_attestation(p, value, why, whylen);
	case CONF_POLICY_ALLOW:
	case CONF_POLICY_DENY:
		return add_id(p, k, value, why, whylen);
	case CONF_POLICY_MDS_GRACE:
		return set_grace(p, value, why, whylen);
	default:
		break;
	}
	if (value[0] != '/')
		return why_key(why, whylen, k, "must be an absolute path");
	if ((slot = path_slot(p, k)) == NULL || (copy = strdup(value)) == NULL)
		return ERR_NOMEM;
	free(*slot);
	*slot = copy;
	return ERR_OK;
}

/* The cross-key rules, the first broken one with its key. */
static const char *
check_rules(const struct conf_policy *p, enum conf_policy_key *key)
{
	bool on = p->attestation != CONF_ATTEST_NONE;

	if (on && p->roots == NULL) {
		*key = CONF_POLICY_ROOTS;
		return "is required by attestation = optional or required";
	}
	if (!on &&
	    (p->nallow > 0 || p->ndeny > 0 || p->roots != NULL ||
		p->mds != NULL)) {
		*key = CONF_POLICY_ATTESTATION;
		return "must be optional or required for the other keys of "
		       "the section to apply";
	}
	if ((p->mds != NULL) != (p->mds_roots != NULL)) {
		*key = CONF_POLICY_MDS_ROOTS;
		return "and mds must be given together";
	}
	if (p->mds == NULL && (p->mds_state != NULL || p->mds_grace >= 0)) {
		*key = CONF_POLICY_MDS;
		return "is required by mds_state and mds_grace";
	}
	return NULL;
}

int
conf_policy_check(
    struct conf_policy *p, enum conf_policy_key *key, char *why, size_t whylen)
{
	enum conf_policy_key k = CONF_POLICY_ATTESTATION;
	const char *bad;

	if (p == NULL || key == NULL)
		return ERR_INVAL;
	if ((bad = check_rules(p, &k)) != NULL) {
		*key = k;
		return why_key(why, whylen, k, bad);
	}
	if (p->mds != NULL && p->mds_state == NULL &&
	    (p->mds_state = strdup(CONF_POLICY_STATE_DEFAULT)) == NULL)
		return ERR_NOMEM;
	if (p->mds_grace < 0)
		p->mds_grace = CONF_POLICY_GRACE_DEFAULT;
	return ERR_OK;
}

void
conf_policy_free(struct conf_policy *p)
{
	if (p == NULL)
		return;
	free(p->allow);
	free(p->deny);
	free(p->roots);
	free(p->mds);
	free(p->mds_roots);
	free(p->mds_state);
	free(p);
}
