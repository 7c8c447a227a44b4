/* Open the set of devices one operation works with. */
#include "config.h"

#include <stdlib.h>

#include "auth.h"
#include "err.h"

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

static int
auth_open_paths(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, struct dev **devs, size_t *ndevs,
    int *first_err)
{
	size_t i;
	int r;

	for (i = 0; i < npaths && (max == 0 || *ndevs < max); i++) {
		r = dev_open_path(paths[i], lg, ms, &devs[*ndevs]);
		if (r == ERR_OK)
			(*ndevs)++;
		else
			auth_note_err(first_err, r);
	}
	return ERR_OK;
}

static int
auth_open_found(const struct hid_devinfo *list, size_t n, size_t max,
    const struct log *lg, int ms, struct dev **devs, size_t *ndevs,
    int *first_err)
{
	size_t i;
	int r;

	for (i = 0; i < n && (max == 0 || *ndevs < max); i++) {
		r = dev_open(&list[i], lg, ms, &devs[*ndevs]);
		if (r == ERR_OK) {
			log_msg(lg, "%s: %s (%04x:%04x %s %s)", __func__,
			    list[i].path, list[i].vendor_id,
			    list[i].product_id, list[i].manufacturer,
			    list[i].product);
			(*ndevs)++;
		} else
			auth_note_err(first_err, r);
	}
	return ERR_OK;
}

int
auth_open_all(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, struct dev ***devs, size_t *ndevs,
    int *first_err)
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
		r = auth_open_paths(paths, npaths, max, lg, ms, set, ndevs,
		    first_err);
	else
		r = auth_open_found(list, n, max, lg, ms, set, ndevs,
		    first_err);
	hid_devinfo_free(list, n);
	*devs = set;
	return r;
}
