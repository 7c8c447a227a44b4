/* SPDX-License-Identifier: BSD-2-Clause */
/* Open the set of devices one operation works with: every discovered
 * device or the devices= paths, DEV_OPEN_BATCH at a time, each in its
 * own thread with its log replayed in order, within each device's time
 * and the overall deadline; and the backend choice. Its own file
 * because threads live here only. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "base/err.h"
#include "base/util.h"

void
dev_close_all(struct dev **devs, size_t ndevs)
{
	size_t i;

	if (devs == NULL)
		return;
	for (i = 0; i < ndevs; i++)
		dev_close(&devs[i]);
	free(devs);
}

static void
dev_note_err(int *first_err, int r)
{
	if (first_err != NULL && *first_err == ERR_OK)
		*first_err = r;
}

/* Devices are opened DEV_OPEN_BATCH at a time, each in its own thread: a
 * device that stalls (up to ms) no longer delays the ones after it. Each
 * thread logs into its own buffer, replayed in device order after the
 * join, so the log and *first_err do not depend on timing and the
 * caller's log sink is only ever called from the calling thread. */
#define OPEN_BATCH DEV_OPEN_BATCH
#define JOB_LOG_MAX 2048
#define JOB_STACK (256 * 1024)

struct open_job {
	const struct xport_info *info; /* a discovered device, or */
	const char *path;              /* a devices= path */
	int ms;
	struct log lg; /* into buf */
	char buf[JOB_LOG_MAX];
	size_t used;
	struct dev *dev;
	int r;
};

static void
job_log(void *arg, const char *line)
{
	struct open_job *j = arg;
	size_t n = strlen(line);

	if (n + 2 > sizeof(j->buf) - j->used)
		return; /* a device that says this much is cut short */
	memcpy(j->buf + j->used, line, n);
	j->used += n;
	j->buf[j->used++] = '\n';
	j->buf[j->used] = '\0';
}

static void *
job_run(void *arg)
{
	struct open_job *j = arg;

	if (j->info != NULL)
		j->r = dev_open(j->info, &j->lg, j->ms, &j->dev);
	else
		j->r = dev_open_path(j->path, &j->lg, j->ms, &j->dev);
	return NULL;
}

/* Run every job of the batch, in threads with all signals blocked (the
 * application's handlers run in its own threads); a batch of one runs
 * here, with the same deadline and log, as its thread would. A job whose thread
 * cannot be created runs here, after the others, with what is left
 * before the deadline (none left: ERR_TIMEOUT, not run). */
static void
batch_run(struct open_job *jobs, size_t n, int64_t deadline)
{
	pthread_t th[OPEN_BATCH];
	bool started[OPEN_BATCH];
	pthread_attr_t attr;
	sigset_t all, old;
	bool have_attr;
	size_t i;

	if (n == 1) { /* nothing to overlap: no thread (issue 27 item 9) */
		job_run(&jobs[0]);
		return;
	}
	have_attr = pthread_attr_init(&attr) == 0;
	if (have_attr)
		(void)pthread_attr_setstacksize(&attr, JOB_STACK);
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < n; i++)
		started[i] = pthread_create(&th[i], have_attr ? &attr : NULL,
				 job_run, &jobs[i]) == 0;
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < n; i++) {
		if (started[i])
			(void)pthread_join(th[i], NULL);
	}
	for (i = 0; i < n; i++) {
		if (started[i])
			continue;
		if ((jobs[i].ms = util_cap_ms(jobs[i].ms, deadline)) == 0)
			jobs[i].r = ERR_TIMEOUT;
		else
			job_run(&jobs[i]);
	}
	if (have_attr)
		(void)pthread_attr_destroy(&attr);
}

/* Replay job j's log lines to lg. */
static void
job_replay(const struct open_job *j, const struct log *lg)
{
	const char *p = j->buf, *nl;

	while ((nl = strchr(p, '\n')) != NULL) {
		log_msg(lg, "%.*s", (int)(nl - p), p);
		p = nl + 1;
	}
}

/* Keep the opened devices of the batch in order, up to max; close the
 * rest. */
static void
batch_collect(struct open_job *jobs, size_t n, size_t max, const struct log *lg,
    struct dev **devs, size_t *ndevs, int *first_err)
{
	const struct xport_info *f;
	size_t i;

