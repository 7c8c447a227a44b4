/* The libu2f-host transport when it is not built (the default): it is
 * never available. See dev_u2fh.c for the real one. */
#include "config.h"

#include "device/dev.h"
#include "base/err.h"

const char *
dev_u2fh_version(void)
{
	return NULL;
}

int
dev_u2fh_open_all(size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err)
{
	(void)max;
	(void)ms;
	(void)deadline;
	*devs = NULL;
	*ndevs = 0;
	if (first_err != NULL)
		*first_err = ERR_OK;
	log_msg(
	    lg, "%s: built without libu2f-host (--with-libu2f-host)", __func__);
	return ERR_UNSUPPORTED;
}
