/* The libu2f-host transport: discovery and I/O by libu2f-host, one U2F
 * message per u2fh_sendrecv call, under the same U2F protocol code as the
 * native transport. Compiled only with --with-libu2f-host. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
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
#include "xport_int.h"

/* One discovery: the libu2f-host handle all its devices share. */
struct dev_u2fh_ctx {
	const struct dev_u2fh_lib *lib;
	void *devs;
	size_t refs;
};

/* One device. libu2f-host sends and receives in one call, so a send is
 * kept here and goes out with the receive that collects its reply. */
struct u2fh_xstate {
	struct dev_u2fh_ctx *ctx;
	unsigned index;
	bool dead; /* an exchange was cut off: never again */
	bool pending;
	uint8_t cmd;
	size_t len;
	uint8_t msg[DEV_U2FH_SEND_MAX];
};

int
dev_u2fh_err(int rc)
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
ctx_unref(struct dev_u2fh_ctx *ctx)
{
	if (ctx == NULL || --ctx->refs > 0)
		return;
	if (ctx->devs != NULL)
		ctx->lib->done(ctx->devs);
	free(ctx);
}

/* One library call, run by a worker thread under our deadline. */
struct u2fh_job {
	const struct dev_u2fh_lib *lib;
	void *devs;
	bool discover; /* else sendrecv */
	unsigned *max_index;
	unsigned index;
	uint8_t cmd;
	const uint8_t *send;
	uint16_t sendlen;
	uint8_t *recv;
	size_t *recvlen;
	int rc;
	int wfd; /* one byte written when done */
};

static void *
u2fh_worker(void *arg)
{
	struct u2fh_job *j = arg;
	ssize_t w;

	if (j->discover)
		j->rc = j->lib->discover(j->devs, j->max_index);
	else
		j->rc = j->lib->sendrecv(j->devs, j->index, j->cmd, j->send,
		    j->sendlen, j->recv, j->recvlen);
	w = write(j->wfd, "", 1);
	(void)w;
	return NULL;
}

/* Run j for at most ms: ERR_OK (its result in j->rc), or ERR_TIMEOUT once
 * the worker is cancelled (it waits in poll(2), a cancellation point) and
 * joined. The worker starts with every signal blocked. */
