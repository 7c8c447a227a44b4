/* SPDX-License-Identifier: BSD-2-Clause */
/* What a hidraw node is, from sysfs alone (no device is opened): for
 * messages that name the cause when a node cannot be used, and the FIDO
 * node of the same physical device. Names are "hidrawN". */
#ifndef PU_HIDRAW_NODE_H
#define PU_HIDRAW_NODE_H

#include <stddef.h>

struct hidraw_node {
	int fido;       /* a FIDO (F1D0/01) top-level collection */
	int report_ids; /* the descriptor uses report IDs */
};

/* Read and parse sysroot/class/hidraw/name/device/report_descriptor.
 * ERR_OK, ERR_NOT_FOUND when there is no such node or no readable,
 * well-formed descriptor, ERR_INVAL for a name that is not hidrawN. */
int hidraw_node_at(
    const char *sysroot, const char *name, struct hidraw_node *out);

/* Another node of the same USB device as name (the parent of its USB
 * interface; nodes not on USB have none) that is FIDO without report
 * IDs: its name into buf. ERR_NOT_FOUND when there is none. */
int hidraw_node_sibling_at(
    const char *sysroot, const char *name, char *buf, size_t cap);

/* fn(arg, name) for every FIDO node whose descriptor uses report IDs
 * (hidraw_discover skips them). ERR_OK also when there is no hidraw
 * class at all. */
int hidraw_node_report_ids_at(
    const char *sysroot, void (*fn)(void *arg, const char *name), void *arg);

#endif
