/* SPDX-License-Identifier: BSD-2-Clause */
/* The FIDO MDS3 BLOB, offline (policy_mds.h): a JWT read from the file
 * the policy names, its header's x5c chain verified to mds_roots
 * (crypto/attcert.c), its RS256 or ES256 signature verified, its "no"
 * held against the last one accepted (the root-owned state file
 * mds_state, advanced when we run as root), its nextUpdate honoured with
 * mds_grace days of grace; then the payload (mds_payload.c) is asked
 * about each credential's model. There is no network fetch here: the
 * administrator refreshes the file (pam_u2f.conf(5)). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/err.h"
#include "base/safefile.h"
#include "crypto/attcert.h"
#include "json.h"
#include "mds_payload.h"
#include "policy_mds.h"

#define MDS_FILE_MAX (32 * 1024 * 1024)
#define MDS_STATE_MAX 64
#define MDS_ALG_MAX 16
#define MDS_CERT_TEXT_MAX 8192
#define DAY 86400

struct policy_mds {
	struct mds_payload pl;
};

/* The JWT's three parts: header and payload decoded; signing input is
 * text[0..signed_len). */
struct jwt {
	uint8_t *header, *payload, *sig;
	size_t header_len, payload_len, sig_len, signed_len;
};

static void
jwt_free(struct jwt *j)
{
	free(j->header);
	free(j->payload);
	free(j->sig);
	memset(j, 0, sizeof(*j));
}

static int
jwt_split(const char *text, size_t len, struct jwt *j)
{
	const char *d1, *d2;

	memset(j, 0, sizeof(*j));
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if ((d1 = memchr(text, '.', len)) == NULL ||
	    (d2 = memchr(d1 + 1, '.', len - (size_t)(d1 + 1 - text))) == NULL ||
	    memchr(d2 + 1, '.', len - (size_t)(d2 + 1 - text)) != NULL)
		return ERR_PARSE;
	j->signed_len = (size_t)(d2 - text);
	if (b64url_decode(text, (size_t)(d1 - text), &j->header,
		&j->header_len) != ERR_OK ||
	    b64url_decode(d1 + 1, (size_t)(d2 - d1 - 1), &j->payload,
		&j->payload_len) != ERR_OK ||
	    b64url_decode(d2 + 1, len - (size_t)(d2 + 1 - text), &j->sig,
		&j->sig_len) != ERR_OK) {
		jwt_free(j);
		return ERR_PARSE;
	}
	return ERR_OK;
}

/* What the header says: alg and the x5c certificates (DER). */
struct header {
	char alg[MDS_ALG_MAX];
	uint8_t *certs[ATTCERT_CHAIN_MAX];
	size_t lens[ATTCERT_CHAIN_MAX];
	size_t n;
};

/* One x5c entry: standard base64 of a DER certificate. */
static int
x5c_cert(struct json_rd *r, void *arg)
{
	struct header *h = arg;
	char *text = NULL;
	size_t len = 0;
	int rc = ERR_PARSE;

	if (h->n >= ATTCERT_CHAIN_MAX)
		return ERR_TOO_BIG;
	if ((text = malloc(MDS_CERT_TEXT_MAX)) == NULL)
		return ERR_NOMEM;
	if (json_string(r, text, MDS_CERT_TEXT_MAX, &len) == ERR_OK &&
	    b64_decode(text, len, &h->certs[h->n], &h->lens[h->n]) == ERR_OK) {
		h->n++;
		rc = ERR_OK;
	}
	free(text);
	return rc;
}

static int
header_member(struct json_rd *r, const char *key, void *arg)
{
	struct header *h = arg;

	if (strcmp(key, "alg") == 0)
		return json_string(r, h->alg, sizeof(h->alg), NULL);
	if (strcmp(key, "x5c") == 0)
		return json_each_element(r, x5c_cert, h);
	return json_skip(r);
}

static int
read_header(const struct jwt *j, struct header *h)
{
	struct json_rd r;

	json_rd_init(&r, (const char *)j->header, j->header_len);
	if (json_each_member(&r, header_member, h) != ERR_OK ||
	    !json_rd_done(&r))
		return ERR_PARSE;
	return h->alg[0] != '\0' && h->n > 0 ? ERR_OK : ERR_PARSE;
}

