/* SPDX-License-Identifier: BSD-2-Clause */
/* The module's argument parser and its return-code table. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_modules.h>

#include "args.h"
#include "argsfix.h"
#include "base/err.h"
#include "retval.h"
#include "test.h"

static void
test_defaults(void)
{
	struct options o;
	struct sink s;
	char host[256], origin[300];

	T_EQ_ERR(parse(&o, &s, NULL, 0), ERR_OK);
	T_TRUE(gethostname(host, sizeof(host)) == 0);
	snprintf(origin, sizeof(origin), "pam://%s", host);
	T_EQ_STR(o.origin, origin);
	T_EQ_STR(o.appid, origin);
	T_EQ_INT(o.timeout, 30);
	T_EQ_INT(o.max_devices, 24);
	T_EQ_STR(o.prompt, "Insert your U2F device, then press ENTER.");
	T_EQ_STR(o.cue_prompt, "Please touch the device.");
	T_TRUE(args_presence(&o));
	T_TRUE(o.authfile == NULL && o.authpending_file == NULL);
	T_EQ_INT(s.lines, 0);
	args_free(&o);
}

static void
test_every_argument(void)
{
	struct options o;
	struct sink s;

	T_EQ_ERR(
	    PARSE(&o, &s, "debug", "debug_file=syslog", "origin=pam://o",
		"appid=pam://a", "authfile=/etc/u2f", "expand",
		"authpending_file=", "nouserok", "openasuser", "alwaysok",
		"max_devices=3", "interactive", "[prompt=Insert it \\] now]",
		"manual", "cue", "[cue_prompt=Touch it]", "nodetect",
		"userpresence=0", "userverification=0", "pinverification=-1",
		"timeout=3600", "devices=/dev/hidraw1,unix:/run/t.sock"),
	    ERR_OK);
	T_TRUE(o.debug && o.expand && o.nouserok && o.openasuser &&
	    o.alwaysok && o.interactive && o.manual && o.cue && o.nodetect);
	T_EQ_STR(o.debug_file, "syslog");
	T_EQ_STR(o.origin, "pam://o");
	T_EQ_STR(o.appid, "pam://a");
	T_EQ_STR(o.authfile, "/etc/u2f");
	T_TRUE(o.authpending_set);
	T_EQ_STR(o.authpending_file, "");
	T_EQ_INT(o.max_devices, 3);
	T_EQ_STR(o.prompt, "Insert it ] now");
	T_EQ_STR(o.cue_prompt, "Touch it");
	T_TRUE(!args_presence(&o));
	T_EQ_INT(o.userverification, 0);
	T_EQ_INT(o.pinverification, -1);
	T_EQ_INT(o.timeout, 3600);
	T_EQ_INT(o.ndevices, 2);
	if (o.ndevices == 2) {
		T_EQ_STR(o.devices[0], "/dev/hidraw1");
		T_EQ_STR(o.devices[1], "unix:/run/t.sock");
	}
	args_free(&o);
	/* Brackets already removed by libpam work the same. */
	T_EQ_ERR(PARSE(&o, &s, "prompt=with spaces"), ERR_OK);
	T_EQ_STR(o.prompt, "with spaces");
	args_free(&o);
}

