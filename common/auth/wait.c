/* SPDX-License-Identifier: BSD-2-Clause */
/* One poll(2) over every device with an operation in progress, handing
 * the due devices out one event at a time (wait.h). Its own file so the
 * loops in auth.c hold no poll(2) bookkeeping. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "wait.h"

int
wait_init(struct wait *w, struct dev **devs, size_t ndevs, const bool *active,
    int64_t deadline, struct wait_stats *stats)
{
	memset(w, 0, sizeof(*w));
	w->devs = devs;
	w->ndevs = ndevs;
	w->active = active;
	w->deadline = deadline;
	w->stats = stats != NULL ? stats : &w->own;
	if ((w->pfd = calloc(ndevs > 0 ? ndevs : 1, sizeof(*w->pfd))) == NULL)
		return ERR_NOMEM;
	return ERR_OK;
}

void
wait_free(struct wait *w)
{
	free(w->pfd);
	w->pfd = NULL;
}

/* Fill pfd with the descriptors of the active devices (-1 entries are
 * ignored by poll), count them in *nfd, and return the earliest wake
 * time, capped at the deadline. */
static int64_t
wait_prepare(struct wait *w, size_t *nfd)
{
	int64_t wake = w->deadline, t;
	struct dev *d;
	size_t i;

	*nfd = 0;
	for (i = 0; i < w->ndevs; i++) {
		d = w->devs[i];
		w->pfd[i].fd = w->active[i] ? d->proto->poll_fd(&d->ctx) : -1;
		*nfd += w->pfd[i].fd >= 0 ? 1 : 0;
		w->pfd[i].events = POLLIN;
		w->pfd[i].revents = 0;
		if (w->active[i] && (t = d->proto->wake_at(&d->ctx)) < wake)
			wake = t;
	}
	return wake;
}

/* Sleep until a device has input or the earliest wake time, then begin
 * a round. */
static int
wait_poll(struct wait *w)
{
	size_t nfd;
	int64_t wake = wait_prepare(w, &nfd);
	int n;

	w->stats->polls++;
	if (nfd > 0)
		n = poll(w->pfd, (nfds_t)w->ndevs, util_ms_left(wake));
	else { /* nothing to poll: sleep until the wake time */
		util_sleep_ms(util_ms_left(wake));
		n = 0;
	}
	if (n < 0 && errno != EINTR)
		return ERR_SYSTEM;
	if (n < 0)
		memset(w->pfd, 0, w->ndevs * sizeof(*w->pfd));
	w->now = util_now_ms();
	w->next = 0;
	w->polled = true;
	return ERR_OK;
}

static bool
wait_any_active(const struct wait *w)
{
	size_t i;

	for (i = 0; i < w->ndevs; i++)
		if (w->active[i])
			return true;
	return false;
}

int
wait_run(struct wait *w, size_t *due)
{
	struct dev *d;
	size_t i;
	int r;

	for (;;) {
		while (w->polled && w->next < w->ndevs) {
			i = w->next++;
			d = w->devs[i];
			if (w->active[i] &&
			    (w->pfd[i].revents != 0 ||
				d->proto->wake_at(&d->ctx) <= w->now)) {
				w->stats->steps++;
				*due = i;
				return ERR_OK;
			}
		}
		if (!wait_any_active(w))
			return ERR_WRONG_KH;
		if (w->polled && util_ms_left(w->deadline) == 0)
			return ERR_TIMEOUT;
		if ((r = wait_poll(w)) != ERR_OK)
			return r;
	}
}
