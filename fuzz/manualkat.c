/* SPDX-License-Identifier: BSD-2-Clause */
/* See manualkat.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "manualkat.h"

#define LINES 4

const uint8_t manualkat_cdh[32] = {0xcc, 0xd6, 0xee, 0x2e, 0x47, 0xba, 0xef,
    0x24, 0x4d, 0x49, 0xa2, 0x22, 0xdb, 0x49, 0x6b, 0xad, 0x0e, 0xf5, 0xb6,
    0xf9, 0x3a, 0xa7, 0xcc, 0x4d, 0x30, 0xc4, 0x82, 0x1b, 0x3b, 0x9d, 0xbc,
    0x57};

static const uint8_t key[65] = {0x04, 0xd3, 0x68, 0xf1, 0xb6, 0x65, 0xba, 0xde,
    0x3c, 0x33, 0xa2, 0x0f, 0x1e, 0x42, 0x9c, 0x77, 0x50, 0xd5, 0x03, 0x36,
    0x60, 0xc0, 0x19, 0x11, 0x9d, 0x29, 0xaa, 0x4b, 0xa7, 0xab, 0xc0, 0x4a,
    0xa7, 0xc8, 0x0a, 0x46, 0xbb, 0xe1, 0x1c, 0xa8, 0xcb, 0x56, 0x74, 0xd7,
    0x4f, 0x31, 0xf8, 0xa9, 0x03, 0xf6, 0xba, 0xd1, 0x05, 0xfb, 0x6a, 0xb7,
    0x4a, 0xef, 0xef, 0x4d, 0xb8, 0xb0, 0x02, 0x5e, 0x1d};

const struct cred_opts manualkat_up = {1, -1, -1};
const struct cred_opts manualkat_upuv = {1, 1, -1};
const struct cred_opts manualkat_none = {0, -1, -1};

int
manualkat_verify(const struct manual_answer *a, const struct cred_opts *o,
    struct assertion *as)
{
	uint8_t pk[sizeof(key)], kh[64];
	struct cred c;

	memset(&c, 0, sizeof(c));
	memcpy(pk, key, sizeof(key));
	memset(kh, 0x42, sizeof(kh)); /* not part of the check */
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.pk = pk;
	c.pk_len = sizeof(pk);
	c.type = COSE_ES256;
	c.flags = CRED_PRESENCE;
	return manual_verify(manualkat_cdh, MANUALKAT_RP, &c, o, a, as);
}

int
manualkat_verify_text(const uint8_t *text, size_t len,
    const struct cred_opts *o, struct assertion *as)
{
	const char *f[LINES] = {NULL, NULL, NULL, NULL};
	struct manual_answer a;
	char *buf, *p, *nl;
	size_t i;
	int r;

	if ((buf = malloc(len + 1)) == NULL)
		return ERR_NOMEM;
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (i = 0, p = buf; i < LINES && p != NULL; i++) {
		f[i] = p;
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		p = nl;
	}
	a.cdh = f[0];
	a.rp_id = f[1];
	a.authdata = f[2];
	a.sig = f[3];
	r = manualkat_verify(&a, o, as);
	free(buf);
	return r;
}
