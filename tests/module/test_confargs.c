/* SPDX-License-Identifier: BSD-2-Clause */
/* The module's arguments over the configuration file: built-in defaults <
 * the file < the arguments, and every way the file can fail the call.
 * Only root can make a root-owned file: as another user, every file here
 * is refused for its owner, and that refusal is what is checked. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "argsfix.h"
#include "conf/conf.h"
#include "base/err.h"
#include "test.h"

static char dir[] = "/tmp/test_confargs.XXXXXX";
static char path[256];

static bool
is_root(void)
{
	return geteuid() == 0;
}

/* Write the configuration file; returns "conf=PATH" (static). */
static const char *
conf(const char *text)
{
	static char arg[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/pam_u2f.conf", dir);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) < 0 ||
	    fclose(f) != 0 || chmod(path, 0644) != 0)
		abort();
	snprintf(arg, sizeof(arg), "conf=%s", path);
	return arg;
}

/* As another user the file is refused, whatever it says. */
static bool
refused_unless_root(const char *arg)
{
	struct options o;
	struct sink s;

	if (is_root())
		return false;
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_CONFIG);
	T_TRUE(
	    strstr(s.text, "refused: the file is not owned by root") != NULL);
	args_free(&o);
	return true;
}

static const char file_all[] = "# the file sets these\n"
			       "origin = \"pam://from-file\"\n"
			       "timeout = 7\n"
			       "cue\n"
			       "max_devices = 0\n"
			       "authpending_file = \"\"\n"
			       "authfile = \"/etc/u2f_mappings\"\n"
			       "userpresence = 0\n"
			       "devices = { /dev/hidraw7 }\n";

static void
test_file_over_defaults(void)
{
	const char *arg = conf(file_all);
	struct options o;
	struct sink s;

	if (refused_unless_root(arg))
		return;
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_OK);
	T_EQ_STR(s.text, "");
	T_EQ_STR(o.conf, path);
	T_EQ_STR(o.origin, "pam://from-file");
	T_EQ_STR(o.appid, "pam://from-file"); /* appid follows origin */
	T_EQ_INT(o.timeout, 7);
	T_TRUE(o.cue);
	T_EQ_INT(o.max_devices, ARGS_MAX_DEVICES_DEFAULT); /* 0 */
	T_TRUE(o.authpending_set);
	T_EQ_STR(o.authpending_file, "");
	T_EQ_STR(o.authfile, "/etc/u2f_mappings");
	T_TRUE(!args_presence(&o));
	T_EQ_INT(o.ndevices, 1);
	if (o.ndevices == 1)
		T_EQ_STR(o.devices[0], "/dev/hidraw7");
	/* What the file does not set keeps its default. */
	T_EQ_STR(o.prompt, ARGS_PROMPT_DEFAULT);
	T_EQ_STR(o.cue_prompt, ARGS_CUE_DEFAULT);
	T_TRUE(!o.nouserok && !o.debug && !o.sshformat);
	T_EQ_INT(o.userverification, -1);
	args_free(&o);
}

static void
test_args_over_file(void)
{
	const char *arg = conf(file_all);
	struct options o;
	struct sink s;

	if (refused_unless_root(arg))
		return;
	T_EQ_ERR(
	    PARSE(&o, &s, "timeout=9", arg, "origin=pam://from-args",
		"max_devices=3", "authpending_file=/run/p", "devices=unix:/t",
		"userpresence=1", "[authfile=keys file]"),
	    ERR_OK);
	T_EQ_STR(s.text, "");
	T_EQ_INT(o.timeout, 9);
	T_EQ_STR(o.origin, "pam://from-args");
	T_EQ_STR(o.appid, "pam://from-args");
	T_EQ_INT(o.max_devices, 3);
	T_EQ_STR(o.authpending_file, "/run/p");
	T_EQ_STR(o.authfile, "keys file");
	T_TRUE(args_presence(&o));
	/* devices= replaces the file's list; it is not a second list. */
	T_EQ_INT(o.ndevices, 1);
	if (o.ndevices == 1)
		T_EQ_STR(o.devices[0], "unix:/t");
	T_TRUE(o.cue); /* still from the file */
	args_free(&o);
}

