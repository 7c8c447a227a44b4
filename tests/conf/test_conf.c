/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file as common/conf/conf.c parses it from memory: the
 * schema and every key's value, with the "set" bit per key that precedence
 * relies on; each value and syntax error with its file:line message, none
 * echoing the file's text; the error buffer; and parsing from several
 * threads at once. Loading a file (conf_load's safety rules) and the
 * shipped example are in tests/conf/test_conffile.c; what the text scanner of
 * common/conf/confscan.c accepts, refuses and rewrites before libconfuse sees
 * the text is in tests/conf/test_confscan.c. */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/err.h"
#include "test.h"

#include "conffix.h"

static void
t_roundtrip_all(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(parse(all_keys(), &c, err), ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_INT(c.set, (UINT32_C(1) << CONF_NKEYS) - 1);
	T_TRUE(c.debug);
	T_EQ_STR(c.debug_file, "/var/log/pam_u2f.log");
	T_EQ_STR(c.origin, "pam://example.org");
	T_EQ_STR(c.appid, "https://example.org/appid");
	T_EQ_STR(c.authfile, "/etc/u2f_mappings");
	T_TRUE(c.expand);
	T_EQ_STR(c.authcmd, "/usr/libexec/pam-u2f-keys --user %u");
	T_EQ_STR(c.authcmd_user, "pam-u2f");
	T_EQ_INT(c.authcmd_timeout, 12);
	T_EQ_STR(c.authcmd_cache, "/var/cache/pam-u2f");
	T_EQ_INT(c.authcmd_cache_maxage, 3600);
	T_EQ_STR(c.authpending_file, "/run/user/pending");
	T_TRUE(c.nouserok);
	T_TRUE(c.openasuser);
	T_TRUE(c.alwaysok);
	T_EQ_INT(c.max_devices, 7);
	T_TRUE(c.interactive);
	T_EQ_STR(c.prompt, "Insert it, then press ENTER");
	T_TRUE(c.manual);
	T_TRUE(c.cue);
	T_EQ_STR(c.cue_prompt, "Touch it now");
	T_TRUE(c.nodetect);
	T_EQ_INT(c.userpresence, 0);
	T_EQ_INT(c.userverification, -1);
	T_EQ_INT(c.pinverification, 0);
	T_TRUE(c.sshformat);
	T_EQ_INT(c.remote, CONF_REMOTE_FAIL);
	T_EQ_INT(c.timeout, 42);
	T_EQ_INT(c.ndevices, 2);
	if (c.ndevices == 2) {
		T_EQ_STR(c.devices[0], "/dev/hidraw3");
		T_EQ_STR(c.devices[1], "unix:/run/token.sock");
	}
	conf_free(&c);
	T_EQ_INT(c.set, 0);
	T_TRUE(c.origin == NULL && c.devices == NULL);
}

/* One line per key: it sets that key's bit and no other. */
static void
t_roundtrip_each(void)
{
	static const struct {
		enum conf_key k;
		const char *line;
	} v[] = {
	    {CONF_DEBUG, "debug = false"},
	    {CONF_DEBUG_FILE, "debug_file = syslog"},
	    {CONF_ORIGIN, "origin = \"pam://h\""},
	    {CONF_APPID, "appid = \"pam://a\""},
	    {CONF_AUTHFILE, "authfile = .config/keys"},
	    {CONF_EXPAND, "expand = false"},
	    {CONF_AUTHCMD, "authcmd = /usr/libexec/k"},
	    {CONF_AUTHCMD_USER, "authcmd_user = nobody"},
	    {CONF_AUTHCMD_TIMEOUT, "authcmd_timeout = 300"},
	    {CONF_AUTHCMD_CACHE, "authcmd_cache = /c"},
	    {CONF_AUTHCMD_CACHE_MAXAGE, "authcmd_cache_maxage = 31536000"},
	    {CONF_AUTHPENDING_FILE, "authpending_file = \"\""},
	    {CONF_NOUSEROK, "nouserok = off"},
	    {CONF_OPENASUSER, "openasuser = no"},
	    {CONF_ALWAYSOK, "alwaysok = false"},
	    {CONF_MAX_DEVICES, "max_devices = 1024"},
	    {CONF_INTERACTIVE, "interactive = false"},
	    {CONF_PROMPT, "prompt = \"p\""},
	    {CONF_MANUAL, "manual = false"},
	    {CONF_CUE, "cue = false"},
	    {CONF_CUE_PROMPT, "cue_prompt = \"c\""},
	    {CONF_NODETECT, "nodetect = false"},
	    {CONF_USERPRESENCE, "userpresence = 1"},
	    {CONF_USERVERIFICATION, "userverification = 0"},
	    {CONF_PINVERIFICATION, "pinverification = -1"},
	    {CONF_SSHFORMAT, "sshformat = false"},
	    {CONF_REMOTE, "remote = agent"},
	    {CONF_TIMEOUT, "timeout = 3600"},
	    {CONF_DEVICES, "devices = /dev/hidraw0"},
	};
	struct conf c;
	char err[ERRLEN];
	size_t i;
	int k;

	T_EQ_INT(sizeof(v) / sizeof(v[0]), CONF_NKEYS);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		T_EQ_ERR(parse(v[i].line, &c, err), ERR_OK);
		T_EQ_INT(c.set, bit(v[i].k));
		for (k = 0; k < CONF_NKEYS; k++)
			T_TRUE(conf_isset(&c, (enum conf_key)k) ==
			    ((enum conf_key)k == v[i].k));
		switch (v[i].k) {
		case CONF_DEBUG_FILE:
			T_EQ_STR(c.debug_file, "syslog");
			break;
		case CONF_AUTHFILE:
			T_EQ_STR(c.authfile, ".config/keys");
			break;
		case CONF_AUTHPENDING_FILE:
			T_EQ_STR(c.authpending_file, "");
			break;
		case CONF_MAX_DEVICES:
			T_EQ_INT(c.max_devices, 1024);
			break;
		case CONF_USERPRESENCE:
			T_EQ_INT(c.userpresence, 1);
			break;
		case CONF_PINVERIFICATION:
			T_EQ_INT(c.pinverification, -1);
			break;
		case CONF_TIMEOUT:
			T_EQ_INT(c.timeout, 3600);
			break;
		case CONF_REMOTE:
			T_EQ_INT(c.remote, CONF_REMOTE_AGENT);
			break;
		case CONF_AUTHCMD:
			T_EQ_STR(c.authcmd, "/usr/libexec/k");
			break;
		case CONF_AUTHCMD_TIMEOUT:
			T_EQ_INT(c.authcmd_timeout, 300);
			break;
		case CONF_AUTHCMD_CACHE:
			T_EQ_STR(c.authcmd_cache, "/c");
			break;
		case CONF_AUTHCMD_CACHE_MAXAGE:
			T_EQ_INT(c.authcmd_cache_maxage, 31536000);
			break;
		case CONF_DEVICES:
			T_EQ_INT(c.ndevices, 1);
			if (c.ndevices == 1)
				T_EQ_STR(c.devices[0], "/dev/hidraw0");
			break;
		default:
			break;
		}
		conf_free(&c);
	}
}

static void
t_key_names(void)
{
	int i, j;

	for (i = 0; i < CONF_NKEYS; i++) {
		T_TRUE(conf_key_name((enum conf_key)i) != NULL);
		for (j = 0; j < i; j++)
			T_TRUE(strcmp(conf_key_name((enum conf_key)i),
				   conf_key_name((enum conf_key)j)) != 0);
	}
	T_EQ_STR(conf_key_name(CONF_MAX_DEVICES), "max_devices");
	T_TRUE(conf_key_name(CONF_NKEYS) == NULL);
	T_TRUE(!conf_isset(NULL, CONF_DEBUG));
}

static void
t_default_path(void)
{
	const char *p = conf_default_path();
	const char *want = getenv("PU_CONF_DEFAULT"); /* make check's */
	const char *tail = "/pam_u2f.conf";

	T_TRUE(p != NULL && p[0] == '/');
	/* configure --with-pam-conf, else /etc/security/pam_u2f.conf
	 * whatever the prefix. */
	if (want != NULL)
		T_EQ_STR(p, want);
	T_TRUE(strlen(p) > strlen(tail) &&
	    strcmp(p + strlen(p) - strlen(tail), tail) == 0);
}

static void
t_unknown_key(void)
{
	expect_error("debug = true\nfoo = 1\n", ERR_CONFIG,
	    NAME ":2: no such option 'foo'");
	/* Keys are case-sensitive, as module arguments are. */
	expect_error("\n\nTimeout = 5\n", ERR_CONFIG,
	    NAME ":3: no such option 'Timeout'");
	/* conf= names the file; it is not a key inside it. */
	expect_error("conf = \"/etc/x\"\n", ERR_CONFIG,
	    NAME ":1: no such option 'conf'");
	/* No include(): it would open files without our checks. */
	expect_error("include(\"/etc/passwd\")\n", ERR_CONFIG,
	    NAME ":1: no such option 'include'");
	/* The hidden context option cannot be reached from a file. */
	expect_error("\"pam_u2f conf ctx\" = x\n", ERR_CONFIG,
	    NAME ":1: no such option '(not shown)'");
}

/* A mistaken conf=/etc/shadow must not put a hash into the logs. */
static void
t_no_echo(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(parse("root:$y$j9T$SeCrEtHaSh:19000:0:99999:7:::\n", &c, err),
	    ERR_CONFIG);
	T_EQ_STR(err, NAME ":1: no such option '(not shown)'");
	T_EQ_ERR(parse("daemon:*:19000:0:99999:7:::\n", &c, err), ERR_CONFIG);
	T_EQ_STR(err, NAME ":1: stray '*'");
	T_EQ_ERR(parse("timeout = 5 SeCrEt:HaSh\n", &c, err), ERR_CONFIG);
	T_EQ_STR(err, NAME ":1: no such option '(not shown)'");
	/* A long key-like word is cut out too. */
	expect_error("abcdefghijklmnopqrstuvwxyzabcdefg = 1\n", ERR_CONFIG,
	    NAME ":1: no such option '(not shown)'");
}

static void
t_wrong_type(void)
{
	expect_error("timeout = abc\n", ERR_CONFIG,
	    NAME ":1: timeout: \"abc\" is not a whole number");
	expect_error("\nmax_devices = 0x10\n", ERR_CONFIG,
	    NAME ":2: max_devices: \"0x10\" is not a whole number");
	expect_error("timeout = \"+5\"\n", ERR_CONFIG,
	    NAME ":1: timeout: \"+5\" is not a whole number");
	expect_error("timeout = \" 5\"\n", ERR_CONFIG,
	    NAME ":1: timeout: \" 5\" is not a whole number");
	expect_error("timeout = 1.5\n", ERR_CONFIG,
	    NAME ":1: timeout: \"1.5\" is not a whole number");
	expect_error("debug = maybe\n", ERR_CONFIG,
	    NAME ":1: debug: \"maybe\" is not a boolean (true or false)");
	expect_error("cue = 1\n", ERR_CONFIG,
	    NAME ":1: cue: \"1\" is not a boolean (true or false)");
	expect_error(
	    "origin = { a, b }\n", ERR_CONFIG, NAME ":1: unexpected token '{'");
	expect_error("timeout 5\n", ERR_CONFIG,
	    NAME ":1: missing equal sign after option 'timeout'");
	expect_error("origin += x\n", ERR_CONFIG,
	    NAME ":1: attempt to append to non-list option 'origin'");
}

static void
t_decimal_only(void)
{
	struct conf c;
	char err[ERRLEN];

	/* strtol base 0 would read 010 as 8. */
	T_EQ_ERR(parse("timeout = 010\n", &c, err), ERR_OK);
	T_EQ_INT(c.timeout, 10);
	conf_free(&c);
}

static void
t_out_of_range(void)
{
	expect_error("timeout = 0\n", ERR_CONFIG,
	    NAME ":1: timeout: 0 is out of range (1 to 3600)");
	expect_error("timeout = 3601\n", ERR_CONFIG,
	    NAME ":1: timeout: 3601 is out of range (1 to 3600)");
	expect_error("timeout = -1\n", ERR_CONFIG,
	    NAME ":1: timeout: -1 is out of range (1 to 3600)");
	expect_error("timeout = 999999999999\n", ERR_CONFIG,
	    NAME ":1: timeout: 999999999999 is out of range (1 to 3600)");
	expect_error("timeout = 99999999999999999999\n", ERR_CONFIG,
	    NAME ":1: timeout: \"99999999999999999999\" is not a whole "
		 "number");
	expect_error("max_devices = -1\n", ERR_CONFIG,
	    NAME ":1: max_devices: -1 is out of range (0 to 1024)");
	expect_error("max_devices = 1025\n", ERR_CONFIG,
	    NAME ":1: max_devices: 1025 is out of range (0 to 1024)");
	expect_error("userpresence = 2\n", ERR_CONFIG,
	    NAME ":1: userpresence: 2 is out of range (-1 to 1)");
	expect_error("userverification = -2\n", ERR_CONFIG,
	    NAME ":1: userverification: -2 is out of range (-1 to 1)");
	expect_error("\n\n\npinverification = 7\n", ERR_CONFIG,
	    NAME ":4: pinverification: 7 is out of range (-1 to 1)");
}

static void
t_bad_strings(void)
{
	expect_error("origin = \"\"\n", ERR_CONFIG,
	    NAME ":1: origin: \"\" may not be empty");
	expect_error("appid = ''\n", ERR_CONFIG,
	    NAME ":1: appid: \"\" may not be empty");
	expect_error("authfile = \"\"\n", ERR_CONFIG,
	    NAME ":1: authfile: \"\" may not be empty");
	expect_error("cue_prompt = \"\"\n", ERR_CONFIG,
	    NAME ":1: cue_prompt: \"\" may not be empty");
	expect_error("prompt = \"a\\tb\"\n", ERR_CONFIG,
	    NAME ":1: prompt: \"a?b\" contains a control character");
	expect_error("origin = \"pam://a\nb\"\n", ERR_CONFIG,
	    NAME ":2: origin: \"pam://a?b\" contains a control character");
	expect_error("debug_file = relative.log\n", ERR_CONFIG,
	    NAME ":1: debug_file: \"relative.log\" is not \"stderr\", "
		 "\"syslog\" or an absolute path");
}

static void
t_long_string(void)
{
	struct conf c;
	char err[ERRLEN], *text;
	size_t n = CONF_STRING_MAX + 1;

	if ((text = malloc(n + 32)) == NULL)
		abort();
	memcpy(text, "prompt = \"", 10);
	memset(text + 10, 'x', n);
	memcpy(text + 10 + n, "\"\n", 3);
	T_EQ_ERR(parse(text, &c, err), ERR_CONFIG);
	T_TRUE(strstr(err, NAME ":1: prompt: \"xxx") == err);
	T_TRUE(strstr(err, "\" is too long") != NULL);
	T_TRUE(strlen(err) < 200); /* the value is cut in messages */
	text[10 + n - 1] = '"';    /* exactly the maximum */
	text[10 + n] = '\n';
	text[10 + n + 1] = '\0';
	T_EQ_ERR(parse(text, &c, err), ERR_OK);
	T_EQ_INT(strlen(c.prompt), CONF_STRING_MAX);
	conf_free(&c);
	free(text);
}

static void
t_devices(void)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(
	    parse("devices = {\n  \"/dev/hidraw1\",\n  unix:/tmp/s\n}\n"
		  "devices += { /dev/hidraw9, \"pcsc:Virtual PCD 00 00\" }\n",
		&c, err),
	    ERR_OK);
	T_EQ_INT(c.ndevices, 4);
	if (c.ndevices == 4) {
		T_EQ_STR(c.devices[0], "/dev/hidraw1");
		T_EQ_STR(c.devices[1], "unix:/tmp/s");
		T_EQ_STR(c.devices[2], "/dev/hidraw9");
		T_EQ_STR(c.devices[3], "pcsc:Virtual PCD 00 00");
	}
	conf_free(&c);
	/* An empty list sets nothing. */
	T_EQ_ERR(parse("devices = {}\n", &c, err), ERR_OK);
	T_EQ_INT(c.set, 0);
	T_EQ_INT(c.ndevices, 0);
	conf_free(&c);
}

