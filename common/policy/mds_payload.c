/* SPDX-License-Identifier: BSD-2-Clause */
/* The MDS3 payload (mds_payload.h) through the JSON reader (json.c). Its
 * own file so that policy_mds.c stays the BLOB's verification: this file
 * trusts its input only that far (it is signed), and still bounds it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "conf/confpolicy.h"
#include "json.h"
#include "mds_payload.h"

#define ID_TEXT 48

static bool
refusing(const char *status)
{
	static const char *const bad[] = {"REVOKED",
	    "ATTESTATION_KEY_COMPROMISE", "USER_VERIFICATION_BYPASS",
	    "USER_KEY_REMOTE_COMPROMISE"};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strcmp(status, bad[i]) == 0)
			return true;
	return false;
}

/* One status report: its status, the rest skipped. */
static int
report_member(struct json_rd *r, const char *key, void *arg)
{
	struct mds_entry *e = arg;
	char st[MDS_STATUS_MAX];

	if (strcmp(key, "status") != 0)
		return json_skip(r);
	if (json_string(r, st, sizeof(st), NULL) != ERR_OK)
		return ERR_PARSE;
	if (refusing(st) && e->status[0] == '\0')
		memcpy(e->status, st, sizeof(st));
	return ERR_OK;
}

static int
report(struct json_rd *r, void *arg)
{
	return json_each_member(r, report_member, arg);
}

/* One of attestationCertificateKeyIdentifiers: 40 hex digits. */
static int
keyid(struct json_rd *r, void *arg)
{
	struct mds_entry *e = arg;
	struct conf_policy_id id;
	char text[ID_TEXT];

	if (json_string(r, text, sizeof(text), NULL) != ERR_OK ||
	    conf_policy_id_parse(text, &id) != ERR_OK ||
	    id.len != sizeof(e->keyids[0]))
		return ERR_PARSE;
	if (e->nkeyids >= MDS_KEYIDS_MAX)
		return ERR_TOO_BIG;
	if (e->keyids == NULL &&
	    (e->keyids = calloc(MDS_KEYIDS_MAX, sizeof(*e->keyids))) == NULL)
		return ERR_NOMEM;
	memcpy(e->keyids[e->nkeyids++], id.id, sizeof(e->keyids[0]));
	return ERR_OK;
}

/* metadataStatement: its description (a long one is skipped). */
static int
statement_member(struct json_rd *r, const char *key, void *arg)
{
	struct mds_entry *e = arg;
	struct json_rd at = *r;
	int rc;

	if (strcmp(key, "description") != 0)
		return json_skip(r);
	if ((rc = json_string(r, e->desc, sizeof(e->desc), NULL)) ==
	    ERR_TOO_BIG) {
		*r = at;
		e->desc[0] = '\0';
		rc = json_skip(r);
	}
	return rc;
}

static int
read_aaguid(struct json_rd *r, struct mds_entry *e)
{
	struct conf_policy_id id;
	char text[ID_TEXT];

	if (json_string(r, text, sizeof(text), NULL) != ERR_OK ||
	    conf_policy_id_parse(text, &id) != ERR_OK || id.len != 16)
		return ERR_PARSE;
	memcpy(e->aaguid, id.id, 16);
	e->has_aaguid = true;
	return ERR_OK;
}

static int
entry_member(struct json_rd *r, const char *key, void *arg)
{
	struct mds_entry *e = arg;

	if (strcmp(key, "aaguid") == 0)
		return read_aaguid(r, e);
	if (strcmp(key, "attestationCertificateKeyIdentifiers") == 0)
		return json_each_element(r, keyid, e);
	if (strcmp(key, "statusReports") == 0)
		return json_each_element(r, report, e);
	if (strcmp(key, "metadataStatement") == 0)
		return json_each_member(r, statement_member, e);
	return json_skip(r);
}

/* One entry, appended to the payload's list. */
static int
entry(struct json_rd *r, void *arg)
{
	struct mds_payload *p = arg;
	struct mds_entry *ne;
	size_t cap;

	if (p->n >= MDS_ENTRIES_MAX)
		return ERR_TOO_BIG;
	if (p->n == p->cap) { /* the list grows by doubling from 64 */
		cap = p->cap == 0 ? 64 : 2 * p->cap;
		if ((ne = realloc(p->entries, cap * sizeof(*ne))) == NULL)
			return ERR_NOMEM;
		p->entries = ne;
		p->cap = cap;
	}
	memset(&p->entries[p->n], 0, sizeof(*ne));
	p->n++; /* freed with the rest, whatever the entry holds */
	return json_each_member(r, entry_member, &p->entries[p->n - 1]);
}

/* "YYYY-MM-DD" as seconds since the epoch at 00:00 UTC. */
static int
read_date(struct json_rd *r, int64_t *t)
{
	char text[16], *end;
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (json_string(r, text, sizeof(text), NULL) != ERR_OK ||
	    strlen(text) != 10 ||
	    (end = strptime(text, "%Y-%m-%d", &tm)) == NULL || *end != '\0')
		return ERR_PARSE;
	*t = (int64_t)timegm(&tm);
	return ERR_OK;
}

/* The payload's own members; has[0], has[1]: "no", "nextUpdate" seen. */
struct top {
	struct mds_payload *p;
	bool has[2];
};

static int
top_member(struct json_rd *r, const char *key, void *arg)
{
	struct top *t = arg;

	if (strcmp(key, "no") == 0) {
		t->has[0] = true;
		return json_int(r, &t->p->no);
	}
	if (strcmp(key, "nextUpdate") == 0) {
		t->has[1] = true;
		return read_date(r, &t->p->next_update);
	}
	if (strcmp(key, "entries") == 0)
		return json_each_element(r, entry, t->p);
	return json_skip(r);
}

int
mds_payload_parse(const char *text, size_t len, struct mds_payload *out)
{
	struct top t = {out, {false, false}};
	struct json_rd r;
	int rc;

	memset(out, 0, sizeof(*out));
	json_rd_init(&r, text, len);
	rc = json_each_member(&r, top_member, &t);
	if (rc == ERR_OK &&
	    (!t.has[0] || !t.has[1] || out->no < 0 || !json_rd_done(&r)))
		rc = ERR_PARSE;
	if (rc != ERR_OK)
		mds_payload_free(out);
	return rc;
}

void
mds_payload_free(struct mds_payload *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->entries[i].keyids);
	free(p->entries);
	memset(p, 0, sizeof(*p));
}
