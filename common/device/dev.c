/* Device objects: open a transport, pick a protocol, dispatch operations. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "dev_int.h"
#include "base/err.h"
#include "transport/hidraw.h"

int
dev_discover(struct hid_devinfo **list, size_t *n)
{
	return hidraw_discover(list, n);
}

int
dev_backend_parse(const char *name, enum dev_backend *out)
{
	if (strcmp(name, "native") == 0) {
		*out = DEV_BACKEND_NATIVE;
		return ERR_OK;
	}
	if (strcmp(name, "libu2f-host") == 0) {
		if (dev_u2fh_version() == NULL)
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

static int
native_send(struct dev *d, uint8_t cmd, const uint8_t *msg, size_t len)
{
	return ctaphid_send(d->ch, cmd, msg, len);
}

static int
native_recv(
    struct dev *d, uint8_t cmd, uint8_t *buf, size_t cap, size_t *len, int ms)
{
	uint8_t keepalive = 0;
	int r;

	r = ctaphid_recv(d->ch, cmd, buf, cap, len, ms, &keepalive);
	if (keepalive != 0) /* the key is working on it: not lost */
		d->u2f.alive_at = util_now_ms();
	return r;
}

static void
native_cancel(struct dev *d)
{
	(void)ctaphid_cancel(d->ch);
}

static void
native_close(struct dev *d)
{
	ctaphid_close(&d->ch);
}

static const struct dev_xport dev_xport_native = {
    .name = "native",
    .send = native_send,
    .recv = native_recv,
    .cancel = native_cancel,
    .close = native_close,
};

int
dev_new(const char *path, const struct log *lg, struct dev **out)
{
	struct dev *d = NULL;

	*out = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return ERR_NOMEM;
	if ((d->path = strdup(path)) == NULL) {
		free(d);
		return ERR_NOMEM;
	}
	d->log = lg;
	*out = d;
	return ERR_OK;
}

int
dev_pick_proto(struct dev *d, int ms)
{
	int r;

	if (d->ch != NULL && (d->ch->caps & CTAPHID_CAP_NMSG)) {
		log_msg(d->log, "%s: %s speaks FIDO2 only (no U2F messages)",
		    __func__, d->path);
		return ERR_UNSUPPORTED;
	}
	if ((r = dev_u2f_version(d, ms)) != ERR_OK) {
		log_msg(d->log, "%s: %s: U2F VERSION failed: %s", __func__,
		    d->path, err_str(r));
		return r;
	}
	d->proto = &dev_u2f_proto;
	return ERR_OK;
}

static int
dev_open_sized(const char *path, size_t rin, size_t rout, const struct log *lg,
    int ms, struct dev **out)
{
	struct dev *d = NULL;
	int64_t deadline = util_now_ms() + ms;
	int r;

	*out = NULL;
	if ((r = dev_new(path, lg, &d)) != ERR_OK)
		goto fail;
	if ((r = ctaphid_open(hid_io_for(path), path, rin, rout, lg,
		 util_ms_left(deadline), &d->ch)) != ERR_OK) {
		log_msg(lg, "%s: %s: %s", __func__, path, err_str(r));
		goto fail;
	}
	d->xport = &dev_xport_native;
	if ((r = dev_pick_proto(d, util_ms_left(deadline))) != ERR_OK)
		goto fail;
	*out = d;
	d = NULL;
	r = ERR_OK;
fail:
	dev_close(&d);
	return r;
}

int
dev_open(const struct hid_devinfo *info, const struct log *lg, int ms,
    struct dev **out)
{
	return dev_open_sized(
	    info->path, info->report_in, info->report_out, lg, ms, out);
}

int
dev_open_path(const char *path, const struct log *lg, int ms, struct dev **out)
{
	return dev_open_sized(path, 0, 0, lg, ms, out);
}

void
dev_set_log(struct dev *d, const struct log *lg)
{
	d->log = lg;
	if (d->ch != NULL)
		d->ch->log = lg;
}

void
dev_close(struct dev **dp)
{
	struct dev *d;

	if (dp == NULL || (d = *dp) == NULL)
		return;
	if (d->proto != NULL && d->xport != NULL)
		d->proto->cancel(d);
	if (d->xport != NULL)
		d->xport->close(d);
	ctaphid_close(&d->ch);
	free(d->path);
	util_freezero(d, sizeof(*d));
	*dp = NULL;
}

const char *
dev_path(const struct dev *d)
{
	return d->path;
}

const char *
dev_transport_name(const struct dev *d)
{
	return d->xport != NULL ? d->xport->name : "none";
}

const char *
dev_proto_name(const struct dev *d)
{
	return d->proto != NULL ? d->proto->name : "none";
}

int
dev_register_begin(struct dev *d, const struct reg_req *req)
{
	if (req->type != COSE_ES256)
		return ERR_UNSUPPORTED;
	return d->proto->reg_begin(d, req);
}

int
dev_register_poll(struct dev *d, struct reg_result *out, int ms)
{
	return d->proto->reg_poll(d, out, ms);
}

int
dev_register(
    struct dev *d, const struct reg_req *req, struct reg_result *out, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int r;

	if ((r = dev_register_begin(d, req)) != ERR_OK)
		return r;
	do {
		r = dev_register_poll(d, out, util_ms_left(deadline));
	} while (r == ERR_PENDING && util_ms_left(deadline) > 0);
	if (r == ERR_PENDING) {
		dev_cancel(d);
		r = ERR_TIMEOUT;
	}
	return r;
}

void
reg_result_clear(struct reg_result *r)
{
	if (r == NULL)
		return;
	cred_clear(&r->cred);
	util_freezero(r->cert, r->cert_len);
	r->cert = NULL;
	r->cert_len = 0;
}

int
dev_probe(struct dev *d, const char *rp_id, const struct cred *cred, int ms)
{
	return d->proto->probe(d, rp_id, cred, ms);
}

int
dev_assert_begin(struct dev *d, const struct assert_req *req)
{
	return d->proto->assert_begin(d, req);
}

int
dev_assert_poll(struct dev *d, struct assertion *out, int ms)
{
	return d->proto->assert_poll(d, out, ms);
}

void
dev_cancel(struct dev *d)
{
	d->proto->cancel(d);
}