static void
t_bad_device(void)
{
#define BADDEV " is not a /dev/ path, a unix:/ socket path or a pcsc: reader"
	expect_error("devices = {\n  \"/dev/hidraw1\",\n  \"/tmp/x\"\n}\n",
	    ERR_CONFIG, NAME ":3: devices: \"/tmp/x\"" BADDEV);
	expect_error("devices = { \"unix:relative\" }\n", ERR_CONFIG,
	    NAME ":1: devices: \"unix:relative\"" BADDEV);
	expect_error("devices = { \"/dev/\" }\n", ERR_CONFIG,
	    NAME ":1: devices: \"/dev/\"" BADDEV);
	expect_error("devices = { \"unix:/\" }\n", ERR_CONFIG,
	    NAME ":1: devices: \"unix:/\"" BADDEV);
	expect_error("devices = { \"pcsc:\" }\n", ERR_CONFIG,
	    NAME ":1: devices: \"pcsc:\"" BADDEV);
	expect_error("devices = { \"\" }\n", ERR_CONFIG,
	    NAME ":1: devices: \"\"" BADDEV);
#undef BADDEV
}

/* "devices = {/dev/h0,/dev/h1,...}" with n entries; caller frees. */
static char *
devices_text(size_t n)
{
	char *text, *p;
	size_t i;

	if ((text = malloc(32 + n * 16)) == NULL)
		abort();
	p = text + sprintf(text, "devices = {");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s/dev/h%zu", i ? "," : "", i);
	sprintf(p, "}\n");
	return text;
}

