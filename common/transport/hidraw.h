/* SPDX-License-Identifier: BSD-2-Clause */
/* Linux hidraw: discovery of FIDO interfaces through sysfs and the struct
 * hid_io for /dev/hidrawN. The only file that touches /dev, /sys and
 * ioctl. Reports are read as 64 bytes and written as report id 0 + report. */
#ifndef PU_HIDRAW_H
#define PU_HIDRAW_H

#include <stddef.h>
#include <stdint.h>

#include "devinfo.h"
#include "hid.h"

#define HIDRAW_FIDO_USAGE_PAGE 0xf1d0
#define HIDRAW_FIDO_USAGE 0x01
#define HIDRAW_RDESC_MAX 4096 /* HID_MAX_DESCRIPTOR_SIZE in Linux */

/* What the report descriptor says. */
struct hidraw_rdesc {
	int fido;          /* a top-level collection is F1D0/01 */
	int report_ids;    /* the descriptor uses report ids */
	size_t report_in;  /* input report bytes of the FIDO collection */
	size_t report_out; /* output report bytes of the FIDO collection */
};

/* Parse a HID report descriptor. ERR_OK with out->fido set or clear;
 * ERR_PROTO for truncated or malformed input (including one without any
 * complete top-level collection); ERR_UNSUPPORTED for a FIDO
 * collection whose reports are outside HID_REPORT_MIN..HID_REPORT_MAX
 * bytes. Report sizes the FIDO collection does not state default to 64.
 * Never reads outside d[0..len). */
int hidraw_parse_rdesc(const uint8_t *d, size_t len, struct hidraw_rdesc *out);

/* Find FIDO hidraw interfaces under /sys/class/hidraw. An empty list is
 * ERR_OK with *list NULL and *n 0. Free with xport_info_free(). */
int hidraw_discover(struct xport_info **list, size_t *n);
/* The same with other roots ("/sys", "/dev"), for tests. */
int hidraw_discover_at(const char *sysroot, const char *devroot,
    struct xport_info **list, size_t *n);

extern const struct hid_io hidraw_io;

#endif
