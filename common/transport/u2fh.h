/* SPDX-License-Identifier: BSD-2-Clause */
/* The libu2f-host transport backend (./configure --with-libu2f-host):
 * devices found and driven by libu2f-host, one U2F message at a time,
 * under the same U2F protocol code (proto/u2f/protocol.c) as the native one.
 * The library is reached through struct xport_u2fh_lib so that tests can
 * put canned devices in its place; production uses xport_u2fh_libu2fhost. */
#ifndef PU_DEV_U2FH_H
#define PU_DEV_U2FH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "xport.h"

/* libu2f-host refuses a reply of n bytes unless n + n % 64 is at most the
 * length offered, so it is offered XPORT_U2FH_OFFER_EXTRA more than we
 * accept (and longer replies are then refused by us). It may write up to
 * 58 bytes past the reply's length, so the buffer handed to it is
 * XPORT_U2FH_SLACK larger than the length offered. See README, "Choosing a
 * transport backend". */
#define XPORT_U2FH_OFFER_EXTRA 63
#define XPORT_U2FH_SLACK 64
/* The longest message we hand it (a U2F request APDU is far shorter). */
#define XPORT_U2FH_SEND_MAX 1024

/* libu2f-host 1.1.10 waits without end while a device sends KEEPALIVE
 * frames, so each of its calls that talks to devices runs in a worker
 * thread that we stop waiting for at a deadline of ours (see README); the
 * worker is never cancelled (the library is not cancellation-safe) but
 * left to finish on its own copy of the call (u2fh_int.h). A U2F key
 * answers every request at once (6985 while it waits for a touch). */
#define XPORT_U2FH_XFER_MS 3000      /* one u2fh_sendrecv */
#define XPORT_U2FH_DISCOVER_MS 10000 /* u2fh_devs_discover */
/* At most this many library calls at once in a process, those still
 * running past their deadline included; a call beyond it is refused. */
#define XPORT_U2FH_CALLS_MAX 8

/* The library operations we use. Return values are libu2f-host's u2fh_rc
 * codes (0 = U2FH_OK). */
struct xport_u2fh_lib {
	/* u2fh_global_init + u2fh_devs_init: the handle in *devs. */
	int (*init)(void **devs);
	/* u2fh_devs_discover: U2FH_NO_U2F_DEVICE means none. */
	int (*discover)(void *devs, unsigned *max_index);
	/* Is the device at index still there (1) or not (0)? */
	int (*alive)(void *devs, unsigned index);
	/* u2fh_sendrecv: one command out, its reply (at most *recvlen
	 * bytes accepted) in. */
	int (*sendrecv)(void *devs, unsigned index, uint8_t cmd,
	    const uint8_t *send, uint16_t sendlen, uint8_t *recv,
	    size_t *recvlen);
	void (*done)(void *devs);
	const char *(*version)(void);
	int xfer_ms;     /* 0: XPORT_U2FH_XFER_MS */
	int discover_ms; /* 0: XPORT_U2FH_DISCOVER_MS */
	/* The calls of this library running now, past their deadline or
	 * not: one counter per library (the library's own state is
	 * process-wide), at most calls_max (0: XPORT_U2FH_CALLS_MAX). */
	atomic_uint *calls;
	unsigned calls_max;
};

extern const struct xport_u2fh_lib xport_u2fh_libu2fhost;

/* xport_u2fh_xports with lib in place of libu2f-host. */
int xport_u2fh_xports_with(const struct xport_u2fh_lib *lib, size_t max,
    const struct log *lg, struct xport ***devs, size_t *ndevs);
/* A libu2f-host result code as one of ours. */
int xport_u2fh_err(int rc);

#endif