static void
t_too_many_devices(void)
{
	struct conf c;
	char err[ERRLEN], *text;

	text = devices_text(CONF_DEVICES_MAX + 1);
	T_EQ_ERR(parse(text, &c, err), ERR_CONFIG);
	T_EQ_STR(err, NAME ":1: devices: more than 1024 entries");
	free(text);
	text = devices_text(CONF_DEVICES_MAX);
	T_EQ_ERR(parse(text, &c, err), ERR_OK);
	T_EQ_INT(c.ndevices, CONF_DEVICES_MAX);
	if (c.ndevices == CONF_DEVICES_MAX)
		T_EQ_STR(c.devices[CONF_DEVICES_MAX - 1], "/dev/h1023");
	conf_free(&c);
	free(text);
}

static void
t_duplicate(void)
{
	expect_error("timeout = 5\n# again\n# and again\ntimeout = 6\n",
	    ERR_CONFIG, NAME ":4: timeout: already set on line 1");
	expect_error("# c\n// c\ntimeout = 5 # c\n# c\ntimeout = 6\n",
	    ERR_CONFIG, NAME ":5: timeout: already set on line 3");
	expect_error("origin = a\norigin = a\n", ERR_CONFIG,
	    NAME ":2: origin: already set on line 1");
	expect_error("debug = false\ndebug = true\n", ERR_CONFIG,
	    NAME ":2: debug: already set on line 1");
}

