/* SPDX-License-Identifier: BSD-2-Clause */
/* The "policy" section of pam_u2f.conf (common/conf/confpolicy.c,
 * confpolicy_schema.c, conf.c): its values as struct conf's policy, the
 * identifiers both ways, and each bad value or combination an error
 * naming the file, the line and the key. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "conf/conf.h"
#include "conf/confpolicy.h"
#include "test.h"

#define MSG 512

static const char good[] =
    "debug = true\n"
    "policy {\n"
    "  attestation = required\n"
    "  aaguid_allow = {\"CB69481E-8FF7-4039-93EC-0A2729A154A8\",\n"
    "                  \"0123456789abcdef0123456789abcdef01234567\"}\n"
    "  aaguid_deny = {\"00000000-0000-0000-0000-000000000001\"}\n"
    "  roots = \"/etc/security/fido-roots\"\n"
    "  mds = \"/var/lib/pam_u2f/blob.jwt\"\n"
    "  mds_roots = \"/etc/security/mds-root.pem\"\n"
    "}\n";

static void
t_values(void)
{
	char msg[MSG], text[CONF_POLICY_ID_TEXT];
	struct conf c;

	T_EQ_ERR(conf_parse_mem("f", good, strlen(good), &c, msg, sizeof(msg)),
	    ERR_OK);
	T_TRUE(c.debug);
	T_TRUE(c.policy != NULL);
	if (c.policy == NULL)
		return;
	T_EQ_INT(c.policy->attestation, CONF_ATTEST_REQUIRED);
	T_EQ_INT(c.policy->nallow, 2);
	T_EQ_INT(c.policy->ndeny, 1);
	T_EQ_INT(c.policy->allow[0].len, 16);
	T_EQ_INT(c.policy->allow[1].len, 20);
	conf_policy_id_text(&c.policy->allow[0], text);
	T_EQ_STR(text, "cb69481e-8ff7-4039-93ec-0a2729a154a8");
	conf_policy_id_text(&c.policy->allow[1], text);
	T_EQ_STR(text, "0123456789abcdef0123456789abcdef01234567");
	T_EQ_STR(c.policy->roots, "/etc/security/fido-roots");
	/* The defaults filled in by the section's check. */
	T_EQ_STR(c.policy->mds_state, CONF_POLICY_STATE_DEFAULT);
	T_EQ_INT(c.policy->mds_grace, CONF_POLICY_GRACE_DEFAULT);
	conf_free(&c);
	T_EQ_ERR(conf_parse_mem("f", "cue\n", 4, &c, msg, sizeof(msg)), ERR_OK);
	T_TRUE(c.policy == NULL); /* no section: no policy */
	conf_free(&c);
}

/* Each text gives ERR_CONFIG with this message. */
static void
t_errors(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"policy {\n attestation = maybe\n}\n",
		"f:2: policy: attestation must be none, optional or required"},
	    {"policy {\n attestation = required\n}\n",
		"f:3: policy: roots is required by attestation = optional or "
		"required"},
	    {"policy {\n roots = \"/r\"\n}\n",
		"f:3: policy: attestation must be optional or required for the "
		"other keys of the section to apply"},
	    {"policy {\n attestation = optional\n roots = \"r\"\n}\n",
		"f:3: policy: roots must be an absolute path"},
	    {"policy {\n attestation = optional\n roots = \"/r\"\n"
	     " aaguid_allow = {\"cb69481e-8ff7-4039-93ec-0a2729a154a\"}\n}\n",
		"f:4: policy: aaguid_allow entries must be AAGUIDs "
		"(8-4-4-4-12 hex digits) or key identifiers (40 hex digits)"},
	    {"policy {\n attestation = optional\n roots = \"/r\"\n"
	     " aaguid_deny = {\"cb69481e+8ff7-4039-93ec-0a2729a154a8\"}\n}\n",
		"f:4: policy: aaguid_deny entries must be AAGUIDs "
		"(8-4-4-4-12 hex digits) or key identifiers (40 hex digits)"},
	    {"policy {\n attestation = optional\n roots = \"/r\"\n"
	     " mds = \"/m\"\n}\n",
		"f:5: policy: mds_roots and mds must be given together"},
	    {"policy {\n attestation = optional\n roots = \"/r\"\n"
	     " mds_grace = 3\n}\n",
		"f:5: policy: mds is required by mds_state and mds_grace"},
	    {"policy {\n attestation = optional\n roots = \"/r\"\n"
	     " mds = \"/m\"\n mds_roots = \"/n\"\n mds_grace = 366\n}\n",
		"f:6: policy: mds_grace must be 0 to 365 (days after the "
		"BLOB's nextUpdate)"},
	    {"policy {\n attestation = optional\n attestation = required\n}\n",
		"f:3: policy: attestation: already set on line 2"},
	    {"policy {\n attestation = none\n}\npolicy {\n}\n",
		"f:5: policy: the section is given twice"},
	    {"policy {\n trust = all\n}\n", "f:2: no such option 'trust'"},
	};
	char msg[MSG];
	struct conf c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_ERR(conf_parse_mem("f", bad[i].text, strlen(bad[i].text),
			     &c, msg, sizeof(msg)),
		    ERR_CONFIG);
		T_EQ_STR(msg, bad[i].msg);
		T_TRUE(c.policy == NULL);
	}
}

/* Identifiers: both lengths, any case; anything else refused. */
static void
t_ids(void)
{
	static const char *const badids[] = {"",
	    "cb69481e8ff7403993ec0a2729a154a8",
	    "cb69481e-8ff7-4039-93ec-0a2729a154ag",
	    "0123456789abcdef0123456789abcdef0123456",
	    "0123456789abcdef0123456789abcdef012345678"};
	struct conf_policy_id id;
	size_t i;

	T_EQ_ERR(
	    conf_policy_id_parse("CB69481E-8FF7-4039-93EC-0A2729A154A8", &id),
	    ERR_OK);
	T_EQ_INT(id.len, 16);
	T_EQ_INT(id.id[0], 0xcb);
	T_EQ_INT(id.id[15], 0xa8);
	for (i = 0; i < sizeof(badids) / sizeof(badids[0]); i++)
		T_EQ_ERR(conf_policy_id_parse(badids[i], &id), ERR_PARSE);
}

TEST_MAIN(TEST(t_values), TEST(t_errors), TEST(t_ids))