/* authcmd= replaces the mapping file and needs authcmd_user=. */
static void
test_authcmd(void)
{
	static const char *clash[] = {
	    "authfile=/etc/m", "sshformat", "expand", "openasuser"};
	struct options o;
	struct sink s;
	size_t i;

	T_EQ_ERR(PARSE(&o, &s, "[authcmd=/usr/bin/k --user %u]",
		     "authcmd_user=nobody"),
	    ERR_OK);
	T_EQ_STR(o.authcmd, "/usr/bin/k --user %u");
	T_EQ_STR(o.authcmd_user, "nobody");
	T_EQ_INT(o.authcmd_timeout, 5);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd=/k"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "authcmd= needs authcmd_user=") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd=k", "authcmd_user=nobody"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "not an absolute path") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd=/k", "authcmd_user=nobody",
		     "authcmd_timeout=301"),
	    ERR_CONFIG);
	args_free(&o);
	for (i = 0; i < sizeof(clash) / sizeof(clash[0]); i++) {
		T_EQ_ERR(PARSE(&o, &s, "authcmd=/k", "authcmd_user=nobody",
			     clash[i], "origin=ssh:"),
		    ERR_CONFIG);
		T_TRUE(strstr(s.text, "replaces the mapping file") != NULL);
		args_free(&o);
	}
	T_EQ_ERR(PARSE(&o, &s, "authcmd=/k", "authcmd_user=nobody",
		     "authcmd_cache=/var/cache/pu"),
	    ERR_OK);
	T_EQ_STR(o.authcmd_cache, "/var/cache/pu");
	T_EQ_INT(o.authcmd_cache_maxage, 604800);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd_cache=/var/cache/pu"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "authcmd_cache= needs authcmd=") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd=/k", "authcmd_user=nobody",
		     "authcmd_cache=var/cache"),
	    ERR_CONFIG);
	T_TRUE(strstr(s.text, "not an absolute path") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "authcmd=/k", "authcmd_user=nobody",
		     "authcmd_cache_maxage=0"),
	    ERR_CONFIG);
	args_free(&o);
}

static void
test_sshformat_origin(void)
{
	struct options o;
	struct sink s;

	T_EQ_ERR(PARSE(&o, &s, "sshformat"), ERR_OK);
	T_EQ_STR(o.origin, "ssh:");
	T_EQ_STR(o.appid, "ssh:");
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "sshformat", "origin=pam://x"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "sshformat") != NULL);
	args_free(&o);
}

static void
test_refused(void)
{
	static const char *bad[] = {
	    "bogus",
	    "debug=1",
	    "timeout=0",
	    "timeout=3601",
	    "timeout=",
	    "timeout=+5",
	    "timeout= 5",
	    "timeout=5s",
	    "timeout=99999999999999",
	    "max_devices=-1",
	    "max_devices=1025",
	    "max_devices=x",
	    "userpresence=2",
	    "userpresence=",
	    "userverification=2",
	    "pinverification=-2",
	    "origin=",
	    "appid=",
	    "authfile=",
	    "debug_file=",
	    "prompt=",
	    "devices=",
	    "devices=a",
	    "devices=/dev/hidraw0,",
	    "devices=,/x",
	    "backend=",
	    "backend=libfido2",
	    "[prompt=open",
	    "[prompt=esc\\]",
	    "conf=/nonexistent/pam_u2f.conf",
	    "conf=/etc/passwd",
	    "cue_prompt",
	    "origin",
	    "Debug",
	};
	struct options o;
	struct sink s;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (PARSE(&o, &s, "debug", bad[i]) != ERR_CONFIG)
			T_FAIL_AT("%s accepted", bad[i]);
		else if (s.lines == 0)
			T_FAIL_AT("%s refused without a log line", bad[i]);
		args_free(&o);
	}
	T_EQ_ERR(PARSE(&o, &s, "bogus"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "\"bogus\"") != NULL);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "userverification=1"), ERR_OK);
	T_EQ_INT(o.userverification, 1);
	args_free(&o);
	T_EQ_ERR(PARSE(&o, &s, "pinverification=1"), ERR_OK);
	T_EQ_INT(o.pinverification, 1);
	args_free(&o);
	/* Not a configuration file: refused with its name and line. */
	T_EQ_ERR(PARSE(&o, &s, "conf=/etc/passwd"), ERR_CONFIG);
	T_TRUE(strstr(s.text, "/etc/passwd:1: ") != NULL);
	args_free(&o);
	/* Every bad argument is reported, not just the first. */
	T_EQ_ERR(PARSE(&o, &s, "one", "two"), ERR_CONFIG);
	T_EQ_INT(s.lines, 2);
	args_free(&o);
}

