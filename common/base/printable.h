/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-provided text (a USB product name, a reader name) made safe to
 * show the user: printable ASCII only, bounded. */
#ifndef PU_PRINTABLE_H
#define PU_PRINTABLE_H

#include <stddef.h>

/* Copy src into dst (dstlen bytes, NUL terminated when dstlen > 0): every
 * byte outside printable ASCII (0x20-0x7e), including control characters
 * and every byte of a multibyte character, becomes '?'; what does not fit
 * is cut. Returns the bytes written (without the NUL). src NULL: "". */
size_t printable_copy(char *dst, size_t dstlen, const char *src);

/* "NAME (PATH)" into dst, or PATH alone when name is NULL or empty, each
 * part through printable_copy and cut to PRINTABLE_NAME_MAX bytes (the
 * name) or what fits (the path). Returns the bytes written. */
#define PRINTABLE_NAME_MAX 64
size_t printable_label(
    char *dst, size_t dstlen, const char *name, const char *path);

#endif
