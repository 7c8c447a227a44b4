/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAPHID framing over a struct hid_io. Never calls read(2) itself. */
#ifndef PU_CTAPHID_H
#define PU_CTAPHID_H

#include <stddef.h>
#include <stdint.h>

#include "hid.h"
#include "base/util.h"

#define CTAPHID_PING 0x81
#define CTAPHID_MSG 0x83
#define CTAPHID_LOCK 0x84
#define CTAPHID_INIT 0x86
#define CTAPHID_WINK 0x88
#define CTAPHID_CBOR 0x90
#define CTAPHID_CANCEL 0x91
#define CTAPHID_KEEPALIVE 0xbb
#define CTAPHID_ERROR 0xbf

#define CTAPHID_CAP_WINK 0x01
#define CTAPHID_CAP_LOCK 0x02
#define CTAPHID_CAP_CBOR 0x04
#define CTAPHID_CAP_NMSG 0x08

#define CTAPHID_MAX_MSG 7609 /* 57 + 128 * 59 with 64-byte reports */
#define CTAPHID_BROADCAST 0xffffffffU
#define CTAPHID_BUSY_RETRY_MS 25 /* wait before re-sending after BUSY */
#define CTAPHID_CANCEL_MS 100    /* for the one frame of a CANCEL */

struct ctaphid {
	const struct hid_io *io;
	void *handle;
	const struct log *log;
	uint8_t cid[4];
	size_t report_in;
	size_t report_out;
	uint8_t proto_version;
	uint8_t major, minor, build;
	uint8_t caps;
};

/* Open path with io (report sizes 0 = 64), allocate a channel with INIT.
 * The INIT reply must be exactly 17 bytes, echo our nonce, and give a CID
 * that is neither 0 nor broadcast. */
int ctaphid_open(const struct hid_io *io, const char *path, size_t report_in,
    size_t report_out, const struct log *lg, int ms, struct ctaphid **out);
void ctaphid_close(struct ctaphid **ch);

/* Send one message (cmd with bit 7 set) on our channel, every frame
 * written within ms: ERR_TIMEOUT when the device takes no more output
 * reports in that time. */
int ctaphid_send(
    struct ctaphid *ch, uint8_t cmd, const uint8_t *data, size_t len, int ms);
/* The descriptor to poll(2) for the channel's input, or -1. */
int ctaphid_fd(const struct ctaphid *ch);
/* Receive one message for cmd on our channel within ms milliseconds.
 * KEEPALIVE frames and frames for other channels are skipped until the
 * deadline; an ERROR frame becomes its ERR_HID_* code. Messages longer
 * than cap or CTAPHID_MAX_MSG are refused (ERR_PROTO). If keepalive is not
 * NULL it receives the last keepalive status seen (0 if none). */
int ctaphid_recv(struct ctaphid *ch, uint8_t cmd, uint8_t *buf, size_t cap,
    size_t *len, int ms, uint8_t *keepalive);
/* send + recv with the same deadline; a BUSY answer (another program is
 * using the device) is retried within that deadline. */
int ctaphid_xfer(struct ctaphid *ch, uint8_t cmd, const uint8_t *in,
    size_t inlen, uint8_t *out, size_t cap, size_t *outlen, int ms);

int ctaphid_ping(struct ctaphid *ch, const uint8_t *data, size_t len, int ms);
int ctaphid_wink(struct ctaphid *ch, int ms);
/* CANCEL has no reply; its frame is written within CTAPHID_CANCEL_MS. */
int ctaphid_cancel(struct ctaphid *ch);

#endif
