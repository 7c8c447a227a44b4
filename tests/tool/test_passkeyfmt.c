/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg/passkeyfmt.c: pamu2fcfg --format=passkey. Each of OpenSSL's
 * SubjectPublicKeyInfos (tests/lib/passkeyfix.h), read by the module's parser
 * (common/mapping/passkey.c) into a credential and written back, is the
 * same value byte for byte; what cannot be written is refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "mapping/passkey.h"
#include "../../pamu2fcfg/tool.h"
#include "../lib/passkeyfix.h"
#include "../lib/test.h"

#define KH_B64 "AAECAwQFBgcICQoLDA0ODw==" /* 00..0f */

static void
round_trip(const char *spki, int type)
{
	const char *v;
	char buf[2048], *out = NULL;
	struct cred c;

	snprintf(buf, sizeof(buf), "passkey:%s,%s", KH_B64, spki);
	v = buf;
	T_EQ_ERR(passkey_parse(v, strlen(v), &c), ERR_OK);
	T_EQ_INT(c.type, type);
	T_EQ_ERR(tool_passkey_value(&c, &out), ERR_OK);
	if (out != NULL)
		T_EQ_STR(out, v);
	free(out);
	cred_clear(&c);
}

static void
test_round_trip(void)
{
	round_trip(SPKI_P256, COSE_ES256);
	round_trip(SPKI_ED25519, COSE_EDDSA);
	round_trip(SPKI_RSA2048, COSE_RS256);
	round_trip(SPKI_RSA2048_E3, COSE_RS256);
}

/* No key handle (a "*" line's credential), no key, a point off the
 * curve, another type: nothing is written. */
static void
test_refused(void)
{
	uint8_t kh[4] = {1, 2, 3, 4}, pk[65];
	struct cred c = {
	    kh, sizeof(kh), pk, sizeof(pk), COSE_ES256, 0, NULL, 0};
	char *out = (char *)1;

	memset(pk, 0, sizeof(pk));
	pk[0] = 0x04; /* (0, 0) is not on P-256 */
	T_EQ_ERR(tool_passkey_value(&c, &out), ERR_PARSE);
	T_TRUE(out == NULL);
	c.type = 99;
	T_EQ_ERR(tool_passkey_value(&c, &out), ERR_UNSUPPORTED);
	c.type = COSE_ES256;
	c.kh = NULL;
	c.kh_len = 0;
	T_EQ_ERR(tool_passkey_value(&c, &out), ERR_INVAL);
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.pk = NULL;
	T_EQ_ERR(tool_passkey_value(&c, &out), ERR_INVAL);
	T_EQ_ERR(tool_passkey_value(NULL, &out), ERR_INVAL);
	T_EQ_ERR(tool_passkey_value(&c, NULL), ERR_INVAL);
}

#define VAL "passkey:AAEC,MFkw"

static void
ldif_is(const char *dn, const char *attr, const char *want)
{
	char *out = NULL;

	T_EQ_ERR(tool_ldif_change(dn, attr, VAL, &out), ERR_OK);
	if (out != NULL)
		T_EQ_STR(out, want);
	free(out);
}

/* A plain DN as it is; one that is not a SAFE-STRING (RFC 2849) in
 * base64 after "dn::"; the value under the attribute, the change ended
 * by "-". */
static void
test_ldif(void)
{
	ldif_is("uid=alice,ou=people,dc=example,dc=org", "passkey",
	    "dn: uid=alice,ou=people,dc=example,dc=org\n"
	    "changetype: modify\nadd: passkey\npasskey: " VAL "\n-\n");
	ldif_is("uid=j\xc3\xb6,dc=x", "ipaPassKey",
	    "dn:: dWlkPWrDtixkYz14\n"
	    "changetype: modify\nadd: ipaPassKey\nipaPassKey: " VAL "\n-\n");
	ldif_is(" uid=a", "passkey",
	    "dn:: IHVpZD1h\nchangetype: modify\nadd: passkey\npasskey: " VAL
	    "\n-\n");
	ldif_is(":uid=a", "a-b1",
	    "dn:: OnVpZD1h\nchangetype: modify\n"
	    "add: a-b1\na-b1: " VAL "\n-\n");
	ldif_is("uid=a ", "1.3.6.1",
	    "dn:: dWlkPWEg\nchangetype: modify\n"
	    "add: 1.3.6.1\n1.3.6.1: " VAL "\n-\n");
	ldif_is("uid=a\nb", "passkey",
	    "dn:: dWlkPWEKYg==\nchangetype: modify\nadd: passkey\n"
	    "passkey: " VAL "\n-\n");
}

/* What cannot be written: no DN, an attribute that is no LDAP name (or
 * one with options), a value that is not a SAFE-STRING. */
static void
test_ldif_refused(void)
{
	static const char *bad_attr[] = {"", "1abc", "-a", "a b", "a;binary",
	    "pass:key", "a_b", "1..2", "1.2.", "j\xc3\xb6"};
	char *out = (char *)1, long_attr[66];
	size_t i;

	memset(long_attr, 'a', 65); /* 64 is the longest name written */
	long_attr[65] = '\0';
	T_EQ_ERR(tool_ldif_change("uid=a", long_attr, VAL, &out), ERR_INVAL);
	long_attr[64] = '\0';
	T_EQ_ERR(tool_ldif_change("uid=a", long_attr, VAL, &out), ERR_OK);
	free(out);
	out = (char *)1;

	for (i = 0; i < sizeof(bad_attr) / sizeof(bad_attr[0]); i++) {
		T_EQ_ERR(tool_ldif_change("uid=a", bad_attr[i], VAL, &out),
		    ERR_INVAL);
		T_TRUE(out == NULL);
	}
	T_EQ_ERR(tool_ldif_change("", "passkey", VAL, &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change(NULL, "passkey", VAL, &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change("uid=a", NULL, VAL, &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change("uid=a", "passkey", "", &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change("uid=a", "passkey", "a\nb", &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change("uid=a", "passkey", ":x", &out), ERR_INVAL);
	T_EQ_ERR(tool_ldif_change("uid=a", "passkey", "<x", &out), ERR_INVAL);
	T_EQ_ERR(
	    tool_ldif_change("uid=a", "passkey", "x\xc3", &out), ERR_INVAL);
	T_TRUE(out == NULL);
	T_EQ_ERR(tool_ldif_change("uid=a", "passkey", VAL, NULL), ERR_INVAL);
}

TEST_MAIN(TEST(test_round_trip), TEST(test_refused), TEST(test_ldif),
    TEST(test_ldif_refused))
