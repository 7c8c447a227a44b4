#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "authfile.h"
#include "b64.h"
#include "cred.h"
#include "err.h"
#include "safefile.h"
#include "test.h"

/* Key handle and public key of the FIDO registration example
 * (u2f-protocol.md section 3), in the encodings pam-u2f writes. */
#define KH_HEX                                                                 \
	"2a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8f"             \
	"e2e3925a6019551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772"   \
	"d70c25"
#define PK_HEX                                                                 \
	"04b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c2"             \
	"6da51b657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e603"   \
	"85d2f6d9"
#define KH_B64                                                                 \
	"KlUt/bdHftZf2EEz+GGWAQsiFbV9p10xW3uej+LjklpgGVUbq2HRZZFln"            \
	"LrwC0lQ96v+ZmDi4Ab3aGi3ctcMJQ=="
#define PK_B64                                                                 \
	"sXS8ScfKJUtw0uXCB87pzxdIIOvXfqPGVQjCbaUbZXwcxrlS+GIWl5Nkg"            \
	"toKbT04JqWQldr2zXwD4uYDhdL22Q=="
#define KH_URL                                                                 \
	"KlUt_bdHftZf2EEz-GGWAQsiFbV9p10xW3uej-LjklpgGVUbq2HRZZFln"            \
	"LrwC0lQ96v-ZmDi4Ab3aGi3ctcMJQ"
#define CRED_REF KH_B64 "," PK_B64 ",es256,+presence"
#define CRED_OLD KH_URL "," PK_HEX

/* An eddsa key: 32 bytes of 0x01..0x20, base64. */
#define ED_PK_B64 "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

