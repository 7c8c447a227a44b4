#include "config.h"

#include <stdlib.h>

#include "cred.h"
#include "util.h"

void
cred_clear(struct cred *c)
{
	if (c == NULL)
		return;
	util_freezero(c->kh, c->kh_len);
	util_freezero(c->pk, c->pk_len);
	util_wipe(c, sizeof(*c));
	c->kh = NULL;
	c->pk = NULL;
}

void
cred_free_list(struct cred *list, size_t n)
{
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; i < n; i++)
		cred_clear(&list[i]);
	free(list);
}
