/* SPDX-License-Identifier: BSD-2-Clause */
/* A scripted smart card (fakecard.h) for the APDU framing's tests; in
 * tests/lib with the other fakes, so that a test of any layer that
 * reaches a card can use it. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "fakecard.h"
#include "vclock.h"

void
fakecard_queue_raw(struct fakecard *c, const uint8_t *raw, size_t len)
{
	if (c->nrsp >= FAKECARD_MAX || len > sizeof(c->rsp[0]))
		return;
	memcpy(c->rsp[c->nrsp], raw, len);
	c->rsp_len[c->nrsp++] = len;
}

void
fakecard_queue(struct fakecard *c, const uint8_t *data, size_t len, uint16_t sw)
{
	uint8_t r[APDU_RSP_MAX + 8];

	if (len + 2 > sizeof(r))
		return;
	if (len > 0)
		memcpy(r, data, len);
	r[len] = (uint8_t)(sw >> 8);
	r[len + 1] = (uint8_t)sw;
	fakecard_queue_raw(c, r, len + 2);
}

void
fakecard_default(
    struct fakecard *c, const uint8_t *data, size_t len, uint16_t sw)
{
	if (len + 2 > sizeof(c->dflt))
		return;
	if (len > 0)
		memcpy(c->dflt, data, len);
	c->dflt[len] = (uint8_t)(sw >> 8);
	c->dflt[len + 1] = (uint8_t)sw;
	c->dflt_len = len + 2;
}

static int
fakecard_transmit(void *arg, const uint8_t *cmd, size_t len, uint8_t *rsp,
    size_t cap, size_t *rlen, int ms)
{
	struct fakecard *c = arg;
	const uint8_t *r;
	size_t n;

	if (c->ncmd < FAKECARD_MAX && len <= APDU_CMD_MAX) {
		memcpy(c->cmd[c->ncmd], cmd, len);
		c->cmd_len[c->ncmd] = len;
	}
	c->ncmd++;
	c->last_ms = ms;
	if (c->fail_at > 0 && (int)c->ncmd == c->fail_at) {
		if (c->fail_err == ERR_TIMEOUT)
			vclock_advance_ms(ms); /* it stalled for all of ms */
		return c->fail_err;
	}
	vclock_advance_ms(c->xmit_ms);
	if (c->next < c->nrsp) {
		r = c->rsp[c->next];
		n = c->rsp_len[c->next++];
	} else if (c->dflt_len > 0) {
		r = c->dflt;
		n = c->dflt_len;
	} else
		return c->fail_err != ERR_OK ? c->fail_err : ERR_NODEV;
	if (n > cap)
		return ERR_PROTO;
	memcpy(rsp, r, n);
	*rlen = n;
	return ERR_OK;
}

struct apdu_card
fakecard_card(struct fakecard *c)
{
	struct apdu_card card = {fakecard_transmit, c};

	return card;
}
