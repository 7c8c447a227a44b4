/* SPDX-License-Identifier: BSD-2-Clause */
/* Why no FIDO hidraw node can be used, from sysfs and /dev alone (no
 * device is opened): the nodes are hidden from this process (a sandbox
 * with a private /dev), or a node is there but this process may not
 * open it. For the messages that replace "no key found". */
#ifndef PU_HIDRAW_WHY_H
#define PU_HIDRAW_WHY_H

enum hidraw_why_kind {
	HIDRAW_WHY_NONE = 0, /* nothing to say: no FIDO node, or one usable */
	HIDRAW_WHY_HIDDEN,   /* sysfs lists FIDO nodes, /dev has none */
	HIDRAW_WHY_DENIED    /* a FIDO node is there but may not be opened */
};

struct hidraw_why {
	enum hidraw_why_kind kind;
	char node[24];    /* HIDDEN, DENIED: the lowest such "hidrawN" */
	int read_denied;  /* DENIED: no read permission (EACCES) */
	int write_denied; /* DENIED: no write permission (EACCES) */
};

/* Look at every FIDO node (without report IDs) that
 * sysroot/class/hidraw lists and at devroot/NODE for each, with this
 * process's effective IDs. out->kind is NONE when a node is there and
 * may be opened for reading and writing (the cause is elsewhere) or
 * sysfs lists no FIDO node; else DENIED when a node is there but access
 * is refused with EACCES, else HIDDEN when none is in devroot. ERR_OK,
 * or ERR_INVAL for a NULL argument. */
int hidraw_why_at(
    const char *sysroot, const char *devroot, struct hidraw_why *out);

/* DENIED: the permission missing, "read and write", "read" or "write"
 * (a static string, never NULL). */
const char *hidraw_why_missing(const struct hidraw_why *why);

/* The same on this system: "/sys" and "/dev". */
int hidraw_why(struct hidraw_why *out);

#endif
