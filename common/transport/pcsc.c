/* SPDX-License-Identifier: BSD-2-Clause */
/* The PC/SC transport through pcsc-lite (pcsc.h): with pcsc_wait.c, the
 * only file that includes <winscard.h>. Each pcsc-lite call that may block runs
 * under a deadline (pcsc_job.c); APDUs are framed by apdu.c. A card removed or
 * reset mid-operation, or a reader that went away, is ERR_NODEV, and so
 * is every later call on that transport. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <winscard.h>

#include "apdu.h"
#include "base/err.h"
#include "pcsc.h"
#include "pcsc_job.h"
#include "xport_int.h"

/* A connected card: held by the transport and by every call still
 * running on it (a worker past its deadline), released by the last. */
struct pcsc_link {
	atomic_int refs;
	SCARDCONTEXT ctx;
	SCARDHANDLE card;
	DWORD proto;
	char reader[256];
};

/* After a failed or empty exchange: wait up to this long for pcscd to
 * see the card leave (its reader is polled a few times a second). */
#define PCSC_GONE_MS 1000

struct pcsc_state {
	struct pcsc_link *link;
	struct xport *x;
	bool dead; /* a call failed for good: never again */
	struct apdu_fido fido;
};

bool
xport_pcsc_built(void)
{
	return true;
}

/* A pcsc-lite result as one of ours. */
static int
pcsc_err(LONG rv)
{
	switch (rv) {
	case SCARD_S_SUCCESS:
		return ERR_OK;
	case SCARD_E_NO_MEMORY:
		return ERR_NOMEM;
	case SCARD_E_TIMEOUT:
		return ERR_TIMEOUT;
	case SCARD_E_SHARING_VIOLATION:
		return ERR_HID_BUSY;
	case SCARD_W_REMOVED_CARD:
	case SCARD_W_RESET_CARD:
	case SCARD_E_NO_SMARTCARD:
	case SCARD_W_UNPOWERED_CARD:
	case SCARD_W_UNRESPONSIVE_CARD:
	case SCARD_E_READER_UNAVAILABLE:
	case SCARD_E_UNKNOWN_READER:
	case SCARD_E_NO_READERS_AVAILABLE:
	case SCARD_E_NO_SERVICE:
	case SCARD_E_SERVICE_STOPPED:
		return ERR_NODEV;
	default:
		return ERR_IO;
	}
}

/* Why a call failed, for a log line. */
static const char *
pcsc_why(LONG rv)
{
	switch (rv) {
	case SCARD_W_REMOVED_CARD:
	case SCARD_E_NO_SMARTCARD:
		return "the card was removed from the reader";
	case SCARD_W_UNPOWERED_CARD:
	case SCARD_W_UNRESPONSIVE_CARD:
		return "the card does not answer (moved out of the field?)";
	case SCARD_W_RESET_CARD:
		return "the card was reset by another program";
	case SCARD_E_READER_UNAVAILABLE:
	case SCARD_E_UNKNOWN_READER:
		return "the reader went away";
	case SCARD_E_NO_SERVICE:
	case SCARD_E_SERVICE_STOPPED:
		return "pcscd is not running";
	case SCARD_E_SHARING_VIOLATION:
		return "another program holds the card";
	default:
		return pcsc_stringify_error(rv);
	}
}

static void
link_unref(struct pcsc_link *l)
{
	if (l == NULL || atomic_fetch_sub(&l->refs, 1) > 1)
		return;
	(void)SCardDisconnect(l->card, SCARD_LEAVE_CARD);
	(void)SCardReleaseContext(l->ctx);
	free(l);
}

/* One APDU, as a call for a worker. */
struct xmit_call {
	struct pcsc_link *link;
	uint8_t cmd[APDU_CMD_MAX];
	size_t len;
	uint8_t rsp[APDU_RSP_MAX];
	DWORD rlen;
	LONG rv;
};

