/* SPDX-License-Identifier: BSD-2-Clause */
/* RFC 4515 filter value escaping (ldescape.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldescape.h"
#include "base/err.h"

static int
ldesc_plain(unsigned char c)
{
	return c > 0x1f && c < 0x7f && c != '*' && c != '(' && c != ')' &&
	    c != '\\';
}

int
ldesc_value(const char *value, size_t len, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t i, o = 0;

	if ((value == NULL && len > 0) || out == NULL || outlen == 0)
		return ERR_INVAL;
	for (i = 0; i < len; i++) {
		c = (unsigned char)value[i];
		if (ldesc_plain(c)) {
			if (outlen - o < 2)
				return ERR_TOO_BIG;
			out[o++] = (char)c;
			continue;
		}
		if (outlen - o < 4)
			return ERR_TOO_BIG;
		out[o++] = '\\';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 0x0f];
	}
	out[o] = '\0';
	return ERR_OK;
}

int
ldesc_filter(const char *tmpl, const char *value, size_t len, char **out)
{
	char esc[3 * LDESC_VALUE_MAX + 1];
	const char *at;
	size_t n;
	int r;

	if (tmpl == NULL || out == NULL || len == 0 ||
	    (at = strstr(tmpl, "%s")) == NULL)
		return ERR_INVAL;
	if (len > LDESC_VALUE_MAX)
		return ERR_TOO_BIG;
	if ((r = ldesc_value(value, len, esc, sizeof(esc))) != ERR_OK)
		return r;
	n = strlen(tmpl) - 2 + strlen(esc);
	if (n > LDESC_FILTER_MAX)
		return ERR_TOO_BIG;
	if ((*out = malloc(n + 1)) == NULL)
		return ERR_NOMEM;
	snprintf(*out, n + 1, "%.*s%s%s", (int)(at - tmpl), tmpl, esc, at + 2);
	return ERR_OK;
}
