/* SPDX-License-Identifier: BSD-2-Clause */
/* Escaping of log lines (logesc.h). */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "logesc.h"

/* The length of the well-formed UTF-8 sequence at s of two bytes or more
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)
 * that may be logged as it is; 0 for a byte that must be escaped. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, cp = s[0] & 0x1Fu;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, cp = s[0] & 0x0Fu;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80) /* also the NUL at the end */
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	if (cp <= 0x9F || cp == 0x2028 || cp == 0x2029)
		return 0; /* C1 controls, line breaks */
	return n;
}

size_t
log_escape(const char *line, char *out, size_t cap)
{
	const unsigned char *s = (const unsigned char *)line;
	const char *piece;
	size_t o = 0, n, take;
	char hex[5];

	while (*s != '\0') {
		piece = (const char *)s;
		n = take = 1;
		if (*s == '\\')
			piece = "\\\\", n = 2;
		else if (*s < 0x20 || *s == 0x7F ||
		    (*s >= 0x80 && (n = take = utf8_len(s)) == 0)) {
			(void)snprintf(hex, sizeof(hex), "\\x%02x", *s);
			piece = hex, n = 4, take = 1;
		}
		if (o + n >= cap)
			break;
		memcpy(out + o, piece, n);
		o += n;
		s += take;
	}
	out[o] = '\0';
	return o;
}
