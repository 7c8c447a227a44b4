/* SPDX-License-Identifier: BSD-2-Clause */
/* RFC 4515 escaping of the user name in pam_u2f_ldap's filter
 * (ldap/ldescape.c): a table of names and what the filter becomes. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "ldescape.h"
#include "test.h"

struct esc_row {
	const char *in;
	size_t len; /* 0: strlen(in) */
	const char *out;
};

static const struct esc_row esc_rows[] = {
    {"alice", 0, "alice"},
    {"*", 0, "\\2a"},
    {"a*", 0, "a\\2a"},
    {"(", 0, "\\28"},
    {")", 0, "\\29"},
    {"\\", 0, "\\5c"},
    {"alice)(uid=*", 0, "alice\\29\\28uid=\\2a"},
    {"*)(|(uid=*", 0, "\\2a\\29\\28|\\28uid=\\2a"},
    {"a\0b", 3, "a\\00b"},
    {"b\xc3\xb6"
     "b",
	0, "b\\c3\\b6b"},
    {"\x01\x1f\x7f\xff", 0, "\\01\\1f\\7f\\ff"},
    {"tab\there", 0, "tab\\09here"},
    {"a b.c-d_e@f=g,h+i;j<k>l\"m#n'o%p&q/r:s?t~u", 0,
	"a b.c-d_e@f=g,h+i;j<k>l\"m#n'o%p&q/r:s?t~u"},
};

static void
t_value_table(void)
{
	char out[3 * LDESC_VALUE_MAX + 1];
	size_t i, n;

	for (i = 0; i < sizeof(esc_rows) / sizeof(esc_rows[0]); i++) {
		n = esc_rows[i].len > 0 ? esc_rows[i].len
					: strlen(esc_rows[i].in);
		T_EQ_ERR(
		    ldesc_value(esc_rows[i].in, n, out, sizeof(out)), ERR_OK);
		T_EQ_STR(out, esc_rows[i].out);
	}
}

/* Every byte: escaped unless printable ASCII other than * ( ) \. */
static void
t_value_every_byte(void)
{
	char in[1], out[4];
	int c, plain;

	for (c = 0; c < 256; c++) {
		in[0] = (char)c;
		T_EQ_ERR(ldesc_value(in, 1, out, sizeof(out)), ERR_OK);
		plain = c > 0x1f && c < 0x7f && c != '*' && c != '(' &&
		    c != ')' && c != '\\';
		T_EQ_INT(strlen(out), plain ? 1 : 3);
		if (!plain)
			T_TRUE(out[0] == '\\');
	}
}

static void
t_value_room(void)
{
	char out[4];

	T_EQ_ERR(ldesc_value("abc", 3, out, sizeof(out)), ERR_OK);
	T_EQ_ERR(ldesc_value("abcd", 4, out, sizeof(out)), ERR_TOO_BIG);
	T_EQ_ERR(ldesc_value("*", 1, out, 3), ERR_TOO_BIG);
	T_EQ_ERR(ldesc_value("*", 1, out, sizeof(out)), ERR_OK);
	T_EQ_ERR(ldesc_value(NULL, 1, out, sizeof(out)), ERR_INVAL);
	T_EQ_ERR(ldesc_value("a", 1, NULL, 4), ERR_INVAL);
}

static void
t_filter(void)
{
	char *f = NULL, name[LDESC_VALUE_MAX + 1];

	T_EQ_ERR(ldesc_filter("(uid=%s)", "a*", 2, &f), ERR_OK);
	T_EQ_STR(f, "(uid=a\\2a)");
	free(f);
	f = NULL;
	T_EQ_ERR(ldesc_filter(
		     "(&(objectClass=passkeyUser)(uid=%s))", "x)(uid=*", 8, &f),
	    ERR_OK);
	T_EQ_STR(f, "(&(objectClass=passkeyUser)(uid=x\\29\\28uid=\\2a))");
	free(f);
	f = NULL;
	T_EQ_ERR(ldesc_filter("(uid=%s)", "", 0, &f), ERR_INVAL);
	T_EQ_ERR(ldesc_filter("(uid=x)", "a", 1, &f), ERR_INVAL);
	memset(name, 'a', sizeof(name));
	T_EQ_ERR(ldesc_filter("(uid=%s)", name, LDESC_VALUE_MAX, &f), ERR_OK);
	free(f);
	f = NULL;
	T_EQ_ERR(ldesc_filter("(uid=%s)", name, LDESC_VALUE_MAX + 1, &f),
	    ERR_TOO_BIG);
	T_TRUE(f == NULL);
}

TEST_MAIN(TEST(t_value_table), TEST(t_value_every_byte), TEST(t_value_room),
    TEST(t_filter))
