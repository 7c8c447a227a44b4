/* SPDX-License-Identifier: BSD-2-Clause */
/* The stand-in for libu2f-host shared by the backend's tests; see
 * u2fhfix.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <u2f-host.h>

#include "base/err.h"
#include "device/dev.h"
#include "transport/ctaphid.h"
#include "transport/u2fh.h"
#include "u2fhfix.h"
#include "base/util.h"

struct u2fhfix u2fhfix_fk;

static char statedir[] = "/tmp/test_u2fh.XXXXXX";

/* Readable once the hung calls may return (u2fhfix_settle). */
static int release_fd[2] = {-1, -1};

/* The stand-in's running calls (struct xport_u2fh_lib.calls). */
static atomic_uint fake_calls;

/* As libu2f-host 1.1.10 with a token that sends KEEPALIVE forever: no
 * answer until the test lets hung calls go (or, should a test forget to,
 * HANG_MS), then a transport error; the token is not touched again. */
#define HANG_MS 60000
static void
hang(void)
{
	struct pollfd p = {.fd = release_fd[0], .events = POLLIN};
	int64_t deadline = util_now_ms() + HANG_MS;
	int n;

	/* Asleep in counted slices until released (or HANG_MS): the
	 * slices slept before the caller gave up show how long it let the
	 * call hang, without a clock. */
	while ((n = poll(&p, 1, U2FHFIX_HANG_SLICE_MS)) <= 0 &&
	    util_ms_left(deadline) > 0)
		if (n == 0)
			__atomic_add_fetch(
			    &u2fhfix_fk.hang_slices, 1, __ATOMIC_SEQ_CST);
}

static int
fake_init(void **devs)
{
	*devs = &u2fhfix_fk;
	return U2FH_OK;
}

static int
fake_discover(void *devs, unsigned *max_index)
{
	if (devs != &u2fhfix_fk)
		return U2FH_TRANSPORT_ERROR;
	if (u2fhfix_fk.hang_discover) {
		hang();
		return U2FH_TRANSPORT_ERROR;
	}
	if (u2fhfix_fk.open_rc != U2FH_OK)
		return u2fhfix_fk.open_rc;
	*max_index = u2fhfix_fk.max_index;
	return U2FH_OK;
}

static int
fake_alive(void *devs, unsigned index)
{
	return devs == &u2fhfix_fk && index <= u2fhfix_fk.max_index &&
	    (u2fhfix_fk.dead & (1u << index)) == 0;
}

size_t
u2fhfix_written(size_t d)
{
	return d <= 57 ? 57 : 57 + 59 * ((d - 57 + 58) / 59);
}

size_t
u2fhfix_longest(size_t maxlen)
{
	size_t d = maxlen;

	while (d > 0 && d + d % 64 > maxlen)
		d--;
	return d;
}

/* As u2fh_sendrecv: the length check and the writes of libu2f-host
 * 1.1.10, the reply from the token (or a hostile variant). */
static int
fake_sendrecv(void *devs, unsigned index, uint8_t cmd, const uint8_t *send,
    uint16_t sendlen, uint8_t *recv, size_t *recvlen)
{
	struct u2fhfix *fk = &u2fhfix_fk;
	uint8_t rep[TOKEN_REPLY_MAX];
	size_t rlen = 0, maxlen = *recvlen, d;

	fk->sends++;
	if (devs != fk || !fake_alive(devs, index) || cmd != CTAPHID_MSG ||
	    sendlen < 4)
		return U2FH_TRANSPORT_ERROR;
	if (send[1] < 4)
		fk->maxlen[send[1]] = maxlen;
	if (fk->sendrecv_rc != U2FH_OK)
		return fk->sendrecv_rc;
	if (send[1] == fk->hang_ins) {
		hang();
		return U2FH_TRANSPORT_ERROR;
	}
	if (fk->bad_version && send[1] == 0x03) {
		memcpy(rep, "U2F_V3\x90\x00", 8);
		rlen = 8;
	} else if (token_apdu(fk->tok, 0, TOKEN_ANSWER, send, sendlen, rep,
		       &rlen) != 0)
		return U2FH_TRANSPORT_ERROR;
	d = send[1] == fk->claim_max_ins ? u2fhfix_longest(maxlen)
					 : rlen + fk->claim_extra;
	if (d + d % 64 > maxlen) /* libu2f-host's only check */
		return U2FH_TRANSPORT_ERROR;
	memset(recv, 0xa5, u2fhfix_written(d));
	memcpy(recv, rep, rlen < d ? rlen : d);
	*recvlen = d;
	return U2FH_OK;
}

