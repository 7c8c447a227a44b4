/* One poll(2) over every device with an operation in progress. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "wait.h"

/* Fill pfd with the descriptors of the active devices (-1 entries are
 * ignored by poll), count them in *nfd, and return the earliest wake
 * time, capped at deadline. */
static int64_t
wait_prepare(struct dev **devs, size_t ndevs, const bool *active,
    struct pollfd *pfd, size_t *nfd, int64_t deadline)
{
	int64_t wake = deadline, t;
	size_t i;

	*nfd = 0;
	for (i = 0; i < ndevs; i++) {
		pfd[i].fd = active[i] ? dev_fd(devs[i]) : -1;
		*nfd += pfd[i].fd >= 0 ? 1 : 0;
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
		if (active[i] && (t = dev_wake_at(devs[i])) < wake)
			wake = t;
	}
	return wake;
}

/* Is device i due for a step: input, an error on its descriptor, or its
 * wake time passed? */
static bool
wait_due(struct dev *d, const struct pollfd *p, int64_t now)
{
	return p->revents != 0 || dev_wake_at(d) <= now;
}

/* Step every due device once. ERR_OK with a winner, ERR_PENDING while
 * some device is active, else the last error. */
static int
wait_round(struct dev **devs, size_t ndevs, bool *active, struct pollfd *pfd,
    wait_step_fn step, void *arg, size_t *winner, struct wait_stats *st)
{
	int64_t now = util_now_ms();
	size_t i, left = 0;
	int r, last = ERR_WRONG_KH;

	for (i = 0; i < ndevs; i++) {
		if (active[i] && wait_due(devs[i], &pfd[i], now)) {
			st->steps++;
			if ((r = step(arg, i)) == ERR_OK) {
				*winner = i;
				return ERR_OK;
			}
			if (r != ERR_PENDING) {
				active[i] = false;
				last = r;
			}
		}
		left += active[i] ? 1 : 0;
	}
	return left > 0 ? ERR_PENDING : last;
}

int
wait_run(struct dev **devs, size_t ndevs, bool *active, wait_step_fn step,
    void *arg, int64_t deadline, size_t *winner, struct wait_stats *stats)
{
	struct wait_stats local = {0, 0};
	struct pollfd *pfd = NULL;
	int64_t wake;
	size_t nfd;
	int r, n;

	if (stats == NULL)
		stats = &local;
	if ((pfd = calloc(ndevs > 0 ? ndevs : 1, sizeof(*pfd))) == NULL)
		return ERR_NOMEM;
	for (;;) {
		wake = wait_prepare(devs, ndevs, active, pfd, &nfd, deadline);
		stats->polls++;
		if (nfd > 0)
			n = poll(pfd, (nfds_t)ndevs, util_ms_left(wake));
		else { /* nothing to poll: sleep until the wake time */
			util_sleep_ms(util_ms_left(wake));
			n = 0;
		}
		if (n < 0 && errno != EINTR) {
			r = ERR_SYSTEM;
			break;
		}
		if (n < 0)
			memset(pfd, 0, ndevs * sizeof(*pfd));
		r = wait_round(
		    devs, ndevs, active, pfd, step, arg, winner, stats);
		if (r != ERR_PENDING)
			break;
		if (util_ms_left(deadline) == 0) {
			r = ERR_TIMEOUT;
			break;
		}
	}
	free(pfd);
	return r;
}
