/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy applied to one credential's evidence
 * (policy.h): the evidence read (proto/evidence.c), its statement checked
 * (proto/attest.c), its chain verified (crypto/attcert.c), its model
 * compared with the lists, and the MDS asked (policy_mds.c). The one
 * place both enrollment and login decide, in one function that reads top
 * to bottom. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "crypto/attcert.h"
#include "policy.h"
#include "policy_mds.h"
#include "proto/attest.h"
#include "proto/authdata.h"
#include "proto/evidence.h"

struct policy {
	const struct conf_policy *cp; /* the caller's, outlives this */
	struct attcert_roots *roots;
	struct policy_mds *mds; /* NULL without mds */
	const struct log *lg;
};

int
policy_open(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct policy **out, char why[POLICY_WHY_MAX])
{
	char w[ATTCERT_WHY_MAX];
	struct policy *p = NULL;
	int r;

	*out = NULL;
	why[0] = '\0';
	if (cp == NULL || cp->attestation == CONF_ATTEST_NONE)
		return ERR_OK;
	if (cp->roots == NULL) {
		snprintf(why, POLICY_WHY_MAX, "policy: no roots");
		return ERR_CONFIG;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return ERR_NOMEM;
	p->cp = cp;
	p->lg = lg;
	if ((r = attcert_roots_load(cp->roots, owner, &p->roots, w)) !=
	    ERR_OK) {
		snprintf(why, POLICY_WHY_MAX, "policy: roots: %s", w);
		goto fail;
	}
	if (cp->mds != NULL &&
	    (r = policy_mds_open(
		 cp, owner, now, lg, &p->mds, why, POLICY_WHY_MAX)) != ERR_OK)
		goto fail;
	*out = p;
	return ERR_OK;
fail:
	policy_free(p);
	return r == ERR_NOMEM ? r : ERR_CONFIG;
}

void
policy_free(struct policy *p)
{
	if (p == NULL)
		return;
	attcert_roots_free(p->roots);
	policy_mds_free(p->mds);
	free(p);
}

enum conf_attestation
policy_mode(const struct policy *p)
{
	return p != NULL ? p->cp->attestation : CONF_ATTEST_NONE;
}

static int
deny(struct policy_result *res, const char *why)
{
	snprintf(res->why, sizeof(res->why), "%s", why);
	return ERR_DENIED;
}

/* The evidence is about this credential: its key (and key handle, unless
 * the line says "*": a resident credential). */
static bool
is_this_cred(const struct authdata *ad, const struct cred *c)
{
	if (ad->type != c->type || ad->pk_len != c->pk_len ||
	    memcmp(ad->pk, c->pk, c->pk_len) != 0)
		return false;
	return (c->flags & CRED_RESIDENT) ||
	    (ad->cred_id_len == c->kh_len &&
		memcmp(ad->cred_id, c->kh, c->kh_len) == 0);
}

/* The statement: valid, with a certificate chain (not none, not self). */
static int
check_stmt(const struct policy *p, const struct evidence *ev,
    const struct authdata *ad, struct policy_result *res)
{
	uint8_t *leaf = NULL;
	size_t leaf_len = 0;
	int r;

	r = attest_verify(ev->fmt, strlen(ev->fmt), ev->stmt, ev->stmt_len,
	    ev->authdata, ev->authdata_len, ad, ev->cdh, p->lg, &leaf,
	    &leaf_len);
	free(leaf);
	if (r == ERR_NOMEM)
		return r;
	if (r != ERR_OK)
		return deny(res, "the attestation statement does not verify");
	if (leaf == NULL)
		return deny(res,
		    strcmp(ev->fmt, "none") == 0
			? "the key gave no attestation (format none)"
			: "self attestation: no certificate vouches for the "
			  "key");
	return ERR_OK;
}

/* The chain to the roots, as of at. */
static int
check_chain(const struct policy *p, const uint8_t *const *certs,
    const size_t *lens, size_t n, int64_t at, struct policy_result *res)
{
	char w[ATTCERT_WHY_MAX];
	int r;

	if ((r = attcert_chain_verify(p->roots, certs, lens, n, at, w)) ==
	    ERR_NOMEM)
		return r;
	if (r != ERR_OK) {
		snprintf(res->why, sizeof(res->why),
		    "the attestation chain does not verify to a configured "
		    "root: %s",
		    w);
		return ERR_DENIED;
	}
	return ERR_OK;
}

/* The model: the certificate's AAGUID (equal to authData's), else its
 * key identifier. *keyid is always the key identifier. */
static int
find_model(const uint8_t *leaf, size_t leaf_len, const struct authdata *ad,
    struct conf_policy_id *model, struct conf_policy_id *keyid,
    struct policy_result *res)
{
	bool present = false;

	memset(model, 0, sizeof(*model));
	memset(keyid, 0, sizeof(*keyid));
	if (attcert_keyid(leaf, leaf_len, keyid->id) != ERR_OK)
		return deny(res, "the attestation certificate is not DER");
	keyid->len = ATTCERT_KEYID_LEN;
	if (attcert_aaguid(leaf, leaf_len, model->id, &present) != ERR_OK)
		return deny(res,
		    "the certificate's AAGUID extension is "
		    "critical or malformed");
	if (present && memcmp(model->id, ad->aaguid, ATTCERT_AAGUID_LEN) != 0)
		return deny(res,
		    "the AAGUID in authData is not the one in the "
		    "attestation certificate");
	if (present)
		model->len = ATTCERT_AAGUID_LEN;
	else
		*model = *keyid;
	conf_policy_id_text(model, res->model);
	return ERR_OK;
}

static bool
listed(const struct conf_policy_id *list, size_t n,
    const struct conf_policy_id *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].len == id->len &&
		    memcmp(list[i].id, id->id, id->len) == 0)
			return true;
	return false;
}

