/* SPDX-License-Identifier: BSD-2-Clause */
/* remote=agent's key lines (common/mapping/sshline.h): the mapping
 * file's "@ssh-sk USER ..." lines (the user's in order, others' not
 * parsed, a bad line of the user's refused by number, NUL bytes, the
 * key cap), authorized_keys lines as sss_ssh_authorizedkeys prints them
 * (other key types skipped and counted, a FIDO key with an option we
 * cannot honour refused), and that the mapping-file scanner
 * (authfile_find) skips @ssh-sk lines as no user's: a file holding only
 * them is "no line", never malformed. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "mapping/authfile.h"
#include "mapping/sshline.h"
#include "test.h"

/* RFC 8032's first test public key. */
static const uint8_t ed_pk[32] = {0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a,
    0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a, 0x0e, 0xe1, 0x72,
    0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51,
    0x1a};

static size_t
put_str(uint8_t *p, const void *s, size_t n)
{
	p[0] = (uint8_t)(n >> 24);
	p[1] = (uint8_t)(n >> 16);
	p[2] = (uint8_t)(n >> 8);
	p[3] = (uint8_t)n;
	memcpy(p + 4, s, n);
	return 4 + n;
}

/* "sk-ssh-ed25519@openssh.com BASE64" for ed_pk, application "ssh:".
 * Static. */
static const char *
ed_key(void)
{
	static char line[256];
	uint8_t blob[128];
	size_t n = 0;
	char *b = NULL;

	n +=
	    put_str(blob + n, SSHPUB_ED25519_NAME, strlen(SSHPUB_ED25519_NAME));
	n += put_str(blob + n, ed_pk, 32);
	n += put_str(blob + n, "ssh:", 4);
	if (b64_encode(blob, n, &b) != ERR_OK)
		return "";
	snprintf(line, sizeof(line), "%s %s", SSHPUB_ED25519_NAME, b);
	free(b);
	return line;
}

static int
find(const char *text, const char *user, struct sshpub **k, size_t *n,
    size_t *bad)
{
	return sshline_find(text, strlen(text), user, k, n, bad);
}