static void
test_retval_table(void)
{
	static const struct {
		int err;
		int pam;
	} rows[] = {
	    {ERR_OK, PAM_SUCCESS},
	    {ERR_TIMEOUT, PAM_AUTH_ERR},
	    {ERR_NO_KEY, PAM_AUTH_ERR},
	    {ERR_WRONG_KH, PAM_AUTH_ERR},
	    {ERR_VERIFY, PAM_AUTH_ERR},
	    {ERR_NO_PRESENCE, PAM_AUTH_ERR},
	    {ERR_PRESENCE, PAM_AUTH_ERR},
	    {ERR_IO, PAM_AUTH_ERR},
	    {ERR_PROTO, PAM_AUTH_ERR},
	    {ERR_NODEV, PAM_AUTH_ERR},
	    {ERR_PERM, PAM_AUTH_ERR},
	    {ERR_PENDING, PAM_AUTH_ERR},
	    {ERR_FILE, PAM_AUTHINFO_UNAVAIL},
	    {ERR_FILE_UNSAFE, PAM_AUTHINFO_UNAVAIL},
	    {ERR_PARSE, PAM_AUTHINFO_UNAVAIL},
	    {ERR_TOO_BIG, PAM_AUTHINFO_UNAVAIL},
	    {ERR_UNAVAIL, PAM_AUTHINFO_UNAVAIL},
	    {ERR_UNSUPPORTED, PAM_AUTHINFO_UNAVAIL},
	    {ERR_NOT_FOUND, PAM_AUTH_ERR}, /* from no known absence */
	    {ERR_CONFIG, PAM_SERVICE_ERR},
	    {ERR_INVAL, PAM_SERVICE_ERR},
	    {ERR_NOMEM, PAM_BUF_ERR},
	    {ERR_SYSTEM, PAM_SYSTEM_ERR},
	    {ERR_RANDOM, PAM_SYSTEM_ERR},
	    {ERR_CRYPTO, PAM_SYSTEM_ERR},
	    {ERR_CANCELLED, PAM_CONV_ERR},
	    {-12345, PAM_AUTH_ERR},
	    {1, PAM_AUTH_ERR},
	};
	size_t i;
	int e, w;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (retval_pam(rows[i].err, RETVAL_OTHER, false) != rows[i].pam)
			T_FAIL_AT("%s -> %d, expected %d",
			    err_name(rows[i].err),
			    retval_pam(rows[i].err, RETVAL_OTHER, false),
			    rows[i].pam);
	/* Absent: the user (pam-u2f 1.4's PAM_SYSTEM_ERR, also with
	 * nouserok), the file (PAM_AUTHINFO_UNAVAIL, as 1.4), the line. */
	T_EQ_INT(
	    retval_pam(ERR_NOT_FOUND, RETVAL_NO_USER, false), PAM_SYSTEM_ERR);
	T_EQ_INT(
	    retval_pam(ERR_NOT_FOUND, RETVAL_NO_USER, true), PAM_SYSTEM_ERR);
	T_EQ_INT(retval_pam(ERR_NOT_FOUND, RETVAL_NO_FILE, false),
	    PAM_AUTHINFO_UNAVAIL);
	T_EQ_INT(retval_pam(ERR_NOT_FOUND, RETVAL_NO_FILE, true), PAM_IGNORE);
	T_EQ_INT(retval_pam(ERR_NOT_FOUND, RETVAL_NO_CREDS, false),
	    PAM_USER_UNKNOWN);
	T_EQ_INT(retval_pam(ERR_NOT_FOUND, RETVAL_NO_CREDS, true), PAM_IGNORE);
	T_EQ_INT(retval_pam(ERR_NOT_FOUND, RETVAL_MAPFILE, true), PAM_AUTH_ERR);
	/* A mapping file refused or malformed is PAM_AUTH_ERR, so that
	 * [authinfo_unavail=ignore] does not skip the key; unreadable stays
	 * PAM_AUTHINFO_UNAVAIL (1.4). */
	T_EQ_INT(retval_pam(ERR_PARSE, RETVAL_MAPFILE, false), PAM_AUTH_ERR);
	T_EQ_INT(
	    retval_pam(ERR_FILE_UNSAFE, RETVAL_MAPFILE, true), PAM_AUTH_ERR);
	T_EQ_INT(retval_pam(ERR_TOO_BIG, RETVAL_MAPFILE, true), PAM_AUTH_ERR);
	T_EQ_INT(
	    retval_pam(ERR_FILE, RETVAL_MAPFILE, true), PAM_AUTHINFO_UNAVAIL);
	/* Nothing but a missing file or line with nouserok is ever
	 * PAM_IGNORE, and nothing but ERR_OK is ever PAM_SUCCESS. */
	for (e = ERR_LAST - 5; e <= 5; e++)
		for (w = RETVAL_OTHER; w <= RETVAL_MAPFILE; w++) {
			int t = retval_pam(e, (enum retval_what)w, true);
			int f = retval_pam(e, (enum retval_what)w, false);

			if (t == PAM_IGNORE &&
			    !(e == ERR_NOT_FOUND &&
				(w == RETVAL_NO_FILE || w == RETVAL_NO_CREDS)))
				T_FAIL_AT("%d/%d gives PAM_IGNORE", e, w);
			if (f == PAM_IGNORE)
				T_FAIL_AT(
				    "%d/%d: PAM_IGNORE without nouserok", e, w);
			if (e != ERR_OK &&
			    (t == PAM_SUCCESS || f == PAM_SUCCESS))
				T_FAIL_AT("%d/%d gives PAM_SUCCESS", e, w);
		}
}

