/* SPDX-License-Identifier: BSD-2-Clause */
/* RFC 4515 escaping of a value put into an LDAP search filter. */
#ifndef PU_LDESCAPE_H
#define PU_LDESCAPE_H

#include <stddef.h>

#define LDESC_VALUE_MAX 256 /* bytes of a user name */
#define LDESC_FILTER_MAX 4096

/* Write value (len bytes, may hold NUL) into out (outlen bytes) escaped
 * as RFC 4515 section 3 requires and more: '*', '(', ')', '\\', NUL,
 * every other control byte and every byte above 0x7e become \XX (two
 * lower-case hex digits); the rest is copied. ERR_OK with out
 * NUL-terminated; ERR_TOO_BIG if it does not fit; ERR_INVAL. */
int ldesc_value(const char *value, size_t len, char *out, size_t outlen);

/* The filter template tmpl (one "%s", checked by the conf layer) with
 * the escaped value in place of "%s", into a malloc'd *out. ERR_OK,
 * ERR_INVAL (no "%s"; an empty value), ERR_TOO_BIG (a value over
 * LDESC_VALUE_MAX bytes or a filter over LDESC_FILTER_MAX), ERR_NOMEM. */
int ldesc_filter(const char *tmpl, const char *value, size_t len, char **out);

#endif
