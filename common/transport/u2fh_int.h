/* SPDX-License-Identifier: BSD-2-Clause */
/* One libu2f-host call under a deadline of ours (u2fh_job.c), for
 * u2fh.c. libu2f-host may block forever and is not cancellation-safe,
 * so a call runs in a detached worker thread on a job that the caller and
 * the worker share by reference count: at the deadline the caller stops
 * waiting and lets go of the job; the worker finishes the call into the
 * job's own buffers, whenever that is, and the last one out frees it.
 * Such left-behind workers ("stragglers") are bounded: at most
 * lib->calls_max (XPORT_U2FH_CALLS_MAX) calls run at once per library,
 * stragglers included, and a call beyond that is refused. */
#ifndef PU_U2FH_INT_H
#define PU_U2FH_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u2fh.h"

struct u2fh_job {
	/* the call, set by the caller before u2fh_job_run */
	const struct xport_u2fh_lib *lib;
	void *devs;
	bool discover; /* else sendrecv */
	unsigned index;
	uint8_t cmd;
	uint8_t send[XPORT_U2FH_SEND_MAX];
	uint16_t sendlen;
	size_t recvlen; /* in: offered to sendrecv; out: the reply's length */
	/* results, to be read only after u2fh_job_run returned ERR_OK */
	unsigned max_index;
	uint8_t *recv; /* recvcap bytes, the job's own */
	size_t recvcap;
	int rc;
	bool refused; /* u2fh_job_run: calls_max calls already running */
	/* private to u2fh_job.c */
	pthread_mutex_t lock;
	int refs;
	bool done;
	int fd[2];
	void (*unref)(void *arg);
	void *unref_arg;
};

/* A job with a recvcap-byte reply buffer, held by the caller. When it is
 * freed (the last reference let go, maybe by a straggler, maybe later),
 * unref(arg) is called: a reference on whatever devs belongs to, taken by
 * the caller for the job. ERR_OK, or ERR_NOMEM / ERR_SYSTEM with nothing
 * taken over (the caller still holds what unref would have let go). */
int u2fh_job_new(
    size_t recvcap, void (*unref)(void *arg), void *arg, struct u2fh_job **out);
/* Run the call in a detached worker (every signal blocked) and wait for
 * it at most ms: ERR_OK with the results in j; ERR_TIMEOUT, the worker
 * left to finish on its own; ERR_SYSTEM when it could not be started,
 * with j->refused when calls_max calls were already running. */
int u2fh_job_run(struct u2fh_job *j, int ms);
/* Let go of the caller's reference; *j = NULL. */
void u2fh_job_release(struct u2fh_job **j);

#endif
