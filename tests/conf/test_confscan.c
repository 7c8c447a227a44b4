/* SPDX-License-Identifier: BSD-2-Clause */
/* The text scanner of common/conf/confscan.c, which checks a configuration
 * file's text and copies it for libconfuse: what it accepts (strings,
 * comments, "//" only at the start of a word, "+=", CR LF), what it refuses
 * and on which line (NUL bytes, stray '+', '*' and carriage returns, block
 * comments, "${", unterminated strings, too much text), and what it
 * rewrites (comments blanked out so that line numbers stay right; a bare
 * Yubico-style boolean flag becoming "= true"). conf_scan is called
 * directly for its exact output, *line and *why, and through
 * conf_parse_mem for the file:line messages the user sees. The keys and
 * values of common/conf/conf.c are in tests/conf/test_conf.c, its file safety
 * rules in tests/conf/test_conffile.c. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/confscan.h"
#include "base/err.h"
#include "test.h"

#include "conffix.h"

/* The flags of these direct cases; conf.c passes its boolean keys. "q",
 * shorter than any of conf.c's, makes a copy grow the most. */
static int flag_calls_empty;

static bool
flag(const char *name, size_t n)
{
	if (n == 0)
		flag_calls_empty++;
	return (n == 3 && memcmp(name, "cue", 3) == 0) ||
	    (n == 5 && memcmp(name, "debug", 5) == 0) ||
	    (n == 1 && name[0] == 'q');
}

/* conf_scan accepts len bytes of text and copies them as want. */
static void
expect_copy(const char *text, size_t len, const char *want)
{
	char *out = NULL;
	const char *why = "unset";
	int line = -1;

	T_EQ_ERR(conf_scan(text, len, flag, &out, &line, &why), ERR_OK);
	T_EQ_STR(out, want);
	T_EQ_INT(line, 0);
	T_TRUE(why == NULL);
	free(out);
}

/* conf_scan accepts text and copies it unchanged. */
static void
expect_same(const char *text)
{
	expect_copy(text, strlen(text), text);
}

/* conf_scan refuses len bytes of text on want_line for want_why. */
static void
expect_refused(
    const char *text, size_t len, int want_line, const char *want_why)
{
	static char unset;
	char *out = &unset;
	const char *why = NULL;
	int line = -1;

	T_EQ_ERR(conf_scan(text, len, flag, &out, &line, &why), ERR_CONFIG);
	T_TRUE(out == NULL);
	T_EQ_INT(line, want_line);
	T_EQ_STR(why, want_why);
}

/* Text the lexer reads right is copied as it is. */
static void
t_scan_accepts(void)
{
	expect_same("");
	expect_same("timeout = 5\norigin = pam://x\nauthfile = /home/u/k\n");
	expect_same("devices = { /dev/hidraw0 }\ndevices += { unix:/run/s }\n");
	expect_same("timeout = 5\r\nnodetect = true\r\n");
	expect_same("prompt = \"$5 a$b\"\norigin = a$b\n");
	/* Inside strings, escaped quotes included, everything is text;
	 * libconfuse expands "${" in "..." only. */
	expect_same("prompt = \"\\\"#1\\\" + * // /* \\\\\"\n");
	expect_same("cue_prompt = 'it\\'s #2 + * // /* ${HOME} \\\\'\n");
}

/* Comments become spaces, byte for byte, so every newline stays. */
static void
t_scan_comments(void)
{
	expect_copy("a = 1 # c\n// x\nb = 2 // y\n", 26,
	    "a = 1    \n    \nb = 2     \n");
	expect_copy(
	    "# + * /* ${ \" '\r\nx = 1\n", 23, "                \nx = 1\n");
	/* "//" starts a comment only at the start of a word. */
	expect_copy("origin = pam://x # c\n", 21, "origin = pam://x    \n");
	expect_copy("a = x //y\n", 10, "a = x    \n");
}

#define BLOCK "block comments are not supported (use #)"
#define ENV "\"${\" is not allowed (no environment variable substitution)"

/* Each refusal, with the line it names; the first problem wins. */
static void
t_scan_refusals(void)
{
#define R(text, line, why)                                                     \
	{                                                                      \
		text, sizeof(text) - 1, line, why                              \
	}
	static const struct {
		const char *text;
		size_t len;
		int line;
		const char *why;
	} v[] = {
	    R("\0", 1, "NUL byte"),
	    R("a = 1\n#\0\n", 2, "NUL byte"),
	    R("a = \"x\0\"\n", 1, "NUL byte"),
	    R("timeout = +5\n", 1, "stray '+'"),
	    R("\ntimeout = 5*\n", 2, "stray '*'"),
	    R("a = 1\rb = 2\n", 1, "stray carriage return"),
	    R("a = 1\n\r", 2, "stray carriage return"),
	    R("authfile = /home/*/keys\n", 1, BLOCK),
	    R("a = 1\n\n/* c */\n", 3, BLOCK),
	    R("\n\norigin = ${HOME}\n", 3, ENV),
	    R("origin = \"a${HOME}\"\n", 1, ENV),
	    R("prompt = \"open\n\n", 3, "unterminated string"),
	    R("prompt = 'open", 1, "unterminated string"),
	    R("prompt = \"a\\\"\n", 2, "unterminated string"),
	    R("prompt = 'a\\'\n", 2, "unterminated string"),
	    R("a = +1\nb = *\n", 1, "stray '+'"),
	};
#undef R
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		expect_refused(v[i].text, v[i].len, v[i].line, v[i].why);
}

