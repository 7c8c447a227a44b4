/* Open the set of devices one operation works with. */
#include "config.h"

#include <stdlib.h>

#include "auth.h"
#include "err.h"
#include "util.h"

void
auth_close_all(struct dev **devs, size_t ndevs)
{
	size_t i;

	if (devs == NULL)
		return;
	for (i = 0; i < ndevs; i++)
		dev_close(&devs[i]);
	free(devs);
}

static void
auth_note_err(int *first_err, int r)
{
	if (first_err != NULL && *first_err == ERR_OK)
		*first_err = r;
}

/* The time device i of n may take to open, or 0 (logged, ERR_TIMEOUT
 * noted) when the deadline has passed: devices that stall cannot hold
 * the whole operation past its deadline. */
static int
auth_open_ms(int ms, int64_t deadline, size_t i, size_t n, const struct log *lg,
    int *first_err)
{
	int t = util_cap_ms(ms, deadline);

	if (t == 0) {
		log_msg(lg, "%s: deadline reached, %zu device(s) not opened",
		    __func__, n - i);
		auth_note_err(first_err, ERR_TIMEOUT);
	}
	return t;
}

static int
auth_open_paths(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev **devs,
    size_t *ndevs, int *first_err)
{
	size_t i;
	int r, t;

	for (i = 0; i < npaths && (max == 0 || *ndevs < max); i++) {
		if ((t = auth_open_ms(
			 ms, deadline, i, npaths, lg, first_err)) == 0)
			break;
		r = dev_open_path(paths[i], lg, t, &devs[*ndevs]);
		if (r == ERR_OK)
			(*ndevs)++;
		else
			auth_note_err(first_err, r);
	}
	return ERR_OK;
}

static int
auth_open_found(const struct hid_devinfo *list, size_t n, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev **devs,
    size_t *ndevs, int *first_err)
{
	size_t i;
	int r, t;

	for (i = 0; i < n && (max == 0 || *ndevs < max); i++) {
		if ((t = auth_open_ms(ms, deadline, i, n, lg, first_err)) == 0)
			break;
		r = dev_open(&list[i], lg, t, &devs[*ndevs]);
		if (r == ERR_OK) {
			log_msg(lg, "%s: %s (%04x:%04x %s %s)", __func__,
			    list[i].path, list[i].vendor_id, list[i].product_id,
			    list[i].manufacturer, list[i].product);
			(*ndevs)++;
		} else
			auth_note_err(first_err, r);
	}
	return ERR_OK;
}

int
auth_open_all(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev ***devs,
    size_t *ndevs, int *first_err)
{
	struct hid_devinfo *list = NULL;
	struct dev **set = NULL;
	size_t n = 0, cap;
	int r;

	*devs = NULL;
	*ndevs = 0;
	if (first_err != NULL)
		*first_err = ERR_OK;
	if (npaths == 0 && (r = dev_discover(&list, &n)) != ERR_OK)
		return r;
	cap = npaths > 0 ? npaths : n;
	if ((set = calloc(cap > 0 ? cap : 1, sizeof(*set))) == NULL) {
		hid_devinfo_free(list, n);
		return ERR_NOMEM;
	}
	if (npaths > 0)
		r = auth_open_paths(paths, npaths, max, lg, ms, deadline, set,
		    ndevs, first_err);
	else
		r = auth_open_found(
		    list, n, max, lg, ms, deadline, set, ndevs, first_err);
	hid_devinfo_free(list, n);
	*devs = set;
	return r;
}

int
auth_open_backend(enum dev_backend b, const char *const *paths, size_t npaths,
    size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err)
{
	*devs = NULL;
	*ndevs = 0;
	if (b == DEV_BACKEND_NATIVE) {
		log_msg(lg, "%s: transport backend: native", __func__);
		return auth_open_all(paths, npaths, max, lg, ms, deadline, devs,
		    ndevs, first_err);
	}
	if (b != DEV_BACKEND_LIBU2FHOST || dev_u2fh_version() == NULL) {
		log_msg(lg, "%s: transport backend %s not built", __func__,
		    dev_backend_name(b));
		return ERR_UNSUPPORTED;
	}
	log_msg(lg, "%s: transport backend: libu2f-host %s", __func__,
	    dev_u2fh_version());
	if (npaths > 0) {
		log_msg(lg,
		    "%s: libu2f-host cannot open given device paths "
		    "(it finds devices itself)",
		    __func__);
		return ERR_UNSUPPORTED;
	}
	return dev_u2fh_open_all(max, lg, ms, deadline, devs, ndevs, first_err);
}
