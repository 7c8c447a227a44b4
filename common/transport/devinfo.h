/* SPDX-License-Identifier: BSD-2-Clause */
/* A discovered device, described without reference to its transport. */
#ifndef PU_DEVINFO_H
#define PU_DEVINFO_H

#include <stddef.h>
#include <stdint.h>

/* What discovery knows of a device, for choosing and for messages. */
struct xport_info {
	char *path; /* "/dev/hidraw3" or "unix:/run/tok.sock" */
	uint16_t vendor_id;
	uint16_t product_id;
	char *manufacturer; /* may be "" but never NULL */
	char *product;      /* may be "" but never NULL */
	size_t report_in;   /* input report size from the descriptor */
	size_t report_out;  /* output report size from the descriptor */
};

void xport_info_free(struct xport_info *list, size_t n);

#endif
