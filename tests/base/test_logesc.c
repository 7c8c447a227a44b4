/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for log-line escaping (common/base/logesc.c): a string from
 * outside (a user name, a device's product string, a reader's name) can
 * never start a line of its own or send a terminal control sequence. */
#include "config.h"

#include <string.h>

#include "base/logesc.h"
#include "test.h"

static void
check(const char *in, const char *want)
{
	char out[LOG_ESCAPE_CAP(64)];

	T_EQ_INT(log_escape(in, out, sizeof(out)), strlen(want));
	T_EQ_STR(out, want);
}

/* Control bytes, DEL and the backslash escaped; text as it is. */
static void
test_ascii(void)
{
	check("", "");
	check("user alice: ok", "user alice: ok");
	check("x\npam_u2f: result ERR_OK: Success",
	    "x\\x0apam_u2f: result ERR_OK: Success");
	check("a\rb\tc\x1b[2Jd\x7f", "a\\x0db\\x09c\\x1b[2Jd\\x7f");
	check("C:\\x0a", "C:\\\\x0a");
}

/* Well-formed UTF-8 as it is; C1 controls, line separators, malformed
 * or overlong sequences and surrogates byte by byte. */
static void
test_utf8(void)
{
	check("J\xc3\xbcrgen \xe2\x82\xac \xf0\x9f\x94\x91",
	    "J\xc3\xbcrgen \xe2\x82\xac \xf0\x9f\x94\x91");
	check("a\xc2\x9b"
	      "b",
	    "a\\xc2\\x9bb");                      /* CSI, U+009B */
	check("\xe2\x80\xa8", "\\xe2\\x80\\xa8"); /* U+2028 */
	check("\xc0\x8a", "\\xc0\\x8a");          /* overlong newline */
	check("\xe0\x80\x8a", "\\xe0\\x80\\x8a"); /* overlong */
	check("\xed\xa0\x80", "\\xed\\xa0\\x80"); /* a surrogate */
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* > U+10FFFF */
	check("\xff\xfe", "\\xff\\xfe");
	check("\xc3", "\\xc3"); /* cut short at the end */
	check("\xe2\x82", "\\xe2\\x82");
}

/* A line too long for the buffer is cut whole escapes at a time. */
static void
test_cut(void)
{
	char out[8];

	T_EQ_INT(log_escape("abcdefghij", out, sizeof(out)), 7);
	T_EQ_STR(out, "abcdefg");
	T_EQ_INT(log_escape("abcde\n", out, sizeof(out)), 5);
	T_EQ_STR(out, "abcde");
	T_EQ_INT(log_escape("ab\xe2\x82\xac\xe2\x82\xac", out, sizeof(out)), 5);
	T_EQ_STR(out, "ab\xe2\x82\xac");
	T_EQ_INT(log_escape("x", out, 1), 0);
	T_EQ_STR(out, "");
}

TEST_MAIN(TEST(test_ascii), TEST(test_utf8), TEST(test_cut))
