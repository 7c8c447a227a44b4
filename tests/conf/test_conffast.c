/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file's usual form read without libconfuse
 * (common/conf/conffast.c): conf_fast takes "key = value" files and
 * declines everything else, and conf_parse_mem (which tries it first)
 * gives exactly what libconfuse alone gives (conf_parse_mem_libconfuse):
 * result, message and every value, for a set of files and for every
 * one-character change and every cut of them. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conffast.h"
#include "conf/confscan.h"
#include "base/err.h"
#include "test.h"

#include "conffix.h"

/* What the bench's file and most pam_u2f.conf files look like. */
#define USUAL                                                                  \
	"# pam_u2f\n"                                                          \
	"cue\n"                                                                \
	"cue_prompt = \"Touch the key\"\n"                                     \
	"max_devices = 128\n"                                                  \
	"timeout=30\n"                                                         \
	"\tauthfile = /etc/u2f_mappings   # central\n"                         \
	"origin = pam://example.org\n"                                         \
	"userpresence = 1\n"

static const char *const files[] = {
    USUAL,
    "",
    "\n\n  \n",
    "debug = true\ndebug_file = stderr\n",
    "expand = yes\nnouserok = on\nopenasuser = false\n",
    "userverification = -1\npinverification = 0\n",
    "timeout = 42",
    "cue_prompt = \"\"\n",
    "cue_prompt = 'single quoted'\n",
    "cue_prompt = \"tab\\tescape\"\n",
    "cue_prompt = \"dollar $HOME\"\n",
    "cue_prompt = \"two\nlines\"\n",
    "origin = pam://a//b\n",
    "origin = pam:/a/*b\n",
    "authfile = /etc/a,b\n",
    "timeout = 1 2\n",
    "timeout =\n5\n",
    "timeout\n= 5\n",
    "timeout = abc\n",
    "timeout = -1\n",
    "timeout = 0x10\n",
    "timeout = 5\ntimeout = 6\n",
    "no_such_key = 1\n",
    "cue = maybe\n",
    "cue = true\r\n",
    "devices = /dev/hidraw0\n",
    "devices = { \"/dev/hidraw0\", \"unix:/run/t.sock\" }\n",
    "ldap { uri = \"ldaps://example.org\" }\n",
    "max_devices = 4 # four\ncue = true // on\n",
    "cue = true;\n",
    "debug_file = \"/var/log/pam_u2f.log\"\n",
    "debug_file = relative.log\n",
    "Cue = true\n",
    "cue = TRUE\n",
    "cue == true\n",
    "= true\n",
    "cue = \"true\"\n",
    "cue_prompt = caf\xc3\xa9\n",
    "cue_prompt = \"caf\xc3\xa9\"\n",
};

/* conf_parse_mem and libconfuse alone agree on text[0..len). */
static bool
agree(const char *text, size_t len)
{
	struct conf a, b;
	char ea[ERRLEN], eb[ERRLEN];
	int ra, rb;
	bool same;

	ra = conf_parse_mem(NAME, text, len, &a, ea, ERRLEN);
	rb = conf_parse_mem_libconfuse(NAME, text, len, &b, eb, ERRLEN);
	same = ra == rb && strcmp(ea, eb) == 0 && conf_same(&a, &b);
	if (!same)
		fprintf(stderr,
		    "differ on %zu bytes: \"%.*s\": %d/%d '%s'/'%s'\n", len,
		    (int)len, text, ra, rb, ea, eb);
	conf_free(&a);
	conf_free(&b);
	return same;
}

static void
t_files_agree(void)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		bad += !agree(files[i], strlen(files[i]));
	bad += !agree(all_keys(), strlen(all_keys()));
	T_EQ_INT(bad, 0);
}

/* Every cut of USUAL, and every byte of it replaced by each character
 * that matters to either parser. */
static void
t_changes_agree(void)
{
	static const char subst[] = " \t\n=\"'#/*\\${},;+-0aZ_\r";
	char text[sizeof(USUAL)];
	size_t i, j, n = strlen(USUAL);
	int bad = 0;

	for (i = 0; i <= n; i++)
		bad += !agree(USUAL, i);
	for (i = 0; i < n; i++)
		for (j = 0; j < sizeof(subst) - 1; j++) {
			memcpy(text, USUAL, n + 1);
			text[i] = subst[j];
			bad += !agree(text, n);
		}
	T_EQ_INT(bad, 0);
}

/* A bare boolean key, as conf.c tells conf_scan. */
static bool
is_flag(const char *name, size_t n)
{
	enum conf_key k = conf_opt_find(name, n);

	return (unsigned int)k < CONF_NKEYS && conf_opt(k)->type == CONF_T_BOOL;
}

/* conf_fast on conf_scan's copy, as conf.c calls it. */
static int
fast(const char *text, struct conf *c)
{
	char *copy = NULL;
	const char *why = NULL;
	int line = 0, r;

	memset(c, 0, sizeof(*c));
	if (conf_scan(text, strlen(text), is_flag, &copy, &line, &why) !=
	    ERR_OK)
		return ERR_INVAL;
	r = conf_fast(copy, c);
	free(copy);
	return r;
}

static void
t_fast_taken(void)
{
	struct conf c;

	T_EQ_INT(fast("cue\nmax_devices = 128\ntimeout = 30\n"
		      "cue_prompt = \"Touch\"\n",
		     &c),
	    ERR_OK);
	T_EQ_INT(c.set,
	    bit(CONF_CUE) | bit(CONF_MAX_DEVICES) | bit(CONF_TIMEOUT) |
		bit(CONF_CUE_PROMPT));
	T_TRUE(c.cue);
	T_EQ_INT(c.max_devices, 128);
	T_EQ_INT(c.timeout, 30);
	T_EQ_STR(c.cue_prompt, "Touch");
	conf_free(&c);
	T_EQ_INT(fast("", &c), ERR_OK);
	T_EQ_INT(c.set, 0);
}

static void
t_fast_declines(void)
{
	static const char *const other[] = {"devices = /dev/hidraw0\n",
	    "ldap { uri = \"ldaps://x\" }\n", "cue_prompt = \"a\\tb\"\n",
	    "cue_prompt = 'a'\n", "timeout = 5\ntimeout = 6\n",
	    "no_such_key = 1\n", "timeout = abc\n", "timeout =\n5\n",
	    "cue = true\r\n", "origin = a//b\n"};
	struct conf c;
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		if (fast(other[i], &c) != CONF_FAST_DECLINED || c.set != 0)
			bad++;
		conf_free(&c);
	}
	T_EQ_INT(bad, 0);
}

TEST_MAIN(TEST(t_files_agree), TEST(t_changes_agree), TEST(t_fast_taken),
    TEST(t_fast_declines))
