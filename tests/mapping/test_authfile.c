/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for common/mapping/authfile.c: one mapping line parsed and
 * formatted. Each case is about what a single line means (the current and
 * the 1.0 format, types, options, resident credentials, field counts and
 * size limits, a bad field of the user's line, "user:" with no
 * credential), authfile_parse_line itself, authfile_format_cred and
 * authfile_format_line, and parse-format round trips. Lines are mostly fed
 * through authfile_find, as production does; finding the user's line in
 * a file (comments, CRLF, NUL bytes, other users, pieces) is
 * tests/mapping/test_authscan.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/authfile.h"
#include "authfix.h"
#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "test.h"

/* Base64 of n bytes of value v. */
static char *
b64_fill(uint8_t v, size_t n)
{
	uint8_t *raw = malloc(n);
	char *s = NULL;

	if (raw == NULL)
		abort();
	memset(raw, v, n);
	if (b64_encode(raw, n, &s) != ERR_OK)
		abort();
	free(raw);
	return s;
}

/* "user:" + one credential with a key handle of khlen bytes of v. */
static char *
line_with_kh(
    const char *user, uint8_t v, size_t khlen, const char *pk, const char *type)
{
	char *kh = b64_fill(v, khlen), *s;
	size_t sz = strlen(user) + strlen(kh) + strlen(pk) + 64;

	if ((s = malloc(sz)) == NULL)
		abort();
	snprintf(s, sz, "%s:%s,%s,%s,+presence\n", user, kh, pk, type);
	free(kh);
	return s;
}

