/* SPDX-License-Identifier: BSD-2-Clause */
/* Fronts of the software token: they carry 64-byte reports between a host
 * transport (a unix socket, /dev/uhid) and the CTAPHID device. */
#ifndef ST_FRONT_H
#define ST_FRONT_H

#include <signal.h>
#include <sys/types.h>

#include "ctaphid_dev.h"

struct front_socket;
struct front_uhid;
struct front_vpcd;
struct token;

/* Bind and listen on a SOCK_SEQPACKET socket at path (a stale socket is
 * unlinked first), with the given mode. Errors go to stderr. */
int front_socket_open(struct front_socket **out, const char *path, mode_t mode);
/* The send callback for ctaphid_dev_new: every report to every client. */
void front_socket_send(void *arg, const uint8_t *report);
/* Serve until *stop is set (by a signal unblocked only inside ppoll with
 * sigmask) or the device is gone. Returns ERR_OK or an error. */
int front_socket_run(struct front_socket *fs, struct ctaphid_dev *d,
    const sigset_t *sigmask, volatile sig_atomic_t *stop);
/* Close everything and unlink the socket. */
void front_socket_close(struct front_socket **fsp);

/* The report descriptor the uhid device shows: FIDO (the token), or
 * one the host must refuse without talking to the device: a keyboard
 * (a key's OTP interface), or FIDO with report IDs. */
enum front_rdesc {
	FRONT_RDESC_FIDO = 0,
	FRONT_RDESC_KEYBOARD,
	FRONT_RDESC_REPORT_IDS
};
/* Create the virtual HID device through /dev/uhid. pace: slow down long
 * bursts of input reports so a hidraw reader's 64-report queue keeps up. */
int front_uhid_open(struct front_uhid **out, int pace, enum front_rdesc rd);
void front_uhid_send(void *arg, const uint8_t *report);
/* As front_socket_run; once the kernel has made the device's hidraw node
 * (after UHID_START), its path and a newline are written to *ready_fd,
 * which is then closed and set to -1 (nothing if it is already -1). If no
 * node appears within 10 s of front_uhid_open, *ready_fd is closed with
 * nothing written (the reader sees EOF) and the token serves on. */
int front_uhid_run(struct front_uhid *fu, struct ctaphid_dev *d,
    const sigset_t *sigmask, volatile sig_atomic_t *stop, int *ready_fd);
void front_uhid_close(struct front_uhid **fup);

/* The token as a contactless FIDO card (nfc_card.c) in vsmartcard's
 * virtual reader: connect to vpcd at "HOST:PORT" (retried for up to 10 s
 * while nothing listens there). tok is borrowed. */
int front_vpcd_open(
    struct front_vpcd **out, const char *hostport, struct token *tok);
/* Serve until *stop is set, the reader closes the connection or the card
 * leaves the field (fault card-remove): ERR_OK; else an error. */
int front_vpcd_run(struct front_vpcd *fv, const sigset_t *sigmask,
    volatile sig_atomic_t *stop);
void front_vpcd_close(struct front_vpcd **fvp);

#endif
