/* SPDX-License-Identifier: BSD-2-Clause */
/* The options table's setter, merge and defaults (common/conf/opts.c):
 * what each source may give, what a failed set leaves, and precedence. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "conf/conf.h"
#include "test.h"

#define WHY 256

/* A string replaces the one before; a failed set changes nothing. */
static void
t_set_string(void)
{
	struct conf c;
	char why[WHY];

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(conf_opt_set(&c, CONF_ORIGIN, CONF_SRC_ARG, "pam://a", why,
		     sizeof(why)),
	    ERR_OK);
	T_EQ_ERR(conf_opt_set(&c, CONF_ORIGIN, CONF_SRC_ARG, "pam://b", why,
		     sizeof(why)),
	    ERR_OK);
	T_EQ_STR(c.origin, "pam://b");
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_ORIGIN, CONF_SRC_ARG, "", why, sizeof(why)),
	    ERR_CONFIG);
	T_EQ_STR(why, "origin: \"\" may not be empty");
	T_EQ_STR(c.origin, "pam://b");
	T_EQ_INT(c.set, UINT32_C(1) << CONF_ORIGIN);
	conf_free(&c);
	T_TRUE(c.origin == NULL && c.set == 0);
}

/* Booleans: a bare name from every source, a value only outside the
 * module's arguments (pam-u2f's flags take none). */
