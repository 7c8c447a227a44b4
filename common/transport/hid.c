/* Helpers shared by the I/O back ends: freeing device lists and choosing
 * the back end for a path. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hid.h"
#include "hidraw.h"
#include "unixdev.h"

void
hid_devinfo_free(struct hid_devinfo *list, size_t n)
{
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(list[i].path);
		free(list[i].manufacturer);
		free(list[i].product);
	}
	free(list);
}

const struct hid_io *
hid_io_for(const char *path)
{
	if (path != NULL &&
	    strncmp(path, UNIXDEV_PREFIX, strlen(UNIXDEV_PREFIX)) == 0)
		return &unixdev_io;
	return &hidraw_io;
}
