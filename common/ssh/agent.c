/* SPDX-License-Identifier: BSD-2-Clause */
/* Messages to and from the ssh-agent (agent.h): one request, one
 * bounded reply, each byte waited for in poll() until the deadline; and
 * the two requests we make (identities, sign). Its own file: the framing
 * and its limits, apart from the socket's trust rules (agentsock.c). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"
#include "base/err.h"
#include "base/util.h"

/* Wait for events on fd until deadline: ERR_OK when ready; a hang-up
 * with nothing to read is ERR_AGENT_CONNECT. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	int r = util_poll(fd, events, util_ms_left(deadline));

	if (r == ERR_TIMEOUT)
		return ERR_AGENT_TIMEOUT;
	return r == ERR_OK ? ERR_OK : ERR_AGENT_CONNECT;
}

static int
send_all(int fd, const uint8_t *p, size_t len, int64_t deadline)
{
	ssize_t n;
	int r;

	while (len > 0) {
		if ((r = wait_fd(fd, POLLOUT, deadline)) != ERR_OK)
			return r;
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return ERR_AGENT_CONNECT;
		p += n;
		len -= (size_t)n;
	}
	return ERR_OK;
}

/* Exactly len bytes. EOF: ERR_AGENT_CONNECT before the first byte of a
 * reply (*got == 0 on entry and exit), ERR_AGENT_REPLY after. */
static int
recv_all(int fd, uint8_t *p, size_t len, int64_t deadline, size_t *got)
{
	ssize_t n;
	int r;

	while (len > 0) {
		if ((r = wait_fd(fd, POLLIN, deadline)) != ERR_OK &&
		    r != ERR_AGENT_CONNECT)
			return r;
		n = recv(fd, p, len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return *got == 0 ? ERR_AGENT_CONNECT : ERR_AGENT_REPLY;
		p += n;
		len -= (size_t)n;
		*got += (size_t)n;
	}
	return ERR_OK;
}

static int
send_msg(int fd, uint8_t type, const struct wire *payload, int64_t deadline)
{
	struct wire w;
	int r;

	wire_init(&w, SSHAGENT_MAX_MSG + 4);
	wire_put_u32(&w, (uint32_t)(1 + (payload != NULL ? payload->len : 0)));
	wire_put_u8(&w, type);
	if (payload != NULL)
		wire_put_raw(&w, payload->p, payload->len);
	if ((r = w.err) == ERR_OK)
		r = send_all(fd, w.p, w.len, deadline);
	wire_clear(&w);
	return r;
}

int
agent_call(int fd, uint8_t type, const struct wire *payload, int64_t deadline,
    struct wire *reply)
{
	uint8_t hdr[4], *body;
	size_t got = 0, len;
	int r;

	wire_init(reply, SSHAGENT_MAX_MSG);
	if ((r = send_msg(fd, type, payload, deadline)) != ERR_OK)
		return r;
	if ((r = recv_all(fd, hdr, sizeof(hdr), deadline, &got)) != ERR_OK)
		return r;
	len = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 |
	    (size_t)hdr[2] << 8 | hdr[3];
	if (len == 0 || len > SSHAGENT_MAX_MSG)
		return ERR_AGENT_REPLY;
	if ((body = wire_grow(reply, len)) == NULL)
		return reply->err;
	if ((r = recv_all(fd, body, len, deadline, &got)) != ERR_OK)
		wire_clear(reply);
	return r;
}

void
agent_ids_clear(struct agent_ids *ids)
{
	wire_clear(&ids->reply);
	memset(ids->id, 0, sizeof(ids->id));
	ids->n = 0;
}

/* SSH_AGENT_IDENTITIES_ANSWER: uint32 n, n x (string blob, string
 * comment), nothing after. */
static int
parse_ids(struct agent_ids *ids)
{
	struct rbuf rb;
	uint8_t type;
	uint32_t n, i;

	rbuf_init(&rb, ids->reply.p, ids->reply.len);
	if (rbuf_get_u8(&rb, &type) != ERR_OK ||
	    type != SSH_AGENT_IDENTITIES_ANSWER ||
	    rbuf_get_u32be(&rb, &n) != ERR_OK || n > SSHAGENT_MAX_KEYS)
		return ERR_AGENT_REPLY;
	for (i = 0; i < n; i++) {
		struct agent_id *id = &ids->id[i];

		if (wire_get_string(&rb, &id->blob, &id->blob_len) != ERR_OK ||
		    wire_get_string(&rb, &id->comment, &id->comment_len) !=
			ERR_OK)
			return ERR_AGENT_REPLY;
	}
	if (rbuf_expect_end(&rb) != ERR_OK)
		return ERR_AGENT_REPLY;
	ids->n = n;
	return ERR_OK;
}

int
agent_list(int fd, int64_t deadline, struct agent_ids *ids)
{
	int r;

	memset(ids, 0, sizeof(*ids));
	if ((r = agent_call(fd, SSH_AGENTC_REQUEST_IDENTITIES, NULL, deadline,
		 &ids->reply)) == ERR_OK)
		r = parse_ids(ids);
	if (r != ERR_OK)
		agent_ids_clear(ids);
	return r;
}

/* SSH_AGENT_SIGN_RESPONSE: string signature, nothing after. */
static int
parse_sig(const struct wire *reply, struct wire *sig)
{
	const uint8_t *p;
	size_t len;
	struct rbuf rb;
	uint8_t type;

	rbuf_init(&rb, reply->p, reply->len);
	if (rbuf_get_u8(&rb, &type) != ERR_OK)
		return ERR_AGENT_REPLY;
	if (type == SSH_AGENT_FAILURE)
		return rbuf_expect_end(&rb) == ERR_OK ? ERR_AGENT_REFUSED
						      : ERR_AGENT_REPLY;
	if (type != SSH_AGENT_SIGN_RESPONSE ||
	    wire_get_string(&rb, &p, &len) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_AGENT_REPLY;
	wire_put_raw(sig, p, len);
	return sig->err;
}

int
agent_sign(int fd, const uint8_t *blob, size_t blob_len, const uint8_t *data,
    size_t data_len, int64_t deadline, struct wire *sig)
{
	struct wire req, reply;
	int r;

	wire_init(sig, SSHAGENT_MAX_MSG);
	wire_init(&req, SSHAGENT_MAX_MSG);
	wire_put_string(&req, blob, blob_len);
	wire_put_string(&req, data, data_len);
	wire_put_u32(&req, 0); /* flags: none (they select RSA hashes) */
	if ((r = req.err) == ERR_OK &&
	    (r = agent_call(fd, SSH_AGENTC_SIGN_REQUEST, &req, deadline,
		 &reply)) == ERR_OK) {
		r = parse_sig(&reply, sig);
		wire_clear(&reply);
	}
	wire_clear(&req);
	if (r != ERR_OK)
		wire_clear(sig);
	return r;
}
