/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the software token's unit tests; see tokfix.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tokfix.h"

const uint8_t tokfix_chal[32] = {0xc1, 0xc2, 0xc3, 0x04, 0x05, 0x06};
const uint8_t tokfix_app[32] = {0xa1, 0xa2, 0xa3, 0x04, 0x05, 0x06};

struct token *
tokfix_token(enum token_presence p, int after_ms, unsigned faults, FILE *log)
{
	struct token_config c;
	struct token *t = NULL;

	memset(&c, 0, sizeof(c));
	c.presence = p;
	c.after_ms = after_ms;
	c.faults = faults;
	c.log = log;
	if (token_new(&t, &c) != ERR_OK)
		abort();
	return t;
}

size_t
tokfix_apdu(
    uint8_t *out, uint8_t ins, uint8_t p1, const uint8_t *data, size_t len)
{
	out[0] = 0x00;
	out[1] = ins;
	out[2] = p1;
	out[3] = 0x00;
	out[4] = 0x00;
	out[5] = (uint8_t)(len >> 8);
	out[6] = (uint8_t)len;
	if (len > 0)
		memcpy(out + 7, data, len);
	out[7 + len] = 0;
	out[8 + len] = 0;
	return len + 9;
}

unsigned
tokfix_sw(const uint8_t *rep, size_t n)
{
	return n < 2 ? 0 : (unsigned)rep[n - 2] << 8 | rep[n - 1];
}
