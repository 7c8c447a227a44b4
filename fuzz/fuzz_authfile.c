/* SPDX-License-Identifier: BSD-2-Clause */
/* Mapping files: authfile_find over the whole input for a fixed user, and
 * authfile_parse_line over its first line. What is found must satisfy the
 * contract in authfile.h, and every credential the current format can
 * hold must survive authfile_format_line then authfile_parse_line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mapping/authfile.h"
#include "base/cred.h"
#include "base/err.h"
#include "fuzz.h"

#define USER "alice"
#define KH_MAX_ES256 255
#define KH_MAX 1023

struct input {
	const char *buf;
	size_t len;
};

static void
check_cred(const struct cred *c)
{
	const unsigned all = CRED_PRESENCE | CRED_VERIFICATION | CRED_PIN |
	    CRED_RESIDENT | CRED_APPID;

	FUZZ_CHECK((c->flags & ~all) == 0);
	FUZZ_CHECK(c->pk != NULL && c->pk_len > 0);
	FUZZ_CHECK((c->kh == NULL) == (c->kh_len == 0));
	if (c->flags & CRED_RESIDENT)
		FUZZ_CHECK(c->kh_len == 0);
	else
		FUZZ_CHECK(c->kh_len > 0);
	switch (c->type) {
	case COSE_ES256:
		FUZZ_CHECK(c->kh_len <= KH_MAX_ES256);
		FUZZ_CHECK(c->pk_len == 65 && c->pk[0] == 0x04);
		break;
	case COSE_EDDSA:
		FUZZ_CHECK(c->kh_len <= KH_MAX && c->pk_len == 32);
		break;
	case COSE_RS256:
		FUZZ_CHECK(c->kh_len <= KH_MAX);
		break;
	default:
		fuzz_fail("known COSE type", __FILE__, __LINE__);
	}
	if (c->flags & CRED_APPID)
		FUZZ_CHECK(c->type == COSE_ES256 && (c->flags & CRED_PRESENCE));
}

static int
same_cred(const struct cred *a, const struct cred *b)
{
	return a->type == b->type && a->flags == b->flags &&
	    a->kh_len == b->kh_len && a->pk_len == b->pk_len &&
	    (a->kh_len == 0 || memcmp(a->kh, b->kh, a->kh_len) == 0) &&
	    memcmp(a->pk, b->pk, a->pk_len) == 0;
}

/* Format the credentials the current format can hold (not CRED_APPID),
 * parse the line back, and compare. */
static void
round_trip(const struct cred *creds, size_t n)
{
	struct cred *keep = NULL, *back = NULL;
	char *line = NULL, *user = NULL;
	size_t m = 0, nback = 0, i;
	int r = ERR_NOMEM;

	if (n > 0 && (keep = calloc(n, sizeof(*keep))) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if ((creds[i].flags & CRED_APPID) == 0)
			keep[m++] = creds[i]; /* shallow: not freed here */
	FUZZ_CALL(r, authfile_format_line(USER, keep, m, &line));
	if (r != ERR_OK)
		goto fail;
	FUZZ_CALL(
	    r, authfile_parse_line(line, strlen(line), &user, &back, &nback));
	if (r != ERR_OK)
		goto fail;
	FUZZ_CHECK(strcmp(user, USER) == 0);
	FUZZ_CHECK(nback == m);
	for (i = 0; i < m; i++)
		FUZZ_CHECK(same_cred(&keep[i], &back[i]));
fail:
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM);
	cred_free_list(back, nback);
	free(user);
	free(line);
	free(keep);
}

static void
find(const struct input *in)
{
	struct cred *creds = NULL;
	size_t n = 0, bad = 0, i;
	int r;

	FUZZ_CALL(r, authfile_find(in->buf, in->len, USER, &creds, &n, &bad));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOT_FOUND || r == ERR_PARSE ||
	    r == ERR_NOMEM);
	if (r == ERR_PARSE)
		FUZZ_CHECK(bad >= 1 && bad <= in->len + 1);
	if (r != ERR_OK) {
		FUZZ_CHECK(creds == NULL && n == 0);
		return;
	}
	FUZZ_CHECK((creds == NULL) == (n == 0));
	for (i = 0; i < n; i++)
		check_cred(&creds[i]);
	round_trip(creds, n);
	cred_free_list(creds, n);
}

static void
parse_first_line(const struct input *in)
{
	const char *nl = memchr(in->buf, '\n', in->len);
	size_t len = nl != NULL ? (size_t)(nl - in->buf) : in->len;
	struct cred *creds = NULL;
	char *user = NULL;
	size_t n = 0, i;
	int r;

	FUZZ_CALL(r, authfile_parse_line(in->buf, len, &user, &creds, &n));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(user == NULL && creds == NULL && n == 0);
		return;
	}
	FUZZ_CHECK(user != NULL && user[0] != '\0');
	FUZZ_CHECK(strchr(user, ':') == NULL && strlen(user) < len);
	for (i = 0; i < n; i++)
		check_cred(&creds[i]);
	cred_free_list(creds, n);
	free(user);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	find(in);
	parse_first_line(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {(const char *)data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