/* A flag argument can switch a setting on, never off. */
static void
test_flags(void)
{
	const char *arg = conf("nouserok = false\nopenasuser = true\n"
			       "debug_file = syslog\n");
	struct options o;
	struct sink s;

	if (refused_unless_root(arg))
		return;
	T_EQ_ERR(PARSE(&o, &s, arg, "nouserok", "debug"), ERR_OK);
	T_TRUE(o.nouserok && o.openasuser && o.debug);
	T_EQ_STR(o.debug_file, "syslog");
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_OK);
	T_TRUE(!o.nouserok && o.openasuser && !o.debug);
	args_free(&o);
}

/* The file goes through the same checks as the arguments. */
static void
test_file_checked_like_args(void)
{
	const char *arg = conf("userverification = 2\n");
	struct options o;
	struct sink s;

	if (refused_unless_root(arg))
		return;
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_CONFIG);
	T_TRUE(strstr(s.text, "userverification") != NULL);
	args_free(&o);
	arg = conf("sshformat = true\norigin = pam://x\n");
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_CONFIG);
	T_TRUE(strstr(s.text, "sshformat needs origin=ssh:") != NULL);
	args_free(&o);
	arg = conf("sshformat\n");
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_OK);
	T_EQ_STR(o.origin, "ssh:");
	args_free(&o);
}

static void
test_bad_file(void)
{
	const char *arg = conf("# first\ntimeout = 0\n");
	char want[512];
	struct options o;
	struct sink s;

	if (refused_unless_root(arg))
		return;
	snprintf(want, sizeof(want),
	    "%s:2: timeout: 0 is out of range (1 to "
	    "3600)\n",
	    path);
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_CONFIG);
	T_EQ_STR(s.text, want);
	args_free(&o);
	/* The arguments are still read (debug reaches its sink), and a bad
	 * one is reported too. */
	T_EQ_ERR(PARSE(&o, &s, "debug", arg, "bogus"), ERR_CONFIG);
	T_EQ_INT(s.lines, 2);
	T_TRUE(o.debug);
	args_free(&o);
}

static void
test_missing_and_twice(void)
{
	const char *arg = conf("timeout = 5\n");
	struct options o;
	struct sink s;

	T_EQ_ERR(PARSE(&o, &s, "conf=/nonexistent/pam_u2f.conf"), ERR_CONFIG);
	T_EQ_STR(s.text,
	    "/nonexistent/pam_u2f.conf: No such file or "
	    "directory\n");
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, arg, arg), ERR_CONFIG);
	T_TRUE(strstr(s.text, "conf= given twice") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "conf="), ERR_CONFIG);
	T_TRUE(strstr(s.text, "invalid module argument \"conf=\"") != NULL);
	args_free(&o);
}

static void
test_unsafe_file(void)
{
	const char *arg = conf("timeout = 5\n");
	struct options o;
	struct sink s;

	T_TRUE(chmod(path, 0666) == 0);
	T_EQ_ERR(PARSE(&o, &s, arg), ERR_CONFIG);
	T_TRUE(strstr(s.text,
		   is_root() ? "group- or world-writable"
			     : "not owned by root") != NULL);
	args_free(&o);
}

static void
test_setup(void)
{
	T_TRUE(mkdtemp(dir) != NULL);
}

static void
test_cleanup(void)
{
	unlink(path);
	T_TRUE(rmdir(dir) == 0);
}

TEST_MAIN(TEST(test_setup), TEST(test_file_over_defaults),
    TEST(test_args_over_file), TEST(test_flags),
    TEST(test_file_checked_like_args), TEST(test_bad_file),
    TEST(test_missing_and_twice), TEST(test_unsafe_file), TEST(test_cleanup))