/* The signer's chain to mds_roots, then the signature. */
static int
check_signature(const struct conf_policy *cp, uid_t owner, int64_t now,
    const char *text, const struct jwt *j, char *why, size_t whylen)
{
	struct attcert_roots *roots = NULL;
	char w[ATTCERT_WHY_MAX];
	struct header h;
	size_t i;
	int rc;

	memset(&h, 0, sizeof(h));
	if ((rc = read_header(j, &h)) != ERR_OK)
		snprintf(why, whylen, "its header has no alg or x5c");
	else if ((rc = attcert_roots_load(cp->mds_roots, owner, &roots, w)) !=
	    ERR_OK)
		snprintf(why, whylen, "mds_roots: %s", w);
	else if ((rc = attcert_chain_verify(roots,
		      (const uint8_t *const *)h.certs, h.lens, h.n, now, w)) !=
	    ERR_OK)
		snprintf(why, whylen,
		    "its signer does not chain to mds_roots: %s", w);
	else if ((rc = attcert_jws_verify(h.certs[0], h.lens[0], h.alg,
		      (const uint8_t *)text, j->signed_len, j->sig,
		      j->sig_len)) != ERR_OK)
		snprintf(
		    why, whylen, "its %s signature does not verify", h.alg);
	for (i = 0; i < h.n; i++)
		free(h.certs[i]);
	attcert_roots_free(roots);
	return rc;
}

/* The last accepted "no" from the state file; -1 when there is none. */
static int
state_read(
    const char *path, uid_t owner, int64_t *last, char *why, size_t whylen)
{
	const struct safefile_policy pol = {
	    .owner = owner, .max_size = MDS_STATE_MAX};
	const char *unsafe = NULL;
	char *buf = NULL, *end = NULL;
	size_t len = 0;
	long long v;
	int rc;

	*last = -1;
	rc = safefile_read(path, &pol, &buf, &len, &unsafe);
	if (rc == ERR_FILE && errno == ENOENT)
		return ERR_OK;
	if (rc == ERR_OK) {
		errno = 0;
		v = strtoll(buf, &end, 10);
		if (errno != 0 || end == buf || v < 0 ||
		    (*end != '\0' && strcmp(end, "\n") != 0))
			rc = ERR_PARSE;
		else
			*last = (int64_t)v;
	}
	if (rc != ERR_OK)
		snprintf(why, whylen, "mds_state %s: %s", path,
		    unsafe != NULL        ? unsafe
			: rc == ERR_PARSE ? "not a number"
					  : err_str(rc));
	free(buf);
	return rc;
}

/* Record no, atomically (a temporary file renamed over the state). */
static int
state_write(const char *path, int64_t no, char *why, size_t whylen)
{
	char tmp[4096], text[32];
	int fd = -1, n, rc = ERR_FILE;

	n = snprintf(text, sizeof(text), "%lld\n", (long long)no);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >=
	    sizeof(tmp))
		return ERR_TOO_BIG;
	if ((fd = mkstemp(tmp)) < 0)
		goto fail;
	if (fchmod(fd, 0644) != 0 || write(fd, text, (size_t)n) != n ||
	    fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		unlink(tmp);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		unlink(tmp);
		goto fail;
	}
	return ERR_OK;
