/* SPDX-License-Identifier: BSD-2-Clause */
/* --format=passkey: a credential as SSSD keeps it in a directory;
 * --format=ldif: the LDIF change that stores it there. */
#include "config.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* RFC 2849 SAFE-STRING: no NUL, LF, CR or byte above 127, and no space,
 * ':' or '<' first. A trailing space would be lost by readers: not safe
 * either. */
static bool
ldif_safe(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0)
		return true;
	if (s[0] == ' ' || s[0] == ':' || s[0] == '<' || s[n - 1] == ' ')
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] > 127 || s[i] == '\n' || s[i] == '\r')
			return false;
	return true;
}

/* An attribute description's name (RFC 4512 descr, or a numeric OID),
 * at most 64 characters. */
static bool
ldap_attr_name(const char *s)
{
	size_t i, n = strlen(s);
	bool oid = n > 0 && s[0] >= '0' && s[0] <= '9';

	if (n == 0 || n > 64)
		return false;
	if (!oid &&
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (i = 1; i < n; i++) {
		char ch = s[i];
		bool digit = ch >= '0' && ch <= '9';
		bool alpha =
		    (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');

		if (oid ? !(digit || (ch == '.' && s[i - 1] != '.'))
			: !(digit || alpha || ch == '-'))
			return false;
	}
	return !oid || s[n - 1] != '.';
}

int
tool_ldif_change(
    const char *dn, const char *attr, const char *value, char **out)
{
	char *b64 = NULL;
	int r = ERR_OK, n;

	if (out == NULL)
		return ERR_INVAL;
	*out = NULL;
	if (dn == NULL || *dn == '\0' || attr == NULL || value == NULL ||
	    !ldap_attr_name(attr) || *value == '\0' || !ldif_safe(value))
		return ERR_INVAL;
	if (!ldif_safe(dn) &&
	    (r = b64_encode((const uint8_t *)dn, strlen(dn), &b64)) != ERR_OK)
		return r;
	n = asprintf(out, "dn:%s %s\nchangetype: modify\nadd: %s\n%s: %s\n-\n",
	    b64 != NULL ? ":" : "", b64 != NULL ? b64 : dn, attr, attr, value);
	free(b64);
	if (n < 0) {
		*out = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}