/* backend=: libu2f-host only when built in, never with devices=. */
static void
test_backend(void)
{
	bool built = xport_u2fh_version() != NULL;
	struct options o;
	struct sink s;

	T_EQ_ERR(PARSE(&o, &s, "backend=native"), ERR_OK);
	T_EQ_INT(o.backend, DEV_BACKEND_NATIVE);
	args_free(&o);
	T_EQ_ERR(
	    PARSE(&o, &s, "backend=libu2f-host"), built ? ERR_OK : ERR_CONFIG);
	if (built)
		T_EQ_INT(o.backend, DEV_BACKEND_LIBU2FHOST);
	else
		T_TRUE(strstr(s.text, "not built in") != NULL);
	args_free(&o);
	if (built) {
		T_EQ_ERR(PARSE(&o, &s, "backend=libu2f-host",
			     "devices=/dev/hidraw0"),
		    ERR_CONFIG);
		T_TRUE(strstr(s.text, "devices= needs backend=native") != NULL);
		args_free(&o);
	}
}

/* remote=: its four values by name, wait by default; anything else,
 * a bare "remote" or an empty value, refused naming it. */
static void
test_remote(void)
{
	static const struct {
		const char *arg;
		int want;
	} ok[] = {{"remote=wait", CONF_REMOTE_WAIT},
	    {"remote=fail", CONF_REMOTE_FAIL},
	    {"remote=agent", CONF_REMOTE_AGENT},
	    {"remote=ignore", CONF_REMOTE_IGNORE}};
	static const char *const bad[] = {
	    "remote", "remote=", "remote=Fail", "remote=yes", "remote=1"};
	struct options o;
	struct sink s;
	size_t i;

	T_EQ_ERR(PARSE(&o, &s, "debug"), ERR_OK);
	T_EQ_INT(o.remote, CONF_REMOTE_WAIT);
	args_free(&o);
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		T_EQ_ERR(PARSE(&o, &s, ok[i].arg), ERR_OK);
		T_EQ_INT(o.remote, ok[i].want);
		args_free(&o);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_ERR(PARSE(&o, &s, bad[i]), ERR_CONFIG);
		if (strstr(s.text, "remote") == NULL)
			T_FAIL_AT("%s: not named: %s", bad[i], s.text);
		args_free(&o);
	}
	/* The one other PAM_IGNORE: ERR_OK with RETVAL_REMOTE_IGNORE;
	 * every error with it keeps its own code. */
	T_EQ_INT(retval_pam(ERR_OK, RETVAL_REMOTE_IGNORE, false), PAM_IGNORE);
	T_EQ_INT(
	    retval_pam(ERR_SYSTEM, RETVAL_REMOTE_IGNORE, true), PAM_SYSTEM_ERR);
	T_EQ_INT(
	    retval_pam(ERR_NO_KEY, RETVAL_REMOTE_IGNORE, true), PAM_AUTH_ERR);
}

TEST_MAIN(TEST(test_backend), TEST(test_remote), TEST(test_defaults),
    TEST(test_every_argument), TEST(test_sshformat_origin), TEST(test_authcmd),
    TEST(test_refused), TEST(test_retval_table))
