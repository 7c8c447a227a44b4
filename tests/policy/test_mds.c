/* SPDX-License-Identifier: BSD-2-Clause */
/* The MDS BLOB's JSON (common/policy/json.c, mds_payload.c), from
 * memory: what a payload yields, which statuses refuse a key, and
 * malformed or hostile text refused whole. The BLOB's signature, chain,
 * serial and dates are tests/policy/policy.sh's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "policy/json.h"
#include "policy/mds_payload.h"
#include "test.h"

static int
parse(const char *text, struct mds_payload *p)
{
	return mds_payload_parse(text, strlen(text), p);
}

static void
t_payload(void)
{
	static const char text[] =
	    "{\"legalHeader\": \"x\\\"y\\u00e9\", \"no\": 42,"
	    " \"nextUpdate\": \"2030-02-01\", \"entries\": ["
	    " {\"aaguid\": \"CB69481E-8FF7-4039-93EC-0A2729A154A8\","
	    "  \"metadataStatement\": {\"description\": \"Key \\u0041\","
	    "   \"nested\": [[[{\"a\": [1, -2.5e3, true, false, null]}]]]},"
	    "  \"statusReports\": [{\"status\": \"FIDO_CERTIFIED_L1\"},"
	    "   {\"status\": \"USER_VERIFICATION_BYPASS\", \"x\": 1},"
	    "   {\"status\": \"UPDATE_AVAILABLE\"}]},"
	    " {\"attestationCertificateKeyIdentifiers\":"
	    "  [\"0123456789abcdef0123456789abcdef01234567\"],"
	    "  \"statusReports\": []}]}\n";
	struct mds_payload p;

	T_EQ_ERR(parse(text, &p), ERR_OK);
	T_EQ_INT(p.no, 42);
	T_EQ_INT(p.next_update, 1896134400); /* 2030-02-01T00:00:00Z */
	T_EQ_INT(p.n, 2);
	if (p.n == 2) {
		T_TRUE(p.entries[0].has_aaguid);
		T_EQ_INT(p.entries[0].aaguid[0], 0xcb);
		T_EQ_STR(p.entries[0].desc, "Key A");
		/* A later report does not lift a refusing one. */
		T_EQ_STR(p.entries[0].status, "USER_VERIFICATION_BYPASS");
		T_TRUE(!p.entries[1].has_aaguid);
		T_EQ_INT(p.entries[1].nkeyids, 1);
		T_EQ_STR(p.entries[1].status, "");
	}
	mds_payload_free(&p);
}

static void
t_statuses(void)
{
	static const char *const rows[][2] = {
	    {"REVOKED", "REVOKED"},
	    {"ATTESTATION_KEY_COMPROMISE", "ATTESTATION_KEY_COMPROMISE"},
	    {"USER_KEY_REMOTE_COMPROMISE", "USER_KEY_REMOTE_COMPROMISE"},
	    {"USER_VERIFICATION_BYPASS", "USER_VERIFICATION_BYPASS"},
	    {"FIDO_CERTIFIED", ""},
	    {"NOT_FIDO_CERTIFIED", ""},
	    {"revoked", ""},
	};
	char text[512];
	struct mds_payload p;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(text, sizeof(text),
		    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"entries\": "
		    "[{\"statusReports\": [{\"status\": \"%s\"}]}]}",
		    rows[i][0]);
		T_EQ_ERR(parse(text, &p), ERR_OK);
		if (p.n == 1)
			T_EQ_STR(p.entries[0].status, rows[i][1]);
		mds_payload_free(&p);
	}
}

static void
t_malformed(void)
{
	static const char *const bad[] = {
	    "",
	    "[]",
	    "{\"no\": 1}",                                   /* no nextUpdate */
	    "{\"nextUpdate\": \"2030-01-01\"}",              /* no "no" */
	    "{\"no\": 1.5, \"nextUpdate\": \"2030-01-01\"}", /* not an int */
	    "{\"no\": -1, \"nextUpdate\": \"2030-01-01\"}",
	    "{\"no\": 99999999999999999999, \"nextUpdate\": \"2030-01-01\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-1-01\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\"} x",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\",}",
	    "{\"no\": 1 \"nextUpdate\": \"2030-01-01\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"x\": \"a\\q\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"x\": \"\t\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"x\": \"\\u12\"}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"x\": tru}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"entries\": "
	    "[{\"aaguid\": \"not-an-aaguid\"}]}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"entries\": "
	    "[{\"attestationCertificateKeyIdentifiers\": [\"01\"]}]}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"entries\": [{]}",
	    "{\"no\": 1, \"nextUpdate\": \"2030-01-01\", \"entries\": [",
	};
	struct mds_payload p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_TRUE(parse(bad[i], &p) != ERR_OK);
		T_TRUE(p.entries == NULL && p.n == 0);
	}
}

/* Nesting deeper than JSON_DEPTH_MAX is refused, not recursed into. */
static void
t_depth(void)
{
	size_t n = 100000, i;
	char *text = malloc(2 * n + 64);
	struct json_rd r;

	T_TRUE(text != NULL);
	if (text == NULL)
		return;
	for (i = 0; i < n; i++)
		text[i] = '[';
	for (i = 0; i < n; i++)
		text[n + i] = ']';
	json_rd_init(&r, text, 2 * n);
	T_EQ_ERR(json_skip(&r), ERR_PARSE);
	json_rd_init(&r, text + n - JSON_DEPTH_MAX, 2 * JSON_DEPTH_MAX);
	T_EQ_ERR(json_skip(&r), ERR_OK);
	T_TRUE(json_rd_done(&r));
	free(text);
}

/* A string longer than the buffer is ERR_TOO_BIG, never cut. */
static void
t_string_cap(void)
{
	char out[4];
	struct json_rd r;

	json_rd_init(&r, "\"abcd\"", 6);
	T_EQ_ERR(json_string(&r, out, sizeof(out), NULL), ERR_TOO_BIG);
	json_rd_init(&r, "\"abc\"", 5);
	T_EQ_ERR(json_string(&r, out, sizeof(out), NULL), ERR_OK);
	T_EQ_STR(out, "abc");
}

TEST_MAIN(TEST(t_payload), TEST(t_statuses), TEST(t_malformed), TEST(t_depth),
    TEST(t_string_cap))
