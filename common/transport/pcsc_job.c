/* SPDX-License-Identifier: BSD-2-Clause */
/* A blocking call under a deadline (pcsc_job.h). */
#include "config.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "pcsc_job.h"

#define JOB_STACK (256 * 1024)

struct pcsc_job {
	pthread_mutex_t lock;
	void (*run)(void *);
	void (*drop)(void *);
	void *arg;
	bool done, abandoned;
	int fd[2];
};

static void
job_free(struct pcsc_job *j)
{
	(void)close(j->fd[0]);
	(void)close(j->fd[1]);
	(void)pthread_mutex_destroy(&j->lock);
	free(j);
}

static void *
job_main(void *p)
{
	struct pcsc_job *j = p;
	bool abandoned;
	char c = 1;

	j->run(j->arg);
	(void)pthread_mutex_lock(&j->lock);
	j->done = true;
	abandoned = j->abandoned;
	if (!abandoned)
		(void)!write(j->fd[1], &c, 1);
	(void)pthread_mutex_unlock(&j->lock);
	if (abandoned) { /* the caller left: ours to free */
		j->drop(j->arg);
		job_free(j);
	}
	return NULL;
}

static int
job_start(struct pcsc_job *j)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t th;
	int e;

	if (pthread_attr_init(&attr) != 0)
		return ERR_SYSTEM;
	(void)pthread_attr_setstacksize(&attr, JOB_STACK);
	(void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&th, &attr, job_main, j);
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	(void)pthread_attr_destroy(&attr);
	return e == 0 ? ERR_OK : ERR_SYSTEM;
}

int
pcsc_job_call(void (*run)(void *), void (*drop)(void *), void *arg, int ms)
{
	struct pcsc_job *j;
	bool done;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return ERR_NOMEM;
	if (pipe2(j->fd, O_CLOEXEC) != 0) {
		free(j);
		return ERR_SYSTEM;
	}
	(void)pthread_mutex_init(&j->lock, NULL);
	j->run = run;
	j->drop = drop;
	j->arg = arg;
	if (job_start(j) != ERR_OK) {
		job_free(j);
		return ERR_SYSTEM;
	}
	(void)util_poll(j->fd[0], POLLIN, ms);
	(void)pthread_mutex_lock(&j->lock);
	done = j->done;
	j->abandoned = !done;
	(void)pthread_mutex_unlock(&j->lock);
	if (!done)
		return ERR_TIMEOUT;
	job_free(j); /* the worker touches j no more once done is set */
	return ERR_OK;
}