static void
test_find(void)
{
	char text[2048];
	struct sshpub *k = NULL;
	size_t n = 0, bad = 0;

	snprintf(text, sizeof(text),
	    "# keys\n"
	    "alice:KH,PK,es256,+presence\n"
	    "@ssh-sk bob this is not parsed\n"
	    "@ssh-sk alice %s alice@laptop\n"
	    "  @ssh-sk\talice verify-required,no-touch-required %s\r\n"
	    "@ssh-sk alicex %s\n"
	    "@ssh-skalice %s\n",
	    ed_key(), ed_key(), ed_key(), ed_key());
	T_EQ_ERR(find(text, "alice", &k, &n, &bad), ERR_OK);
	T_EQ_INT(n, 2);
	if (n == 2) {
		T_EQ_STR(k[0].comment, "alice@laptop");
		T_TRUE(!k[0].verify_required && !k[0].no_touch_required);
		T_TRUE(k[1].verify_required && k[1].no_touch_required);
		T_EQ_MEM(k[0].pk, ed_pk, 32);
	}
	sshpub_free_list(k, n);
	T_EQ_ERR(find(text, "carol", &k, &n, &bad), ERR_NOT_FOUND);
	T_TRUE(k == NULL && n == 0);
	/* bob's own line is bad: his, by its number */
	T_EQ_ERR(find(text, "bob", &k, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_EQ_ERR(find(text, "", &k, &n, &bad), ERR_INVAL);
}

/* Every way a line of the user's can be wrong fails the user. */
static void
test_find_refused(void)
{
	static const char *const opts[] = {"from=\"192.0.2.1\"", "restrict",
	    "command=\"/bin/true\"", "no-touch-required,cert-authority"};
	char text[1024];
	struct sshpub *k = NULL;
	size_t n = 0, bad = 0, i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		snprintf(text, sizeof(text),
		    "@ssh-sk alice %s\n@ssh-sk alice %s %s\n", ed_key(),
		    opts[i], ed_key());
		T_EQ_ERR(find(text, "alice", &k, &n, &bad), ERR_PARSE);
		T_EQ_INT(bad, 2);
	}
	T_EQ_ERR(find("@ssh-sk alice ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE\n",
		     "alice", &k, &n, &bad),
	    ERR_PARSE);
	T_EQ_ERR(find("@ssh-sk alice \n", "alice", &k, &n, &bad), ERR_PARSE);
	T_EQ_ERR(sshline_find("@ssh-sk bob x\n\0", 15, "alice", &k, &n, &bad),
	    ERR_PARSE);
}

static void
test_cap(void)
{
	size_t each = strlen("@ssh-sk alice ") + strlen(ed_key()) + 1, i;
	size_t cap = (SSHLINE_KEYS_MAX + 1) * each + 1;
	char *text = malloc(cap), *p = text;
	struct sshpub *k = NULL;
	size_t n = 0, bad = 0;

	T_TRUE(text != NULL);
	if (text == NULL)
		return;
	for (i = 0; i < SSHLINE_KEYS_MAX + 1; i++)
		p += snprintf(p, cap - (size_t)(p - text), "@ssh-sk alice %s\n",
		    ed_key());
	T_EQ_ERR(find(text, "alice", &k, &n, &bad), ERR_TOO_BIG);
	T_TRUE(k == NULL);
	free(text);
}

static void
test_authorized(void)
{
	char text[2048];
	struct sshpub *k = NULL;
	size_t n = 0, other = 0, bad = 0;

	/* sss_ssh_authorizedkeys: every key of the user, any type */
	snprintf(text, sizeof(text),
	    "ssh-ed25519 "
	    "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GK"
	    "Jl me\n"
	    "\n"
	    "# a comment\n"
	    "%s from-ldap\n"
	    "verify-required %s\n",
	    ed_key(), ed_key());
	T_EQ_ERR(sshline_authorized(text, strlen(text), &k, &n, &other, &bad),
	    ERR_OK);
	T_EQ_INT(n, 2);
	T_EQ_INT(other, 1);
	if (n == 2)
		T_TRUE(!k[0].verify_required && k[1].verify_required);
	sshpub_free_list(k, n);
	/* only other types: none */
	T_EQ_ERR(sshline_authorized("ssh-ed25519 "
				    "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UO"
				    "oqKLsabgH5C9okWi0dh2l9GKJl\n",
		     80, &k, &n, &other, &bad),
	    ERR_NOT_FOUND);
	/* a FIDO key restricted by from=: not used without it */
	snprintf(text, sizeof(text), "%s\nfrom=\"192.0.2.0/24\" %s\n", ed_key(),
	    ed_key());
	T_EQ_ERR(sshline_authorized(text, strlen(text), &k, &n, &other, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 2);
	/* a mapping line is no authorized_keys line */
	T_EQ_ERR(sshline_authorized(
		     "alice:KH,PK,es256,+presence\n", 28, &k, &n, &other, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 1);
}

/* The mapping-file scanner skips @ssh-sk lines; before, one without a
 * colon counted as a skipped line (a per-user file holding only them
 * read as malformed). */
static void
test_authfile_skips(void)
{
	char text[1024];
	struct cred *c = NULL;
	size_t n = 0, bad = 0;
	struct authfile_scan sc;

	snprintf(text, sizeof(text), "@ssh-sk alice %s\n  @ssh-sk alice %s\n",
	    ed_key(), ed_key());
	T_EQ_ERR(authfile_find(text, strlen(text), "alice", &c, &n, &bad),
	    ERR_NOT_FOUND);
	T_EQ_ERR(authfile_scan_init(&sc, "alice"), ERR_OK);
	T_EQ_ERR(authfile_scan_lines(&sc, text, strlen(text)), ERR_OK);
	T_EQ_INT(sc.nskipped, 0);
	T_EQ_ERR(authfile_scan_end(&sc, &c, &n, &bad), ERR_NOT_FOUND);
	/* a user called "@ssh-sk" cannot be meant: "@ssh-sk:" lines are
	 * ordinary mapping lines of such a name, not ours */
	T_TRUE(!sshline_is_mark("@ssh-sk:KH,PK,es256,", 20));
	T_TRUE(sshline_is_mark("\t@ssh-sk alice", 14));
	T_TRUE(!sshline_is_mark("@ssh-sk", 7));
}

TEST_MAIN(TEST(test_find), TEST(test_find_refused), TEST(test_cap),
    TEST(test_authorized), TEST(test_authfile_skips))