fail:
	snprintf(why, whylen, "mds_state %s: cannot record no=%lld: %s", path,
	    (long long)no, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

/* "no" not going backwards, and nextUpdate with its grace. */
static int
check_fresh(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct mds_payload *pl, const struct log *lg, char *why,
    size_t whylen)
{
	int64_t last = -1;
	int rc;

	if (now > pl->next_update + (int64_t)cp->mds_grace * DAY) {
		snprintf(why, whylen,
		    "the BLOB is stale: its nextUpdate and %d days of grace "
		    "have passed (refresh the file)",
		    cp->mds_grace);
		return ERR_VERIFY;
	}
	if ((rc = state_read(cp->mds_state, owner, &last, why, whylen)) !=
	    ERR_OK)
		return rc;
	if (pl->no < last) {
		snprintf(why, whylen,
		    "its no=%lld is older than the last one accepted (%lld): "
		    "rolled back",
		    (long long)pl->no, (long long)last);
		return ERR_VERIFY;
	}
	if (pl->no > last && geteuid() == 0) {
		if ((rc = state_write(cp->mds_state, pl->no, why, whylen)) !=
		    ERR_OK)
			return rc;
		log_msg(lg, "mds: BLOB no=%lld accepted and recorded in %s",
		    (long long)pl->no, cp->mds_state);
	}
	return ERR_OK;
}

/* The BLOB's file: checked as the policy says; *pl its payload. */
static int
mds_load(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct mds_payload *pl, char *why, size_t whylen)
{
	const struct safefile_policy pol = {
	    .owner = owner, .max_size = MDS_FILE_MAX};
	const char *unsafe = NULL;
	char *text = NULL;
	size_t len = 0;
	struct jwt j;
	int rc;

	memset(&j, 0, sizeof(j));
	if ((rc = safefile_read(cp->mds, &pol, &text, &len, &unsafe)) !=
	    ERR_OK) {
		snprintf(
		    why, whylen, "%s", unsafe != NULL ? unsafe : err_str(rc));
		return rc;
	}
	if ((rc = jwt_split(text, len, &j)) != ERR_OK)
		snprintf(why, whylen, "not a JWT (header.payload.signature)");
	else if ((rc = check_signature(
		      cp, owner, now, text, &j, why, whylen)) == ERR_OK &&
	    (rc = mds_payload_parse(
		 (const char *)j.payload, j.payload_len, pl)) != ERR_OK)
		snprintf(
		    why, whylen, "its payload is malformed (%s)", err_str(rc));
	if (rc == ERR_OK &&
	    (rc = check_fresh(cp, owner, now, pl, lg, why, whylen)) != ERR_OK)
		mds_payload_free(pl);
	jwt_free(&j);
	free(text);
	return rc;
}

int
policy_mds_open(const struct conf_policy *cp, uid_t owner, int64_t now,
    const struct log *lg, struct policy_mds **out, char *why, size_t whylen)
{
	struct policy_mds *m = NULL;
	char w[2 * ATTCERT_WHY_MAX];
	int rc;

	*out = NULL;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return ERR_NOMEM;
	if ((rc = mds_load(cp, owner, now, lg, &m->pl, w, sizeof(w))) !=
	    ERR_OK) {
		snprintf(why, whylen, "policy: mds %s refused: %s", cp->mds, w);
		free(m);
		return rc == ERR_NOMEM ? rc : ERR_CONFIG;
	}
	*out = m;
	return ERR_OK;
}

void
policy_mds_free(struct policy_mds *m)
{
	if (m == NULL)
		return;
	mds_payload_free(&m->pl);
	free(m);
}

static bool
entry_is(const struct mds_entry *e, const struct conf_policy_id *id)
{
	size_t i;

	if (id->len == 16)
		return e->has_aaguid && memcmp(e->aaguid, id->id, 16) == 0;
	for (i = 0; i < e->nkeyids; i++)
		if (memcmp(e->keyids[i], id->id, 20) == 0)
			return true;
	return false;
}

int
policy_mds_check(const struct policy_mds *m, const struct conf_policy_id *model,
    const struct conf_policy_id *keyid, char *why, size_t whylen)
{
	const struct mds_entry *e;
	size_t i;

	for (i = 0; i < m->pl.n; i++) {
		e = &m->pl.entries[i];
		if (!entry_is(e, model) && !entry_is(e, keyid))
			continue;
		if (e->status[0] == '\0')
			return ERR_OK;
		snprintf(why, whylen,
		    "the metadata service reports \"%s\" as %s",
		    e->desc[0] ? e->desc : "(no description)", e->status);
		return ERR_DENIED;
	}
	return ERR_OK; /* not listed: the lists and roots decide */
}
