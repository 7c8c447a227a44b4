/* SPDX-License-Identifier: BSD-2-Clause */
/* The libu2f-host transport (built with --with-libu2f-host) up to the
 * point where a device is ready: the backend's name and selection, the
 * real library finding nothing on a host without hidraw devices, explicit
 * paths refused, and, through the stand-in for the library of
 * tests/transport/u2fhfix.c, discovery (no device, a discovery error, slots
 * that failed libu2f-host's INIT, the max honoured), the VERSION probe at open,
 * the shared library handle released only with the last device, and
 * libu2f-host's result codes mapped to ours. Operations on an open device
 * are in tests/transport/test_u2fhop.c. */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <u2f-host.h>

#include "auth/auth.h"
#include "device/dev.h"
#include "transport/u2fh.h"
#include "base/err.h"
#include "test.h"
#include "u2fhfix.h"

/* A well-formed credential no device holds. */
static void
dummy_req(struct auth_req *req, struct cred *c, uint8_t kh[32], uint8_t pk[65])
{
	memset(kh, 0x11, 32);
	memset(pk, 0x22, 65);
	pk[0] = 0x04;
	memset(c, 0, sizeof(*c));
	c->kh = kh;
	c->kh_len = 32;
	c->pk = pk;
	c->pk_len = 65;
	c->type = COSE_ES256;
	c->flags = CRED_PRESENCE;
	memset(req, 0, sizeof(*req));
	req->creds = c;
	req->ncreds = 1;
	req->origin = req->appid = ORIGIN;
	req->presence = true;
	req->timeout_ms = 100;
}

static bool
have_hidraw(void)
{
	DIR *dir = opendir("/sys/class/hidraw");
	struct dirent *e;
	bool found = false;

	if (dir == NULL)
		return false;
	while ((e = readdir(dir)) != NULL)
		if (strncmp(e->d_name, "hidraw", 6) == 0)
			found = true;
	closedir(dir);
	return found;
}

static void
log_keep(void *arg, const char *line)
{
	char *buf = arg;

	if (strlen(buf) + strlen(line) + 2 < 1024) {
		strcat(buf, line);
		strcat(buf, "\n");
	}
}

static void
test_backend_names(void)
{
	enum dev_backend b = DEV_BACKEND_NATIVE;

	T_EQ_ERR(dev_backend_parse("libu2f-host", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_LIBU2FHOST);
	T_EQ_STR(dev_backend_name(b), "libu2f-host");
	T_EQ_ERR(dev_backend_parse("native", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_NATIVE);
	T_EQ_STR(dev_backend_name(b), "native");
	T_EQ_ERR(dev_backend_parse("libfido2", &b), ERR_CONFIG);
	T_EQ_ERR(dev_backend_parse("", &b), ERR_CONFIG);
	T_TRUE(xport_u2fh_version() != NULL);
}

/* The real libu2f-host on a host with no hidraw device: an empty set,
 * then a clean "no key"; the log names the backend. */
static void
test_real_library_no_device(void)
{
	char logbuf[1024] = "";
	struct log lg = {log_keep, logbuf};
	struct dev **devs = NULL;
	struct auth_req req;
	struct auth_result res;
	struct cred c;
	uint8_t kh[32], pk[65];
	size_t n = 99;
	int first = 1;

	T_EQ_ERR(dev_open_backend(DEV_BACKEND_LIBU2FHOST, NULL, 0, 0, &lg,
		     OPEN_MS, 0, &devs, &n, &first),
	    ERR_OK);
	T_TRUE(strstr(logbuf, "transport backend: libu2f-host") != NULL);
	if (have_hidraw()) {
		printf("# this host has hidraw devices: not counting them\n");
	} else {
		T_EQ_INT(n, 0);
		T_EQ_ERR(first, ERR_OK);
		dummy_req(&req, &c, kh, pk);
		T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_NO_KEY);
	}
	dev_close_all(devs, n);
}

static void
test_explicit_paths_refused(void)
{
	const char *paths[] = {"/dev/hidraw0"};
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(dev_open_backend(DEV_BACKEND_LIBU2FHOST, paths, 1, 0, NULL,
		     OPEN_MS, 0, &devs, &n, NULL),
	    ERR_UNSUPPORTED);
	T_TRUE(devs == NULL);
	T_EQ_INT(n, 0);
	T_EQ_ERR(dev_open_backend((enum dev_backend)7, NULL, 0, 0, NULL,
		     OPEN_MS, 0, &devs, &n, NULL),
	    ERR_UNSUPPORTED);
}

static void
test_no_device_is_no_key(void)
{
	struct dev **devs = NULL;
	struct auth_req req;
	struct auth_result res;
	struct cred c;
	uint8_t kh[32], pk[65];
	size_t n = 99;
	int first = 1;

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.open_rc = U2FH_NO_U2F_DEVICE;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_OK);
	dummy_req(&req, &c, kh, pk);
	T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_NO_KEY);
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_fk.done, 1); /* the handle is released */
	u2fhfix_fk.open_rc = U2FH_TRANSPORT_ERROR;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_IO);
	T_TRUE(devs == NULL);
	T_EQ_INT(u2fhfix_fk.done, 2);
}

static void
test_dead_slots_and_refcount(void)
{
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.max_index = 2;
	u2fhfix_fk.dead = 1u << 1;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 2);
	if (n == 2) {
		T_EQ_STR(xport_path(devs[0]->ctx.x), "libu2f-host:0");
		T_EQ_STR(xport_path(devs[1]->ctx.x), "libu2f-host:2");
		dev_close(&devs[0]);
		T_EQ_INT(
		    u2fhfix_fk.done, 0); /* devs[1] still uses the handle */
	}
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_fk.done, 1);
	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.max_index = 2;
	T_EQ_ERR(u2fhfix_open(2, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 2); /* max honoured */
	dev_close_all(devs, n);
}

static void
test_version_and_transport_errors(void)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.bad_version = true;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	dev_close_all(devs, n);
	T_EQ_INT(u2fhfix_reset(0), 0);
	u2fhfix_fk.sendrecv_rc = U2FH_TRANSPORT_ERROR;
	T_EQ_ERR(u2fhfix_open(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_IO);
	dev_close_all(devs, n);
	T_EQ_ERR(xport_u2fh_err(U2FH_OK), ERR_OK);
	T_EQ_ERR(xport_u2fh_err(U2FH_MEMORY_ERROR), ERR_NOMEM);
	T_EQ_ERR(xport_u2fh_err(U2FH_NO_U2F_DEVICE), ERR_NODEV);
	T_EQ_ERR(xport_u2fh_err(U2FH_TIMEOUT_ERROR), ERR_IO);
	T_EQ_ERR(xport_u2fh_err(U2FH_SIZE_ERROR), ERR_PROTO);
}

static void
test_setup(void)
{
	T_EQ_INT(u2fhfix_setup(), 0);
}

static void
test_cleanup(void)
{
	T_EQ_INT(u2fhfix_cleanup(), 0);
}

TEST_MAIN(TEST(test_setup), TEST(test_backend_names),
    TEST(test_real_library_no_device), TEST(test_explicit_paths_refused),
    TEST(test_no_device_is_no_key), TEST(test_dead_slots_and_refcount),
    TEST(test_version_and_transport_errors), TEST(test_cleanup))
