/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-provided names made safe to show (common/base/printable.c):
 * control characters (a newline that would forge a line, an escape
 * sequence), DEL and every byte of a multibyte character become '?';
 * long names are cut; the label is "NAME (PATH)" or PATH alone. */
#include "config.h"

#include <string.h>

#include "base/printable.h"
#include "test.h"

static void
test_copy(void)
{
	char out[64];

	T_EQ_INT(printable_copy(out, sizeof(out), "YubiKey 5 NFC"), 13);
	T_EQ_STR(out, "YubiKey 5 NFC");
	printable_copy(out, sizeof(out), "Key\nresult ERR_OK\x1b[2J\x7f");
	T_EQ_STR(out, "Key?result ERR_OK?[2J?");
	printable_copy(out, sizeof(out), "Schl\xc3\xbcssel");
	T_EQ_STR(out, "Schl??ssel");
	printable_copy(out, sizeof(out), NULL);
	T_EQ_STR(out, "");
	T_EQ_INT(printable_copy(out, 5, "abcdefgh"), 4);
	T_EQ_STR(out, "abcd");
	T_EQ_INT(printable_copy(out, 0, "abc"), 0);
}

static void
test_label(void)
{
	char out[200], longname[300];

	printable_label(out, sizeof(out), "Token\r\n", "/dev/hidraw3");
	T_EQ_STR(out, "Token?? (/dev/hidraw3)");
	printable_label(out, sizeof(out), "", "unix:/run/tok.sock");
	T_EQ_STR(out, "unix:/run/tok.sock");
	printable_label(out, sizeof(out), NULL, "pcsc:Reader\n0");
	T_EQ_STR(out, "pcsc:Reader?0");
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	T_EQ_INT(printable_label(out, sizeof(out), longname, "/dev/hidraw0"),
	    PRINTABLE_NAME_MAX + strlen(" (/dev/hidraw0)"));
	T_TRUE(strstr(out, "A (/dev/hidraw0)") != NULL);
	T_EQ_INT(printable_label(out, 10, "Name", "/dev/hidraw0"), 9);
	T_EQ_STR(out, "Name (/de");
}

TEST_MAIN(TEST(test_copy), TEST(test_label))
