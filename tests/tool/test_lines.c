/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg/lines.c: editing mapping text keeps every other byte. */
#include "config.h"

#include "base/err.h"
#include "../../pamu2fcfg/tool.h"
#include "../lib/test.h"

static char *
add(const char *in, const char *user, const char *cred, int want)
{
	char *out = NULL;
	size_t len = 0;

	T_EQ_ERR(lines_add_cred(in, strlen(in), user, cred, &out, &len), want);
	if (out != NULL)
		T_EQ_INT((long long)len, (long long)strlen(out));
	return out;
}

static char *
rm(const char *in, const char *user, size_t index, int want)
{
	char *out = NULL;
	size_t len = 0;

	T_EQ_ERR(
	    lines_remove_cred(in, strlen(in), user, index, &out, &len), want);
	return out;
}

static void
add_new_user(void)
{
	char *o;

	T_EQ_STR(o = add("", "alice", "C", ERR_OK), "alice:C\n");
	free(o);
	T_EQ_STR(o = add("bob:X\n", "alice", "C", ERR_OK), "bob:X\nalice:C\n");
	free(o);
	/* no final newline: one is added before the new line */
	T_EQ_STR(o = add("#end", "alice", "C", ERR_OK), "#end\nalice:C\n");
	free(o);
}

static void
add_existing_line(void)
{
	char *o;

	T_EQ_STR(o = add("alice:A\nbob:B\n", "alice", "C", ERR_OK),
	    "alice:A:C\nbob:B\n");
	free(o);
	/* the last of several lines, CRLF kept */
	T_EQ_STR(o = add("alice:A\r\nalice:B\r\n#x", "alice", "C", ERR_OK),
	    "alice:A\r\nalice:B:C\r\n#x");
	free(o);
	/* an empty line "alice:" gets no extra colon */
	T_EQ_STR(o = add("alice:\nz", "alice", "C", ERR_OK), "alice:C\nz");
	free(o);
}

static void
add_user_prefix_and_comments(void)
{
	char *o;

	/* "alice2:" and "#alice:" are not alice's lines */
	T_EQ_STR(o = add("alice2:A\n#alice:B\n", "alice", "C", ERR_OK),
	    "alice2:A\n#alice:B\nalice:C\n");
	free(o);
	T_EQ_STR(o = add("ali:A\n", "alice", "C", ERR_OK), "ali:A\nalice:C\n");
	free(o);
}

static void
remove_middle_first_last(void)
{
	char *o;

	T_EQ_STR(
	    o = rm("x\nalice:A:B:C\ny", "alice", 2, ERR_OK), "x\nalice:A:C\ny");
	free(o);
	T_EQ_STR(o = rm("alice:A:B:C\n", "alice", 1, ERR_OK), "alice:B:C\n");
	free(o);
	T_EQ_STR(
	    o = rm("alice:A:B:C\r\n", "alice", 3, ERR_OK), "alice:A:B\r\n");
	free(o);
}

static void
remove_only_removes_line(void)
{
	char *o;

	T_EQ_STR(
	    o = rm("a:1\nalice:A\nb:2\n", "alice", 1, ERR_OK), "a:1\nb:2\n");
	free(o);
	T_EQ_STR(o = rm("a:1\nalice:A", "alice", 1, ERR_OK), "a:1\n");
	free(o);
}

static void
remove_errors(void)
{
	T_TRUE(rm("alice:A:B\n", "alice", 3, ERR_NOT_FOUND) == NULL);
	T_TRUE(rm("alice:\n", "alice", 1, ERR_NOT_FOUND) == NULL);
	T_TRUE(rm("bob:A\n", "alice", 1, ERR_NOT_FOUND) == NULL);
	T_TRUE(rm("#alice:A\n", "alice", 1, ERR_NOT_FOUND) == NULL);
}

/* The user's lines, and the one before the last (--remove refuses to
 * make it live). Comments and other users' lines do not count. */
static void
user_lines(void)
{
	const char *t = "alice:A\n#alice:X\nalicex:Y\nbob:B\nalice:C\n";
	size_t before = 99;

	T_EQ_INT(lines_user_lines(t, strlen(t), "alice", &before), 2);
	T_EQ_INT(before, 1);
	T_EQ_INT(lines_user_lines(t, strlen(t), "bob", &before), 1);
	T_EQ_INT(before, 0);
	T_EQ_INT(lines_user_lines(t, strlen(t), "carol", &before), 0);
	T_EQ_INT(before, 0);
	t = "alice:A\r\nalice:B\r\nx\r\nalice:C";
	T_EQ_INT(lines_user_lines(t, strlen(t), "alice", &before), 3);
	T_EQ_INT(before, 2);
	T_EQ_INT(lines_user_lines(t, strlen(t), "alice", NULL), 3);
}

TEST_MAIN(TEST(add_new_user), TEST(add_existing_line),
    TEST(add_user_prefix_and_comments), TEST(remove_middle_first_last),
    TEST(remove_only_removes_line), TEST(remove_errors), TEST(user_lines))