static void
xmit_run(void *arg)
{
	struct xmit_call *c = arg;
	const SCARD_IO_REQUEST *pci =
	    c->link->proto == SCARD_PROTOCOL_T0 ? SCARD_PCI_T0 : SCARD_PCI_T1;
	SCARD_READERSTATE rs;

	c->rlen = sizeof(c->rsp);
	c->rv = SCardTransmit(
	    c->link->card, pci, c->cmd, (DWORD)c->len, NULL, c->rsp, &c->rlen);
	if (c->rv == SCARD_S_SUCCESS && c->rlen >= 2)
		return;
	/* A card that leaves the field may end the exchange with another
	 * error, or with no response at all, before pcscd notices: wait a
	 * little for the reader's state, so that removal is told as such. */
	memset(&rs, 0, sizeof(rs));
	rs.szReader = c->link->reader;
	rs.dwCurrentState = SCARD_STATE_UNAWARE;
	if (SCardGetStatusChange(c->link->ctx, 0, &rs, 1) != SCARD_S_SUCCESS)
		return;
	if (rs.dwEventState & SCARD_STATE_PRESENT) {
		rs.dwCurrentState = rs.dwEventState;
		if (SCardGetStatusChange(c->link->ctx, PCSC_GONE_MS, &rs, 1) !=
		    SCARD_S_SUCCESS)
			return;
	}
	if (!(rs.dwEventState & SCARD_STATE_PRESENT))
		c->rv = SCARD_W_REMOVED_CARD;
}

static void
xmit_drop(void *arg)
{
	struct xmit_call *c = arg;

	link_unref(c->link);
	util_freezero(c, sizeof(*c));
}

/* struct apdu_card's transmit: SCardTransmit within ms. */
static int
pcsc_transmit(void *arg, const uint8_t *cmd, size_t len, uint8_t *rsp,
    size_t cap, size_t *rlen, int ms)
{
	struct pcsc_state *st = arg;
	struct xmit_call *c;
	int r;

	if (st->dead)
		return ERR_NODEV;
	if (len > sizeof(c->cmd))
		return ERR_TOO_BIG;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ERR_NOMEM;
	c->link = st->link;
	atomic_fetch_add(&c->link->refs, 1);
	memcpy(c->cmd, cmd, len);
	c->len = len;
	if ((r = pcsc_job_call(xmit_run, xmit_drop, c, ms)) == ERR_TIMEOUT) {
		st->dead = true; /* the worker finishes on its own */
		log_msg(st->x->log, "%s: %s: no answer within %d ms: dropped",
		    __func__, st->x->path, ms);
		return ERR_TIMEOUT;
	}
	if (r == ERR_OK && (r = pcsc_err(c->rv)) != ERR_OK) {
		log_msg(st->x->log, "%s: %s: %s", __func__, st->x->path,
		    pcsc_why(c->rv));
		st->dead = st->dead || r == ERR_NODEV;
	}
	if (r == ERR_OK && c->rlen > cap)
		r = ERR_PROTO;
	if (r == ERR_OK) {
		memcpy(rsp, c->rsp, c->rlen);
		*rlen = c->rlen;
	}
	xmit_drop(c);
	return r;
}

static int
pcsc_send(struct xport *x, uint8_t kind, const uint8_t *msg, size_t len, int ms)
{
	struct pcsc_state *st = x->state;

	return apdu_fido_send(&st->fido, kind, msg, len, ms);
}

static int
pcsc_recv(struct xport *x, uint8_t kind, uint8_t *buf, size_t cap, size_t *len,
    int ms, int *status)
{
	struct pcsc_state *st = x->state;

	st->fido.deadline = x->deadline; /* the operation's end */
	return apdu_fido_recv(&st->fido, kind, buf, cap, len, ms, status);
}

static void
pcsc_cancel(struct xport *x)
{
	struct pcsc_state *st = x->state;

	apdu_fido_cancel(&st->fido);
}

/* PC/SC has no descriptor: the wait is by pcsc_wake_at. */
static int
pcsc_fd(const struct xport *x)
{
	(void)x;
	return -1;
}

static int64_t
pcsc_wake_at(const struct xport *x)
{
	const struct pcsc_state *st = x->state;

	return apdu_fido_wake_at(&st->fido);
}

static void
pcsc_set_log(struct xport *x, const struct log *lg)
{
	struct pcsc_state *st = x->state;

	st->fido.log = lg;
}

static void
pcsc_close(struct xport *x)
{
	struct pcsc_state *st = x->state;

	link_unref(st->link);
	util_freezero(st, sizeof(*st));
	x->state = NULL;
}

static const struct xport_ops xport_pcsc = {
    .name = "pcsc",
    .send = pcsc_send,
    .recv = pcsc_recv,
    .cancel = pcsc_cancel,
    .fd = pcsc_fd,
    .wake_at = pcsc_wake_at,
    .set_log = pcsc_set_log,
    .close = pcsc_close,
};

/* Connecting, as a call for a worker: the context, the card's presence
 * (waited for up to wait_ms), the connection. */
