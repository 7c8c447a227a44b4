/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the CTAPHID unit tests (tests/transport/test_ctaphid.c and
 * tests/transport/test_ctaphid_msg.c): the channel ID the scripted device of
 * tests/lib/fakehid.c is told to hand out, a channel opened on such a device
 * with its automatic INIT answer, a byte pattern that differs per byte so
 * that misplaced bytes show, and a log sink that counts lines. */
#ifndef PU_HIDFIX_H
#define PU_HIDFIX_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "transport/ctaphid.h"
#include "base/err.h"
#include "fakehid.h"
#include "test.h"

static const uint8_t cid_ok[4] = {0x01, 0x02, 0x03, 0x04};

/* A fake with auto-INIT, opened; fails the test when that fails. */
static inline struct ctaphid *
open_fake(struct fakehid *f)
{
	struct ctaphid *ch = NULL;

	fakehid_auto_init(f, cid_ok);
	T_EQ_ERR(
	    ctaphid_open(&fakehid_io, fakehid_path(f), 0, 0, NULL, 1000, &ch),
	    ERR_OK);
	return ch;
}

/* A struct log sink that counts the lines and keeps the last. */
struct log_capture {
	int lines;
	char last[512];
};

static inline void
log_capture_fn(void *arg, const char *line)
{
	struct log_capture *c = arg;

	c->lines++;
	snprintf(c->last, sizeof(c->last), "%s", line);
}

/* Fill a pattern that differs per byte so misplaced bytes show. */
static inline void
pattern(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

#endif /* PU_HIDFIX_H */
