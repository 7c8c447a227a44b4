/* SPDX-License-Identifier: BSD-2-Clause */
/* Freeing lists of discovered devices. */
#include "config.h"

#include <stdlib.h>

#include "devinfo.h"

void
xport_info_free(struct xport_info *list, size_t n)
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
