/* SPDX-License-Identifier: BSD-2-Clause */
/* The libu2f-host transport when it is not built (the default): it is
 * never available. See u2fh.c for the real one. */
#include "config.h"

#include "base/err.h"
#include "xport.h"

const char *
xport_u2fh_version(void)
{
	return NULL;
}

int
xport_u2fh_xports(
    size_t max, const struct log *lg, struct xport ***xs, size_t *n)
{
	(void)max;
	*xs = NULL;
	*n = 0;
	log_msg(
	    lg, "%s: built without libu2f-host (--with-libu2f-host)", __func__);
	return ERR_UNSUPPORTED;
}