struct open_call {
	char reader[256];
	int wait_ms;
	SCARDCONTEXT ctx;
	SCARDHANDLE card;
	DWORD proto;
	bool have_ctx, have_card;
	LONG rv;
};

static LONG
open_wait_card(struct open_call *c)
{
	SCARD_READERSTATE rs;
	LONG rv;

	memset(&rs, 0, sizeof(rs));
	rs.szReader = c->reader;
	rs.dwCurrentState = SCARD_STATE_UNAWARE;
	if ((rv = SCardGetStatusChange(c->ctx, 0, &rs, 1)) != SCARD_S_SUCCESS)
		return rv;
	if (rs.dwEventState & SCARD_STATE_PRESENT)
		return SCARD_S_SUCCESS;
	rs.dwCurrentState = rs.dwEventState;
	rv = SCardGetStatusChange(c->ctx, (DWORD)c->wait_ms, &rs, 1);
	if (rv == SCARD_E_TIMEOUT ||
	    (rv == SCARD_S_SUCCESS && !(rs.dwEventState & SCARD_STATE_PRESENT)))
		return SCARD_E_NO_SMARTCARD;
	return rv;
}

static void
open_run(void *arg)
{
	struct open_call *c = arg;

	if ((c->rv = SCardEstablishContext(
		 SCARD_SCOPE_SYSTEM, NULL, NULL, &c->ctx)) != SCARD_S_SUCCESS)
		return;
	c->have_ctx = true;
	if ((c->rv = open_wait_card(c)) != SCARD_S_SUCCESS)
		return;
	c->rv = SCardConnect(c->ctx, c->reader, SCARD_SHARE_EXCLUSIVE,
	    SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1, &c->card, &c->proto);
	c->have_card = c->rv == SCARD_S_SUCCESS;
}

static void
open_drop(void *arg)
{
	struct open_call *c = arg;

	if (c->have_card)
		(void)SCardDisconnect(c->card, SCARD_LEAVE_CARD);
	if (c->have_ctx)
		(void)SCardReleaseContext(c->ctx);
	free(c);
}

/* Connect to the reader's card within ms: the link. */
static int
pcsc_connect(
    const char *reader, const struct log *lg, int ms, struct pcsc_link **out)
{
	struct open_call *c;
	size_t len = strlen(reader);
	int r;

	*out = NULL;
	if (len >= sizeof(c->reader))
		return ERR_INVAL;
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (*out = calloc(1, sizeof(**out))) == NULL) {
		free(c);
		return ERR_NOMEM;
	}
	memcpy(c->reader, reader, len + 1);
	c->wait_ms = ms / 2; /* pcsc-lite's own timeout, inside ours */
	if ((r = pcsc_job_call(open_run, open_drop, c, ms)) == ERR_TIMEOUT)
		log_msg(lg, "%s: %s: pcscd did not answer within %d ms",
		    __func__, reader, ms);
	else if (r == ERR_OK && (r = pcsc_err(c->rv)) != ERR_OK)
		log_msg(lg, "%s: %s: %s", __func__, reader, pcsc_why(c->rv));
	if (r == ERR_OK) {
		atomic_init(&(*out)->refs, 1);
		(*out)->ctx = c->ctx;
		(*out)->card = c->card;
		(*out)->proto = c->proto;
		memcpy((*out)->reader, c->reader, sizeof(c->reader));
		c->have_card = c->have_ctx = false;
	} else {
		free(*out);
		*out = NULL;
	}
	if (r != ERR_TIMEOUT)
		open_drop(c);
	return r;
}

int
xport_pcsc_open(
    const char *path, const struct log *lg, int ms, struct xport **out)
{
	int64_t deadline = util_now_ms() + ms;
	struct pcsc_state *st;
	struct xport *x = NULL;
	int r;

	*out = NULL;
	if (!xport_is_pcsc(path))
		return ERR_INVAL;
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return ERR_NOMEM;
	if ((r = xport_new(path, &xport_pcsc, lg, &x)) != ERR_OK) {
		free(st);
		return r;
	}
	x->state = st;
	st->x = x;
	st->fido.card.transmit = pcsc_transmit;
	st->fido.card.arg = st;
	st->fido.log = lg;
	st->fido.name = x->path;
	if ((r = pcsc_connect(path + strlen(XPORT_PCSC_PREFIX), lg, ms,
		 &st->link)) == ERR_OK)
		r = apdu_fido_select(
		    &st->fido, util_ms_left(deadline), &x->caps);
	if (r != ERR_OK) {
		xport_close(&x);
		return r;
	}
	*out = x;
	return ERR_OK;
}

