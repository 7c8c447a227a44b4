/* SPDX-License-Identifier: BSD-2-Clause */
/* The attestation policy's parsers on hostile bytes: the MDS3 BLOB's
 * payload (policy/mds_payload.c through policy/json.c) and the evidence
 * stored on a mapping line (proto/evidence.c), with the statement's x5c
 * (proto/attest.c attest_x5c). Input: byte 0 (bit 0: 0 payload JSON, 1
 * evidence CBOR) | the rest. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "fuzz.h"
#include "policy/mds_payload.h"
#include "proto/attest.h"
#include "proto/evidence.h"

#define X5C_MAX 8

struct input {
	const uint8_t *data;
	size_t len;
};

static bool
inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
	return p >= base && n <= len && (size_t)(p - base) <= len - n;
}

static bool
is_refusing(const char *s)
{
	return strcmp(s, "") == 0 || strcmp(s, "REVOKED") == 0 ||
	    strcmp(s, "ATTESTATION_KEY_COMPROMISE") == 0 ||
	    strcmp(s, "USER_VERIFICATION_BYPASS") == 0 ||
	    strcmp(s, "USER_KEY_REMOTE_COMPROMISE") == 0;
}

static void
payload(const uint8_t *p, size_t len)
{
	struct mds_payload pl;
	size_t i;
	int r;

	FUZZ_CALL(r, mds_payload_parse((const char *)p, len, &pl));
	if (r != ERR_OK) {
		FUZZ_CHECK(pl.entries == NULL && pl.n == 0);
		return;
	}
	FUZZ_CHECK(pl.no >= 0 && pl.n <= MDS_ENTRIES_MAX && pl.n <= pl.cap);
	for (i = 0; i < pl.n; i++) {
		FUZZ_CHECK(pl.entries[i].nkeyids <= MDS_KEYIDS_MAX);
		FUZZ_CHECK(memchr(pl.entries[i].desc, '\0', MDS_DESC_MAX));
		FUZZ_CHECK(memchr(pl.entries[i].status, '\0', MDS_STATUS_MAX));
		FUZZ_CHECK(is_refusing(pl.entries[i].status));
	}
	mds_payload_free(&pl);
}

static void
evidence(const uint8_t *p, size_t len)
{
	const uint8_t *certs[X5C_MAX];
	size_t lens[X5C_MAX], n = 0, i;
	struct evidence ev;
	int r;

	FUZZ_CALL(r, evidence_decode(p, len, &ev));
	if (r != ERR_OK)
		return;
	FUZZ_CHECK(memchr(ev.fmt, '\0', EVIDENCE_FMT_MAX) && ev.fmt[0] != '\0');
	FUZZ_CHECK(inside(ev.stmt, ev.stmt_len, p, len));
	FUZZ_CHECK(inside(ev.authdata, ev.authdata_len, p, len));
	FUZZ_CHECK(inside(ev.cdh, 32, p, len) && ev.time >= 0);
	FUZZ_CALL(
	    r, attest_x5c(ev.stmt, ev.stmt_len, certs, lens, X5C_MAX, &n));
	if (r != ERR_OK) {
		FUZZ_CHECK(n == 0);
		return;
	}
	FUZZ_CHECK(n > 0 && n <= X5C_MAX);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(lens[i] > 0 &&
		    inside(certs[i], lens[i], ev.stmt, ev.stmt_len));
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	if (in->len < 1)
		return;
	if (in->data[0] & 1)
		evidence(in->data + 1, in->len - 1);
	else
		payload(in->data + 1, in->len - 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
