/* Internal to dev.c and its protocol files: the device object. */
#ifndef PU_DEV_INT_H
#define PU_DEV_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "u2f.h"

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
	bool in_flight;		/* a request is out, its reply not read */
	int64_t next_send;	/* when to re-send after "touch needed" */
};

struct dev {
	struct ctaphid *ch;
	const struct dev_proto *proto;
	const struct log *log;
	char *path;
	struct dev_u2f_op u2f;
};

#define DEV_U2F_POLL_MS 100	/* re-send interval while waiting for touch */

extern const struct dev_proto dev_u2f_proto;

#endif