static void
fake_done(void *devs)
{
	if (devs == &u2fhfix_fk)
		u2fhfix_fk.done++;
}

static const char *
fake_version(void)
{
	return "fake";
}

static const struct xport_u2fh_lib fake_lib = {
    .init = fake_init,
    .discover = fake_discover,
    .alive = fake_alive,
    .sendrecv = fake_sendrecv,
    .done = fake_done,
    .version = fake_version,
    .xfer_ms = U2FHFIX_XFER_MS,
    .discover_ms = U2FHFIX_DISCOVER_MS,
    .calls = &fake_calls,
    .calls_max = U2FHFIX_CALLS_MAX,
};

unsigned
u2fhfix_calls(void)
{
	return atomic_load(&fake_calls);
}

int
u2fhfix_settle(void)
{
	char c;
	int i;

	if (write(release_fd[1], "", 1) != 1)
		return -1;
	/* the released calls finish at once: wait in 10 ms naps, by count */
	for (i = 0; i < 1000 && atomic_load(&fake_calls) > 0; i++)
		(void)poll(NULL, 0, 10);
	if (read(release_fd[0], &c, 1) != 1)
		return -1;
	return atomic_load(&fake_calls) == 0 ? 0 : -1;
}

int
u2fhfix_setup(void)
{
	if (pipe2(release_fd, O_CLOEXEC) != 0)
		return -1;
	return mkdtemp(statedir) != NULL ? 0 : -1;
}

int
u2fhfix_cleanup(void)
{
	char path[sizeof(statedir) + 16];

	if (u2fhfix_settle() != 0)
		return -1;
	token_free(&u2fhfix_fk.tok);
	(void)snprintf(path, sizeof(path), "%s/state", statedir);
	(void)unlink(path);
	close(release_fd[0]);
	close(release_fd[1]);
	return rmdir(statedir);
}

int
u2fhfix_reset(unsigned faults)
{
	struct token_config cfg;
	char path[sizeof(statedir) + 16];

	if (u2fhfix_settle() != 0) /* no straggler may see the reset */
		return -1;
	token_free(&u2fhfix_fk.tok);
	memset(&u2fhfix_fk, 0, sizeof(u2fhfix_fk));
	memset(&cfg, 0, sizeof(cfg));
	(void)snprintf(path, sizeof(path), "%s/state", statedir);
	u2fhfix_fk.hang_ins = -1;
	cfg.presence = TOKEN_PRESENCE_NOW;
	cfg.faults = faults;
	cfg.state_path = path;
	return token_new(&u2fhfix_fk.tok, &cfg) != 0 ? -1 : 0;
}

int
u2fhfix_open(size_t max, struct dev ***devs, size_t *n, int *first)
{
	struct xport **xs = NULL;
	size_t nxs = 0;
	int r;

	*devs = NULL;
	*n = 0;
	if (first != NULL)
		*first = ERR_OK;
	if ((r = xport_u2fh_xports_with(&fake_lib, max, NULL, &xs, &nxs)) !=
	    ERR_OK)
		return r;
	return dev_open_xports(xs, nxs, NULL, OPEN_MS, 0, devs, n, first);
}