static int
find(
    const char *file, const char *user, struct cred **c, size_t *n, size_t *bad)
{
	return authfile_find(file, strlen(file), user, c, n, bad);
}

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
test_crlf(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("# dos\r\n\r\nx:" CRED_REF "\r\nu:" CRED_REF "\r\n", "u",
		     &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1)
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
	cred_free_list(c, n);
	/* Options before "\r\n" are read without the CR. */
	T_EQ_ERR(
	    find("u:" KH_B64 "," PK_B64 ",es256,+pin\r\n", "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1)
		T_EQ_INT(c[0].flags, CRED_PIN);
	cred_free_list(c, n);
	/* A CR anywhere else is part of the line. */
	T_EQ_ERR(find("u:" CRED_REF "\r\r\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
}

/* A line over 64 KiB: every credential is kept, the last one's "+pin"
 * included (a fixed-size buffer would cut it off). */
static void
test_long_line(void)
{
	const size_t count = 400;
	char *file, *p;
	struct cred *c = NULL;
	size_t i, n = 0, bad, sz = count * (sizeof(CRED_REF) + 8) + 64;

	if ((file = malloc(sz)) == NULL)
		abort();
	p = file + sprintf(file, "# long\nu:");
	for (i = 0; i < count - 1; i++)
		p += sprintf(p, "%s:", CRED_REF);
	sprintf(p, "%s,%s,es256,+presence+pin\nz:x\n", KH_B64, PK_B64);
	T_TRUE(strlen(file) > 65536);
	T_EQ_ERR(find(file, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, count);
	if (n == count) {
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
		T_EQ_INT(c[count - 1].flags, CRED_PRESENCE | CRED_PIN);
	}
	cred_free_list(c, n);
	free(file);
}

static void
test_last_line_wins(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("u:" CRED_REF "\nv:" CRED_REF "\nu:*," ED_PK_B64
		      ",eddsa,+pin\nw:" CRED_REF "\n",
		     "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(c[0].type, COSE_EDDSA);
		T_EQ_INT(c[0].flags, CRED_RESIDENT | CRED_PIN);
	}
	cred_free_list(c, n);
	/* A later line with no credentials replaces earlier ones too. */
	T_EQ_ERR(find("u:" CRED_REF "\nu:\n", "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 0);
	T_TRUE(c == NULL);
}

static void
test_nul_names_its_line(void)
{
	static const char file[] = "u:" CRED_REF "\n# c\nv:x\0y\nw:z\n";
	struct cred *c = NULL;
	size_t n = 3, bad = 0;

	T_EQ_ERR(authfile_find(file, sizeof(file) - 1, "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL);
	T_EQ_INT(n, 0);
	/* In a comment, and on the last line without a newline. */
	T_EQ_ERR(authfile_find("#\0\n", 3, "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(authfile_find("\n\nu:\0", 5, "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 3);
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
	/* Empty public key. */
	T_EQ_ERR(find("u:" KH_B64 ",,es256,", "u", &c, &n, &bad), ERR_PARSE);
	/* A broken earlier line of the user fails too, though superseded. */
	T_EQ_ERR(find("u:" KH_B64 ",AAAA,es256,\nu:" CRED_REF "\n", "u", &c, &n,
		     &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 1);
}

static void
test_bad_line_of_other_user_ignored(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("mallory:garbage,,,,,\nu:" CRED_REF "\nv:" KH_B64
		      ",AAAA,es256,+bogus\nuu:x\n:\n",
		     "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

static void
test_line_without_colon_fails(void)
{
	struct cred *c = NULL;
	size_t n, bad = 0;

	T_EQ_ERR(find("u:" CRED_REF "\n# ok\nmallory " CRED_REF "\n", "u", &c,
		     &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL);
	/* The user's name alone is a line without a colon as well. */
	T_EQ_ERR(find("\nu\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 2);
}

/* " alice:" is not alice's line, but it looks like it: fail for alice
 * only, not for other users. */
static void
test_blanks_around_name(void)
{
	struct cred *c = NULL;
	size_t n, bad = 0;

	T_EQ_ERR(find("alice:" CRED_REF "\n alice:" CRED_REF "\n", "alice", &c,
		     &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(
	    find("alice\t:" CRED_REF "\n", "alice", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(find(" alice:" CRED_REF "\nbob:" CRED_REF "\n", "bob", &c, &n,
		     &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

static void
test_blank_and_comments(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(
	    find("\n# u:" KH_B64 ",AAAA,es256,\n   \n\t\n  # x\n\nu:" CRED_REF,
		"u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

static void
test_not_found_and_exact_names(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(
	    find("alice2:" CRED_REF "\nalic:" CRED_REF "\nAlice:" CRED_REF "\n",
		"alice", &c, &n, &bad),
	    ERR_NOT_FOUND);
	T_TRUE(c == NULL);
	T_EQ_INT(n, 0);
	T_EQ_ERR(find("", "alice", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(find("# only\n\n", "alice", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(find("alice:" CRED_REF, "", &c, &n, &bad), ERR_INVAL);
	T_EQ_ERR(find("alice:" CRED_REF, "alice:", &c, &n, &bad), ERR_INVAL);
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

/* ---- the streaming reader with the incremental scan ---- */

static char tmp_path[4096];

/* A fresh file holding data (mode 0644, ours), its name in tmp_path. */
static void
tmp_write(const void *data, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd, k;

	k = snprintf(tmp_path, sizeof(tmp_path), "%s/test_authfile.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (k < 0 || (size_t)k >= sizeof(tmp_path) ||
	    (fd = mkstemp(tmp_path)) < 0)
		abort();
	if (fchmod(fd, 0644) != 0 ||
	    (len > 0 && write(fd, data, len) != (ssize_t)len) || close(fd) != 0)
		abort();
}

struct feed {
	struct authfile_scan sc;
	size_t calls;
	size_t unterminated; /* pieces without buf[len] == '\0' */
	size_t partial;      /* pieces not ending a line, but the last */
	int grow;            /* append to tmp_path after the first piece */
	int last_partial;
};

static int
feed_scan(void *arg, const char *buf, size_t len)
{
	struct feed *f = arg;
	FILE *fp;

	if (f->last_partial)
		f->partial++; /* a partial piece that was not the last */
	f->calls++;
	if (buf[len] != '\0')
		f->unterminated++;
	f->last_partial = len == 0 || buf[len - 1] != '\n';
	if (f->grow && f->calls == 1) {
		if ((fp = fopen(tmp_path, "a")) == NULL)
			abort();
		fputs("v:grown past the cap while being read\n", fp);
		fclose(fp);
	}
	return authfile_scan_lines_nt(&f->sc, buf, len);
}

struct result {
	int r;
	struct cred *c;
	size_t n, bad;
};

/* tmp_path read chunk bytes at a time through the scan, as userfile.c
 * does; the file is removed. */
static int
stream(const char *user, size_t chunk, size_t max, struct feed *f,
    struct result *res, const char **why)
{
	struct safefile_policy pol;
	int r;

	pol.owner = geteuid();
	pol.max_size = max;
	T_EQ_ERR(authfile_scan_init(&f->sc, user), ERR_OK);
	r = safefile_read_lines_chunk(tmp_path, &pol, chunk, feed_scan, f, why);
	res->r = authfile_scan_end(&f->sc, &res->c, &res->n, &res->bad);
	if (r != ERR_OK) {
		/* the scan's own error, or the reader's: what the scan found
		 * does not count (userfile.c does the same) */
		res->r = r;
		cred_free_list(res->c, res->n);
		res->c = NULL;
		res->n = 0;
	}
	unlink(tmp_path);
	return r;
}

static int
same_creds(const struct cred *a, const struct cred *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].kh_len != b[i].kh_len || a[i].pk_len != b[i].pk_len ||
		    a[i].type != b[i].type || a[i].flags != b[i].flags ||
		    (a[i].kh_len > 0 &&
			memcmp(a[i].kh, b[i].kh, a[i].kh_len) != 0) ||
		    (a[i].pk_len > 0 &&
			memcmp(a[i].pk, b[i].pk, a[i].pk_len) != 0))
			return 0;
	return 1;
}

/* Streaming data chunk bytes at a time gives what authfile_find gives;
 * the pieces were NUL-terminated and ended lines (but the last). */
static int
same_as_find(const char *data, size_t len, const char *user, size_t chunk)
{
	struct feed f = {0};
	struct result a = {0}, b = {0};
	int ok;

	a.r = authfile_find(data, len, user, &a.c, &a.n, &a.bad);
	tmp_write(data, len);
	(void)stream(user, chunk, 1 << 20, &f, &b, NULL);
	ok = a.r == b.r && a.n == b.n && a.bad == b.bad &&
	    same_creds(a.c, b.c, a.n) && f.unterminated == 0 && f.partial == 0;
	if (!ok)
		printf("# chunk %zu: find %d n %zu bad %zu, stream %d n %zu "
		       "bad %zu\n",
		    chunk, a.r, a.n, a.bad, b.r, b.n, b.bad);
	cred_free_list(a.c, a.n);
	cred_free_list(b.c, b.n);
	return ok;
}

static void
test_stream_lines_across_chunks(void)
{
	static const char file[] =
	    "# central\nv:" CRED_REF "\nu:" CRED_OLD "\n\n  \nw:" CRED_REF
	    ":" CRED_REF "\nu:" CRED_REF ":" CRED_REF "\nx:\n";
	struct feed f = {0};
	struct result res = {0};
	size_t chunk;

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 7, 4096, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_EQ_INT(res.n, 2);
	T_TRUE(res.n == 2 && res.c[1].type == COSE_ES256 &&
	    res.c[1].flags == CRED_PRESENCE);
	T_TRUE(f.calls > 1); /* really read in pieces */
	T_EQ_INT(f.unterminated, 0);
	T_EQ_INT(f.partial, 0);
	cred_free_list(res.c, res.n);
	for (chunk = 1; chunk <= sizeof(file) + 1; chunk++)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
}

/* A line much longer than a chunk is read whole, not cut or refused. */
static void
test_stream_line_longer_than_chunk(void)
{
	char *many = malloc(40 * (sizeof(CRED_REF) + 1) + 16), *file = NULL;
	struct feed f = {0};
	struct result res = {0};
	size_t i, len;

	if (many == NULL)
		abort();
	strcpy(many, "u:" CRED_REF);
	for (i = 1; i < 40; i++)
		strcat(many, ":" CRED_REF);
	if (asprintf(&file, "v:x\n%s\nw:y\n", many) < 0)
		abort();
	len = strlen(file);
	tmp_write(file, len);
	T_EQ_ERR(stream("u", 7, len, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_EQ_INT(res.n, 40);
	T_TRUE(f.calls >= 2); /* "v:x\n" alone, then the rest */
	cred_free_list(res.c, res.n);
	T_TRUE(same_as_find(file, len, "u", 64));
	T_TRUE(same_as_find(file, len, "u", 1));
	free(many);
	free(file);
}

/* "\r" at the end of one chunk, "\n" at the start of the next. */
static void
test_stream_crlf_split(void)
{
	static const char file[] = "v:x\r\nu:" CRED_REF "\r\n#\r\n";
	size_t cr = (size_t)(strchr(file + 5, '\r') - file), chunk;

	for (chunk = 1; chunk < sizeof(file); chunk++)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
	/* a chunk boundary right between that "\r" and "\n" */
	T_EQ_INT(file[cr], '\r');
	T_TRUE(same_as_find(file, sizeof(file) - 1, "u", cr + 1));
}

/* A NUL byte in the second chunk is an error naming its own line, also
 * when the user's good line came before it. */
static void
test_stream_nul_in_second_chunk(void)
{
	static const char file[] = "u:" CRED_REF "\nv:a\nw:b\0c\nx:d\n";
	struct feed f = {0};
	struct result res = {0};

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(
	    stream("u", sizeof("u:" CRED_REF "\n") + 2, 4096, &f, &res, NULL),
	    ERR_PARSE);
	T_EQ_INT(f.calls, 2);
	T_EQ_ERR(res.r, ERR_PARSE);
	T_EQ_INT(res.bad, 3);
	T_TRUE(res.c == NULL);
	T_EQ_INT(res.n, 0);
	T_TRUE(same_as_find(file, sizeof(file) - 1, "u", 5));
	T_TRUE(same_as_find(file, sizeof(file) - 1, "x", 64));
}

/* The file grows past max_size after the first piece was scanned: the
 * reader fails as safefile_read does, whatever the scan saw. */
static void
test_stream_grows_past_cap(void)
{
	static const char file[] = "u:" CRED_REF "\nv:x\n";
	struct feed f = {0};
	struct result res = {0};
	const char *why = NULL;

	f.grow = 1;
	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 8, sizeof(file) + 8, &f, &res, &why), ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	T_EQ_ERR(res.r, ERR_TOO_BIG);
	T_TRUE(f.calls >= 1);
	/* and a file already too big is refused before any piece */
	memset(&f, 0, sizeof(f));
	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 8, 10, &f, &res, &why), ERR_TOO_BIG);
	T_EQ_INT(f.calls, 0);
}

/* The user's last line is the file's last, in the last chunk, without a
 * newline; it replaces an earlier line of the user. */
static void
test_stream_last_line_without_newline(void)
{
	static const char file[] = "u:" CRED_OLD "\nv:x\nu:" CRED_REF;
	struct feed f = {0};
	struct result res = {0};
	size_t chunk;

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 16, 4096, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_TRUE(res.n == 1 && (res.c[0].flags & CRED_APPID) == 0);
	cred_free_list(res.c, res.n);
	for (chunk = 1; chunk < sizeof(file) + 2; chunk += 3)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
}

static uint32_t
rnd(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* Random files of good and bad lines, CR, NUL, other control bytes,
 * long lines, with and without a final newline: streaming with random
 * chunk sizes (and in one piece, large enough for the 128-byte blocks of
 * the AVX2 loop) gives authfile_find's result, bad line and
 * credentials. */
static void
test_stream_same_as_find_generated(void)
{
	static const char *const lines[] = {"u:" CRED_REF, "v:" CRED_REF,
	    "u:" CRED_OLD, "u:", "# u:x", "", "  ", "\t# x", " u:x", "u :x",
	    "nocolon", "v:garbage", "u:garbage", ":x", "uu:" CRED_REF,
	    "u:" CRED_REF ":" CRED_REF, "v:" CRED_REF "\r", "u:" CRED_REF "\r",
	    "\r", "w:a:b:c", "v:\x02\x08\x01\x0b", "w\x08:x", "\x02"};
	static const size_t weight[] = {3, 30, 2, 1, 3, 2, 1, 1, 1, 1, 1, 3, 1,
	    2, 3, 2, 6, 2, 1, 4, 3, 1, 1};
	char *buf = malloc(64 * 1024);
	uint32_t st = 20261203, w, total = 0;
	size_t i, k, len, nlines, bad = 0, runs = 3000;

	if (buf == NULL)
		abort();
	for (i = 0; i < sizeof(weight) / sizeof(weight[0]); i++)
		total += (uint32_t)weight[i];
	for (i = 0; i < runs; i++) {
		nlines = rnd(&st) % (i % 10 == 0 ? 200 : 12);
		len = 0;
		for (k = 0; k < nlines; k++) {
			const char *l = NULL;
			size_t j = 0;

			for (w = rnd(&st) % total; w >= weight[j]; j++)
				w -= (uint32_t)weight[j];
			l = lines[j];
			memcpy(buf + len, l, strlen(l));
			len += strlen(l);
			if (rnd(&st) % 50 == 0) /* a long line */
				for (j = 0; j < 300; j++)
					buf[len++] = 'a';
			if (rnd(&st) % 300 == 0 && len > 0)
				buf[rnd(&st) % len] = '\0';
			if (k + 1 < nlines || rnd(&st) % 2)
				buf[len++] = '\n';
		}
		if (!same_as_find(buf, len, "u", 1 + rnd(&st) % 300) ||
		    !same_as_find(buf, len, "u", 64 * 1024))
			bad++;
	}
	T_EQ_INT(bad, 0);
	free(buf);
}

TEST_MAIN(TEST(test_current_format), TEST(test_type_case_insensitive),
    TEST(test_options_combinations), TEST(test_options_rejected),
    TEST(test_resident), TEST(test_old_format), TEST(test_old_format_rejected),
    TEST(test_field_count), TEST(test_several_and_mixed), TEST(test_crlf),
    TEST(test_long_line), TEST(test_last_line_wins),
    TEST(test_nul_names_its_line), TEST(test_bad_field_for_user_fails),
    TEST(test_bad_line_of_other_user_ignored),
    TEST(test_line_without_colon_fails), TEST(test_blanks_around_name),
    TEST(test_blank_and_comments), TEST(test_not_found_and_exact_names),
    TEST(test_zero_credentials), TEST(test_key_handle_limits),
    TEST(test_rs256_and_field_limit), TEST(test_parse_line),
    TEST(test_format_canonical), TEST(test_round_trip), TEST(test_cred_clear),
    TEST(test_stream_lines_across_chunks),
    TEST(test_stream_line_longer_than_chunk), TEST(test_stream_crlf_split),
    TEST(test_stream_nul_in_second_chunk), TEST(test_stream_grows_past_cap),
    TEST(test_stream_last_line_without_newline),
    TEST(test_stream_same_as_find_generated))
