/* SPDX-License-Identifier: BSD-2-Clause */
/* libu2f-host calls under a deadline, without cancelling threads inside
 * the library (see u2fh_int.h). Compiled only with --with-libu2f-host. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "u2fh_int.h"

/* What it held: the reply buffer wiped (it may hold a signature). */
static void
job_free(struct u2fh_job *j)
{
	close(j->fd[0]);
	close(j->fd[1]);
	util_freezero(j->recv, j->recvcap);
	util_wipe(j->send, sizeof(j->send));
	(void)pthread_mutex_destroy(&j->lock);
	if (j->unref != NULL)
		j->unref(j->unref_arg);
	free(j);
}

static void
job_unref(struct u2fh_job *j)
{
	int left;

	(void)pthread_mutex_lock(&j->lock);
	left = --j->refs;
	(void)pthread_mutex_unlock(&j->lock);
	if (left == 0)
		job_free(j);
}

int
u2fh_job_new(
    size_t recvcap, void (*unref)(void *arg), void *arg, struct u2fh_job **out)
{
	struct u2fh_job *j;

	*out = NULL;
	if ((j = calloc(1, sizeof(*j))) == NULL)
		return ERR_NOMEM;
	if (recvcap > 0 && (j->recv = calloc(1, recvcap)) == NULL) {
		free(j);
		return ERR_NOMEM;
	}
	j->recvcap = recvcap;
	if (pipe2(j->fd, O_CLOEXEC) != 0) {
		free(j->recv);
		free(j);
		return ERR_SYSTEM;
	}
	if (pthread_mutex_init(&j->lock, NULL) != 0) {
		close(j->fd[0]);
		close(j->fd[1]);
		free(j->recv);
		free(j);
		return ERR_SYSTEM;
	}
	j->refs = 1;
	j->unref = unref;
	j->unref_arg = arg;
	*out = j;
	return ERR_OK;
}

void
u2fh_job_release(struct u2fh_job **j)
{
	if (j == NULL || *j == NULL)
		return;
	job_unref(*j);
	*j = NULL;
}

/* The worker. After the call, under the lock: the results, "done", the
 * byte that wakes the caller, and its own reference let go. If the caller
 * still holds the job, it takes over from here: the worker leaves the
 * running calls at once (so that the caller's next call finds the place
 * free) and touches the job no more. If the caller gave up (a straggler),
 * the worker frees the job (and with it maybe the library handle) and
 * only then leaves the running calls. */
static void *
u2fh_worker(void *arg)
{
	struct u2fh_job *j = arg;
	const struct xport_u2fh_lib *lib = j->lib;
	unsigned max_index = 0;
	size_t len = j->recvlen;
	ssize_t w;
	int rc, left;

	if (j->discover)
		rc = lib->discover(j->devs, &max_index);
	else
		rc = lib->sendrecv(j->devs, j->index, j->cmd, j->send,
		    j->sendlen, j->recv, &len);
	(void)pthread_mutex_lock(&j->lock);
	j->rc = rc;
	j->max_index = max_index;
	j->recvlen = len;
	j->done = true;
	w = write(j->fd[1], "", 1); /* one byte into an empty pipe */
	(void)w;
	if ((left = --j->refs) > 0)
		atomic_fetch_sub(lib->calls, 1);
	(void)pthread_mutex_unlock(&j->lock);
	if (left == 0) {
		job_free(j);
		atomic_fetch_sub(lib->calls, 1);
	}
	return NULL;
}

/* A place among the running calls of j->lib, or false at the bound. */
static bool
calls_reserve(const struct xport_u2fh_lib *lib)
{
	unsigned max =
	    lib->calls_max > 0 ? lib->calls_max : XPORT_U2FH_CALLS_MAX;

	if (atomic_fetch_add(lib->calls, 1) < max)
		return true;
	atomic_fetch_sub(lib->calls, 1);
	return false;
}

/* Start the detached worker with every signal blocked; it holds a
 * reference and a place among the running calls. */
static int
job_start(struct u2fh_job *j)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int r;

	if (!calls_reserve(j->lib)) {
		j->refused = true;
		return ERR_SYSTEM;
	}
	if (pthread_attr_init(&attr) != 0) {
		atomic_fetch_sub(j->lib->calls, 1);
		return ERR_SYSTEM;
	}
	(void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	j->refs++; /* no other thread has j yet */
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&t, &attr, u2fh_worker, j);
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	(void)pthread_attr_destroy(&attr);
	if (r != 0) {
		j->refs--;
		atomic_fetch_sub(j->lib->calls, 1);
		return ERR_SYSTEM;
	}
	return ERR_OK;
}

int
u2fh_job_run(struct u2fh_job *j, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	struct pollfd pfd;
	bool done;
	int r, n;

	if ((r = job_start(j)) != ERR_OK)
		return r;
	pfd.fd = j->fd[0];
	pfd.events = POLLIN;
	do {
		n = poll(&pfd, 1, util_ms_left(deadline));
	} while (n < 0 && errno == EINTR);
	(void)pthread_mutex_lock(&j->lock);
	done = j->done;
	(void)pthread_mutex_unlock(&j->lock);
	return done ? ERR_OK : ERR_TIMEOUT;
}
