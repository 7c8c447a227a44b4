/* SPDX-License-Identifier: BSD-2-Clause */
/* Waiting for a card on PC/SC readers (xport_pcsc_wait_card): one
 * SCardGetStatusChange over the readers, asleep in pcscd until a card
 * comes or the time is over, in a worker under our deadline
 * (pcsc_job.c). With pcsc.c, the only file that includes <winscard.h>. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <winscard.h>

#include "base/err.h"
#include "pcsc.h"
#include "pcsc_job.h"

/* Past the wait's own timeout: how long pcscd may take to answer. */
#define PCSC_WAIT_SLACK_MS 2000

struct wait_call {
	char names[PCSC_READERS_MAX][256];
	size_t n;
	bool arrival;
	int ms;
	LONG rv;
};

/* Has a card come to one of the readers since the state in
 * dwCurrentState was read (pcscd's event count tells a card taken away
 * and put back)? */
static bool
wait_arrived(const SCARD_READERSTATE *rs, size_t n)
{
	DWORD now, before;
	size_t i;

	for (i = 0; i < n; i++) {
		now = rs[i].dwEventState;
		before = rs[i].dwCurrentState;
		if ((now & SCARD_STATE_PRESENT) &&
		    (!(before & SCARD_STATE_PRESENT) ||
			(now >> 16) != (before >> 16)))
			return true;
	}
	return false;
}

static void
wait_run(void *arg)
{
	struct wait_call *c = arg;
	SCARD_READERSTATE rs[PCSC_READERS_MAX];
	int64_t end = util_now_ms() + c->ms;
	SCARDCONTEXT ctx;
	size_t i;

	if ((c->rv = SCardEstablishContext(
		 SCARD_SCOPE_SYSTEM, NULL, NULL, &ctx)) != SCARD_S_SUCCESS)
		return;
	memset(rs, 0, sizeof(rs));
	for (i = 0; i < c->n; i++) {
		rs[i].szReader = c->names[i];
		rs[i].dwCurrentState = SCARD_STATE_UNAWARE;
	}
	/* The readers' state now: a card already there counts, unless
	 * only an arrival does. */
	c->rv = SCardGetStatusChange(ctx, 0, rs, (DWORD)c->n);
	if (c->rv == SCARD_S_SUCCESS && !c->arrival && wait_arrived(rs, c->n))
		goto out;
	/* Then asleep in pcscd until a reader's state changes. */
	do {
		for (i = 0; i < c->n; i++)
			rs[i].dwCurrentState = rs[i].dwEventState;
		c->rv = SCardGetStatusChange(
		    ctx, (DWORD)util_ms_left(end), rs, (DWORD)c->n);
	} while (c->rv == SCARD_S_SUCCESS && !wait_arrived(rs, c->n));
out:
	(void)SCardReleaseContext(ctx);
}

static void
wait_drop(void *arg)
{
	free(arg);
}

/* What the wait's pcsc-lite result means. */
static int
wait_err(LONG rv)
{
	switch (rv) {
	case SCARD_S_SUCCESS:
		return ERR_OK;
	case SCARD_E_TIMEOUT:
		return ERR_TIMEOUT;
	case SCARD_E_NO_SERVICE:
	case SCARD_E_SERVICE_STOPPED:
	case SCARD_E_NO_READERS_AVAILABLE:
	case SCARD_E_UNKNOWN_READER:
		return ERR_NODEV;
	case SCARD_E_NO_MEMORY:
		return ERR_NOMEM;
	default:
		return ERR_IO;
	}
}

int
xport_pcsc_wait_card(const char *const *paths, size_t n, bool arrival,
    const struct log *lg, int64_t deadline)
{
	struct wait_call *c;
	size_t i, len, plen = strlen(XPORT_PCSC_PREFIX);
	int r, ms = util_ms_left(deadline);

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < n && c->n < PCSC_READERS_MAX; i++) {
		if (!xport_is_pcsc(paths[i]) ||
		    (len = strlen(paths[i] + plen)) >= sizeof(c->names[0]))
			continue;
		memcpy(c->names[c->n++], paths[i] + plen, len + 1);
	}
	if (c->n == 0 || ms == 0) {
		r = c->n == 0 ? ERR_INVAL : ERR_TIMEOUT;
		free(c);
		return r;
	}
	c->arrival = arrival;
	c->ms = ms;
	r = pcsc_job_call(wait_run, wait_drop, c, ms + PCSC_WAIT_SLACK_MS);
	if (r == ERR_TIMEOUT) {
		log_msg(lg, "%s: pcscd did not answer in time", __func__);
		return ERR_TIMEOUT; /* the worker frees c */
	}
	if (r == ERR_OK)
		r = wait_err(c->rv);
	if (r != ERR_OK && r != ERR_TIMEOUT)
		log_msg(lg, "%s: %s", __func__, pcsc_stringify_error(c->rv));
	free(c);
	return r;
}
