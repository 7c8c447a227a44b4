/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the unit tests of the libu2f-host backend
 * (tests/transport/test_u2fh.c and tests/transport/test_u2fhop.c): a stand-in
 * for libu2f-host (struct xport_u2fh_lib) with up to 3 device slots in front of
 * one software token, answering as u2fh_sendrecv of libu2f-host 1.1.10 does
 * (its length check and its writes) or with the faults a case asks for, and the
 * token's state directory. No assertions here: failures are returned, the tests
 * check them. */
#ifndef PU_U2FHFIX_H
#define PU_U2FHFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev.h"
#include "softtoken/token.h"

#define ORIGIN "pam://test-host"
#define OPEN_MS 1000
/* The stand-in's bound on running calls (struct xport_u2fh_lib). */
#define U2FHFIX_CALLS_MAX 2
/* The stand-in's deadlines for one exchange and for discovery
 * (xport_u2fh_lib.xfer_ms, .discover_ms), and the slice a hung call sleeps
 * in: a hang cut off at its deadline lasts DEADLINE / SLICE slices. */
#define U2FHFIX_XFER_MS 300
#define U2FHFIX_DISCOVER_MS 300
#define U2FHFIX_HANG_SLICE_MS 50

/* The stand-in's state: set a field after u2fhfix_reset to fault it. */
struct u2fhfix {
	struct token *tok;
	int open_rc;
	bool hang_discover; /* discovery hangs (until u2fhfix_settle) */
	int hang_ins; /* this INS hangs, until u2fhfix_settle (-1: none) */
	unsigned max_index;
	unsigned dead;         /* bit i: slot i failed libu2f-host's INIT */
	int sendrecv_rc;       /* != 0: every sendrecv fails so */
	uint8_t claim_max_ins; /* claim the longest reply libu2f-host
				* lets through for this INS */
	bool bad_version;      /* VERSION answers "U2F_V3" */
	size_t claim_extra;    /* claim a reply this much longer */
	size_t maxlen[4];      /* last *recvlen offered, per INS */
	unsigned done;         /* u2fh_devs_done calls */
	unsigned hang_slices;  /* slices a hung call slept (all of them) */
	unsigned sends;
};

extern struct u2fhfix u2fhfix_fk;

/* Make the state directory (0) or fail (-1); run before any reset. */
int u2fhfix_setup(void);
/* Free the token, remove its state and the directory: rmdir's result. */
int u2fhfix_cleanup(void);
/* A fresh stand-in whose token has the given enum token_fault bits: 0, or
 * -1 if the token could not be made. The tokens of one test program
 * share their keys, so a credential registered on one is held by all.
 * Lets hung calls go first (u2fhfix_settle); -1 if they do not end. */
int u2fhfix_reset(unsigned faults);
/* How many of the stand-in's calls are running now (hung ones included). */
unsigned u2fhfix_calls(void);
/* Let every hung call return, and wait until none is running: 0, or -1
 * if some still run after 1000 naps of 10 ms. Run by u2fhfix_reset. */
int u2fhfix_settle(void);
/* dev_u2fh_open_all with the stand-in, within OPEN_MS. */
int u2fhfix_open(size_t max, struct dev ***devs, size_t *n, int *first);
/* What u2fh_sendrecv writes for a reply of d bytes: whole frame
 * payloads, 57 bytes from the init frame, 59 per continuation. */
size_t u2fhfix_written(size_t d);
/* The longest reply u2fh_sendrecv accepts when offered maxlen. */
size_t u2fhfix_longest(size_t maxlen);

#endif /* PU_U2FHFIX_H */
