/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by tests/conf/test_conf.c, tests/conf/test_conffile.c and
 * tests/conf/test_confscan.c: the file name and error buffer size of their
 * messages, parse() and expect_error() over conf_parse_mem, bit() for a
 * key's "set" bit, and all_keys(), a file that sets every key. Static
 * inline, so that a program that uses only some of them builds without
 * warnings. */
#ifndef PU_CONFFIX_H
#define PU_CONFFIX_H

#include <stdint.h>
#include <string.h>

#include "conf/conf.h"
#include "base/err.h"
#include "test.h"

#define NAME "test.conf"
#define ERRLEN 512

/* Parse text from memory; the message lands in err. */
static inline int
parse(const char *text, struct conf *c, char *err)
{
	return conf_parse_mem(NAME, text, strlen(text), c, err, ERRLEN);
}

/* The message must be exactly want. */
static inline void
expect_error(const char *text, int want_r, const char *want)
{
	struct conf c;
	char err[ERRLEN];

	T_EQ_ERR(parse(text, &c, err), want_r);
	T_EQ_STR(err, want);
	T_EQ_INT(c.set, 0);
	conf_free(&c);
}

static inline uint32_t
bit(enum conf_key k)
{
	return UINT32_C(1) << k;
}

/* Every key, none at its default. */
static inline const char *
all_keys(void)
{
	return "# every key, none at its default\n"
	       "debug = true\n"
	       "debug_file = \"/var/log/pam_u2f.log\"\n"
	       "origin = \"pam://example.org\"\n"
	       "appid = \"https://example.org/appid\"\n"
	       "authfile = \"/etc/u2f_mappings\"\n"
	       "expand = yes\n"
	       "authcmd = \"/usr/libexec/pam-u2f-keys --user %u\"\n"
	       "authcmd_user = \"pam-u2f\"\n"
	       "authcmd_timeout = 12\n"
	       "authcmd_cache = \"/var/cache/pam-u2f\"\n"
	       "authcmd_cache_maxage = 3600\n"
	       "authpending_file = \"/run/user/pending\"\n"
	       "nouserok = on\n"
	       "openasuser = true\n"
	       "alwaysok = true\n"
	       "max_devices = 7\n"
	       "interactive = true\n"
	       "prompt = \"Insert it, then press ENTER\"\n"
	       "manual = true\n"
	       "cue = true\n"
	       "cue_prompt = 'Touch it now'\n"
	       "nodetect = true\n"
	       "userpresence = 0\n"
	       "userverification = -1\n"
	       "pinverification = 0\n"
	       "sshformat = true\n"
	       "remote = fail\n"
	       "timeout = 42\n"
	       "devices = { \"/dev/hidraw3\", \"unix:/run/token.sock\" }\n";
}

#endif
