/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH security-key files (sshformat): sshkey_parse on the input as a
 * file, and on the input as the binary key blob, armoured the way
 * ssh-keygen writes it (so that mutations reach the blob parser, not only
 * the base64). A key that parses must satisfy sshkey.h; a refused one
 * leaves out zeroed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "fuzz.h"
#include "mapping/sshkey.h"

#define BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----\n"
#define END "-----END OPENSSH PRIVATE KEY-----\n"
#define WRAP 70 /* base64 characters per line, as ssh-keygen */

struct input {
	const char *buf;
	size_t len;
	char *armoured; /* NULL if it could not be made */
	size_t alen;
};

static void
check_cred(const struct cred *c)
{
	FUZZ_CHECK(
	    (c->flags & ~(unsigned)(CRED_PRESENCE | CRED_VERIFICATION)) == 0);
	FUZZ_CHECK(c->kh != NULL && c->kh_len >= 1 && c->pk != NULL);
	if (c->type == COSE_ES256) {
		FUZZ_CHECK(c->kh_len <= 255);
		FUZZ_CHECK(c->pk_len == 65 && c->pk[0] == 0x04);
	} else {
		FUZZ_CHECK(c->type == COSE_EDDSA);
		FUZZ_CHECK(c->kh_len <= 1023 && c->pk_len == 32);
	}
}

/* BEGIN, base64 of blob in lines of WRAP, END. */
static char *
armour(const uint8_t *blob, size_t len, size_t *outlen)
{
	char *b = NULL, *out = NULL, *p;
	size_t n, i, k;

	if (b64_encode(blob, len, &b) != ERR_OK)
		return NULL;
	n = strlen(b);
	if ((out = malloc(sizeof(BEGIN) + n + n / WRAP + 1 + sizeof(END))) ==
	    NULL) {
		free(b);
		return NULL;
	}
	p = out;
	memcpy(p, BEGIN, strlen(BEGIN));
	p += strlen(BEGIN);
	for (i = 0; i < n; i += k) {
		k = n - i < WRAP ? n - i : WRAP;
		memcpy(p, b + i, k);
		p += k;
		*p++ = '\n';
	}
	memcpy(p, END, strlen(END));
	p += strlen(END);
	*outlen = (size_t)(p - out);
	free(b);
	return out;
}

static void
parse(const char *buf, size_t len)
{
	struct cred c;
	int r;

	memset(&c, 0xa5, sizeof(c));
	FUZZ_CALL(r, sshkey_parse(buf, len, &c));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&c, sizeof(c)));
		return;
	}
	check_cred(&c);
	cred_clear(&c);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	parse(in->buf, in->len);
	if (in->armoured != NULL)
		parse(in->armoured, in->alen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {(const char *)data, len, NULL, 0};

	in.armoured = armour(data, len, &in.alen);
	fuzz_run(pass, &in, data, len);
	free(in.armoured);
	return 0;
}