/* CONF_MAX_SIZE bytes of comment are fine; one more is refused. */
static void
t_scan_too_large(void)
{
	size_t n = CONF_MAX_SIZE;
	char *text, *want;

	if ((text = malloc(n + 1)) == NULL || (want = malloc(n + 1)) == NULL)
		abort();
	memset(text, '#', n);
	text[n - 1] = '\n';
	memset(want, ' ', n);
	want[n - 1] = '\n';
	want[n] = '\0';
	expect_copy(text, n, want);
	text[n] = '#';
	expect_refused(text, n + 1, 1, "the file is too large");
	free(want);
	free(text);
}

/* A line holding only a flag gets " = true" before its newline. */
static void
t_scan_flags(void)
{
	flag_calls_empty = 0;
	expect_copy("cue\n", 4, "cue = true\n");
	expect_copy("cue", 3, "cue = true");
	expect_copy("  debug \t\r\n", 11, "  debug \t\r = true\n");
	expect_copy("cue # why\n", 10, "cue       = true\n");
	expect_copy("cue\ndebug\n\n", 11, "cue = true\ndebug = true\n\n");
	expect_copy("devices = {}\ncue\n", 17, "devices = {}\ncue = true\n");
	expect_copy("# cue\n", 6, "     \n");
	/* Not a flag, not alone, in a list or in a string: as it is. */
	expect_same("origin\ncu\ncues\n");
	expect_same("cue cue\ncue = false\n");
	expect_same("devices = {\n cue\n}\n");
	expect_same("prompt = 'a\ncue\n'\nprompt = \"a\ncue\n\"\n");
	/* Blank lines never ask about an empty name. */
	expect_same("\n\n \t\n");
	T_EQ_INT(flag_calls_empty, 0);
}

/* FLAG_LINES copies of in, a line holding only a flag, are copied as
 * FLAG_LINES copies of want_line, the same line with " = true"; so is the
 * same text without its last newline. */
#define FLAG_LINES 1000

static void
expect_flag_lines(const char *in, const char *want_line)
{
	size_t n = FLAG_LINES, li = strlen(in), lw = strlen(want_line), i;
	char *text, *want;

	if ((text = malloc(li * n + 1)) == NULL ||
	    (want = malloc(lw * n + 1)) == NULL)
		abort();
	for (i = 0; i < n; i++) {
		memcpy(text + li * i, in, li);
		memcpy(want + lw * i, want_line, lw);
	}
	text[li * n] = '\0';
	want[lw * n] = '\0';
	expect_copy(text, li * n, want);
	/* The last one without its newline. */
	want[lw * n - 1] = '\0';
	expect_copy(text, li * n - 1, want);
	free(want);
	free(text);
}

/* The worst case the copy is sized for: nothing but "cue" lines. */
static void
t_scan_growth(void)
{
	expect_flag_lines("cue\n", "cue = true\n");
}

/* A one-letter flag on every line: "q\n" (2 bytes) becomes 9; the copy
 * is sized from the number of lines, not from the flags' names (it used
 * to allow 3 bytes out per byte in, which this overflows). */
static void
t_scan_short_flag(void)
{
	expect_flag_lines("q\n", "q = true\n");
	expect_copy("q", 1, "q = true");
}

static void
t_empty_and_comments(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(parse("", &c, err), ERR_OK);
	T_EQ_INT(c.set, 0);
	T_EQ_ERR(conf_parse_mem(NAME, NULL, 0, &c, err, ERRLEN), ERR_OK);
	T_EQ_INT(c.set, 0);
	T_EQ_ERR(parse("# only a comment\n\n   \n", &c, err), ERR_OK);
	T_EQ_INT(c.set, 0);
	T_EQ_ERR(
	    parse("# hash\n// slashes\n  ## more ${HOME} + * \"\n"
		  "timeout = 5 # trailing\r\nnodetect = true // trailing\n",
		&c, err),
	    ERR_OK);
	T_EQ_INT(c.set, bit(CONF_TIMEOUT) | bit(CONF_NODETECT));
	T_EQ_INT(c.timeout, 5);
	T_TRUE(c.nodetect);
	conf_free(&c);
	/* '#', '+', '*' and '//' inside quotes are text. */
	T_EQ_ERR(parse("prompt = \"#1 + * // \\\"key\\\"\"\n"
		       "cue_prompt = 'it\\'s #2'\norigin = pam://x\n",
		     &c, err),
	    ERR_OK);
	T_EQ_STR(c.prompt, "#1 + * // \"key\"");
	T_EQ_STR(c.cue_prompt, "it's #2");
	T_EQ_STR(c.origin, "pam://x");
	conf_free(&c);
	/* libconfuse counts one line too many after a block comment. */
	expect_error("timeout = 5\n/* one\ntwo */\nfoo = 1\n", ERR_CONFIG,
	    NAME ":2: block comments are not supported (use #)");
}