/* Discovery, as a call for a worker: the readers holding a card, as
 * pcsc-lite's multi-string (names, each ended by a NUL). */
struct disc_call {
	char *names;
	size_t len;
	LONG rv;
};

/* Keep, in c->names, the readers of the multi-string all that hold a
 * card. */
static LONG
disc_present(SCARDCONTEXT ctx, const char *all, struct disc_call *c)
{
	SCARD_READERSTATE rs[PCSC_READERS_MAX];
	const char *p;
	size_t n = 0, i, k;
	LONG rv;

	memset(rs, 0, sizeof(rs));
	for (p = all; *p != '\0' && n < PCSC_READERS_MAX; p += strlen(p) + 1)
		rs[n++].szReader = p;
	if (n == 0 ||
	    (rv = SCardGetStatusChange(ctx, 0, rs, (DWORD)n)) !=
		SCARD_S_SUCCESS)
		return n == 0 ? SCARD_S_SUCCESS : rv;
	if ((c->names = malloc((size_t)(p - all) + 1)) == NULL)
		return SCARD_E_NO_MEMORY;
	for (i = 0; i < n; i++) {
		if (!(rs[i].dwEventState & SCARD_STATE_PRESENT) ||
		    (rs[i].dwEventState & SCARD_STATE_MUTE))
			continue;
		k = strlen(rs[i].szReader) + 1;
		memcpy(c->names + c->len, rs[i].szReader, k);
		c->len += k;
	}
	return SCARD_S_SUCCESS;
}

static void
disc_run(void *arg)
{
	struct disc_call *c = arg;
	SCARDCONTEXT ctx;
	DWORD len = 0;
	char *all = NULL;

	if ((c->rv = SCardEstablishContext(
		 SCARD_SCOPE_SYSTEM, NULL, NULL, &ctx)) != SCARD_S_SUCCESS)
		return;
	if ((c->rv = SCardListReaders(ctx, NULL, NULL, &len)) ==
		SCARD_S_SUCCESS &&
	    len > 1 && (all = calloc(1, (size_t)len + 1)) == NULL)
		c->rv = SCARD_E_NO_MEMORY;
	if (all != NULL &&
	    (c->rv = SCardListReaders(ctx, NULL, all, &len)) == SCARD_S_SUCCESS)
		c->rv = disc_present(ctx, all, c);
	free(all);
	(void)SCardReleaseContext(ctx);
}

static void
disc_drop(void *arg)
{
	struct disc_call *c = arg;

	free(c->names);
	free(c);
}

/* One entry "pcsc:NAME" at the end of *list. */
static int
disc_add(struct xport_info **list, size_t *n, const char *name)
{
	struct xport_info *l, *e;
	size_t plen = strlen(XPORT_PCSC_PREFIX) + strlen(name) + 1;

	if ((l = reallocarray(*list, *n + 1, sizeof(*l))) == NULL)
		return ERR_NOMEM;
	*list = l;
	e = &l[*n];
	memset(e, 0, sizeof(*e));
	e->path = malloc(plen);
	e->manufacturer = strdup("");
	e->product = strdup("PC/SC reader");
	if (e->path == NULL || e->manufacturer == NULL || e->product == NULL) {
		free(e->path);
		free(e->manufacturer);
		free(e->product);
		return ERR_NOMEM;
	}
	(void)snprintf(e->path, plen, "%s%s", XPORT_PCSC_PREFIX, name);
	(*n)++;
	return ERR_OK;
}

int
xport_pcsc_discover(struct xport_info **list, size_t *n)
{
	struct disc_call *c;
	size_t off;
	int r;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ERR_NOMEM;
	if ((r = pcsc_job_call(disc_run, disc_drop, c, PCSC_DISCOVER_MS)) ==
	    ERR_TIMEOUT)
		return ERR_OK; /* pcscd stalls: no reader from it */
	if (r == ERR_OK && c->rv != SCARD_S_SUCCESS &&
	    c->rv != SCARD_E_NO_READERS_AVAILABLE &&
	    pcsc_err(c->rv) != ERR_NODEV)
		r = pcsc_err(c->rv);
	for (off = 0; r == ERR_OK && off < c->len;
	     off += strlen(c->names + off) + 1)
		r = disc_add(list, n, c->names + off);
	disc_drop(c);
	return r;
}
