/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by tests/mapping/test_authfile.c and
 * tests/mapping/test_authscan.c: the credential of the FIDO registration
 * example in the encodings pam-u2f writes, an eddsa key, and find(),
 * authfile_find on a NUL-terminated string. */
#ifndef PU_AUTHFIX_H
#define PU_AUTHFIX_H

#include <string.h>

#include "mapping/authfile.h"

/* Key handle and public key of the FIDO registration example
 * (u2f-protocol.md section 3), in the encodings pam-u2f writes. */
#define KH_HEX                                                                 \
	"2a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8f"             \
	"e2e3925a6019551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772"   \
	"d70c25"
#define PK_HEX                                                                 \
	"04b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c2"             \
	"6da51b657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e603"   \
	"85d2f6d9"
#define KH_B64                                                                 \
	"KlUt/bdHftZf2EEz+GGWAQsiFbV9p10xW3uej+LjklpgGVUbq2HRZZFln"            \
	"LrwC0lQ96v+ZmDi4Ab3aGi3ctcMJQ=="
#define PK_B64                                                                 \
	"sXS8ScfKJUtw0uXCB87pzxdIIOvXfqPGVQjCbaUbZXwcxrlS+GIWl5Nkg"            \
	"toKbT04JqWQldr2zXwD4uYDhdL22Q=="
#define KH_URL                                                                 \
	"KlUt_bdHftZf2EEz-GGWAQsiFbV9p10xW3uej-LjklpgGVUbq2HRZZFln"            \
	"LrwC0lQ96v-ZmDi4Ab3aGi3ctcMJQ"
#define CRED_REF KH_B64 "," PK_B64 ",es256,+presence"
#define CRED_OLD KH_URL "," PK_HEX

/* An eddsa key: 32 bytes 0x00, 0x02..0x20 (a curve point: 0x01..0x20 is
 * none), base64; and 0x01..0x20, which is refused. */
#define ED_PK_B64 "AAIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
#define ED_NOPOINT_B64 "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

static inline int
find(
    const char *file, const char *user, struct cred **c, size_t *n, size_t *bad)
{
	return authfile_find(file, strlen(file), user, c, n, bad);
}

#endif
