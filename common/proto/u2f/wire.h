/* SPDX-License-Identifier: BSD-2-Clause */
/* The U2F request in flight (u2f/wire.c): sending it, asking again while
 * the key says "touch needed" or is busy, sending it again when the key
 * goes silent, and reading and dropping the replies owed to copies sent
 * before. U2F keys answer every request at once and a U2F reply names
 * no request, so this is the whole of U2F's timing; u2f/protocol.c says
 * what is asked. */
#ifndef PU_U2F_WIRE_H
#define PU_U2F_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "transport/xport.h"

#define U2F_REPLY_MAX 7609 /* a whole CTAPHID message */
#define U2F_POLL_MS 100    /* re-send interval while waiting for a touch */
/* A request with neither an answer nor a keepalive for this long was
 * lost (e.g. hidraw dropped the reply from a full queue): send it again. */
#define U2F_STALL_MS 1000
#define U2F_SEND_MS 1000 /* a device must take a request's frames */

/* The state of one request; its fields are wire.c's. All zero: nothing
 * sent, nothing owed, due at once. */
struct u2f_wire {
	bool in_flight; /* a request is out, its reply not read */
	bool touch;     /* the last answer was "touch needed" */
	int64_t next_send;
	int64_t sent_at;
	int64_t alive_at; /* last keepalive for the request in flight */
	/* Copies of the current request sent whose replies were not read
	 * (more than one after a re-send); before another request goes
	 * out they are read and dropped, until drain_until (0: not
	 * draining). */
	size_t owed;
	int64_t drain_until;
};

/* What the operation does next (u2f_wire_next). */
enum u2f_wire_next {
	U2F_WIRE_WAIT, /* nothing now: ERR_PENDING */
	U2F_WIRE_SEND, /* build the request and u2f_wire_send it */
	U2F_WIRE_READ  /* one is out: u2f_wire_read */
};

/* A new request is due now (the first, or the next allow-list entry's):
 * the replies still owed to the one before are read first (up to
 * U2F_STALL_MS). */
void u2f_wire_start(struct u2f_wire *w);
/* Send when due; before that, drop owed replies into buf (cap bytes,
 * wiped after). */
enum u2f_wire_next u2f_wire_next(struct u2f_wire *w, struct xport *x,
    const struct log *lg, uint8_t *buf, size_t cap);
/* Send apdu (len bytes). ERR_OK, or the transport's error. */
int u2f_wire_send(
    struct u2f_wire *w, struct xport *x, const uint8_t *apdu, size_t len);
/* Read the reply to the request out, without waiting: ERR_OK with the
 * body's length in *body (status word removed), ERR_PENDING ("touch
 * needed", busy: asked again after U2F_POLL_MS; silent: sent again after
 * U2F_STALL_MS), or the status word's or transport's error (ERR_WRONG_KH
 * for "not mine"). */
int u2f_wire_read(struct u2f_wire *w, struct xport *x, const struct log *lg,
    uint8_t *buf, size_t cap, size_t *body);
/* When the request needs looking at again, and the fd to poll (-1:
 * none; the transport's deadline then). */
int64_t u2f_wire_wake_at(const struct u2f_wire *w, const struct xport *x);
int u2f_wire_poll_fd(const struct u2f_wire *w, const struct xport *x);
/* Did the key last say "touch needed"? */
bool u2f_wire_touch(const struct u2f_wire *w);
/* Cancel the request out, read and drop its answer (up to U2F_POLL_MS),
 * so that it cannot be taken for a later one's. */
void u2f_wire_cancel(struct u2f_wire *w, struct xport *x);

/* One request and its answer within ms, outside an operation (VERSION,
 * a check-only AUTHENTICATE): the body's length in *body, the status
 * word mapped to our errors (u2f_status). */
int u2f_wire_call(struct xport *x, const uint8_t *apdu, size_t len,
    uint8_t *reply, size_t cap, size_t *body, int ms);

#endif
