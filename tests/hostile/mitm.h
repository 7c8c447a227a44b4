/* SPDX-License-Identifier: BSD-2-Clause */
/* A lying device between the host and a healthy software token: a
 * SOCK_SEQPACKET unix socket (one message = one 64-byte report, as the
 * token's --socket front) that forwards every report both ways and
 * falsifies what the token says at one chosen moment: the INIT reply, or
 * the reply to the first U2F AUTHENTICATE that asks for presence (P1 03).
 * So framing faults reach the authentication itself, not only the U2F
 * VERSION exchange of opening the device. Runs in a thread of the test. */
#ifndef PU_MITM_H
#define PU_MITM_H

enum mitm_fault {
	MITM_NONE = 0,
	MITM_WRONG_NONCE,       /* INIT replies echo another nonce */
	MITM_WRONG_CID,         /* the reply comes on another channel */
	MITM_BCNT_TOO_LARGE,    /* the reply claims 7610 bytes */
	MITM_BCNT_ABOVE_ASKED,  /* the reply padded to 300 bytes (<= 7609,
				 * more than an AUTHENTICATE reply can be) */
	MITM_ERROR_FRAME,       /* the reply replaced by ERROR 7F */
	MITM_ENDLESS_KEEPALIVE, /* the reply replaced by KEEPALIVE every
				 * 100 ms, forever */
	MITM_MISSING_CONT,      /* only the init frame of the reply */
	MITM_VANISH             /* the init frame, then the device is gone */
};

struct mitm;

/* Listen on a fresh socket; upstream is the token's "unix:PATH". */
int mitm_start(struct mitm **out, const char *upstream, enum mitm_fault f);
/* "unix:PATH" for dev_open_path and devices=. */
const char *mitm_path(const struct mitm *m);
/* How many times the fault was applied. */
int mitm_hits(const struct mitm *m);
void mitm_stop(struct mitm **m);

#endif
