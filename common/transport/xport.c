/* SPDX-License-Identifier: BSD-2-Clause */
/* The transport interface, and the native transport: our CTAPHID framing
 * over a struct hid_io (hidraw, or unix: sockets). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/printable.h"
#include "ctaphid.h"
#include "hidraw.h"
#include "unixdev.h"
#include "xport_int.h"

/* The I/O for a path: unixdev for "unix:...", hidraw otherwise. */
const struct hid_io *
hid_io_for(const char *path)
{
	if (path != NULL &&
	    strncmp(path, UNIXDEV_PREFIX, strlen(UNIXDEV_PREFIX)) == 0)
		return &unixdev_io;
	return &hidraw_io;
}

bool
xport_is_pcsc(const char *path)
{
	return path != NULL &&
	    strncmp(path, XPORT_PCSC_PREFIX, strlen(XPORT_PCSC_PREFIX)) == 0;
}

/* hidraw devices, then PC/SC readers (a failed PC/SC discovery leaves
 * the hidraw devices found). */
int
xport_discover(struct xport_info **list, size_t *n)
{
	int r;

	if ((r = hidraw_discover(list, n)) != ERR_OK)
		return r;
	(void)xport_pcsc_discover(list, n);
	return ERR_OK;
}

int
xport_new(const char *path, const struct xport_ops *ops, const struct log *lg,
    struct xport **out)
{
	struct xport *x = NULL;

	*out = NULL;
	if ((x = calloc(1, sizeof(*x))) == NULL)
		return ERR_NOMEM;
	if ((x->path = strdup(path)) == NULL) {
		free(x);
		return ERR_NOMEM;
	}
	x->ops = ops;
	x->log = lg;
	*out = x;
	return ERR_OK;
}

static int
native_send(
    struct xport *x, uint8_t kind, const uint8_t *msg, size_t len, int ms)
{
	return ctaphid_send(x->state, kind, msg, len, ms);
}

static int
native_recv(struct xport *x, uint8_t kind, uint8_t *buf, size_t cap,
    size_t *len, int ms, int *status)
{
	uint8_t ka = 0;
	int r;

	r = ctaphid_recv(x->state, kind, buf, cap, len, ms, &ka);
	*status = ka == XPORT_KA_UPNEEDED ? XPORT_KA_UPNEEDED
	    : ka != 0                     ? XPORT_KA_PROCESSING
					  : XPORT_KA_NONE;
	return r;
}

static void
native_cancel(struct xport *x)
{
	(void)ctaphid_cancel(x->state);
}

static int
native_fd(const struct xport *x)
{
	return ctaphid_fd(x->state);
}

static void
native_set_log(struct xport *x, const struct log *lg)
{
	struct ctaphid *ch = x->state;

	ch->log = lg;
}

static void
native_close(struct xport *x)
{
	struct ctaphid *ch = x->state;

	ctaphid_close(&ch);
	x->state = NULL;
}

static const struct xport_ops xport_native = {
    .name = "native",
    .send = native_send,
    .recv = native_recv,
    .cancel = native_cancel,
    .fd = native_fd,
    .set_log = native_set_log,
    .close = native_close,
};

static int
xport_open_sized(const struct hid_io *io, const char *path, size_t rin,
    size_t rout, const struct log *lg, int ms, struct xport **out)
{
	struct ctaphid *ch = NULL;
	struct xport *x = NULL;
	int r;

	*out = NULL;
	if ((r = xport_new(path, &xport_native, lg, &x)) != ERR_OK)
		return r;
	if ((r = ctaphid_open(io, path, rin, rout, lg, ms, &ch)) != ERR_OK) {
		log_msg(lg, "%s: %s: %s", __func__, path, err_str(r));
		xport_close(&x);
		return r;
	}
	x->state = ch;
	x->caps = ch->caps;
	*out = x;
	return ERR_OK;
}

int
xport_open(const struct xport_info *info, const struct log *lg, int ms,
    struct xport **out)
{
	int r;

	if (xport_is_pcsc(info->path))
		r = xport_pcsc_open(info->path, lg, ms, out);
	else
		r = xport_open_sized(hid_io_for(info->path), info->path,
		    info->report_in, info->report_out, lg, ms, out);
	if (r == ERR_OK && info->product != NULL && info->product[0] != '\0' &&
	    ((*out)->product = strdup(info->product)) == NULL) {
		xport_close(out);
		r = ERR_NOMEM;
	}
	return r;
}

int
xport_open_path(
    const char *path, const struct log *lg, int ms, struct xport **out)
{
	if (xport_is_pcsc(path))
		return xport_pcsc_open(path, lg, ms, out);
	return xport_open_sized(hid_io_for(path), path, 0, 0, lg, ms, out);
}

int
xport_open_io(const struct hid_io *io, const char *path, size_t rin,
    size_t rout, const struct log *lg, int ms, struct xport **out)
{
	return xport_open_sized(io, path, rin, rout, lg, ms, out);
}

void
xport_close(struct xport **xp)
{
	struct xport *x;

	if (xp == NULL || (x = *xp) == NULL)
		return;
	if (x->state != NULL)
		x->ops->close(x);
	free(x->path);
	free(x->product);
	util_freezero(x, sizeof(*x));
	*xp = NULL;
}

int
xport_send(
    struct xport *x, uint8_t kind, const uint8_t *msg, size_t len, int ms)
{
	return x->ops->send(x, kind, msg, len, ms);
}

int
xport_recv(struct xport *x, uint8_t kind, uint8_t *buf, size_t cap, size_t *len,
    int ms, int *status)
{
	int st = XPORT_KA_NONE, r;

	r = x->ops->recv(x, kind, buf, cap, len, ms, &st);
	if (status != NULL)
		*status = st;
	return r;
}

void
xport_cancel(struct xport *x)
{
	x->ops->cancel(x);
}

int
xport_fd(const struct xport *x)
{
	return x->ops->fd(x);
}

int64_t
xport_wake_at(const struct xport *x, int64_t dflt)
{
	return x->ops->wake_at != NULL ? x->ops->wake_at(x) : dflt;
}

uint8_t
xport_caps(const struct xport *x)
{
	return x->caps;
}

const char *
xport_name(const struct xport *x)
{
	return x->ops->name;
}

const char *
xport_path(const struct xport *x)
{
	return x->path;
}

void
xport_set_deadline(struct xport *x, int64_t deadline)
{
	x->deadline = deadline;
}

void
xport_label(const struct xport *x, char *buf, size_t cap)
{
	(void)printable_label(buf, cap, x->product, x->path);
}

void
xport_set_log(struct xport *x, const struct log *lg)
{
	x->log = lg;
	if (x->ops->set_log != NULL && x->state != NULL)
		x->ops->set_log(x, lg);
}
