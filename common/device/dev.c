/* SPDX-License-Identifier: BSD-2-Clause */
/* Device objects: opening one chooses the protocol it speaks (CTAP2
 * first, then U2F), each operation's begin puts its deadline on the
 * transport, and dev_register / dev_assert_wait wait on one device.
 * The steps between begin and end are the protocol table's (dev.h). */
#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "dev.h"

/* The protocols we speak, in the order they are tried: a key that
 * offers CTAP2 is used through CTAP2; one that claims CBOR but fails
 * GetInfo falls back to U2F (as libfido2 does). */
static const struct proto *const dev_protos[] = {&proto_ctap2, &proto_u2f};

int
dev_backend_parse(const char *name, enum dev_backend *out)
{
	if (strcmp(name, "native") == 0) {
		*out = DEV_BACKEND_NATIVE;
		return ERR_OK;
	}
	if (strcmp(name, "libu2f-host") == 0) {
		if (xport_u2fh_version() == NULL)
			return ERR_UNSUPPORTED;
		*out = DEV_BACKEND_LIBU2FHOST;
		return ERR_OK;
	}
	return ERR_CONFIG;
}

const char *
dev_backend_name(enum dev_backend b)
{
	return b == DEV_BACKEND_LIBU2FHOST ? "libu2f-host" : "native";
}

/* The first protocol the device speaks; its state. */
static int
dev_pick_proto(struct dev *d, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	size_t i;
	int r = ERR_UNSUPPORTED;

	xport_set_deadline(d->ctx.x, deadline);
	for (i = 0; i < sizeof(dev_protos) / sizeof(dev_protos[0]); i++) {
		if ((r = dev_protos[i]->state_new(&d->ctx.st)) != ERR_OK)
			break;
		r = dev_protos[i]->detect(&d->ctx, util_ms_left(deadline));
		if (r == ERR_OK) {
			d->proto = dev_protos[i];
			break;
		}
		dev_protos[i]->state_free(d->ctx.st);
		d->ctx.st = NULL;
		if (r == ERR_NOMEM)
			break; /* out of memory: an error, not the next one */
	}
	xport_set_deadline(d->ctx.x, 0);
	return r;
}

int
dev_open_xport(struct xport *x, const struct log *lg, int ms, struct dev **out)
{
	struct dev *d = NULL;
	int r;

	*out = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL) {
		xport_close(&x);
		return ERR_NOMEM;
	}
	d->ctx.x = x;
	d->ctx.log = lg;
	if ((r = dev_pick_proto(d, ms)) != ERR_OK) {
		dev_close(&d);
		return r;
	}
	*out = d;
	return ERR_OK;
}

int
dev_open(const struct xport_info *info, const struct log *lg, int ms,
    struct dev **out)
{
	int64_t deadline = util_now_ms() + ms;
	struct xport *x = NULL;
	int r;

	*out = NULL;
	if ((r = xport_open(info, lg, ms, &x)) != ERR_OK)
		return r;
	return dev_open_xport(x, lg, util_ms_left(deadline), out);
}

int
dev_open_path(const char *path, const struct log *lg, int ms, struct dev **out)
{
	int64_t deadline = util_now_ms() + ms;
	struct xport *x = NULL;
	int r;

	*out = NULL;
	if ((r = xport_open_path(path, lg, ms, &x)) != ERR_OK)
		return r;
	return dev_open_xport(x, lg, util_ms_left(deadline), out);
}

void
dev_set_log(struct dev *d, const struct log *lg)
{
	d->ctx.log = lg;
	xport_set_log(d->ctx.x, lg);
}

void
dev_close(struct dev **dp)
{
	struct dev *d;

	if (dp == NULL || (d = *dp) == NULL)
		return;
	if (d->proto != NULL) {
		d->proto->cancel(&d->ctx);
		d->proto->state_free(d->ctx.st);
	}
	xport_close(&d->ctx.x);
	util_freezero(d, sizeof(*d));
	*dp = NULL;
}

int
dev_register_begin(struct dev *d, const struct reg_req *req, int64_t deadline)
{
	xport_set_deadline(d->ctx.x, deadline);
	return d->proto->reg_begin(&d->ctx, req);
}

int
dev_probe(struct dev *d, const char *rp_id, const struct cred *cred, int ms)
{
	int r;

	xport_set_deadline(d->ctx.x, util_now_ms() + ms);
	r = d->proto->probe(&d->ctx, rp_id, cred, ms);
	xport_set_deadline(d->ctx.x, 0);
	return r;
}

int
dev_assert_begin(struct dev *d, const struct assert_req *req, int64_t deadline)
{
	xport_set_deadline(d->ctx.x, deadline);
	return d->proto->assert_begin(&d->ctx, req, deadline);
}

bool
dev_any_tap(struct dev *const *devs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (devs[i] != NULL &&
		    xport_is_pcsc(xport_path(devs[i]->ctx.x)))
			return true;
	}
	return false;
}

bool
dev_paths_tap(const char *const *paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (xport_is_pcsc(paths[i]))
			return true;
	return false;
}

/* Sleep in poll(2) until d has input, its wake time, or deadline (with
 * nothing to poll, in util_sleep_ms). */
static void
dev_sleep(const struct dev *d, int64_t deadline)
{
	int64_t wake = d->proto->wake_at(&d->ctx);
	struct pollfd pfd;

	if (wake > deadline)
		wake = deadline;
	memset(&pfd, 0, sizeof(pfd));
	if ((pfd.fd = d->proto->poll_fd(&d->ctx)) < 0) {
		util_sleep_ms(util_ms_left(wake));
		return;
	}
	pfd.events = POLLIN;
	(void)poll(&pfd, 1, util_ms_left(wake));
}

int
dev_register(
    struct dev *d, const struct reg_req *req, struct reg_result *out, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int r;

	if ((r = dev_register_begin(d, req, deadline)) != ERR_OK)
		return r;
	while ((r = d->proto->reg_step(&d->ctx, out)) == ERR_PENDING &&
	    util_ms_left(deadline) > 0)
		dev_sleep(d, deadline);
	if (r == ERR_PENDING) {
		d->proto->cancel(&d->ctx);
		r = ERR_TIMEOUT;
	}
	return r;
}

int
dev_assert_wait(struct dev *d, struct assertion *out, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int r;

	while ((r = d->proto->assert_step(&d->ctx, out)) == ERR_PENDING &&
	    util_ms_left(deadline) > 0)
		dev_sleep(d, deadline);
	return r;
}