	for (i = 0; i < n; i++) {
		job_replay(&jobs[i], lg);
		if (jobs[i].r != ERR_OK) {
			dev_note_err(first_err, jobs[i].r);
			continue;
		}
		if (max != 0 && *ndevs >= max) {
			dev_close(&jobs[i].dev);
			continue;
		}
		dev_set_log(jobs[i].dev, lg);
		if ((f = jobs[i].info) != NULL)
			log_msg(lg, "%s: %s (%04x:%04x %s %s)", "dev_open_all",
			    f->path, f->vendor_id, f->product_id,
			    f->manufacturer, f->product);
		devs[(*ndevs)++] = jobs[i].dev;
		jobs[i].dev = NULL;
	}
}

/* Open the n devices (discovered: list; else paths), OPEN_BATCH at a
 * time, each within ms and all before deadline. */
static int
dev_open_batches(const struct xport_info *list, const char *const *paths,
    size_t n, size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev **devs, size_t *ndevs, int *first_err)
{
	struct open_job *jobs;
	size_t i, k, b, cap = n < OPEN_BATCH ? n : OPEN_BATCH;
	int t;

	/* As many jobs as one batch uses, each cleared before its batch:
	 * not OPEN_BATCH cleared twice for the usual one device. */
	if ((jobs = malloc((cap > 0 ? cap : 1) * sizeof(*jobs))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < n && (max == 0 || *ndevs < max); i += b) {
		if ((t = util_cap_ms(ms, deadline)) == 0) {
			log_msg(lg,
			    "%s: deadline reached, %zu device(s) not "
			    "opened",
			    __func__, n - i);
			dev_note_err(first_err, ERR_TIMEOUT);
			break;
		}
		b = n - i < OPEN_BATCH ? n - i : OPEN_BATCH;
		memset(jobs, 0, b * sizeof(*jobs));
		for (k = 0; k < b; k++) {
			jobs[k].info = list != NULL ? &list[i + k] : NULL;
			jobs[k].path = paths != NULL ? paths[i + k] : NULL;
			jobs[k].ms = t;
			jobs[k].lg.fn =
			    lg != NULL && lg->fn != NULL ? job_log : NULL;
			jobs[k].lg.arg = &jobs[k];
		}
		batch_run(jobs, b, deadline);
		batch_collect(jobs, b, max, lg, devs, ndevs, first_err);
	}
	free(jobs);
	return ERR_OK;
}

int
dev_open_all(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev ***devs,
    size_t *ndevs, int *first_err)
{
	struct xport_info *list = NULL;
	struct dev **set = NULL;
	size_t n = 0, cap;
	int r;

	*devs = NULL;
	*ndevs = 0;
	if (first_err != NULL)
		*first_err = ERR_OK;
	if (npaths == 0 && (r = xport_discover(&list, &n)) != ERR_OK)
		return r;
	cap = npaths > 0 ? npaths : n;
	if ((set = calloc(cap > 0 ? cap : 1, sizeof(*set))) == NULL) {
		xport_info_free(list, n);
		return ERR_NOMEM;
	}
	if (npaths > 0)
		r = dev_open_batches(NULL, paths, npaths, max, lg, ms, deadline,
		    set, ndevs, first_err);
	else
		r = dev_open_batches(list, NULL, n, max, lg, ms, deadline, set,
		    ndevs, first_err);
	xport_info_free(list, n);
	if (r != ERR_OK) {
		dev_close_all(set, *ndevs);
		*ndevs = 0;
		return r;
	}
	*devs = set;
	return ERR_OK;
}

int
dev_open_backend(enum dev_backend b, const char *const *paths, size_t npaths,
    size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err)
{
	*devs = NULL;
	*ndevs = 0;
	if (b == DEV_BACKEND_NATIVE) {
		log_msg(lg, "%s: transport backend: native", __func__);
		return dev_open_all(paths, npaths, max, lg, ms, deadline, devs,
		    ndevs, first_err);
	}
	if (b != DEV_BACKEND_LIBU2FHOST || xport_u2fh_version() == NULL) {
		log_msg(lg, "%s: transport backend %s not built", __func__,
		    dev_backend_name(b));
		return ERR_UNSUPPORTED;
	}
	log_msg(lg, "%s: transport backend: libu2f-host %s", __func__,
	    xport_u2fh_version());
	if (npaths > 0) {
		log_msg(lg,
		    "%s: libu2f-host cannot open given device paths "
		    "(it finds devices itself)",
		    __func__);
		return ERR_UNSUPPORTED;
	}
	return dev_u2fh_open_all(max, lg, ms, deadline, devs, ndevs, first_err);
}
