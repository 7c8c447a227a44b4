/* Internal to dev.c and its protocol files: the device object. */
#ifndef PU_DEV_INT_H
#define PU_DEV_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "proto/u2f.h"

enum dev_op { DEV_OP_NONE, DEV_OP_REGISTER, DEV_OP_ASSERT };

/* State of one split U2F operation (begin, then poll). U2F keys answer
 * "touch needed" at once, so the request is re-sent every poll interval
 * until the key answers with a signature. */
struct dev_u2f_op {
	enum dev_op op;
	uint8_t app[U2F_PARAM_LEN];
	uint8_t chal[U2F_PARAM_LEN];
	uint8_t kh[U2F_KH_MAX];
	size_t kh_len;
	uint8_t point[U2F_POINT_LEN];
	uint8_t p1;
	bool presence;
	bool in_flight;    /* a request is out, its reply not read */
	int64_t next_send; /* when to re-send after "touch needed" */
	int64_t sent_at;   /* when the request in flight went out */
	int64_t alive_at;  /* last KEEPALIVE seen for it */
};

/* The message transport under a device: one CTAPHID message out, one in.
 * Native (dev.c): our CTAPHID framing over a struct hid_io, in d->ch.
 * libu2f-host (dev_u2fh.c): u2fh_sendrecv, its state in d->xs. The U2F
 * protocol (dev_u2f.c) sees only this, so every reply goes through the
 * same strict parsers and signature checks whichever transport brought
 * it. */
struct dev_xstate; /* defined by a transport that needs one */

struct dev_xport {
	const char *name; /* "native", "libu2f-host" */
	int (*send)(struct dev *, uint8_t cmd, const uint8_t *msg, size_t len);
	/* Receive the reply to the last send for cmd, at most cap bytes
	 * (longer is ERR_PROTO), waiting up to ms. */
	int (*recv)(struct dev *, uint8_t cmd, uint8_t *buf, size_t cap,
	    size_t *len, int ms);
	void (*cancel)(struct dev *); /* abandon the request in flight */
	void (*close)(struct dev *);  /* release d->ch / d->xs */
};

struct dev {
	struct ctaphid *ch; /* native transport only, else NULL */
	const struct dev_xport *xport;
	struct dev_xstate *xs; /* transport state, if any */
	const struct dev_proto *proto;
	const struct log *log;
	char *path;
	struct dev_u2f_op u2f;
};

#define DEV_U2F_POLL_MS 100 /* re-send interval while waiting for touch */
/* A U2F key answers every request at once ("touch needed" included) or
 * sends keepalives; a request with neither for this long was lost (e.g.
 * hidraw dropped the reply from a full queue) and is sent again. */
#define DEV_U2F_STALL_MS 1000

extern const struct dev_proto dev_u2f_proto;

/* A zeroed device with its path and log and no transport yet. */
int dev_new(const char *path, const struct log *lg, struct dev **out);
/* Choose the protocol of a device whose transport is set. */
int dev_pick_proto(struct dev *d, int ms);
/* U2F VERSION over d's transport: ERR_OK for "U2F_V2". */
int dev_u2f_version(struct dev *d, int ms);

#endif
