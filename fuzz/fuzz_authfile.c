/* Mapping files: authfile_find over the whole input for a fixed user, and
 * authfile_parse_line over its first line. What is found must satisfy the
 * contract in authfile.h, and every credential the current format can
 * hold must survive authfile_format_line then authfile_parse_line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "authfile.h"
#include "cred.h"
#include "err.h"
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
		FUZZ_CHECK(!"known COSE type");
	}
	if (c->flags & CRED_APPID)
		FUZZ_CHECK(c->type == COSE_ES256 &&
		    (c->flags & CRED_PRESENCE));
}

static int
same_cred(const struct cred *a, const struct cred *b)
{
	return a->type == b->type && a->flags == b->flags &&
	    a->kh_len == b->kh_len && a->pk_len == b->pk_len &&
	    (a->kh_len == 0 || memcmp(a->kh, b->kh, a->kh_len) == 0) &&
	    memcmp(a->pk, b->pk, a->pk_len) == 0;
}

static void
mix_creds(uint64_t *d, const struct cred *c, size_t n)
{
	size_t i;

	fuzz_mix_int(d, (long long)n);
	for (i = 0; i < n; i++) {
		fuzz_mix_int(d, c[i].type);
		fuzz_mix_int(d, c[i].flags);
		fuzz_mix(d, c[i].kh, c[i].kh_len);
		fuzz_mix(d, c[i].pk, c[i].pk_len);
	}
}

/* Format the credentials the current format can hold (not CRED_APPID),
 * parse the line back, and compare. */
static int
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
			keep[m++] = creds[i];	/* shallow: not freed here */
	if ((r = authfile_format_line(USER, keep, m, &line)) != ERR_OK)
		goto fail;
	r = authfile_parse_line(line, strlen(line), &user, &back, &nback);
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
	return r;
}

static int
find(const struct input *in, uint64_t *d)
{
	struct cred *creds = NULL;
	size_t n = 0, bad = 0, i;
	int r;

	r = authfile_find(in->buf, in->len, USER, &creds, &n, &bad);
	fuzz_mix_int(d, r);
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOT_FOUND || r == ERR_PARSE ||
	    r == ERR_NOMEM);
	if (r == ERR_PARSE) {
		FUZZ_CHECK(bad >= 1 && bad <= in->len + 1);
		fuzz_mix_int(d, (long long)bad);
	}
	if (r != ERR_OK) {
		FUZZ_CHECK(creds == NULL && n == 0);
		return r == ERR_NOMEM ? r : ERR_OK;
	}
	FUZZ_CHECK((creds == NULL) == (n == 0));
	for (i = 0; i < n; i++)
		check_cred(&creds[i]);
	mix_creds(d, creds, n);
	r = round_trip(creds, n);
	cred_free_list(creds, n);
	return r;
}

static int
parse_first_line(const struct input *in, uint64_t *d)
{
	const char *nl = memchr(in->buf, '\n', in->len);
	size_t len = nl != NULL ? (size_t)(nl - in->buf) : in->len;
	struct cred *creds = NULL;
	char *user = NULL;
	size_t n = 0, i;
	int r;

	r = authfile_parse_line(in->buf, len, &user, &creds, &n);
	fuzz_mix_int(d, r);
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(user == NULL && creds == NULL && n == 0);
		return r == ERR_NOMEM ? r : ERR_OK;
	}
	FUZZ_CHECK(user != NULL && user[0] != '\0');
	FUZZ_CHECK(strchr(user, ':') == NULL && strlen(user) < len);
	fuzz_mix(d, user, strlen(user));
	for (i = 0; i < n; i++)
		check_cred(&creds[i]);
	mix_creds(d, creds, n);
	cred_free_list(creds, n);
	free(user);
	return ERR_OK;
}

static int
pass(void *arg, uint64_t *d)
{
	const struct input *in = arg;
	int r1, r2;

	r1 = find(in, d);
	r2 = parse_first_line(in, d);
	return r1 != ERR_OK ? r1 : r2;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = { (const char *)data, len };

	fuzz_run(pass, &in, data, len);
	return 0;
}
