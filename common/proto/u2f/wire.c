/* SPDX-License-Identifier: BSD-2-Clause */
/* The U2F request in flight (wire.h). U2F keys answer every request at
 * once ("touch needed", 6985, included), so a request is sent again
 * every U2F_POLL_MS until the key signs; a step never blocks.
 *
 * A request that went silent is sent again (U2F_STALL_MS); its first copy
 * may still be answered late. A U2F reply names no request, so before a
 * different request goes out (the next allow-list entry) the replies
 * still owed to the copies sent are read and dropped (up to
 * U2F_STALL_MS): a late "not mine" for one entry is never read as the
 * next entry's answer. */
#include "config.h"

#include <stdlib.h>

#include "base/err.h"
#include "u2f.h"
#include "wire.h"

void
u2f_wire_start(struct u2f_wire *w)
{
	w->touch = false;
	w->next_send = util_now_ms();
	if (w->owed > 0)
		w->drain_until = w->next_send + U2F_STALL_MS;
}

/* Receive (within ms) and split the reply to the request out. */
static int
wire_recv(struct u2f_wire *w, struct xport *x, uint8_t *buf, size_t cap,
    size_t *body, int ms)
{
	int status = XPORT_KA_NONE, r;
	size_t len = 0;
	uint16_t sw;

	r = xport_recv(x, XPORT_MSG, buf, cap, &len, ms, &status);
	if (status != XPORT_KA_NONE) /* the key is working on it */
		w->alive_at = util_now_ms();
	if (r != ERR_TIMEOUT && w->owed > 0) /* a reply, or an error frame */
		w->owed--;
	if (r != ERR_OK)
		return r;
	return u2f_status(buf, len, body, &sw);
}

/* Read and drop the replies still owed to an earlier request: ERR_OK
 * when none is owed any more (or the wait for them is over), else
 * ERR_PENDING. */
static int
wire_drain(struct u2f_wire *w, struct xport *x, const struct log *lg,
    uint8_t *buf, size_t cap)
{
	size_t body;
	int r;

	while (w->owed > 0) {
		r = wire_recv(w, x, buf, cap, &body, 0);
		if (r == ERR_TIMEOUT) {
			if (util_now_ms() < w->drain_until)
				return ERR_PENDING;
			w->owed = 0; /* lost after all */
			break;
		}
		log_msg(lg,
		    "%s: %s: dropped a late reply to an earlier "
		    "request (%s)",
		    __func__, xport_path(x), err_str(r));
	}
	util_wipe(buf, cap);
	w->drain_until = 0;
	return ERR_OK;
}

enum u2f_wire_next
u2f_wire_next(struct u2f_wire *w, struct xport *x, const struct log *lg,
    uint8_t *buf, size_t cap)
{
	if (w->in_flight)
		return U2F_WIRE_READ;
	if (w->drain_until > 0 && wire_drain(w, x, lg, buf, cap) != ERR_OK)
		return U2F_WIRE_WAIT;
	return util_now_ms() < w->next_send ? U2F_WIRE_WAIT : U2F_WIRE_SEND;
}

int
u2f_wire_send(
    struct u2f_wire *w, struct xport *x, const uint8_t *apdu, size_t len)
{
	int r = xport_send(x, XPORT_MSG, apdu, len, U2F_SEND_MS);

	w->in_flight = (r == ERR_OK);
	w->sent_at = util_now_ms();
	if (r == ERR_OK)
		w->owed++;
	return r;
}

int
u2f_wire_read(struct u2f_wire *w, struct xport *x, const struct log *lg,
    uint8_t *buf, size_t cap, size_t *body)
{
	int r = wire_recv(w, x, buf, cap, body, 0);

	if (r == ERR_TIMEOUT) {
		if (util_now_ms() >= u2f_wire_wake_at(w, x)) {
			log_msg(lg, "%s: %s: no answer, asking again", __func__,
			    xport_path(x));
			w->in_flight = false;
			w->next_send = util_now_ms();
		}
		return ERR_PENDING;
	}
	w->in_flight = false;
	/* "Touch needed", or another program holds the key: ask again
	 * after the poll interval. */
	if (r == ERR_PRESENCE || r == ERR_HID_BUSY) {
		w->touch = (r == ERR_PRESENCE);
		w->next_send = util_now_ms() + U2F_POLL_MS;
		return ERR_PENDING;
	}
	return r;
}

int64_t
u2f_wire_wake_at(const struct u2f_wire *w, const struct xport *x)
{
	int64_t last;

	if (!w->in_flight && w->drain_until == 0)
		return w->next_send;
	if (xport_fd(x) < 0) /* the transport says, or at once */
		return xport_wake_at(x, w->sent_at);
	if (w->drain_until > 0)
		return w->drain_until;
	last = w->alive_at > w->sent_at ? w->alive_at : w->sent_at;
	return last + U2F_STALL_MS;
}

int
u2f_wire_poll_fd(const struct u2f_wire *w, const struct xport *x)
{
	return w->in_flight || w->drain_until > 0 ? xport_fd(x) : -1;
}

bool
u2f_wire_touch(const struct u2f_wire *w)
{
	return w->touch;
}

void
u2f_wire_cancel(struct u2f_wire *w, struct xport *x)
{
	uint8_t *reply;
	size_t body;

	if (!w->in_flight || (reply = malloc(U2F_REPLY_MAX)) == NULL)
		return;
	xport_cancel(x);
	(void)wire_recv(w, x, reply, U2F_REPLY_MAX, &body, U2F_POLL_MS);
	util_freezero(reply, U2F_REPLY_MAX);
}

int
u2f_wire_call(struct xport *x, const uint8_t *apdu, size_t len, uint8_t *reply,
    size_t cap, size_t *body, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	size_t n = 0;
	uint16_t sw;
	int r;

	if ((r = xport_send(x, XPORT_MSG, apdu, len, ms)) != ERR_OK ||
	    (r = xport_recv(x, XPORT_MSG, reply, cap, &n,
		 util_ms_left(deadline), NULL)) != ERR_OK)
		return r;
	return u2f_status(reply, n, body, &sw);
}
