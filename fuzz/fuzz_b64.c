/* SPDX-License-Identifier: BSD-2-Clause */
/* Base64 (standard and URL-safe) and hex: decoders on hostile text, and
 * round trips. The decoders are exact, so a text that decodes must be the
 * canonical encoding of what it decodes to (hex: up to letter case), and
 * any bytes must survive encode then decode. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "fuzz.h"

struct codec {
	int (*decode)(const char *, size_t, uint8_t **, size_t *);
	int (*encode)(const uint8_t *, size_t, char **);
	int nocase;
};

static const struct codec codecs[] = {
    {b64_decode, b64_encode, 0},
    {b64url_decode, b64url_encode, 0},
    {hex_decode, hex_encode, 1},
};

struct input {
	const uint8_t *data;
	size_t len;
};

static int
same_text(const char *a, const char *b, size_t len, int nocase)
{
	size_t i;

	if (!nocase)
		return memcmp(a, b, len) == 0;
	for (i = 0; i < len; i++)
		if (tolower((unsigned char)a[i]) !=
		    tolower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* decode(text) must be ERR_PARSE, or re-encode to text. */
static void
text_round_trip(const struct codec *c, const struct input *in)
{
	uint8_t *bin = NULL;
	char *txt = NULL;
	size_t n = 0;
	int r;

	FUZZ_CALL(r, c->decode((const char *)in->data, in->len, &bin, &n));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(bin == NULL && n == 0);
		return;
	}
	FUZZ_CALL(r, c->encode(bin, n, &txt));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM);
	if (r == ERR_OK) {
		FUZZ_CHECK(strlen(txt) == in->len);
		FUZZ_CHECK(
		    same_text(txt, (const char *)in->data, in->len, c->nocase));
	}
	free(bin);
	free(txt);
}

/* Any bytes: decode(encode(bytes)) == bytes. */
static void
bin_round_trip(const struct codec *c, const struct input *in)
{
	uint8_t *bin = NULL;
	char *txt = NULL;
	size_t n = 0;
	int r;

	FUZZ_CALL(r, c->encode(in->data, in->len, &txt));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(txt == NULL);
		return;
	}
	FUZZ_CALL(r, c->decode(txt, strlen(txt), &bin, &n));
	FUZZ_CHECK(r == ERR_OK || r == ERR_NOMEM);
	if (r == ERR_OK) {
		FUZZ_CHECK(n == in->len);
		FUZZ_CHECK(n == 0 || memcmp(bin, in->data, n) == 0);
	}
	free(bin);
	free(txt);
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	size_t i;

	for (i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
		text_round_trip(&codecs[i], in);
		bin_round_trip(&codecs[i], in);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
