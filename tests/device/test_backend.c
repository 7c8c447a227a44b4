/* SPDX-License-Identifier: BSD-2-Clause */
/* Transport backend names and selection, in every build: libu2f-host is
 * accepted only when built in (--with-libu2f-host), native always. */
#include "config.h"

#include <string.h>

#include "auth/auth.h"
#include "device/dev.h"
#include "base/err.h"
#include "test.h"

static void
test_names(void)
{
	enum dev_backend b = DEV_BACKEND_LIBU2FHOST;

	T_EQ_ERR(dev_backend_parse("native", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_NATIVE);
	T_EQ_STR(dev_backend_name(DEV_BACKEND_NATIVE), "native");
	T_EQ_STR(dev_backend_name(DEV_BACKEND_LIBU2FHOST), "libu2f-host");
	T_EQ_ERR(dev_backend_parse("Native", &b), ERR_CONFIG);
	T_EQ_ERR(dev_backend_parse("libu2f-host ", &b), ERR_CONFIG);
	T_EQ_ERR(dev_backend_parse("", &b), ERR_CONFIG);
}

static void
test_libu2fhost_only_when_built(void)
{
	enum dev_backend b = DEV_BACKEND_NATIVE;

#ifdef HAVE_LIBU2F_HOST
	T_TRUE(xport_u2fh_version() != NULL);
	T_EQ_ERR(dev_backend_parse("libu2f-host", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_LIBU2FHOST);
#else
	struct dev **devs = NULL;
	size_t n = 9;

	T_TRUE(xport_u2fh_version() == NULL);
	T_EQ_ERR(dev_backend_parse("libu2f-host", &b), ERR_UNSUPPORTED);
	T_EQ_INT(b, DEV_BACKEND_NATIVE);
	T_EQ_ERR(dev_open_backend(DEV_BACKEND_LIBU2FHOST, NULL, 0, 0, NULL, 100,
		     0, &devs, &n, NULL),
	    ERR_UNSUPPORTED);
	T_TRUE(devs == NULL);
	T_EQ_INT(n, 0);
#endif
}

/* The native backend is dev_open_all: an explicit path that does not
 * exist opens nothing and says why. */
static void
test_native_is_dev_open_all(void)
{
	const char *paths[] = {"unix:/nonexistent/token.sock"};
	struct dev **devs = NULL;
	size_t n = 9;
	int first = ERR_OK;

	T_EQ_ERR(dev_open_backend(DEV_BACKEND_NATIVE, paths, 1, 0, NULL, 100, 0,
		     &devs, &n, &first),
	    ERR_OK);
	T_EQ_INT(n, 0);
	T_TRUE(first != ERR_OK);
	dev_close_all(devs, n);
}

TEST_MAIN(TEST(test_names), TEST(test_libu2fhost_only_when_built),
    TEST(test_native_is_dev_open_all))
