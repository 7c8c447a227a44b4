/* SPDX-License-Identifier: BSD-2-Clause */
/* The protocol-neutral credential (cred.h): its type names and how a
 * credential and a list of them are freed with their secrets wiped. Its
 * own file because mapping files, OpenSSH keys, passkey values, U2F and
 * CTAP2 all produce or consume struct cred and none of them owns it. */
#include "config.h"

#include <stdlib.h>

#include "cred.h"
#include "util.h"

const char *
cred_type_name(int type)
{
	switch (type) {
	case COSE_ES256:
		return "es256";
	case COSE_EDDSA:
		return "eddsa";
	case COSE_RS256:
		return "rs256";
	default:
		return NULL;
	}
}

void
cred_clear(struct cred *c)
{
	if (c == NULL)
		return;
	util_freezero(c->kh, c->kh_len);
	util_freezero(c->pk, c->pk_len);
	free(c->att); /* public: certificates and a signature */
	util_wipe(c, sizeof(*c));
	c->kh = NULL;
	c->pk = NULL;
	c->att = NULL;
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
