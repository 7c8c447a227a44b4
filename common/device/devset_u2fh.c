/* SPDX-License-Identifier: BSD-2-Clause */
/* Devices over transports that are open already: libu2f-host's, which it
 * discovers and opens itself. Each gets its protocol in turn (libu2f-host
 * talks to one device at a time), within ms and all before deadline. */
#include "config.h"

#include <stdlib.h>

#include "base/err.h"
#include "dev.h"

int
dev_open_xports(struct xport **xs, size_t nxs, const struct log *lg, int ms,
    int64_t deadline, struct dev ***devs, size_t *ndevs, int *first_err)
{
	struct dev **set = NULL;
	size_t i, n = 0;
	int r = ERR_OK, t;

	*devs = NULL;
	*ndevs = 0;
	if ((set = calloc(nxs > 0 ? nxs : 1, sizeof(*set))) == NULL)
		r = ERR_NOMEM;
	for (i = 0; i < nxs; i++) {
		if (r != ERR_OK || (t = util_cap_ms(ms, deadline)) == 0) {
			if (r == ERR_OK) {
				log_msg(lg, "%s: deadline reached at %s",
				    "dev_u2fh_open_all", xport_path(xs[i]));
				r = ERR_TIMEOUT;
				if (first_err != NULL && *first_err == ERR_OK)
					*first_err = ERR_TIMEOUT;
			}
			xport_close(&xs[i]);
			continue;
		}
		if ((t = dev_open_xport(xs[i], lg, t, &set[n])) == ERR_OK)
			log_msg(lg, "%s: %s", "dev_u2fh_open_all",
			    xport_path(set[n++]->ctx.x));
		else if (first_err != NULL && *first_err == ERR_OK)
			*first_err = t;
		xs[i] = NULL;
	}
	free(xs);
	if (set == NULL)
		return ERR_NOMEM;
	*devs = set;
	*ndevs = n;
	return ERR_OK;
}

int
dev_u2fh_open_all(size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err)
{
	struct xport **xs = NULL;
	size_t n = 0;
	int r;

	*devs = NULL;
	*ndevs = 0;
	if (first_err != NULL)
		*first_err = ERR_OK;
	if ((r = xport_u2fh_xports(max, lg, &xs, &n)) != ERR_OK)
		return r;
	return dev_open_xports(xs, n, lg, ms, deadline, devs, ndevs, first_err);
}
