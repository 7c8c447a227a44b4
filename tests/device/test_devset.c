/* SPDX-License-Identifier: BSD-2-Clause */
/* Opening a set of devices (common/device/devset.c, dev_open_all): devices that
 * never answer (tests/lib/tokenctl.c tokenctl_silent) are opened at the same
 * time as the others, DEV_OPEN_BATCH at a time, so they delay neither a
 * good key nor the deadline; the log and the first error follow the
 * order of the devices, not the timing. No wall-clock upper bounds: a
 * watcher thread counts the connections to the silent devices and how
 * many were open at once (all of a batch when opened in threads, one
 * when opened one after another), the deadline shows in which devices
 * were tried at all, and lower bounds check that each had its time. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth/auth.h"
#include "device/dev.h"
#include "base/err.h"
#include "test.h"
#include "tokenctl.h"
#include "base/util.h"

#define NSILENT_MAX (2 * DEV_OPEN_BATCH + 8)
#define LOG_MAX 16384
/* test_without_threads: each device's open time when there is no deadline */
#define OPEN_MS 2000

/* Linked with -Wl,--wrap=pthread_create (tests/device/local.mk): while
 * no_threads is set, every thread creation in common/device/devset.c fails. */
static bool no_threads;

int __real_pthread_create(
    pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(
    pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

int
__wrap_pthread_create(
    pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	if (no_threads)
		return EAGAIN;
	return __real_pthread_create(t, attr, fn, arg);
}

struct silent {
	char dir[32];
	char path[NSILENT_MAX][64]; /* "unix:DIR/sN.sock" */
	const char *paths[NSILENT_MAX + 1];
	int fd[NSILENT_MAX];
	size_t n;
};

static int
silent_up(struct silent *s, size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/test_devset.XXXXXX");
	if (mkdtemp(s->dir) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(
		    s->path[i], sizeof(s->path[i]), "%s/s%zu.sock", s->dir, i);
		if ((s->fd[i] = tokenctl_silent(s->path[i])) < 0)
			return -1;
		s->n++;
		snprintf(s->path[i], sizeof(s->path[i]), "unix:%s/s%zu.sock",
		    s->dir, i);
		s->paths[i] = s->path[i];
	}
	return 0;
}

static void
silent_down(struct silent *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		close(s->fd[i]);
		unlink(s->path[i] + strlen("unix:"));
	}
	rmdir(s->dir);
}

/* Counts the module's connections to the silent devices from a thread of
 * its own: accepted in all, open at once at most. A connection counts as
 * open from its accept until the module closes it (EOF); closes are seen
 * before new connections in each round, so that devices opened one after
 * another never look simultaneous. */
struct watch {
	struct silent *s;
	int stop[2]; /* a byte on stop[1] ends the thread */
	int conn[NSILENT_MAX];
	size_t accepted, open_now, max_open;
	pthread_t thread;
};

/* Closed connections (EOF or error) leave; INIT requests are dropped. */
static void
watch_reap(struct watch *w, const struct pollfd *pfd, size_t n)
{
	char buf[256];
	size_t i;

	for (i = 0; i < n; i++) {
		if (w->conn[i] < 0 || pfd[i].revents == 0)
			continue;
		if (read(w->conn[i], buf, sizeof(buf)) > 0)
			continue;
		close(w->conn[i]);
		w->conn[i] = -1;
		w->open_now--;
	}
}

static void
watch_accept(struct watch *w, const struct pollfd *pfd, size_t n)
{
	size_t i;
	int fd;

	for (i = 0; i < n; i++) {
		if ((pfd[i].revents & POLLIN) == 0 ||
		    (fd = accept(w->s->fd[i], NULL, NULL)) < 0)
			continue;
		if (w->conn[i] >= 0) /* a second connection: count it once */
			close(w->conn[i]);
		else
			w->open_now++;
		w->conn[i] = fd;
		w->accepted++;
		if (w->open_now > w->max_open)
			w->max_open = w->open_now;
	}
}

/* Until a byte on stop, then one last look at what is ready. */
static void *
watch_run(void *arg)
{
	struct watch *w = arg;
	struct pollfd pfd[2 * NSILENT_MAX + 1];
	size_t i, n = w->s->n;
	int stopping = 0, r;
	char b;

	for (;;) {
		memset(pfd, 0, sizeof(pfd));
		for (i = 0; i < n; i++) {
			pfd[i].fd = w->conn[i];
			pfd[i].events = POLLIN;
			pfd[n + i].fd = w->s->fd[i];
			pfd[n + i].events = POLLIN;
		}
		pfd[2 * n].fd = stopping ? -1 : w->stop[0];
		pfd[2 * n].events = POLLIN;
		r = poll(pfd, 2 * n + 1, stopping ? 0 : -1);
		if ((r < 0 && errno != EINTR) || (stopping && r == 0))
			break;
		if (pfd[2 * n].revents != 0) {
			stopping = 1;
			if (read(w->stop[0], &b, 1) != 1)
				break;
		}
		watch_reap(w, pfd, n);
		watch_accept(w, pfd + n, n);
	}
	return NULL;
}

/* Not through __wrap_pthread_create: the watcher runs with no_threads. */
static int
watch_start(struct watch *w, struct silent *s)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->s = s;
	for (i = 0; i < NSILENT_MAX; i++)
		w->conn[i] = -1;
	if (pipe(w->stop) != 0)
		return -1;
	return __real_pthread_create(&w->thread, NULL, watch_run, w) == 0 ? 0
									  : -1;
}

