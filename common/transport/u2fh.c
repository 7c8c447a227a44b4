/* SPDX-License-Identifier: BSD-2-Clause */
/* The libu2f-host transport: discovery and I/O by libu2f-host, one U2F
 * message per u2fh_sendrecv call, under the same U2F protocol code as the
 * native transport. Compiled only with --with-libu2f-host. */
#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <u2f-host.h>

#include "base/err.h"
#include "base/util.h"
#include "ctaphid.h"
#include "u2fh.h"
#include "u2fh_int.h"
#include "xport_int.h"

/* One discovery: the libu2f-host handle all its devices share, and every
 * call still running on it (a straggler holds a reference until it is
 * done, so the handle outlives it). */
struct xport_u2fh_ctx {
	const struct xport_u2fh_lib *lib;
	void *devs;
	atomic_size_t refs;
};

/* One device. libu2f-host sends and receives in one call, so a send is
 * kept here and goes out with the receive that collects its reply. */
struct u2fh_xstate {
	struct xport_u2fh_ctx *ctx;
	unsigned index;
	bool dead; /* an exchange was cut off: never again */
	bool pending;
	uint8_t cmd;
	size_t len;
	uint8_t msg[XPORT_U2FH_SEND_MAX];
};

int
xport_u2fh_err(int rc)
{
	switch (rc) {
	case U2FH_OK:
		return ERR_OK;
	case U2FH_MEMORY_ERROR:
		return ERR_NOMEM;
	case U2FH_NO_U2F_DEVICE:
		return ERR_NODEV;
	case U2FH_SIZE_ERROR:
		return ERR_PROTO;
	default:
		/* TRANSPORT_ERROR covers a timeout, a bad frame, a frame
		 * of another channel, a KEEPALIVE and a CTAPHID ERROR:
		 * libu2f-host does not tell them apart. */
		return ERR_IO;
	}
}

static void
ctx_unref(struct xport_u2fh_ctx *ctx)
{
	if (ctx == NULL || atomic_fetch_sub(&ctx->refs, 1) > 1)
		return;
	if (ctx->devs != NULL)
		ctx->lib->done(ctx->devs);
	free(ctx);
}

static void
ctx_unref_job(void *arg)
{
	ctx_unref(arg);
}

/* A job on ctx's handle, holding a reference on ctx until it is freed. */
static int
ctx_job(struct xport_u2fh_ctx *ctx, size_t recvcap, struct u2fh_job **out)
{
	int r;

	if ((r = u2fh_job_new(recvcap, ctx_unref_job, ctx, out)) != ERR_OK)
		return r;
	/* the job's reference, dropped when it is freed (u2fh_job_new
	 * starts nothing and calls no unref: nobody drops it before) */
	atomic_fetch_add(&ctx->refs, 1);
	(*out)->lib = ctx->lib;
	(*out)->devs = ctx->devs;
	return ERR_OK;
}

/* The log line's tail for a job that did not complete. */
static const char *
job_why(const struct u2fh_job *j, int r)
{
	if (j != NULL && j->refused)
		return " (too many libu2f-host calls still running past their "
		       "deadline: not started)";
	return r == ERR_TIMEOUT ? " (no answer in time: dropped)" : "";
}

static int
u2fh_send(struct xport *x, uint8_t cmd, const uint8_t *msg, size_t len, int ms)
{
	struct u2fh_xstate *xs = x->state;

	(void)ms; /* nothing goes out before the receive */

	if (xs->dead)
		return ERR_NODEV;
	if (len > sizeof(xs->msg))
		return ERR_TOO_BIG;
	memcpy(xs->msg, msg, len);
	xs->len = len;
	xs->cmd = cmd;
	xs->pending = true;
	return ERR_OK;
}

/* Offering little more than the protocol's longest reply bounds the
 * frames libu2f-host waits for (~4 s each), and the worker's deadline
 * bounds the whole exchange (ms, the caller's slice, is too short for a
 * blocking call and not used). The reply lands in a buffer with room for
 * libu2f-host's overrun, then is copied out. libu2f-host skips keepalives
 * itself: *status stays XPORT_KA_NONE. */
