/* SPDX-License-Identifier: BSD-2-Clause */
/* The PC/SC transport when it is not built (the default): no reader is
 * found and "pcsc:" paths are refused. See pcsc.c for the real one. */
#include "config.h"

#include "base/err.h"
#include "pcsc.h"

bool
xport_pcsc_built(void)
{
	return false;
}

int
xport_pcsc_discover(struct xport_info **list, size_t *n)
{
	(void)list;
	(void)n;
	return ERR_OK;
}

int
xport_pcsc_open(
    const char *path, const struct log *lg, int ms, struct xport **out)
{
	(void)ms;
	*out = NULL;
	log_msg(lg, "%s: %s: built without PC/SC (--with-pcsclite)", __func__,
	    path);
	return ERR_UNSUPPORTED;
}

int
xport_pcsc_wait_card(const char *const *paths, size_t n, bool arrival,
    const struct log *lg, int64_t deadline)
{
	(void)paths;
	(void)n;
	(void)arrival;
	(void)lg;
	(void)deadline;
	return ERR_UNSUPPORTED;
}