static void
test_current_format(void)
{
	struct cred *c = NULL;
	uint8_t *kh, *pk;
	size_t n = 9, bad = 9, khlen, pklen;

	kh = test_unhex(KH_HEX, &khlen);
	pk = test_unhex(PK_HEX, &pklen);
	T_EQ_ERR(find("alice:" CRED_REF "\n", "alice", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	T_EQ_INT(bad, 0);
	if (n == 1) {
		T_EQ_INT(c[0].kh_len, 64);
		T_EQ_MEM(c[0].kh, kh, 64);
		T_EQ_INT(c[0].pk_len, 65);
		T_EQ_MEM(c[0].pk, pk, 65);
		T_EQ_INT(c[0].type, COSE_ES256);
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
	}
	cred_free_list(c, n);
	free(kh);
	free(pk);
}

static void
test_type_case_insensitive(void)
{
	static const struct {
		const char *line;
		int type;
	} v[] = {
	    {"u:" KH_B64 "," PK_B64 ",ES256,", COSE_ES256},
	    {"u:" KH_B64 "," PK_B64 ",eS256,", COSE_ES256},
	    {"u:" KH_B64 "," ED_PK_B64 ",EdDSA,", COSE_EDDSA},
	    {"u:" KH_B64 "," ED_PK_B64 ",eddsa,", COSE_EDDSA},
	    {"u:" KH_B64 ",AQAB,RS256,", COSE_RS256},
	};
	struct cred *c = NULL;
	size_t i, n, bad;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		T_EQ_ERR(find(v[i].line, "u", &c, &n, &bad), ERR_OK);
		T_EQ_INT(n, 1);
		if (n == 1)
			T_EQ_INT(c[0].type, v[i].type);
		cred_free_list(c, n);
	}
	T_EQ_ERR(find("u:" KH_B64 "," PK_B64 ",es384,", "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_ERR(find("u:" KH_B64 "," PK_B64 ",es256 ,", "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_ERR(
	    find("u:" KH_B64 "," PK_B64 ",,", "u", &c, &n, &bad), ERR_PARSE);
}

static void
test_options_combinations(void)
{
	static const struct {
		const char *opt;
		unsigned flags;
	} v[] = {
	    {"", 0},
	    {"+presence", CRED_PRESENCE},
	    {"+verification", CRED_VERIFICATION},
	    {"+pin", CRED_PIN},
	    {"+presence+verification", CRED_PRESENCE | CRED_VERIFICATION},
	    {"+presence+pin", CRED_PRESENCE | CRED_PIN},
	    {"+verification+pin", CRED_VERIFICATION | CRED_PIN},
	    {"+presence+verification+pin",
		CRED_PRESENCE | CRED_VERIFICATION | CRED_PIN},
	    {"+pin+presence", CRED_PRESENCE | CRED_PIN},
	    {"+pin+verification+presence",
		CRED_PRESENCE | CRED_VERIFICATION | CRED_PIN},
	};
	struct cred *c = NULL;
	char line[512];
	size_t i, n, bad;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(line, sizeof(line), "u:%s,%s,es256,%s", KH_B64, PK_B64,
		    v[i].opt);
		T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
		T_EQ_INT(n, 1);
		if (n == 1)
			T_EQ_INT(c[0].flags, v[i].flags);
		cred_free_list(c, n);
	}
}

static void
test_options_rejected(void)
{
	static const char *bad_opts[] = {
	    "+touch",
	    "presence",
	    "+Presence",
	    "+presence+",
	    "+",
	    "+presence+presence",
	    "+pin+pin",
	    "+presence ",
	    " +presence",
	    "+presencex",
	    "+pinpresence",
	    "+presence,+pin",
	};
	struct cred *c = NULL;
	char line[512];
	size_t i, n = 5, bad;

	for (i = 0; i < sizeof(bad_opts) / sizeof(bad_opts[0]); i++) {
		snprintf(line, sizeof(line), "# comment\nu:%s,%s,es256,%s\n",
		    KH_B64, PK_B64, bad_opts[i]);
		bad = 0;
		T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
		T_EQ_INT(bad, 2);
		T_TRUE(c == NULL);
		T_EQ_INT(n, 0);
	}
}

static void
test_resident(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("u:*," PK_B64 ",es256,+presence+pin", "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_TRUE(c[0].kh == NULL);
		T_EQ_INT(c[0].kh_len, 0);
		T_EQ_INT(c[0].flags, CRED_RESIDENT | CRED_PRESENCE | CRED_PIN);
		T_EQ_INT(c[0].pk_len, 65);
	}
	cred_free_list(c, n);
	/* "**" or "*" in the old format is not resident. */
	T_EQ_ERR(find("u:**," PK_B64 ",es256,", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_ERR(find("u:*," PK_HEX, "u", &c, &n, &bad), ERR_PARSE);
}

static void
test_old_format(void)
{
	struct cred *c = NULL;
	uint8_t *kh, *pk;
	size_t n, bad, khlen, pklen;

	kh = test_unhex(KH_HEX, &khlen);
	pk = test_unhex(PK_HEX, &pklen);
	T_EQ_ERR(find("bob:" CRED_OLD "\n", "bob", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(c[0].kh_len, khlen);
		T_EQ_MEM(c[0].kh, kh, khlen);
		T_EQ_INT(c[0].pk_len, 65);
		T_EQ_MEM(c[0].pk, pk, 65);
		T_EQ_INT(c[0].type, COSE_ES256);
		T_EQ_INT(c[0].flags, CRED_APPID | CRED_PRESENCE);
	}
	cred_free_list(c, n);
	/* Two old credentials, one with upper-case hex. */
	T_EQ_ERR(
	    find("bob:" CRED_OLD ":" KH_URL ",04B174BC49C7CA254B70D2E5C2"
		 "07CEE9CF174820EBD77EA3C65508C26DA51B657C1CC6B952F86216979364"
		 "82DA0A6D3D3826A59095DAF6CD7C03E2E60385D2F6D9",
		"bob", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 2);
	if (n == 2)
		T_EQ_MEM(c[1].pk, pk, 65);
	cred_free_list(c, n);
	free(kh);
	free(pk);
}

static void
test_old_format_rejected(void)
{
	static const char *bad_lines[] = {
	    /* point must start with 04 */
	    "bob:" KH_URL ",05b174bc49c7ca254b70d2e5c207cee9cf174820ebd77e"
	    "a3c65508c26da51b657c1cc6b952f8621697936482da0a6d3d3826a5"
	    "9095daf6cd7c03e2e60385d2f6d9",
	    /* 128 digits */
	    "bob:" KH_URL ",b174bc49c7ca254b70d2e5c207cee9cf174820ebd77e"
	    "a3c65508c26da51b657c1cc6b952f8621697936482da0a6d3d3826a5"
	    "9095daf6cd7c03e2e60385d2f6d9",
	    /* standard base64 key handle (padding, '+', '/') */
	    "bob:" KH_B64 "," PK_HEX,
	    /* not hex */
	    "bob:" KH_URL "," PK_B64,
	    /* empty key handle */
	    "bob:," PK_HEX,
	};
	struct cred *c = NULL;
	size_t i, n, bad;

	for (i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		T_EQ_ERR(find(bad_lines[i], "bob", &c, &n, &bad), ERR_PARSE);
		T_EQ_INT(bad, 1);
	}
}

static void
test_field_count(void)
{
	static const char *bad_lines[] = {
	    "u:" KH_B64,
	    "u:" KH_B64 "," PK_B64 ",es256",
	    "u:" KH_B64 "," PK_B64 ",es256,+presence,",
	    "u:" KH_B64 "," PK_B64 ",es256,+presence,x,y",
	    "u:" CRED_REF ":", /* empty credential */
	    "u::" CRED_REF,
	    "u:" CRED_REF "::" CRED_REF,
	};
	struct cred *c = NULL;
	size_t i, n, bad;

	for (i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		T_EQ_ERR(find(bad_lines[i], "u", &c, &n, &bad), ERR_PARSE);
		T_EQ_INT(bad, 1);
	}
}

static void
test_several_and_mixed(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("u:" CRED_REF ":" CRED_OLD ":*," ED_PK_B64
		      ",eddsa,+verification",
		     "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 3);
	if (n == 3) {
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
		T_EQ_INT(c[1].flags, CRED_APPID | CRED_PRESENCE);
		T_EQ_INT(c[2].flags, CRED_RESIDENT | CRED_VERIFICATION);
		T_EQ_INT(c[2].type, COSE_EDDSA);
		T_EQ_INT(c[2].pk_len, 32);
		T_EQ_INT(c[2].pk[31], 0x20);
	}
	cred_free_list(c, n);
}

static void
test_bad_field_for_user_fails(void)
{
	struct cred *c = NULL;
	size_t n = 7, bad = 0;

	/* Second credential has a broken key: no silent skip. */
	T_EQ_ERR(find("v:" CRED_REF "\n\nu:" CRED_REF ":" KH_B64 ",AAAA,"
		      "es256,+presence\n",
		     "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL);
	T_EQ_INT(n, 0);
	/* Bad base64 in the key handle. */
	T_EQ_ERR(find("u:" KH_B64 "x," PK_B64 ",es256,", "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 1);
	/* es256 key as a 65-byte point (with 04) is not the stored form. */
	T_EQ_ERR(
	    find("u:" KH_B64 ",BLF0vEnHyiVLcNLlwgfO6c8XSCDr136jxlUIwm2"
		 "lG2V8HMa5UvhiFpeTZILaCm09OCalkJXa9s18A+LmA4XS9tk=,es256,",
		"u", &c, &n, &bad),
	    ERR_PARSE);
	/* eddsa key of 33 bytes. */
	T_EQ_ERR(find("u:" KH_B64 ",AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0"
		      "eHyAh,eddsa,",
		     "u", &c, &n, &bad),
	    ERR_PARSE);
	/* eddsa key of 32 bytes that is no curve point (y with no x), and
	 * the identity (y = 1, small order). */
	T_EQ_ERR(
	    find("u:" KH_B64 "," ED_NOPOINT_B64 ",eddsa,", "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(
	    find("u:" KH_B64 ",AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
		 ",eddsa,",
		"u", &c, &n, &bad),
	    ERR_PARSE);
	/* Empty public key. */
	T_EQ_ERR(find("u:" KH_B64 ",,es256,", "u", &c, &n, &bad), ERR_PARSE);
	/* A broken earlier line of the user fails too, though superseded. */
	T_EQ_ERR(find("u:" KH_B64 ",AAAA,es256,\nu:" CRED_REF "\n", "u", &c, &n,
		     &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 1);
}

static void
test_zero_credentials(void)
{
	struct cred *c = NULL;
	size_t n = 4, bad = 4;

	T_EQ_ERR(
	    find("v:" CRED_REF "\nalice:\n", "alice", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 0);
	T_TRUE(c == NULL);
	T_EQ_INT(bad, 0);
	T_EQ_ERR(find("alice\n", "alice", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
}

static void
test_key_handle_limits(void)
{
	struct cred *c = NULL;
	size_t n, bad;
	char *line;

	line = line_with_kh("u", 0xa5, 255, PK_B64, "es256");
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1)
		T_EQ_INT(c[0].kh_len, 255);
	cred_free_list(c, n);
	free(line);
	line = line_with_kh("u", 0xa5, 256, PK_B64, "es256");
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
	free(line);
	/* CTAP2 credential IDs may be longer than 255 bytes. */
	line = line_with_kh("u", 0xa5, 600, ED_PK_B64, "eddsa");
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
	cred_free_list(c, n);
	free(line);
	line = line_with_kh("u", 0xa5, 1024, ED_PK_B64, "eddsa");
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
	free(line);
}

static void
test_rs256_and_field_limit(void)
{
	struct cred *c = NULL;
	size_t n, bad, sz;
	char *pk, *line;

	pk = b64_fill(0x42, 259);
	sz = strlen(pk) + 256;
	if ((line = malloc(sz)) == NULL)
		abort();
	snprintf(line, sz, "u:%s,%s,rs256,+presence", KH_B64, pk);
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(c[0].pk_len, 259);
		T_EQ_INT(c[0].pk[258], 0x42);
	}
	cred_free_list(c, n);
	free(line);
	free(pk);
	/* 3072 bytes = 4096 characters: the largest field accepted. */
	pk = b64_fill(0x42, 3072);
	sz = strlen(pk) + 256;
	if ((line = malloc(sz)) == NULL)
		abort();
	snprintf(line, sz, "u:%s,%s,rs256,", KH_B64, pk);
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
	cred_free_list(c, n);
	free(line);
	free(pk);
	pk = b64_fill(0x42, 3075);
	sz = strlen(pk) + 256;
	if ((line = malloc(sz)) == NULL)
		abort();
	snprintf(line, sz, "u:%s,%s,rs256,", KH_B64, pk);
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
	free(line);
	free(pk);
}

static void
test_parse_line(void)
{
	struct cred *c = NULL;
	char *user = NULL;
	size_t n;
	const char *l = "alice:" CRED_REF;

	T_EQ_ERR(authfile_parse_line(l, strlen(l), &user, &c, &n), ERR_OK);
	T_EQ_STR(user, "alice");
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
	free(user);
	T_EQ_ERR(authfile_parse_line("alice:", 6, &user, &c, &n), ERR_OK);
	T_EQ_STR(user, "alice");
	T_EQ_INT(n, 0);
	free(user);
	T_EQ_ERR(authfile_parse_line("alice", 5, &user, &c, &n), ERR_PARSE);
	T_TRUE(user == NULL);
	T_EQ_ERR(authfile_parse_line(
		     ":" CRED_REF, strlen(CRED_REF) + 1, &user, &c, &n),
	    ERR_PARSE);
	T_EQ_ERR(authfile_parse_line("a:\0", 3, &user, &c, &n), ERR_PARSE);
}

static void
test_format_canonical(void)
{
	struct cred c;
	char *s = NULL;
	uint8_t *kh, *pk;
	size_t khlen, pklen;

	kh = test_unhex(KH_HEX, &khlen);
	pk = test_unhex(PK_HEX, &pklen);
	memset(&c, 0, sizeof(c));
	c.kh = kh;
	c.kh_len = khlen;
	c.pk = pk;
	c.pk_len = pklen;
	c.type = COSE_ES256;
	c.flags = CRED_PRESENCE;
	T_EQ_ERR(authfile_format_cred(&c, &s), ERR_OK);
	T_EQ_STR(s, CRED_REF);
	free(s);
	c.flags = CRED_PIN | CRED_VERIFICATION | CRED_PRESENCE;
	T_EQ_ERR(authfile_format_cred(&c, &s), ERR_OK);
	T_EQ_STR(s, KH_B64 "," PK_B64 ",es256,+presence+verification+pin");
	free(s);
	c.flags = CRED_PIN;
	T_EQ_ERR(authfile_format_line("alice", &c, 1, &s), ERR_OK);
	T_EQ_STR(s, "alice:" KH_B64 "," PK_B64 ",es256,+pin");
	free(s);
	T_EQ_ERR(authfile_format_line("alice", NULL, 0, &s), ERR_OK);
	T_EQ_STR(s, "alice:");
	free(s);
	/* Old-format credentials cannot be written in the current format. */
	c.flags = CRED_APPID | CRED_PRESENCE;
	T_EQ_ERR(authfile_format_cred(&c, &s), ERR_INVAL);
	T_TRUE(s == NULL);
	/* Not a point. */
	c.flags = 0;
	pk[0] = 0x02;
	T_EQ_ERR(authfile_format_cred(&c, &s), ERR_INVAL);
	pk[0] = 0x04;
	T_EQ_ERR(authfile_format_line("a:b", &c, 1, &s), ERR_INVAL);
	T_EQ_ERR(authfile_format_line("#a", &c, 1, &s), ERR_INVAL);
	T_EQ_ERR(authfile_format_line("a\nb", &c, 1, &s), ERR_INVAL);
	T_EQ_ERR(authfile_format_line("", &c, 1, &s), ERR_INVAL);
	free(kh);
	free(pk);
}

/* Parse, format, parse again: same credentials, same text. */
static void
test_round_trip(void)
{
	static const char *lines[] = {
	    "alice:" CRED_REF,
	    "alice:" CRED_REF ":*," ED_PK_B64 ",eddsa,+presence+pin:" KH_B64
	    ",AQAB,rs256,:" KH_B64 "," PK_B64 ",es256,+verification",
	    "alice:",
	};
	struct cred *c = NULL, *c2 = NULL;
	char *s = NULL;
	size_t i, j, n = 0, n2 = 0, bad;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		T_EQ_ERR(find(lines[i], "alice", &c, &n, &bad), ERR_OK);
		T_EQ_ERR(authfile_format_line("alice", c, n, &s), ERR_OK);
		T_EQ_STR(s, lines[i]);
		if (s != NULL) {
			T_EQ_ERR(find(s, "alice", &c2, &n2, &bad), ERR_OK);
			T_EQ_INT(n2, n);
			for (j = 0; j < n && j < n2; j++) {
				T_EQ_INT(c2[j].type, c[j].type);
				T_EQ_INT(c2[j].flags, c[j].flags);
				T_EQ_INT(c2[j].kh_len, c[j].kh_len);
				T_EQ_INT(c2[j].pk_len, c[j].pk_len);
				if (c[j].kh_len > 0)
					T_EQ_MEM(
					    c2[j].kh, c[j].kh, c[j].kh_len);
				T_EQ_MEM(c2[j].pk, c[j].pk, c[j].pk_len);
			}
			cred_free_list(c2, n2);
		}
		free(s);
		s = NULL;
		cred_free_list(c, n);
	}
}

/* The fifth field: "att=" and base64 evidence, kept as bytes and
 * written back as it was; without the tag, empty or too long it is a
 * malformed line. */
static void
test_evidence_field(void)
{
	static const char *bad_att[] = {
	    "+pin", "att=", "AAAA", "att:AAAA", "att=*", "att=AAAA,AAAA"};
	struct cred *c = NULL;
	char line[20000], *s = NULL, big[16389];
	size_t i, n = 0, bad = 0;

	snprintf(line, sizeof(line), "u:%s,%s,es256,+presence,att=AQID", KH_B64,
	    PK_B64);
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(c[0].att_len, 3);
		T_EQ_MEM(c[0].att, "\x01\x02\x03", 3);
		T_EQ_ERR(authfile_format_line("u", c, n, &s), ERR_OK);
		T_EQ_STR(s, line);
		free(s);
	}
	cred_free_list(c, n);
	for (i = 0; i < sizeof(bad_att) / sizeof(bad_att[0]); i++) {
		snprintf(line, sizeof(line), "u:%s,%s,es256,,%s", KH_B64,
		    PK_B64, bad_att[i]);
		c = NULL;
		T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
		T_TRUE(c == NULL);
	}
	memset(big, 'A', sizeof(big) - 1); /* 16388 > 4 * 12288 / 3 */
	big[sizeof(big) - 1] = '\0';
	snprintf(
	    line, sizeof(line), "u:%s,%s,es256,,att=%s", KH_B64, PK_B64, big);
	T_EQ_ERR(find(line, "u", &c, &n, &bad), ERR_PARSE);
}

static void
test_cred_clear(void)
{
	struct cred c;

	memset(&c, 0, sizeof(c));
	c.kh = malloc(4);
	c.kh_len = 4;
	c.pk = malloc(8);
	c.pk_len = 8;
	c.type = COSE_ES256;
	c.flags = CRED_PIN;
	cred_clear(&c);
	T_TRUE(c.kh == NULL && c.pk == NULL);
	T_EQ_INT(c.kh_len + c.pk_len, 0);
	T_EQ_INT(c.type, 0);
	T_EQ_INT(c.flags, 0);
	cred_clear(&c); /* twice is fine */
	cred_clear(NULL);
	cred_free_list(NULL, 3);
}

TEST_MAIN(TEST(test_current_format), TEST(test_type_case_insensitive),
    TEST(test_options_combinations), TEST(test_options_rejected),
    TEST(test_resident), TEST(test_old_format), TEST(test_old_format_rejected),
    TEST(test_field_count), TEST(test_several_and_mixed),
    TEST(test_bad_field_for_user_fails), TEST(test_zero_credentials),
    TEST(test_key_handle_limits), TEST(test_rs256_and_field_limit),
    TEST(test_parse_line), TEST(test_format_canonical), TEST(test_round_trip),
    TEST(test_cred_clear), TEST(test_evidence_field))
