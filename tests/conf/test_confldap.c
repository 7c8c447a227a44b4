/* SPDX-License-Identifier: BSD-2-Clause */
/* The "ldap" section of pam_u2f.conf (common/conf/confldap.c, conf.c):
 * every reader accepts it and checks it; the helper's view of it. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "conf/conf.h"
#include "conf/confldap.h"
#include "test.h"

#define MSG 512

static const char good[] =
    "debug = true\n"
    "ldap {\n"
    "  uri = {\"ldaps://a.example:636\", \"ldap://b.example\"}\n"
    "  base = \"dc=example,dc=test\"\n"
    "  filter = \"(&(objectClass=passkeyUser)(uid=%s))\"\n"
    "  lines_attribute = \"pamU2fLine\"\n"
    "  ca_file = \"/etc/ssl/ca.pem\"\n"
    "  bind = \"simple\"\n"
    "  bind_dn = \"cn=reader,dc=example,dc=test\"\n"
    "  password_file = \"/etc/security/pam_u2f_ldap.pw\"\n"
    "  network_timeout = 4\n"
    "}\n"
    "cue\n";

/* The module and pamu2fcfg: the section is accepted, the rest read. */
static void
t_module_accepts(void)
{
	struct conf c;
	char msg[MSG];

	T_EQ_ERR(conf_parse_mem("f", good, strlen(good), &c, msg, sizeof(msg)),
	    ERR_OK);
	T_TRUE(c.debug && c.cue);
	conf_free(&c);
}

/* The helper: every value, the defaults after conf_ldap_check. */
static void
t_helper_reads(void)
{
	struct conf_ldap l;
	char msg[MSG];

	T_EQ_ERR(
	    conf_parse_ldap_mem("f", good, strlen(good), &l, msg, sizeof(msg)),
	    ERR_OK);
	T_TRUE(l.found);
	T_EQ_INT(l.nuri, 2);
	T_EQ_STR(l.uri[1], "ldap://b.example");
	T_EQ_STR(l.base, "dc=example,dc=test");
	T_EQ_INT(l.bind, CONF_LDAP_BIND_SIMPLE);
	T_EQ_ERR(conf_ldap_check(&l, msg, sizeof(msg)), ERR_OK);
	T_EQ_STR(l.attribute, "passkey");
	T_EQ_STR(l.lines_attribute, "pamU2fLine");
	T_EQ_INT(l.network_timeout, 4);
	T_EQ_INT(l.search_timeout, CONF_LDAP_TIMEOUT_DEFAULT);
	conf_ldap_free(&l);
	T_EQ_ERR(conf_parse_ldap_mem("f", "debug\n", 6, &l, msg, sizeof(msg)),
	    ERR_OK);
	T_TRUE(!l.found);
	T_EQ_ERR(conf_ldap_check(&l, msg, sizeof(msg)), ERR_CONFIG);
	T_EQ_STR(msg, "no ldap section");
	conf_ldap_free(&l);
}

struct bad_row {
	const char *body; /* inside "ldap {\n" ... "}\n" */
	const char *msg;
};

static const struct bad_row bad_rows[] = {
    {"  bogus = 1\n", "f:2: no such option 'bogus'"},
    {"  base = \"a\"\n  base = \"b\"\n",
	"f:3: ldap: base: already set on line 2"},
    {"  bind = \"kerberos\"\n",
	"f:2: ldap: bind must be anonymous, simple or external"},
    {"  uri = {\"http://x\"}\n",
	"f:2: ldap: uri must start with ldaps:// or ldap:// (StartTLS)"},
    {"  uri = {\"ldaps://a ldaps://b\"}\n",
	"f:2: ldap: uri must be one URI per entry"},
    {"  filter = \"uid=%s\"\n",
	"f:2: ldap: filter must be in parentheses with one %s and no other %"},
    {"  filter = \"(|(uid=%s)(cn=%s))\"\n",
	"f:2: ldap: filter must be in parentheses with one %s and no other %"},
    {"  ca_file = \"ca.pem\"\n", "f:2: ldap: ca_file must be an absolute path"},
    {"  network_timeout = 0\n",
	"f:2: ldap: network_timeout must be 1 to 60 seconds"},
    {"  search_timeout = 61\n",
	"f:2: ldap: search_timeout must be 1 to 60 seconds"},
    {"  base = \"\"\n", "f:2: ldap: base is empty or too long"},
};

/* A bad section is an error for every reader, line named. */
static void
t_bad_values(void)
{
	char buf[512], msg[MSG];
	struct conf c;
	size_t i;

	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		snprintf(buf, sizeof(buf), "ldap {\n%s}\n", bad_rows[i].body);
		T_EQ_ERR(
		    conf_parse_mem("f", buf, strlen(buf), &c, msg, sizeof(msg)),
		    ERR_CONFIG);
		T_EQ_STR(msg, bad_rows[i].msg);
	}
	snprintf(buf, sizeof(buf), "ldap {\n}\nldap {\n}\n");
	T_EQ_ERR(conf_parse_mem("f", buf, strlen(buf), &c, msg, sizeof(msg)),
	    ERR_CONFIG);
	T_EQ_STR(msg, "f:4: ldap: the section is given twice");
}

/* What the helper needs beyond the values. */
static void
t_check(void)
{
	static const char *const rows[][2] = {
	    {"base = \"b\"\nca_file = \"/c\"\n", "ldap: uri is required"},
	    {"uri = {\"ldaps://h\"}\nca_file = \"/c\"\n",
		"ldap: base is required"},
	    {"uri = {\"ldaps://h\"}\nbase = \"b\"\n",
		"ldap: ca_file is required"},
	    {"uri = {\"ldaps://h\"}\nbase = \"b\"\nca_file = \"/c\"\n"
	     "bind = \"simple\"\n",
		"ldap: bind simple needs bind_dn and password_file, and only "
		"it"},
	    {"uri = {\"ldaps://h\"}\nbase = \"b\"\nca_file = \"/c\"\n"
	     "password_file = \"/p\"\n",
		"ldap: bind simple needs bind_dn and password_file, and only "
		"it"},
	    {"uri = {\"ldaps://h\"}\nbase = \"b\"\nca_file = \"/c\"\n"
	     "bind = \"external\"\ncert_file = \"/c\"\n",
		"ldap: bind external needs cert_file and key_file, and only "
		"it"},
	};
	struct conf_ldap l;
	char buf[512], msg[MSG];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(buf, sizeof(buf), "ldap {\n%s}\n", rows[i][0]);
		T_EQ_ERR(conf_parse_ldap_mem(
			     "f", buf, strlen(buf), &l, msg, sizeof(msg)),
		    ERR_OK);
		T_EQ_ERR(conf_ldap_check(&l, msg, sizeof(msg)), ERR_CONFIG);
		T_EQ_STR(msg, rows[i][1]);
		conf_ldap_free(&l);
	}
}

TEST_MAIN(TEST(t_module_accepts), TEST(t_helper_reads), TEST(t_bad_values),
    TEST(t_check))