/* After dev_open_all has returned (every connection closed): stop. */
static void
watch_stop(struct watch *w)
{
	size_t i;

	if (write(w->stop[1], "", 1) != 1)
		abort();
	pthread_join(w->thread, NULL);
	close(w->stop[0]);
	close(w->stop[1]);
	for (i = 0; i < NSILENT_MAX; i++)
		if (w->conn[i] >= 0)
			close(w->conn[i]);
	printf("# silent devices: %zu connection(s), %zu open at once\n",
	    w->accepted, w->max_open);
}

static void
keep_line(void *arg, const char *line)
{
	char *buf = arg;
	size_t n = strlen(buf);

	snprintf(buf + n, LOG_MAX - n, "%s\n", line);
}

/* Where "/sI.sock:" first appears in the log, or -1. */
static long
log_pos(const char *logged, size_t i)
{
	char needle[32];
	const char *p;

	snprintf(needle, sizeof(needle), "/s%zu.sock:", i);
	p = strstr(logged, needle);
	return p != NULL ? p - logged : -1;
}

/* dev_open_all on paths, which must return ERR_OK; the deadline, when
 * deadline_ms is not 0, that many ms from now. Returns the ms it took. */
static int64_t
open_timed(const char *const *paths, size_t n, const struct log *lg, int ms,
    int deadline_ms, struct dev ***devs, size_t *ndevs, int *first)
{
	int64_t t0 = util_now_ms();

	T_EQ_ERR(
	    dev_open_all(paths, n, 0, lg, ms,
		deadline_ms != 0 ? t0 + deadline_ms : 0, devs, ndevs, first),
	    ERR_OK);
	return util_now_ms() - t0;
}

/* Three silent devices, then a good key: the key is opened, though the
 * deadline (2500 ms) ends before three open times (3 x 1000 ms) one
 * after another would reach it; the three silent ones were open at the
 * same time; they are logged in their order and the first error is
 * theirs. */
static void
test_key_behind_silent(void)
{
	static char logged[LOG_MAX];
	const struct log lg = {keep_line, logged};
	struct silent s;
	struct watch w;
	struct tokenctl t;
	struct dev **devs = NULL;
	size_t ndevs = 9;
	int first = ERR_OK;
	int64_t el;

	logged[0] = '\0';
	T_EQ_INT(silent_up(&s, 3), 0);
	T_EQ_INT(watch_start(&w, &s), 0);
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	s.paths[3] = t.path;
	el = open_timed(s.paths, 4, &lg, 1000, 2500, &devs, &ndevs, &first);
	watch_stop(&w);
	printf("# 3 silent devices and a key: %zu opened in %lld ms\n", ndevs,
	    (long long)el);
	T_EQ_INT(ndevs, 1);
	if (ndevs == 1)
		T_EQ_STR(xport_path(devs[0]->ctx.x), t.path);
	dev_close_all(devs, ndevs);
	T_EQ_ERR(first, ERR_TIMEOUT);
	T_EQ_INT(w.accepted, 3);
	T_EQ_INT(w.max_open, 3); /* at the same time, not one by one */
	T_TRUE(el >= 900);       /* each silent one had its open time */
	T_TRUE(log_pos(logged, 0) >= 0);
	T_TRUE(log_pos(logged, 0) < log_pos(logged, 1));
	T_TRUE(log_pos(logged, 1) < log_pos(logged, 2));
	tokenctl_stop(&t);
	silent_down(&s);
}

/* max keeps the first devices that opened, in the order given. */
static void
test_max_keeps_order(void)
{
	struct tokenctl a, b;
	struct dev **devs = NULL;
	const char *paths[2];
	size_t ndevs = 9;
	int first = ERR_OK;

	T_EQ_INT(tokenctl_start(&a, "--presence", "now", NULL), 0);
	T_EQ_INT(tokenctl_start(&b, "--presence", "now", NULL), 0);
	paths[0] = b.path;
	paths[1] = a.path;
	T_EQ_ERR(
	    dev_open_all(paths, 2, 1, NULL, 2000, 0, &devs, &ndevs, &first),
	    ERR_OK);
	T_EQ_INT(ndevs, 1);
	if (ndevs == 1)
		T_EQ_STR(xport_path(devs[0]->ctx.x), b.path);
	T_EQ_ERR(first, ERR_OK);
	dev_close_all(devs, ndevs);
	tokenctl_stop(&a);
	tokenctl_stop(&b);
}

/* More silent devices than two batches: the first batch has its whole
 * open time (1000 ms), the second what is left of the deadline (1000 ms,
 * a margin for a loaded machine), the rest are not opened: exactly two
 * batches are connected to, DEV_OPEN_BATCH at a time. */
