/* --format=passkey: a credential as SSSD keeps it in a directory. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/b64.h"
#include "base/err.h"
#include "crypto/cosesig.h"
#include "tool.h"

int
tool_passkey_value(const struct cred *c, char **out)
{
	char *id = NULL, *spki = NULL;
	uint8_t *der = NULL;
	size_t der_len = 0;
	int r;

	if (out == NULL)
		return ERR_INVAL;
	*out = NULL;
	if (c == NULL || c->kh == NULL || c->kh_len == 0 || c->pk == NULL)
		return ERR_INVAL;
	if ((r = crypto_pk_spki(c->type, c->pk, c->pk_len, &der, &der_len)) !=
		ERR_OK ||
	    (r = b64_encode(c->kh, c->kh_len, &id)) != ERR_OK ||
	    (r = b64_encode(der, der_len, &spki)) != ERR_OK)
		goto fail;
	if (asprintf(out, "passkey:%s,%s", id, spki) < 0) {
		*out = NULL;
		r = ERR_NOMEM;
	}
fail:
	free(der);
	free(id);
	free(spki);
	return r;
}
