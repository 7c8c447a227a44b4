/* Device objects: open a transport, pick a protocol, dispatch operations. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "dev_int.h"
#include "err.h"
#include "hidraw.h"

int
dev_discover(struct hid_devinfo **list, size_t *n)
{
	return hidraw_discover(list, n);
}

static int
dev_pick_proto(struct dev *d, int ms)
{
	int r;

	if (d->ch->caps & CTAPHID_CAP_NMSG) {
		log_msg(d->log, "%s: %s speaks FIDO2 only (no U2F messages)",
		    __func__, d->path);
		return ERR_UNSUPPORTED;
	}
	if ((r = u2f_version(d->ch, ms)) != ERR_OK) {
		log_msg(d->log, "%s: %s: U2F VERSION failed: %s", __func__,
		    d->path, err_str(r));
		return r;
	}
	d->proto = &dev_u2f_proto;
	return ERR_OK;
}

static int
dev_open_sized(const char *path, size_t rin, size_t rout,
    const struct log *lg, int ms, struct dev **out)
{
	struct dev *d = NULL;
	int64_t deadline = util_now_ms() + ms;
	int r;

	*out = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->path = strdup(path)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	d->log = lg;
	if ((r = ctaphid_open(hid_io_for(path), path, rin, rout, lg,
	    util_ms_left(deadline), &d->ch)) != ERR_OK) {
		log_msg(lg, "%s: %s: %s", __func__, path, err_str(r));
		goto fail;
	}
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
	return dev_open_sized(info->path, info->report_in, info->report_out,
	    lg, ms, out);
}

int
dev_open_path(const char *path, const struct log *lg, int ms,
    struct dev **out)
{
	return dev_open_sized(path, 0, 0, lg, ms, out);
}

void
dev_close(struct dev **dp)
{
	struct dev *d;

	if (dp == NULL || (d = *dp) == NULL)
		return;
	if (d->proto != NULL && d->ch != NULL)
		d->proto->cancel(d);
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
dev_register(struct dev *d, const struct reg_req *req,
    struct reg_result *out, int ms)
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
