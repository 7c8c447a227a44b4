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

#define KEY_MAX 64
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

/* statusReports: [{"status": ..., ...}, ...] */
static int
read_reports(struct json_rd *r, struct mds_entry *e)
{
	char key[KEY_MAX], st[MDS_STATUS_MAX];
	bool more = true, first = true, mfirst;

	if (json_arr_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, ']', first, &more) == ERR_OK && more) {
		first = false;
		if (json_obj_begin(r) != ERR_OK)
			return ERR_PARSE;
		for (mfirst = true;
		     json_next(r, '}', mfirst, &more) == ERR_OK && more;
		     mfirst = false) {
			if (json_key(r, key, sizeof(key)) != ERR_OK)
				return ERR_PARSE;
			if (strcmp(key, "status") != 0) {
				if (json_skip(r) != ERR_OK)
					return ERR_PARSE;
				continue;
			}
			if (json_string(r, st, sizeof(st), NULL) != ERR_OK)
				return ERR_PARSE;
			if (refusing(st) && e->status[0] == '\0')
				memcpy(e->status, st, sizeof(st));
		}
		if (more)
			return ERR_PARSE;
	}
	return more ? ERR_PARSE : ERR_OK;
}

/* attestationCertificateKeyIdentifiers: ["40 hex digits", ...] */
static int
read_keyids(struct json_rd *r, struct mds_entry *e)
{
	struct conf_policy_id id;
	char text[ID_TEXT];
	bool more = true, first = true;

	if (json_arr_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, ']', first, &more) == ERR_OK && more) {
		first = false;
		if (json_string(r, text, sizeof(text), NULL) != ERR_OK ||
		    conf_policy_id_parse(text, &id) != ERR_OK ||
		    id.len != sizeof(e->keyids[0]))
			return ERR_PARSE;
		if (e->nkeyids >= MDS_KEYIDS_MAX)
			return ERR_TOO_BIG;
		if (e->keyids == NULL &&
		    (e->keyids = calloc(MDS_KEYIDS_MAX, sizeof(*e->keyids))) ==
			NULL)
			return ERR_NOMEM;
		memcpy(e->keyids[e->nkeyids++], id.id, sizeof(e->keyids[0]));
	}
	return more ? ERR_PARSE : ERR_OK;
}

/* metadataStatement: its description, the rest skipped. */
static int
read_statement(struct json_rd *r, struct mds_entry *e)
{
	char key[KEY_MAX];
	bool more = true, first = true;
	int rc;

	if (json_obj_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, '}', first, &more) == ERR_OK && more) {
		first = false;
		if (json_key(r, key, sizeof(key)) != ERR_OK)
			return ERR_PARSE;
		if (strcmp(key, "description") != 0)
			rc = json_skip(r);
		else if ((rc = json_string(r, e->desc, sizeof(e->desc),
			      NULL)) == ERR_TOO_BIG)
			rc = json_skip(r); /* a long one is not needed */
		if (rc != ERR_OK)
			return ERR_PARSE;
	}
	return more ? ERR_PARSE : ERR_OK;
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
read_entry(struct json_rd *r, struct mds_entry *e)
{
	char key[KEY_MAX];
	bool more = true, first = true;
	int rc;

	if (json_obj_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, '}', first, &more) == ERR_OK && more) {
		first = false;
		if (json_key(r, key, sizeof(key)) != ERR_OK)
			return ERR_PARSE;
		if (strcmp(key, "aaguid") == 0)
			rc = read_aaguid(r, e);
		else if (strcmp(key, "attestationCertificateKeyIdentifiers") ==
		    0)
			rc = read_keyids(r, e);
		else if (strcmp(key, "statusReports") == 0)
			rc = read_reports(r, e);
		else if (strcmp(key, "metadataStatement") == 0)
			rc = read_statement(r, e);
		else
			rc = json_skip(r);
		if (rc != ERR_OK)
			return rc;
	}
	return more ? ERR_PARSE : ERR_OK;
}

static int
read_entries(struct json_rd *r, struct mds_payload *p)
{
	struct mds_entry *ne;
	bool more = true, first = true;
	size_t cap = 0;
	int rc;

	if (json_arr_begin(r) != ERR_OK)
		return ERR_PARSE;
	while (json_next(r, ']', first, &more) == ERR_OK && more) {
		first = false;
		if (p->n >= MDS_ENTRIES_MAX)
			return ERR_TOO_BIG;
		if (p->n == cap) {
			cap = cap == 0 ? 64 : 2 * cap;
			if ((ne = realloc(p->entries, cap * sizeof(*ne))) ==
			    NULL)
				return ERR_NOMEM;
			p->entries = ne;
		}
		memset(&p->entries[p->n], 0, sizeof(*ne));
		rc = read_entry(r, &p->entries[p->n]);
		p->n++; /* freed with the rest, whatever rc */
		if (rc != ERR_OK)
			return rc;
	}
	return more ? ERR_PARSE : ERR_OK;
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

int
mds_payload_parse(const char *text, size_t len, struct mds_payload *out)
{
	struct json_rd r;
	char key[KEY_MAX];
	bool more = true, first = true, has_no = false, has_next = false;
	int rc = ERR_OK;

	memset(out, 0, sizeof(*out));
	json_rd_init(&r, text, len);
	if (json_obj_begin(&r) != ERR_OK)
		return ERR_PARSE;
	while (rc == ERR_OK &&
	    (rc = json_next(&r, '}', first, &more)) == ERR_OK && more) {
		first = false;
		if ((rc = json_key(&r, key, sizeof(key))) != ERR_OK)
			break;
		if (strcmp(key, "no") == 0 && (has_no = true))
			rc = json_int(&r, &out->no);
		else if (strcmp(key, "nextUpdate") == 0 && (has_next = true))
			rc = read_date(&r, &out->next_update);
		else if (strcmp(key, "entries") == 0)
			rc = read_entries(&r, out);
		else
			rc = json_skip(&r);
	}
	if (rc == ERR_OK &&
	    (!has_no || !has_next || out->no < 0 || !json_rd_done(&r)))
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