static void
t_syntax(void)
{
	/* At the end, the line after the last one. */
	expect_error("timeout = 5\norigin =\n", ERR_CONFIG,
	    NAME ":3: premature end of file");
	expect_error("= 5\n", ERR_CONFIG, NAME ":1: unexpected token '='");
	expect_error("}\n", ERR_CONFIG, NAME ":1: unexpected closing brace");
}

static void
t_errbuf(void)
{
	struct conf c;
	char small[8];

	/* A short buffer is cut, NUL-terminated; no buffer is fine. */
	T_EQ_ERR(conf_parse_mem(NAME, "x = 1", 5, &c, small, sizeof(small)),
	    ERR_CONFIG);
	T_EQ_STR(small, "test.co");
	T_EQ_ERR(conf_parse_mem(NAME, "x = 1", 5, &c, NULL, 0), ERR_CONFIG);
	T_EQ_ERR(conf_parse_mem(NAME, "timeout = 9", 11, &c, NULL, 0), ERR_OK);
	T_EQ_INT(c.timeout, 9);
	conf_free(&c);
	T_EQ_ERR(conf_parse_mem(NAME, NULL, 1, &c, NULL, 0), ERR_INVAL);
	T_EQ_ERR(conf_load("/x", true, NULL, NULL, 0), ERR_INVAL);
	conf_free(NULL);
}

