/* tools/passkeyfmt.c: pamu2fcfg --format=passkey. Each of OpenSSL's
 * SubjectPublicKeyInfos (tests/passkeyfix.h), read by the module's parser
 * (common/mapping/passkey.c) into a credential and written back, is the
 * same value byte for byte; what cannot be written is refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "mapping/passkey.h"
#include "../../tools/tool.h"
#include "../passkeyfix.h"
#include "../test.h"

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
	struct cred c = {kh, sizeof(kh), pk, sizeof(pk), COSE_ES256, 0};
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

TEST_MAIN(TEST(test_round_trip), TEST(test_refused))
