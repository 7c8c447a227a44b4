/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-provided text made safe to show; see printable.h. */
#include "config.h"

#include <string.h>

#include "printable.h"

size_t
printable_copy(char *dst, size_t dstlen, const char *src)
{
	size_t n = 0;
	unsigned char ch;

	if (dstlen == 0)
		return 0;
	for (; src != NULL && src[n] != '\0' && n + 1 < dstlen; n++) {
		ch = (unsigned char)src[n];
		dst[n] = ch >= 0x20 && ch <= 0x7e ? (char)ch : '?';
	}
	dst[n] = '\0';
	return n;
}

size_t
printable_label(char *dst, size_t dstlen, const char *name, const char *path)
{
	char nm[PRINTABLE_NAME_MAX + 1];
	size_t n;

	if (dstlen == 0)
		return 0;
	if (name == NULL || name[0] == '\0')
		return printable_copy(dst, dstlen, path);
	(void)printable_copy(nm, sizeof(nm), name);
	n = printable_copy(dst, dstlen, nm);
	n += printable_copy(dst + n, dstlen - n, " (");
	n += printable_copy(dst + n, dstlen - n, path);
	n += printable_copy(dst + n, dstlen - n, ")");
	return n;
}
