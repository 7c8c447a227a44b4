/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH public key lines of FIDO keys (common/ssh/sshpub.c): the input
 * as a line (options, type, base64, comment: sshpub_parse), as a key
 * blob (sshpub_from_blob, what an agent lists), and as that blob written
 * into a line (so that mutations reach the blob parser through the
 * base64). A key that parses must re-encode to the blob it came from,
 * format back to a line that parses the same, and a refused one leaves
 * its output zeroed. Its own harness: the one parser of the key lines
 * that the mapping sources, authcmd= and pamu2fcfg all hand over. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "fuzz.h"
#include "ssh/ssh.h"
#include "ssh/sshpub_int.h"
#include "ssh/wire.h"

/* An allocation was made to fail in this pass: inside OpenSSL that may
 * come back as any error (fuzz.h), so only ERR_OK is checked then. */
static int
injected(void)
{
	return failmalloc_injected() != FAILMALLOC_NONE;
}

struct input {
	char *line;   /* the input, NUL-terminated */
	char *asline; /* "<type> <base64 of the input> c", or NULL */
	const uint8_t *buf;
	size_t len;
};

/* The blob of k's fields (PROTOCOL.u2f), to hold against k->blob. */
static void
reencode(const struct sshpub *k, struct wire *w)
{
	wire_init(w, SSHAGENT_MAX_MSG);
	if (k->type == SSHPUB_SK_ECDSA) {
		wire_put_cstring(w, SSHPUB_ECDSA_NAME);
		wire_put_cstring(w, "nistp256");
	} else {
		wire_put_cstring(w, SSHPUB_ED25519_NAME);
	}
	wire_put_string(w, k->pk, k->pk_len);
	wire_put_cstring(w, k->application);
}

static void
check_key(const struct sshpub *k)
{
	struct wire w;

	FUZZ_CHECK(k->type == SSHPUB_SK_ECDSA || k->type == SSHPUB_SK_ED25519);
	if (k->type == SSHPUB_SK_ECDSA)
		FUZZ_CHECK(k->pk_len == 65 && k->pk[0] == 0x04);
	else
		FUZZ_CHECK(k->pk_len == 32);
	FUZZ_CHECK(k->application != NULL &&
	    strncmp(k->application, "ssh:", 4) == 0 &&
	    strlen(k->application) <= SSHPUB_APP_MAX);
	FUZZ_CHECK(k->blob != NULL && k->blob_len > 0);
	reencode(k, &w);
	if (w.err == ERR_OK)
		FUZZ_CHECK(
		    w.len == k->blob_len && memcmp(w.p, k->blob, w.len) == 0);
	wire_clear(&w);
}

/* sshpub_format, then sshpub_parse of its line: the same key. */
static void
round_trip(const struct sshpub *k)
{
	struct sshpub k2;
	char *line = NULL;
	int r;

	FUZZ_CALL(r, sshpub_format(k, &line));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM || injected());
	if (r != ERR_OK)
		return;
	FUZZ_CALL(r, sshpub_parse(line, &k2));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM || injected());
	if (r == ERR_OK) {
		FUZZ_CHECK(k2.type == k->type && k2.blob_len == k->blob_len &&
		    memcmp(k2.blob, k->blob, k->blob_len) == 0);
		FUZZ_CHECK(k2.no_touch_required == k->no_touch_required &&
		    k2.verify_required == k->verify_required);
		FUZZ_CHECK(strcmp(k2.application, k->application) == 0);
		/* the comment is written only when printable */
		FUZZ_CHECK(k2.comment == NULL ||
		    (k->comment != NULL &&
			strcmp(k2.comment, k->comment) == 0));
		sshpub_clear(&k2);
	}
	free(line);
}

static void
parse_line(const char *line)
{
	struct sshpub k;
	int r;

	memset(&k, 0xa5, sizeof(k));
	FUZZ_CALL(r, sshpub_parse(line, &k));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_CONFIG ||
	    r == ERR_UNSUPPORTED || r == ERR_NOMEM || injected());
	if (r != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&k, sizeof(k)));
		return;
	}
	check_key(&k);
	round_trip(&k);
	sshpub_clear(&k);
	FUZZ_CHECK(fuzz_is_zero(&k, sizeof(k)));
}

static void
parse_blob(const uint8_t *buf, size_t len)
{
	struct sshpub k;
	int r;

	memset(&k, 0xa5, sizeof(k));
	FUZZ_CALL(r, sshpub_from_blob(buf, len, &k));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_UNSUPPORTED ||
	    r == ERR_NOMEM || injected());
	if (r != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&k, sizeof(k)));
		return;
	}
	FUZZ_CHECK(k.blob_len == len && memcmp(k.blob, buf, len) == 0);
	FUZZ_CHECK(
	    k.comment == NULL && !k.no_touch_required && !k.verify_required);
	check_key(&k);
	round_trip(&k);
	sshpub_clear(&k);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	parse_line(in->line);
	parse_blob(in->buf, in->len);
	if (in->asline != NULL)
		parse_line(in->asline);
}

/* The input as the blob of a line: the type named by the blob when it
 * names one of ours (else the ECDSA one), its base64, a comment. */
static char *
as_line(const uint8_t *data, size_t len)
{
	const char *type = SSHPUB_ECDSA_NAME;
	size_t tl = strlen(SSHPUB_ED25519_NAME);
	char *b = NULL, *line;
	size_t n;

	if (len >= 4 + tl && data[3] == tl &&
	    memcmp(data + 4, SSHPUB_ED25519_NAME, tl) == 0)
		type = SSHPUB_ED25519_NAME;
	if (b64_encode(data, len, &b) != ERR_OK)
		return NULL;
	n = strlen(type) + 1 + strlen(b) + 3 + 1;
	if ((line = malloc(n)) != NULL) {
		memcpy(line, type, strlen(type));
		line[strlen(type)] = ' ';
		memcpy(line + strlen(type) + 1, b, strlen(b));
		memcpy(line + n - 4, " c", 3);
	}
	free(b);
	return line;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {NULL, NULL, data, len};

	if ((in.line = malloc(len + 1)) == NULL)
		return 0;
	memcpy(in.line, data, len);
	in.line[len] = '\0';
	in.asline = as_line(data, len);
	fuzz_run(pass, &in, data, len);
	free(in.asline);
	free(in.line);
	return 0;
}