/* libconfuse's lexer has process-global state: parses in several threads
 * must be serialised by conf.c, and each must still see its own values. */
#define THREADS 4
#define ROUNDS 300
#define LONG 3000 /* grows libconfuse's shared quoted-string buffer */

static void *
parse_many(void *arg)
{
	long id = (long)(intptr_t)arg, i;
	char *text, prompt[LONG + 1], err[ERRLEN];
	struct conf c;
	void *bad = (void *)1;

	memset(prompt, 'a' + (int)id, LONG);
	prompt[LONG] = '\0';
	if ((text = malloc(LONG + 128)) == NULL)
		return bad;
	for (i = 0; i < ROUNDS; i++) {
		snprintf(text, LONG + 128,
		    "timeout = %ld\nprompt = \"%s\"\n"
		    "%s",
		    id + 1, prompt, i % 2 ? "foo = 1\n" : "");
		if (parse(text, &c, err) != (i % 2 ? ERR_CONFIG : ERR_OK))
			goto fail;
		if (i % 2 && strcmp(err, NAME ":3: no such option 'foo'") != 0)
			goto fail;
		if (!(i % 2) &&
		    (c.timeout != id + 1 || c.prompt == NULL ||
			strcmp(c.prompt, prompt) != 0))
			goto fail;
		conf_free(&c);
	}
	bad = NULL;
fail:
	conf_free(&c);
	free(text);
	return bad;
}

static void
t_threads(void)
{
	pthread_t th[THREADS];
	void *ret;
	long i;

	for (i = 0; i < THREADS; i++)
		T_TRUE(pthread_create(
			   &th[i], NULL, parse_many, (void *)(intptr_t)i) == 0);
	for (i = 0; i < THREADS; i++) {
		T_TRUE(pthread_join(th[i], &ret) == 0);
		T_TRUE(ret == NULL);
	}
}

TEST_MAIN(TEST(t_roundtrip_all), TEST(t_roundtrip_each), TEST(t_key_names),
    TEST(t_default_path), TEST(t_unknown_key), TEST(t_no_echo),
    TEST(t_wrong_type), TEST(t_decimal_only), TEST(t_out_of_range),
    TEST(t_bad_strings), TEST(t_long_string), TEST(t_devices),
    TEST(t_bad_device), TEST(t_too_many_devices), TEST(t_duplicate),
    TEST(t_syntax), TEST(t_errbuf), TEST(t_threads))
