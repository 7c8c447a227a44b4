/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the transport layer: the operations a transport implements and
 * the object every one shares. */
#ifndef PU_XPORT_INT_H
#define PU_XPORT_INT_H

#include "xport.h"

struct xport_ops {
	const char *name; /* "native", "libu2f-host", "pcsc" */
	int (*send)(struct xport *, uint8_t kind, const uint8_t *msg,
	    size_t len, int ms);
	int (*recv)(struct xport *, uint8_t kind, uint8_t *buf, size_t cap,
	    size_t *len, int ms, int *status);
	void (*cancel)(struct xport *);
	int (*fd)(const struct xport *);
	/* Optional, for a transport without a descriptor: when its recv
	 * has something to do (xport_wake_at). */
	int64_t (*wake_at)(const struct xport *);
	/* Optional: x->log changed (xport_set_log). */
	void (*set_log)(struct xport *, const struct log *);
	void (*close)(struct xport *); /* release x->state */
};

struct xport {
	const struct xport_ops *ops;
	void *state; /* the transport's own */
	const struct log *log;
	char *path;
	char *product; /* from discovery (xport_open); NULL: unknown */
	uint8_t caps;
	int64_t deadline; /* xport_set_deadline (0: none) */
};

/* A transport object with its path and log and no state yet. */
int xport_new(const char *path, const struct xport_ops *ops,
    const struct log *lg, struct xport **out);

#endif