static void
test_batches_within_deadline(void)
{
	static char logged[LOG_MAX];
	const struct log lg = {keep_line, logged};
	char want[80];
	struct silent s;
	struct watch w;
	struct dev **devs = NULL;
	size_t ndevs = 9;
	int first = ERR_OK;
	int64_t el;

	logged[0] = '\0';
	T_EQ_INT(silent_up(&s, NSILENT_MAX), 0);
	T_EQ_INT(watch_start(&w, &s), 0);
	el = open_timed(
	    s.paths, NSILENT_MAX, &lg, 1000, 2000, &devs, &ndevs, &first);
	watch_stop(&w);
	printf("# %d silent devices, deadline 2000 ms: %lld ms\n", NSILENT_MAX,
	    (long long)el);
	dev_close_all(devs, ndevs);
	T_EQ_INT(ndevs, 0);
	T_EQ_ERR(first, ERR_TIMEOUT);
	T_TRUE(el >= 1900);
	T_EQ_INT(w.accepted, 2 * DEV_OPEN_BATCH);
	T_EQ_INT(w.max_open, DEV_OPEN_BATCH);
	snprintf(want, sizeof(want),
	    "deadline reached, %d device(s) not opened",
	    NSILENT_MAX - 2 * DEV_OPEN_BATCH);
	T_TRUE(strstr(logged, want) != NULL);
	/* the devices of the second batch were tried, in order */
	T_TRUE(log_pos(logged, DEV_OPEN_BATCH) >= 0);
	T_TRUE(log_pos(logged, DEV_OPEN_BATCH) <
	    log_pos(logged, 2 * DEV_OPEN_BATCH - 1));
	T_EQ_INT(log_pos(logged, 2 * DEV_OPEN_BATCH), -1);
	silent_down(&s);
}

/* Without a deadline each device has its own open time, all at once
 * (1000 ms each: the three connect well within the first one's time). */
static void
test_no_deadline(void)
{
	struct silent s;
	struct watch w;
	struct dev **devs = NULL;
	size_t ndevs = 9;
	int first = ERR_OK;
	int64_t el;

	T_EQ_INT(silent_up(&s, 3), 0);
	T_EQ_INT(watch_start(&w, &s), 0);
	el = open_timed(s.paths, 3, NULL, 1000, 0, &devs, &ndevs, &first);
	watch_stop(&w);
	dev_close_all(devs, ndevs);
	T_EQ_INT(ndevs, 0);
	T_EQ_ERR(first, ERR_TIMEOUT);
	T_TRUE(el >= 950);
	T_EQ_INT(w.accepted, 3);
	T_EQ_INT(w.max_open, 3); /* not one after another */
	T_EQ_INT(util_cap_ms(1000, 0), 1000);
	T_EQ_INT(util_cap_ms(1000, util_now_ms() - 1), 0);
	T_TRUE(util_cap_ms(1000, util_now_ms() + 400) <= 400);
	silent_down(&s);
}

/* No thread can be created: the devices are opened one after another in
 * the calling thread, each with what is left of the deadline, and none
 * once it has passed; without a deadline the key behind them is still
 * reached. */
static void
test_without_threads(void)
{
	struct silent s;
	struct watch w;
	struct tokenctl t;
	struct dev **devs = NULL;
	size_t ndevs = 9;
	int first = ERR_OK;
	int64_t el;

	T_EQ_INT(silent_up(&s, 3), 0);
	T_EQ_INT(tokenctl_start(&t, "--presence", "now", NULL), 0);
	s.paths[3] = t.path;
	no_threads = true;
	T_EQ_INT(watch_start(&w, &s), 0);
	el = open_timed(s.paths, 4, NULL, 1000, 1500, &devs, &ndevs, &first);
	watch_stop(&w);
	dev_close_all(devs, ndevs);
	T_EQ_INT(ndevs, 0); /* 1000 + 500 ms on the first two */
	T_EQ_ERR(first, ERR_TIMEOUT);
	T_TRUE(el >= 1400);
	/* the third one never: the deadline had passed (the second may
	 * have found none left on a loaded machine) */
	T_TRUE(w.accepted >= 1 && w.accepted <= 2);
	T_EQ_INT(w.max_open, 1);
	/* No deadline: each device has its own OPEN_MS, one after another.
	 * OPEN_MS is only an upper bound for the token's INIT answer, so it
	 * is large enough for a machine at load 10 (it failed at 300 ms). */
	T_EQ_INT(watch_start(&w, &s), 0);
	el = open_timed(s.paths, 4, NULL, OPEN_MS, 0, &devs, &ndevs, &first);
	watch_stop(&w);
	no_threads = false;
	T_EQ_INT(ndevs, 1);
	dev_close_all(devs, ndevs);
	T_TRUE(el >= 3 * OPEN_MS - 150); /* one after another */
	T_EQ_INT(w.accepted, 3);
	T_EQ_INT(w.max_open, 1);
	tokenctl_stop(&t);
	silent_down(&s);
}

TEST_MAIN(TEST(test_key_behind_silent), TEST(test_max_keeps_order),
    TEST(test_batches_within_deadline), TEST(test_no_deadline),
    TEST(test_without_threads))