static int
u2fh_run(struct u2fh_job *j, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int fd[2] = {-1, -1}, r, n;
	struct pollfd pfd;
	sigset_t all, old;
	void *res = NULL;
	pthread_t t;

	if (pipe2(fd, O_CLOEXEC) != 0)
		return ERR_SYSTEM;
	j->wfd = fd[1];
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&t, NULL, u2fh_worker, j);
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		r = ERR_SYSTEM;
		goto fail;
	}
	pfd.fd = fd[0];
	pfd.events = POLLIN;
	do {
		n = poll(&pfd, 1, util_ms_left(deadline));
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		(void)pthread_cancel(t);
	(void)pthread_join(t, &res);
	r = res == PTHREAD_CANCELED ? ERR_TIMEOUT : ERR_OK;
fail:
	close(fd[0]);
	close(fd[1]);
	return r;
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
	const struct dev_u2fh_lib *lib = xs->ctx->lib;
	size_t want = cap < CTAPHID_MAX_MSG ? cap : CTAPHID_MAX_MSG;
	size_t offer = want + DEV_U2FH_OFFER_EXTRA, got = offer;
	struct u2fh_job j;
	int r;

	(void)ms;
	*status = XPORT_KA_NONE;
	if (xs->dead)
		return ERR_NODEV;
	if (!xs->pending || cmd != xs->cmd)
		return ERR_INVAL;
	memset(&j, 0, sizeof(j));
	if ((j.recv = calloc(1, offer + DEV_U2FH_SLACK)) == NULL)
		return ERR_NOMEM;
	xs->pending = false;
	j.lib = lib;
	j.devs = xs->ctx->devs;
	j.index = xs->index;
	j.cmd = cmd;
	j.send = xs->msg;
	j.sendlen = (uint16_t)xs->len;
	j.recvlen = &got;
	r = u2fh_run(&j, lib->xfer_ms > 0 ? lib->xfer_ms : DEV_U2FH_XFER_MS);
	util_wipe(xs->msg, sizeof(xs->msg));
	if (r == ERR_OK && (r = dev_u2fh_err(j.rc)) == ERR_OK && got > want)
		r = ERR_PROTO; /* longer than the protocol allows */
	if (r == ERR_TIMEOUT)
		xs->dead = true;
	if (r == ERR_OK) {
		memcpy(buf, j.recv, got);
		*len = got;
	} else
		log_msg(x->log, "%s: %s: u2fh_sendrecv: %d, %zu bytes: %s%s",
		    __func__, x->path, j.rc, got, err_str(r),
		    xs->dead ? " (no answer in time: dropped)" : "");
	util_freezero(j.recv, offer + DEV_U2FH_SLACK);
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
u2fh_open_one(struct dev_u2fh_ctx *ctx, unsigned index, const struct log *lg,
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
	ctx->refs++;
	(*out)->state = xs;
	return ERR_OK;
}

/* The live devices 0..max_index into set (room for max_index + 1). */
static int
u2fh_open_found(struct dev_u2fh_ctx *ctx, unsigned max_index, size_t max,
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
u2fh_discover(struct dev_u2fh_ctx *ctx, unsigned *max_index,
    const struct log *lg, int *rc)
{
	const struct dev_u2fh_lib *lib = ctx->lib;
	struct u2fh_job j;
	int r;

	if ((*rc = lib->init(&ctx->devs)) != U2FH_OK) {
		ctx->devs = NULL;
		r = dev_u2fh_err(*rc);
		log_msg(lg, "%s: u2fh_devs_init: %d (%s)", __func__, *rc,
		    err_str(r));
		return r;
	}
	memset(&j, 0, sizeof(j));
	j.lib = lib;
	j.devs = ctx->devs;
	j.discover = true;
	j.max_index = max_index;
	r = u2fh_run(
	    &j, lib->discover_ms > 0 ? lib->discover_ms : DEV_U2FH_DISCOVER_MS);
	*rc = j.rc;
	if (r == ERR_OK && *rc != U2FH_OK && *rc != U2FH_NO_U2F_DEVICE)
		r = dev_u2fh_err(*rc);
	if (r != ERR_OK)
		log_msg(lg, "%s: u2fh_devs_discover: %d (%s)", __func__, *rc,
		    err_str(r));
	return r;
}

int
dev_u2fh_xports_with(const struct dev_u2fh_lib *lib, size_t max,
    const struct log *lg, struct xport ***devs, size_t *ndevs)
{
	struct dev_u2fh_ctx *ctx = NULL;
	struct xport **set = NULL;
	unsigned max_index = 0;
	size_t n = 0;
	int r, rc;

	*devs = NULL;
	*ndevs = 0;
	if ((ctx = calloc(1, sizeof(*ctx))) == NULL)
		return ERR_NOMEM;
	ctx->lib = lib;
	ctx->refs = 1; /* ours until the devices hold theirs */
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

const struct dev_u2fh_lib dev_u2fh_libu2fhost = {
    .init = lib_init,
    .discover = lib_discover,
    .alive = lib_alive,
    .sendrecv = lib_sendrecv,
    .done = lib_done,
    .version = lib_version,
};

const char *
dev_u2fh_version(void)
{
	const char *v = dev_u2fh_libu2fhost.version();

	return v != NULL ? v : "unknown";
}

int
dev_u2fh_xports(size_t max, const struct log *lg, struct xport ***xs, size_t *n)
{
	return dev_u2fh_xports_with(&dev_u2fh_libu2fhost, max, lg, xs, n);
}