static int
u2fh_recv(struct xport *x, uint8_t cmd, uint8_t *buf, size_t cap, size_t *len,
    int ms, int *status)
{
	struct u2fh_xstate *xs = x->state;
	const struct xport_u2fh_lib *lib = xs->ctx->lib;
	size_t want = cap < CTAPHID_MAX_MSG ? cap : CTAPHID_MAX_MSG;
	size_t offer = want + XPORT_U2FH_OFFER_EXTRA;
	struct u2fh_job *j = NULL;
	int r;

	(void)ms;
	*status = XPORT_KA_NONE;
	if (xs->dead)
		return ERR_NODEV;
	if (!xs->pending || cmd != xs->cmd)
		return ERR_INVAL;
	if ((r = ctx_job(xs->ctx, offer + XPORT_U2FH_SLACK, &j)) != ERR_OK)
		return r;
	xs->pending = false;
	j->index = xs->index;
	j->cmd = cmd;
	memcpy(j->send, xs->msg, xs->len);
	j->sendlen = (uint16_t)xs->len;
	j->recvlen = offer;
	util_wipe(xs->msg, sizeof(xs->msg));
	r = u2fh_job_run(
	    j, lib->xfer_ms > 0 ? lib->xfer_ms : XPORT_U2FH_XFER_MS);
	if (r == ERR_OK && (r = xport_u2fh_err(j->rc)) == ERR_OK &&
	    j->recvlen > want)
		r = ERR_PROTO; /* longer than the protocol allows */
	if (r == ERR_TIMEOUT || j->refused)
		xs->dead = true;
	if (r == ERR_OK) {
		memcpy(buf, j->recv, j->recvlen);
		*len = j->recvlen;
	} else
		log_msg(x->log, "%s: %s: u2fh_sendrecv: %d, %zu bytes: %s%s",
		    __func__, x->path, r == ERR_TIMEOUT ? 0 : j->rc,
		    r == ERR_TIMEOUT ? 0 : j->recvlen, err_str(r),
		    job_why(j, r));
	u2fh_job_release(&j);
	return r;
}

static void
u2fh_cancel(struct xport *x)
{
	struct u2fh_xstate *xs = x->state;

	xs->pending = false;
	util_wipe(xs->msg, sizeof(xs->msg));
}

/* libu2f-host's reply comes within u2fh_recv: nothing to poll. */
static int
u2fh_fd(const struct xport *x)
{
	(void)x;
	return -1;
}

static void
u2fh_close(struct xport *x)
{
	struct u2fh_xstate *xs = x->state;

	if (xs == NULL)
		return;
	ctx_unref(xs->ctx);
	util_freezero(xs, sizeof(*xs));
	x->state = NULL;
}

static const struct xport_ops xport_u2fh = {
    .name = "libu2f-host",
    .send = u2fh_send,
    .recv = u2fh_recv,
    .cancel = u2fh_cancel,
    .fd = u2fh_fd,
    .close = u2fh_close,
};

static int
u2fh_open_one(struct xport_u2fh_ctx *ctx, unsigned index, const struct log *lg,
    struct xport **out)
{
	char path[sizeof("libu2f-host:") + 10];
	struct u2fh_xstate *xs = NULL;
	int r;

	*out = NULL;
	(void)snprintf(path, sizeof(path), "libu2f-host:%u", index);
	if ((xs = calloc(1, sizeof(*xs))) == NULL)
		return ERR_NOMEM;
	if ((r = xport_new(path, &xport_u2fh, lg, out)) != ERR_OK) {
		free(xs);
		return r;
	}
	xs->ctx = ctx;
	xs->index = index;
	atomic_fetch_add(&ctx->refs, 1);
	(*out)->state = xs;
	return ERR_OK;
}

/* The live devices 0..max_index into set (room for max_index + 1). */
static int
u2fh_open_found(struct xport_u2fh_ctx *ctx, unsigned max_index, size_t max,
    const struct log *lg, struct xport **set, size_t *n)
{
	unsigned i;
	int r;

	for (i = 0; i <= max_index && (max == 0 || *n < max); i++) {
		/* Indices of devices that failed libu2f-host's own INIT
		 * stay allocated but dead. */
		if (ctx->lib->alive(ctx->devs, i) &&
		    (r = u2fh_open_one(ctx, i, lg, &set[(*n)++])) != ERR_OK)
			return r;
		if (i == max_index)
			break;
	}
	return ERR_OK;
}

/* Initialise and discover within the deadline. ERR_OK with *rc U2FH_OK
 * or U2FH_NO_U2F_DEVICE, or an error. */
