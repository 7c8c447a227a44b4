/* SPDX-License-Identifier: BSD-2-Clause */
/* The transport layer's interface: a connection to one authenticator that
 * moves whole messages and knows no U2F or CTAP2 payload. A message has a
 * kind (the CTAPHID command: CTAPHID_MSG for U2F, CTAPHID_CBOR for CTAP2)
 * so that a transport without CTAPHID framing (libu2f-host today, PC/SC
 * later) maps kinds to what it speaks. Every call has a deadline. */
#ifndef PU_XPORT_H
#define PU_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "devinfo.h"

/* Message kinds (the CTAPHID command codes). */
#define XPORT_MSG 0x83  /* a U2F APDU */
#define XPORT_CBOR 0x90 /* a CTAP2 request */

/* What a receive saw while it waited (CTAPHID KEEPALIVE status). */
#define XPORT_KA_NONE 0
#define XPORT_KA_PROCESSING 1
#define XPORT_KA_UPNEEDED 2

/* Capabilities a transport reports (CTAPHID INIT's flags). */
#define XPORT_CAP_WINK 0x01
#define XPORT_CAP_CBOR 0x04
#define XPORT_CAP_NMSG 0x08

struct xport;

/* Find devices (hidraw through sysfs, then PC/SC readers holding a card
 * when built --with-pcsclite; unix: is never discovered). An empty list
 * is ERR_OK with *n = 0. */
int xport_discover(struct xport_info **list, size_t *n);
/* Open the device at a discovered path or a given one ("/dev/hidrawN",
 * "unix:/path", "pcsc:READER"; report sizes 0 = 64) within ms. */
int xport_open(const struct xport_info *info, const struct log *lg, int ms,
    struct xport **out);
int xport_open_path(
    const char *path, const struct log *lg, int ms, struct xport **out);
void xport_close(struct xport **x);

/* Send one message of a kind within ms. */
int xport_send(
    struct xport *x, uint8_t kind, const uint8_t *msg, size_t len, int ms);
/* Receive the reply to the last message of that kind, at most cap bytes
 * (longer is ERR_PROTO), waiting up to ms (0: only what is there now).
 * *status gets the last keepalive status seen (XPORT_KA_*). */
int xport_recv(struct xport *x, uint8_t kind, uint8_t *buf, size_t cap,
    size_t *len, int ms, int *status);
/* Abandon the request in flight (CTAPHID_CANCEL). */
void xport_cancel(struct xport *x);
/* The descriptor to poll(2) for input, or -1: a transport without one
 * delivers its reply in xport_recv itself. */
int xport_fd(const struct xport *x);
/* For a transport without a descriptor: when xport_recv has something
 * to do (a reply waiting: a time in the past; the next poll of a PC/SC
 * key), or dflt if the transport does not say (libu2f-host: its reply
 * comes within xport_recv). */
int64_t xport_wake_at(const struct xport *x, int64_t dflt);
/* XPORT_CAP_* flags. */
uint8_t xport_caps(const struct xport *x);
/* "native", "libu2f-host" or "pcsc". */
const char *xport_name(const struct xport *x);
const char *xport_path(const struct xport *x);
/* The device's name for the user: "PRODUCT (PATH)" with the product name
 * discovery found (xport_open), or PATH alone, printable ASCII only
 * (printable_label), into buf. */
void xport_label(const struct xport *x, char *buf, size_t cap);
/* Where the transport logs from now on (lg must outlive it). */
void xport_set_log(struct xport *x, const struct log *lg);
/* The end of the operation that uses x from now on (util_now_ms clock;
 * 0: none), set by whoever begins one: no request runs past it, whatever
 * ms its calls are given. The PC/SC transport, whose receive step may
 * exchange many APDUs with a card, ends every exchange then; the others
 * are bounded by each call's ms already. */
void xport_set_deadline(struct xport *x, int64_t deadline);

/* libu2f-host (./configure --with-libu2f-host): its run-time version, or
 * NULL when the backend is not built. */
const char *xport_u2fh_version(void);
/* Discover, through libu2f-host, every U2F device it finds (at most max,
 * 0 = no limit) as transports named "libu2f-host:INDEX"; nothing is sent
 * to them yet. No device is ERR_OK with *n = 0. ERR_UNSUPPORTED when the
 * backend is not built. */
int xport_u2fh_xports(
    size_t max, const struct log *lg, struct xport ***xs, size_t *n);

/* The PC/SC transport (./configure --with-pcsclite; pcsc.c): a reader is
 * XPORT_PCSC_PREFIX followed by its name as pcsc-lite lists it. */
#define XPORT_PCSC_PREFIX "pcsc:"
/* Was it built? */
bool xport_pcsc_built(void);
/* Is path a PC/SC reader's ("pcsc:READER")? */
bool xport_is_pcsc(const char *path);
/* Append the readers holding a card to *list (n entries, reallocated).
 * No pcscd, no reader or no card is ERR_OK with nothing added. */
int xport_pcsc_discover(struct xport_info **list, size_t *n);
/* Open the reader at path: wait for its card (pcscd's card-presence
 * event) and SELECT the FIDO applet, all within ms. ERR_UNSUPPORTED when
 * the transport is not built. */
int xport_pcsc_open(
    const char *path, const struct log *lg, int ms, struct xport **out);
/* Wait until one of the readers among paths (the "pcsc:" ones; at most
 * PCSC_READERS_MAX) holds a card: at once if one does, or (arrival) only
 * for a card put on one after the call began. Asleep in pcscd
 * (SCardGetStatusChange) until then or deadline: ERR_OK, ERR_TIMEOUT,
 * ERR_INVAL (no reader among paths), ERR_NODEV (no pcscd), ERR_IO;
 * ERR_UNSUPPORTED when the transport is not built. */
int xport_pcsc_wait_card(const char *const *paths, size_t n, bool arrival,
    const struct log *lg, int64_t deadline);

#endif