static void
t_set_bool(void)
{
	struct conf c;
	char why[WHY];

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_CUE, CONF_SRC_ARG, NULL, why, WHY), ERR_OK);
	T_TRUE(c.cue);
	T_EQ_ERR(conf_opt_set(&c, CONF_CUE, CONF_SRC_ARG, "1", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "cue: takes no value");
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_CUE, CONF_SRC_FILE, "Off", why, WHY), ERR_OK);
	T_TRUE(!c.cue);
	T_EQ_ERR(conf_opt_set(&c, CONF_CUE, CONF_SRC_TOOL, "1", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "cue: \"1\" is not a boolean (true or false)");
	T_EQ_ERR(conf_opt_set(&c, CONF_TIMEOUT, CONF_SRC_ARG, NULL, why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "timeout: needs a value");
	conf_free(&c);
}

/* A module argument's list: comma-separated, all or nothing, once. From
 * pamu2fcfg (or the file) each value adds one entry. */
static void
t_set_list(void)
{
	struct conf c;
	char why[WHY];

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(conf_opt_set(&c, CONF_DEVICES, CONF_SRC_ARG,
		     "/dev/hidraw1,relative", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why,
	    "devices: \"relative\" is not a /dev/ path, a unix:/ "
	    "socket path or a pcsc: reader");
	T_TRUE(c.devices == NULL && c.ndevices == 0 && c.set == 0);
	T_EQ_ERR(conf_opt_set(&c, CONF_DEVICES, CONF_SRC_ARG,
		     "/dev/hidraw1,unix:/run/t", why, WHY),
	    ERR_OK);
	T_EQ_INT(c.ndevices, 2);
	T_EQ_ERR(conf_opt_set(
		     &c, CONF_DEVICES, CONF_SRC_ARG, "/dev/hidraw2", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "devices: given twice");
	T_EQ_ERR(conf_opt_set(
		     &c, CONF_DEVICES, CONF_SRC_TOOL, "/dev/hidraw3", why, WHY),
	    ERR_OK);
	T_EQ_INT(c.ndevices, 3);
	if (c.ndevices == 3)
		T_EQ_STR(c.devices[2], "/dev/hidraw3");
	conf_free(&c);
}

/* Numbers and enums: one parser and one message for every source. */
static void
t_set_number(void)
{
	struct conf c;
	char why[WHY];

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(conf_opt_set(&c, CONF_TIMEOUT, CONF_SRC_ARG, "3601", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "timeout: 3601 is out of range (1 to 3600)");
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_TIMEOUT, CONF_SRC_TOOL, "0x10", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "timeout: \"0x10\" is not a whole number");
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_USERPRESENCE, CONF_SRC_ARG, "-1", why, WHY),
	    ERR_OK);
	T_EQ_INT(c.userpresence, -1);
	T_EQ_ERR(conf_opt_set(
		     &c, CONF_BACKEND, CONF_SRC_ARG, "libu2f-host", why, WHY),
	    ERR_OK);
	T_EQ_STR(conf_opt_value(CONF_BACKEND, c.backend), "libu2f-host");
	T_EQ_ERR(conf_opt_set(&c, CONF_BACKEND, CONF_SRC_ARG, "fido", why, WHY),
	    ERR_CONFIG);
	T_EQ_STR(why, "backend: \"fido\" is not one of native, libu2f-host");
	T_TRUE(conf_opt_value(CONF_BACKEND, 2) == NULL);
	T_TRUE(conf_opt_value(CONF_TIMEOUT, 0) == NULL);
	conf_free(&c);
}

/* conf_merge moves what the source set, in where, and nothing else. */
static void
t_merge(void)
{
	struct conf file, arg;
	char why[WHY];

	memset(&file, 0, sizeof(file));
	memset(&arg, 0, sizeof(arg));
	T_EQ_ERR(conf_opt_set(
		     &file, CONF_ORIGIN, CONF_SRC_FILE, "pam://f", why, WHY),
	    ERR_OK);
	T_EQ_ERR(conf_opt_set(&file, CONF_PROMPT, CONF_SRC_FILE, "p", why, WHY),
	    ERR_OK);
	T_EQ_ERR(
	    conf_opt_set(&arg, CONF_ORIGIN, CONF_SRC_ARG, "pam://a", why, WHY),
	    ERR_OK);
	T_EQ_ERR(conf_opt_set(&arg, CONF_PROMPT, CONF_SRC_ARG, "q", why, WHY),
	    ERR_OK);
	conf_merge(&file, &arg, CONF_IN_TOOL); /* prompt is not pamu2fcfg's */
	T_EQ_STR(file.origin, "pam://a");
	T_EQ_STR(file.prompt, "p");
	T_TRUE(arg.origin == NULL && !conf_isset(&arg, CONF_ORIGIN));
	T_EQ_STR(arg.prompt, "q");
	conf_merge(&file, &arg, CONF_IN_MODULE);
	T_EQ_STR(file.prompt, "q");
	T_EQ_INT(arg.set, 0);
	T_EQ_INT(file.set,
	    (UINT32_C(1) << CONF_ORIGIN) | (UINT32_C(1) << CONF_PROMPT));
	conf_free(&file);
	conf_free(&arg);
}

/* Defaults fill what was not set, without its bit; 0 stands for the
 * default of max_devices; a value that was set stays. */
static void
t_defaults(void)
{
	struct conf c;
	char why[WHY];

	memset(&c, 0, sizeof(c));
	T_EQ_ERR(
	    conf_opt_set(&c, CONF_MAX_DEVICES, CONF_SRC_FILE, "0", why, WHY),
	    ERR_OK);
	T_EQ_ERR(conf_opt_set(&c, CONF_TIMEOUT, CONF_SRC_FILE, "7", why, WHY),
	    ERR_OK);
	T_EQ_ERR(conf_defaults(&c), ERR_OK);
	T_EQ_INT(c.max_devices, CONF_MAX_DEVICES_DEFAULT);
	T_EQ_INT(c.timeout, 7);
	T_EQ_INT(c.userpresence, -1);
	T_EQ_STR(c.cue_prompt, CONF_CUE_DEFAULT);
	T_TRUE(c.origin == NULL && c.authfile == NULL);
	T_EQ_INT(c.set,
	    (UINT32_C(1) << CONF_MAX_DEVICES) | (UINT32_C(1) << CONF_TIMEOUT));
	conf_free(&c);
}

TEST_MAIN(TEST(t_set_string), TEST(t_set_bool), TEST(t_set_list),
    TEST(t_set_number), TEST(t_merge), TEST(t_defaults))