/* Bytes libconfuse's lexer would drop without a word. */
static void
t_dropped_bytes(void)
{
	expect_error("timeout = +5\n", ERR_CONFIG, NAME ":1: stray '+'");
	expect_error("\ntimeout = 5*\n", ERR_CONFIG, NAME ":2: stray '*'");
	expect_error("authfile = /home/*/keys\n", ERR_CONFIG,
	    NAME ":1: block comments are not supported (use #)");
	expect_error("timeout = 5\rnodetect = true\n", ERR_CONFIG,
	    NAME ":1: stray carriage return");
}

static void
t_nul_and_env(void)
{
	struct conf c;
	char err[ERRLEN];
	static const char nul[] = "timeout = 5\norigin = \"a\0b\"\n";

	T_EQ_ERR(conf_parse_mem(NAME, nul, sizeof(nul) - 1, &c, err, ERRLEN),
	    ERR_CONFIG);
	T_EQ_STR(err, NAME ":2: NUL byte");
	T_EQ_INT(c.set, 0);
	expect_error("\norigin = \"${HOME}\"\n", ERR_CONFIG,
	    NAME ":2: \"${\" "
		 "is not allowed (no environment variable substitution)");
	expect_error("authfile = ${HOME}/keys\n", ERR_CONFIG,
	    NAME
	    ":1: "
	    "\"${\" is not allowed (no environment variable substitution)");
}

/* Yubico pam-u2f's pam_u2f.conf: bare flags and key=value lines. */
static void
t_bare_flags(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(
	    parse("# pam-u2f style\ncue\nnouserok # why\n  debug \t\r\n"
		  "origin=pam://host\nauthfile=/etc/u2f_keys\nmax_devices=0\n"
		  "sshformat",
		&c, err),
	    ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_INT(c.set,
	    bit(CONF_CUE) | bit(CONF_NOUSEROK) | bit(CONF_DEBUG) |
		bit(CONF_ORIGIN) | bit(CONF_AUTHFILE) | bit(CONF_MAX_DEVICES) |
		bit(CONF_SSHFORMAT));
	T_TRUE(c.cue && c.nouserok && c.debug && c.sshformat);
	T_EQ_STR(c.origin, "pam://host");
	T_EQ_STR(c.authfile, "/etc/u2f_keys");
	T_EQ_INT(c.max_devices, 0);
	conf_free(&c);
	/* Only boolean keys, only on a line of their own, only outside
	 * lists and strings. */
	expect_error("origin\n", ERR_CONFIG, NAME ":2: premature end of file");
	expect_error("\ncue cue\n", ERR_CONFIG,
	    NAME ":2: missing equal sign after option 'cue'");
	expect_error("devices = {\n cue\n}\n", ERR_CONFIG,
	    NAME ":2: devices: \"cue\" is not a /dev/ path, a unix:/ "
		 "socket path or a pcsc: reader");
	T_EQ_ERR(parse("prompt = 'a\ncue\n'\n", &c, err), ERR_CONFIG);
	T_EQ_STR(err,
	    NAME ":3: prompt: \"a?cue?\" contains a control "
		 "character"); /* libconfuse names the string's last line */
	/* Unquoted values with spaces must be quoted here. */
	expect_error("prompt=Touch your key\n", ERR_CONFIG,
	    NAME ":1: no such option 'your'");
	/* A flag given twice is still a duplicate. */
	expect_error("cue\ncue = false\n", ERR_CONFIG,
	    NAME ":2: cue: already set on line 1");
}

/* An unterminated string, named at the end of the text. */
static void
t_unterminated(void)
{
	expect_error("\nprompt = \"open\n\n", ERR_CONFIG,
	    NAME ":4: unterminated string");
	expect_error(
	    "prompt = 'open\n", ERR_CONFIG, NAME ":2: unterminated string");
}

/* What the scanner lets through in '...' is read as it is. */
static void
t_single_quotes(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(parse("prompt = '${HOME} + * /* x'\n", &c, err), ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_STR(c.prompt, "${HOME} + * /* x");
	conf_free(&c);
}

TEST_MAIN(TEST(t_scan_accepts), TEST(t_scan_comments), TEST(t_scan_refusals),
    TEST(t_scan_too_large), TEST(t_scan_flags), TEST(t_scan_growth),
    TEST(t_scan_short_flag), TEST(t_empty_and_comments), TEST(t_single_quotes),
    TEST(t_dropped_bytes), TEST(t_nul_and_env), TEST(t_unterminated),
    TEST(t_bare_flags))