/* The lists: a model is named by its AAGUID or its key identifier. */
static int
check_lists(const struct policy *p, const struct conf_policy_id *model,
    const struct conf_policy_id *keyid, struct policy_result *res)
{
	const struct conf_policy *cp = p->cp;

	if (listed(cp->deny, cp->ndeny, model) ||
	    listed(cp->deny, cp->ndeny, keyid))
		return deny(res, "the model is on aaguid_deny");
	if (cp->nallow > 0 && !listed(cp->allow, cp->nallow, model) &&
	    !listed(cp->allow, cp->nallow, keyid))
		return deny(res, "the model is not on aaguid_allow");
	return ERR_OK;
}

/* The evidence read and tied to c. */
static int
read_evidence(const struct cred *c, bool enrolling, int64_t now,
    struct evidence *ev, struct authdata *ad, struct policy_result *res)
{
	if (c->att == NULL)
		return deny(res,
		    "no attestation evidence is stored with the "
		    "credential");
	if (evidence_decode(c->att, c->att_len, ev) != ERR_OK ||
	    authdata_parse(ev->authdata, ev->authdata_len, true, ad) != ERR_OK)
		return deny(res, "the attestation evidence is malformed");
	if (!is_this_cred(ad, c))
		return deny(res,
		    "the attestation evidence is for another "
		    "credential");
	if (!enrolling && ev->time > now + POLICY_SKEW)
		return deny(res,
		    "the attestation evidence is dated in the "
		    "future");
	return ERR_OK;
}

int
policy_check(const struct policy *p, const struct cred *c, bool enrolling,
    int64_t now, struct policy_result *res)
{
	const uint8_t *certs[ATTCERT_CHAIN_MAX];
	size_t lens[ATTCERT_CHAIN_MAX], n = 0;
	struct conf_policy_id model, keyid;
	struct evidence ev;
	struct authdata ad;
	int r;

	memset(res, 0, sizeof(*res));
	if (p == NULL)
		return ERR_OK;
	if (c == NULL)
		return ERR_INVAL;
	if ((r = read_evidence(c, enrolling, now, &ev, &ad, res)) != ERR_OK ||
	    (r = check_stmt(p, &ev, &ad, res)) != ERR_OK)
		return r;
	if (attest_x5c(ev.stmt, ev.stmt_len, certs, lens, ATTCERT_CHAIN_MAX,
		&n) != ERR_OK)
		return deny(res,
		    "the attestation chain is malformed or too "
		    "long");
	if ((r = find_model(certs[0], lens[0], &ad, &model, &keyid, res)) !=
		ERR_OK ||
	    (r = check_chain(p, certs, lens, n, enrolling ? now : ev.time,
		 res)) != ERR_OK ||
	    (r = check_lists(p, &model, &keyid, res)) != ERR_OK)
		return r;
	if (p->mds != NULL)
		return policy_mds_check(
		    p->mds, &model, &keyid, res->why, sizeof(res->why));
	return ERR_OK;
}
