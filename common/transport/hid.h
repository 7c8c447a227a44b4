/* SPDX-License-Identifier: BSD-2-Clause */
/* The I/O seam under CTAPHID: a vtable of five operations on one device.
 * hidraw.c and unixdev.c implement it for real devices; tests and fuzzers
 * plug in scripted devices. Reports carry no report id here. */
#ifndef PU_HID_H
#define PU_HID_H

#include <stddef.h>
#include <stdint.h>

#define HID_REPORT_MAX 64 /* largest report we accept */
#define HID_REPORT_MIN 8  /* smallest report we accept */

struct hid_io {
	/* Open path; on failure return NULL and set *err. */
	void *(*open)(const char *path, int *err);
	void (*close)(void *handle);
	/* Read exactly one input report into buf (cap >= report size).
	 * Return its length (> 0), ERR_TIMEOUT after ms milliseconds with
	 * nothing to read, ERR_NODEV when the device is gone, or ERR_IO. */
	int (*read)(void *handle, uint8_t *buf, size_t cap, int ms);
	/* Write exactly one output report of len bytes within ms
	 * milliseconds: ERR_OK, ERR_TIMEOUT when the device takes no
	 * output report in that time (a peer that never reads), or an
	 * error. */
	int (*write)(void *handle, const uint8_t *buf, size_t len, int ms);
	/* The descriptor to poll(2) for input, or -1 if there is none. */
	int (*fd)(const void *handle);
};

struct log;
struct xport;

/* The native transport (CTAPHID) over io (report sizes 0 = 64): how
 * tests and fuzzers put a scripted device under the real framing and
 * protocols (xport.c). */
int xport_open_io(const struct hid_io *io, const char *path, size_t rin,
    size_t rout, const struct log *lg, int ms, struct xport **out);

/* The I/O for a path: unixdev for "unix:...", hidraw otherwise
 * (xport.c). */
const struct hid_io *hid_io_for(const char *path);

#endif
