/* SPDX-License-Identifier: BSD-2-Clause */
/* SSSD passkey: values and authcmd= output: passkey_parse on the input as
 * a value; on the input as the DER SubjectPublicKeyInfo of a value built
 * around it (so that mutations reach the DER reader, not only the
 * base64); cmdout_find (user "alice") on the input as a command's
 * output. A credential that parses must satisfy passkey.h; a refused one
 * leaves out zeroed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "fuzz.h"
#include "mapping/authcmd_output.h"
#include "mapping/passkey.h"

#define KH_B64 "AAECAwQFBgcICQoLDA0ODw==" /* 16 bytes */

struct input {
	const char *buf;
	size_t len;
	char *wrapped; /* "passkey:" KH_B64 "," base64(input); NULL if none */
};

static void
check_cred(const struct cred *c)
{
	FUZZ_CHECK(c->flags == (CRED_PRESENCE | CRED_PIN));
	FUZZ_CHECK(c->kh != NULL && c->kh_len >= 1 && c->pk != NULL);
	switch (c->type) {
	case COSE_ES256:
		FUZZ_CHECK(c->kh_len <= 255);
		FUZZ_CHECK(c->pk_len == 65 && c->pk[0] == 0x04);
		break;
	case COSE_EDDSA:
		FUZZ_CHECK(c->kh_len <= 1023 && c->pk_len == 32);
		break;
	default:
		FUZZ_CHECK(c->type == COSE_RS256);
		FUZZ_CHECK(c->kh_len <= 1023 && c->pk_len == 259);
		FUZZ_CHECK((c->pk[255] & 1) == 1 && (c->pk[258] & 1) == 1);
		FUZZ_CHECK((c->pk[0] & 0x80) != 0);
	}
}

static void
parse(const char *buf, size_t len)
{
	struct cred c;
	int r;

	memset(&c, 0xa5, sizeof(c));
	FUZZ_CALL(r, passkey_parse(buf, len, &c));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&c, sizeof(c)));
		return;
	}
	FUZZ_CHECK(passkey_is(buf, len));
	check_cred(&c);
	cred_clear(&c);
}

static void
output(const char *buf, size_t len)
{
	struct cred *c = (struct cred *)1;
	size_t n = 7, bad = 7, i;
	int r;

	FUZZ_CALL(r, cmdout_find(buf, len, "alice", &c, &n, &bad));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOT_FOUND ||
	    r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(c == NULL && n == 0);
		FUZZ_CHECK((r == ERR_PARSE) == (bad > 0));
		return;
	}
	FUZZ_CHECK(c != NULL && n > 0 && bad == 0);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(c[i].pk != NULL && cred_type_name(c[i].type));
	cred_free_list(c, n);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	parse(in->buf, in->len);
	if (in->wrapped != NULL)
		parse(in->wrapped, strlen(in->wrapped));
	output(in->buf, in->len);
}

/* The input as the SPKI of a value. */
static char *
wrap(const uint8_t *data, size_t len)
{
	char *b = NULL, *out;
	size_t n;

	if (len == 0 || b64_encode(data, len, &b) != ERR_OK)
		return NULL;
	n = strlen("passkey:" KH_B64 ",") + strlen(b) + 1;
	if ((out = malloc(n)) != NULL) {
		strcpy(out, "passkey:" KH_B64 ",");
		strcat(out, b);
	}
	free(b);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {(const char *)data, len, NULL};

	in.wrapped = wrap(data, len);
	fuzz_run(pass, &in, data, len);
	free(in.wrapped);
	return 0;
}
