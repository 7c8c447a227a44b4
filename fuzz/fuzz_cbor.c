/* SPDX-License-Identifier: BSD-2-Clause */
/* base/cbor on hostile bytes. cbor_check decides; whatever it accepts is
 * canonical, so walking it with the reader and writing every item back
 * with the writer must give the same bytes (canonical CBOR is a fixed
 * point). The reader alone must stay inside any input. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "fuzz.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static int copy_item(struct cbor_rd *r, struct cbor_wr *w, int depth);

static int
copy_container(
    struct cbor_rd *r, struct cbor_wr *w, enum cbor_type t, int depth)
{
	size_t n, i;

	if (t == CBOR_ARRAY) {
		if (cbor_get_array(r, &n) != ERR_OK)
			return ERR_PARSE;
		cbor_put_array(w, n);
	} else {
		if (cbor_get_map(r, &n) != ERR_OK)
			return ERR_PARSE;
		cbor_put_map(w, n);
		n *= 2;
	}
	for (i = 0; i < n; i++)
		if (copy_item(r, w, depth + 1) != ERR_OK)
			return ERR_PARSE;
	return ERR_OK;
}

static int
copy_item(struct cbor_rd *r, struct cbor_wr *w, int depth)
{
	enum cbor_type t;
	const uint8_t *p;
	const char *s;
	uint64_t u;
	int64_t i;
	size_t n;
	bool b;

	FUZZ_CHECK(depth <= CBOR_MAX_DEPTH + 1);
	if (cbor_peek(r, &t) != ERR_OK)
		return ERR_PARSE;
	switch (t) {
	case CBOR_UINT:
		if (cbor_get_uint(r, &u) != ERR_OK)
			return ERR_PARSE;
		cbor_put_uint(w, u);
		return ERR_OK;
	case CBOR_NINT:
		if (cbor_get_int(r, &i) != ERR_OK)
			return ERR_PARSE;
		cbor_put_int(w, i);
		return ERR_OK;
	case CBOR_BYTES:
		if (cbor_get_bytes(r, &p, &n) != ERR_OK)
			return ERR_PARSE;
		cbor_put_bytes(w, p, n);
		return ERR_OK;
	case CBOR_TEXT:
		if (cbor_get_text(r, &s, &n) != ERR_OK)
			return ERR_PARSE;
		cbor_put_text(w, s, n);
		return ERR_OK;
	case CBOR_SIMPLE:
		if (cbor_get_bool(r, &b) != ERR_OK)
			return ERR_PARSE;
		cbor_put_bool(w, b);
		return ERR_OK;
	case CBOR_ARRAY:
	case CBOR_MAP:
		return copy_container(r, w, t, depth);
	default:
		return ERR_PARSE;
	}
}

/* Accepted input: the reader walks it and the writer reproduces it. */
static void
round_trip(const struct input *in)
{
	uint8_t *out = malloc(in->len);
	struct cbor_rd r;
	struct cbor_wr w;
	size_t n = 0;
	int rc;

	if (out == NULL)
		return;
	cbor_rd_init(&r, in->data, in->len);
	cbor_wr_init(&w, out, in->len);
	rc = copy_item(&r, &w, 1);
	/* negative integers below INT64_MIN are valid CBOR the int getter
	 * cannot hold: the only accepted input the copy may refuse */
	if (rc == ERR_OK) {
		FUZZ_CHECK(cbor_rd_done(&r));
		FUZZ_CHECK(cbor_wr_end(&w, &n) == ERR_OK);
		FUZZ_CHECK(n == in->len && memcmp(out, in->data, n) == 0);
	}
	free(out);
}

/* Any input: skipping and raw spans stay inside it. */
static void
walk(const struct input *in)
{
	struct cbor_rd r;
	const uint8_t *p;
	size_t n, before;

	cbor_rd_init(&r, in->data, in->len);
	while (!cbor_rd_done(&r)) {
		before = r.pos;
		if (cbor_get_raw(&r, &p, &n) != ERR_OK) {
			FUZZ_CHECK(r.pos == before);
			break;
		}
		FUZZ_CHECK(p == in->data + before && n == r.pos - before);
		FUZZ_CHECK(r.pos <= in->len && n > 0);
	}
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	int rc = cbor_check(in->data, in->len);

	FUZZ_CHECK(rc == ERR_OK || rc == ERR_PARSE || rc == ERR_TOO_BIG);
	if (rc == ERR_OK)
		round_trip(in);
	walk(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
