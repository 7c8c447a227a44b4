/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 client's exchange with one key: the request in flight and
 * its reply buffer, sending (and, for a request that may be sent twice,
 * sending again after a silence), reading what has arrived without
 * blocking, the status byte, and one blocking exchange for GetInfo and
 * the silent checks. Its own file because every part above it (the PIN
 * session, the selection, the candidates, the operations) sends through
 * it and none of them should own the buffers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "client.h"

int
c2_io_new(struct c2_io *io)
{
	memset(io, 0, sizeof(*io));
	if ((io->msg = malloc(CTAP2_MSG_MAX)) == NULL ||
	    (io->rx = malloc(CTAP2_MSG_MAX)) == NULL) {
		free(io->msg);
		io->msg = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}

void
c2_io_free(struct c2_io *io)
{
	if (io->msg == NULL)
		return;
	c2_io_reset(io);
	free(io->msg);
	free(io->rx);
	io->msg = io->rx = NULL;
}

void
c2_io_reset(struct c2_io *io)
{
	c2_msg_wipe(io);
	util_wipe(io->rx, CTAP2_MSG_MAX);
	io->in_flight = io->touch = false;
}

void
c2_msg_wipe(struct c2_io *io)
{
	util_wipe(io->msg, CTAP2_MSG_MAX);
	io->msg_len = 0;
	io->resend = false;
}

/* May this request be sent a second time? A lost reply (hidraw drops
 * input reports from a full queue) is then asked for again. Only where a
 * second copy is harmless: GetAssertion (a second signature over the
 * same challenge; the late first answer is as good as the second) and
 * authenticatorSelection (a touch). Not ClientPIN: getPinToken spends a
 * PIN try, and its message, which held pinHashEnc, is wiped as soon as
 * it is sent. Not MakeCredential: a second credential. Not
 * GetNextAssertion: the key would move on past a credential. */
static bool
c2_resendable(const uint8_t *msg, size_t len)
{
	return len > 0 &&
	    (msg[0] == CTAP2_GET_ASSERTION || msg[0] == CTAP2_SELECTION);
}

int
c2_send(const struct proto_ctx *c, struct c2_io *io)
{
	int r;

	if (io->msg_len == 0) /* wiped: never sent (again) */
		return ERR_INVAL;
	io->resend = c2_resendable(io->msg, io->msg_len);
	r = xport_send(c->x, XPORT_CBOR, io->msg, io->msg_len, C2_SEND_MS);
	io->in_flight = (r == ERR_OK);
	io->sent_at = io->alive_at = util_now_ms();
	return r;
}

int
c2_status(const struct proto_ctx *c, const uint8_t *reply, size_t len,
    const char *what)
{
	const char *name;
	int r;

	if (len < 1)
		return ERR_PROTO;
	if ((r = ctap2_status_err(reply[0])) != ERR_OK) {
		name = ctap2_status_name(reply[0]);
		log_msg(c->log, "%s: %s: %s: status 0x%02x (%s)", "ctap2",
		    xport_path(c->x), what, reply[0],
		    name != NULL ? name : "unknown");
	}
	return r;
}

int
c2_call(const struct proto_ctx *c, const uint8_t *msg, size_t len,
    uint8_t *reply, size_t *rlen, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int r;

	if ((r = xport_send(c->x, XPORT_CBOR, msg, len, ms)) != ERR_OK)
		return r;
	r = xport_recv(c->x, XPORT_CBOR, reply, CTAP2_MSG_MAX, rlen,
	    util_ms_left(deadline), NULL);
	if (r == ERR_TIMEOUT)
		xport_cancel(c->x);
	return r;
}

/* Has the request in flight gone silent, and may it be sent again? */
static bool
c2_stalled(const struct c2_io *io)
{
	return io->resend && util_now_ms() >= io->alive_at + C2_STALL_MS;
}

int64_t
c2_io_wake_at(const struct proto_ctx *c, const struct c2_io *io)
{
	if (!io->in_flight)
		return INT64_MAX;
	if (xport_fd(c->x) < 0) /* the transport says, or at once */
		return xport_wake_at(c->x, io->sent_at);
	return io->resend ? io->alive_at + C2_STALL_MS : INT64_MAX;
}

/* A request that went silent is sent again if it may be
 * (c2_resendable); any other is waited for until the operation's
 * deadline. */
int
c2_recv_step(const struct proto_ctx *c, struct c2_io *io, size_t *len)
{
	int status = XPORT_KA_NONE, r;

	if (!io->in_flight)
		return ERR_INVAL;
	r = xport_recv(
	    c->x, XPORT_CBOR, io->rx, CTAP2_MSG_MAX, len, 0, &status);
	if (status != XPORT_KA_NONE) {
		io->alive_at = util_now_ms();
		io->touch = (status == XPORT_KA_UPNEEDED);
	}
	if (r == ERR_TIMEOUT) {
		if (c2_stalled(io)) {
			log_msg(c->log, "%s: %s: no answer, asking again",
			    __func__, xport_path(c->x));
			return c2_pending(c2_send(c, io));
		}
		return ERR_PENDING;
	}
	io->in_flight = false;
	return r;
}

void
c2_io_cancel(const struct proto_ctx *c, struct c2_io *io)
{
	size_t len;

	if (io->in_flight) {
		xport_cancel(c->x);
		(void)xport_recv(
		    c->x, XPORT_CBOR, io->rx, CTAP2_MSG_MAX, &len, 100, NULL);
	}
	c2_io_reset(io);
}