static int
u2fh_discover(struct xport_u2fh_ctx *ctx, unsigned *max_index,
    const struct log *lg, int *rc)
{
	const struct xport_u2fh_lib *lib = ctx->lib;
	struct u2fh_job *j = NULL;
	int r;

	if ((*rc = lib->init(&ctx->devs)) != U2FH_OK) {
		ctx->devs = NULL;
		r = xport_u2fh_err(*rc);
		log_msg(lg, "%s: u2fh_devs_init: %d (%s)", __func__, *rc,
		    err_str(r));
		return r;
	}
	if ((r = ctx_job(ctx, 0, &j)) != ERR_OK)
		return r;
	j->discover = true;
	r = u2fh_job_run(j,
	    lib->discover_ms > 0 ? lib->discover_ms : XPORT_U2FH_DISCOVER_MS);
	*rc = r == ERR_OK ? j->rc : 0; /* 0: it did not return in time */
	if (r == ERR_OK) {
		*max_index = j->max_index;
		if (*rc != U2FH_OK && *rc != U2FH_NO_U2F_DEVICE)
			r = xport_u2fh_err(*rc);
	}
	if (r != ERR_OK)
		log_msg(lg, "%s: u2fh_devs_discover: %d (%s)%s", __func__, *rc,
		    err_str(r), job_why(j, r));
	u2fh_job_release(&j);
	return r;
}

int
xport_u2fh_xports_with(const struct xport_u2fh_lib *lib, size_t max,
    const struct log *lg, struct xport ***devs, size_t *ndevs)
{
	struct xport_u2fh_ctx *ctx = NULL;
	struct xport **set = NULL;
	unsigned max_index = 0;
	size_t n = 0;
	int r, rc;

	*devs = NULL;
	*ndevs = 0;
	if ((ctx = calloc(1, sizeof(*ctx))) == NULL)
		return ERR_NOMEM;
	ctx->lib = lib;
	atomic_init(&ctx->refs, 1); /* ours until the devices hold theirs */
	if ((r = u2fh_discover(ctx, &max_index, lg, &rc)) != ERR_OK)
		goto fail;
	if ((set = calloc(rc == U2FH_OK ? (size_t)max_index + 1 : 1,
		 sizeof(*set))) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	if (rc == U2FH_OK &&
	    (r = u2fh_open_found(ctx, max_index, max, lg, set, &n)) != ERR_OK)
		goto fail;
	if (rc != U2FH_OK)
		log_msg(lg, "%s: libu2f-host found no U2F device", __func__);
	*devs = set;
	*ndevs = n;
	set = NULL;
	n = 0;
	r = ERR_OK;
fail:
	while (n > 0)
		xport_close(&set[--n]);
	free(set);
	ctx_unref(ctx);
	return r;
}

static int
lib_init(void **out)
{
	u2fh_devs *devs = NULL;
	u2fh_rc rc;

	*out = NULL;
	/* Never U2FH_DEBUG: it prints every frame, challenges and
	 * signatures included, to stderr. */
	if ((rc = u2fh_global_init(0)) != U2FH_OK ||
	    (rc = u2fh_devs_init(&devs)) != U2FH_OK)
		return rc;
	*out = devs;
	return U2FH_OK;
}

static int
lib_discover(void *devs, unsigned *max_index)
{
	return u2fh_devs_discover(devs, max_index);
}

static int
lib_alive(void *devs, unsigned index)
{
	return u2fh_is_alive(devs, index);
}

static int
lib_sendrecv(void *devs, unsigned index, uint8_t cmd, const uint8_t *send,
    uint16_t sendlen, uint8_t *recv, size_t *recvlen)
{
	return u2fh_sendrecv(devs, index, cmd, send, sendlen, recv, recvlen);
}

static void
lib_done(void *devs)
{
	u2fh_devs_done(devs);
}

static const char *
lib_version(void)
{
	return u2fh_check_version(NULL);
}

/* libu2f-host's running calls: process state, as the library's own is
 * (u2fh_int.h). */
static atomic_uint lib_calls;

const struct xport_u2fh_lib xport_u2fh_libu2fhost = {
    .init = lib_init,
    .discover = lib_discover,
    .alive = lib_alive,
    .sendrecv = lib_sendrecv,
    .done = lib_done,
    .version = lib_version,
    .calls = &lib_calls,
};

const char *
xport_u2fh_version(void)
{
	const char *v = xport_u2fh_libu2fhost.version();

	return v != NULL ? v : "unknown";
}

int
xport_u2fh_xports(
    size_t max, const struct log *lg, struct xport ***xs, size_t *n)
{
	return xport_u2fh_xports_with(&xport_u2fh_libu2fhost, max, lg, xs, n);
}
