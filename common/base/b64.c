/* SPDX-License-Identifier: BSD-2-Clause */
/* Base64 (standard with padding, URL-safe without) and hex, both ways
 * (b64.h). Its own file because every layer decodes key handles and keys
 * from text and none should carry a second decoder: the exact decoders
 * here are the only ones, so a stray character is refused the same way
 * in a mapping file, a passkey: value and an OpenSSH key. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "b64.h"
#include "err.h"
#include "util.h"

static const char b64_std[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static const char hex_digits[] = "0123456789abcdef";

/* Encode len bytes with alphabet abc; pad with '=' when pad is set. */
static int
encode(const uint8_t *in, size_t len, const char *abc, int pad, char **out)
{
	char *s = NULL, *p;
	size_t full = len / 3, rest = len % 3, i;
	uint32_t v;

	*out = NULL;
	if (in == NULL && len > 0)
		return ERR_INVAL;
	if (full >= SIZE_MAX / 4 - 2)
		return ERR_TOO_BIG;
	if ((s = malloc(4 * (full + 1) + 1)) == NULL)
		return ERR_NOMEM;
	p = s;
	for (i = 0; i < full; i++, in += 3) {
		v = ((uint32_t)in[0] << 16) | ((uint32_t)in[1] << 8) | in[2];
		*p++ = abc[(v >> 18) & 0x3f];
		*p++ = abc[(v >> 12) & 0x3f];
		*p++ = abc[(v >> 6) & 0x3f];
		*p++ = abc[v & 0x3f];
	}
	if (rest > 0) {
		v = (uint32_t)in[0] << 16;
		if (rest == 2)
			v |= (uint32_t)in[1] << 8;
		*p++ = abc[(v >> 18) & 0x3f];
		*p++ = abc[(v >> 12) & 0x3f];
		if (rest == 2)
			*p++ = abc[(v >> 6) & 0x3f];
		else if (pad)
			*p++ = '=';
		if (pad)
			*p++ = '=';
	}
	*p = '\0';
	*out = s;
	return ERR_OK;
}

int
b64_encode(const uint8_t *in, size_t len, char **out)
{
	return encode(in, len, b64_std, 1, out);
}

int
b64url_encode(const uint8_t *in, size_t len, char **out)
{
	return encode(in, len, b64_url, 0, out);
}

/* Value of c in alphabet abc, or -1. Never matches '\0' or '='. Both
 * alphabets share their first 62 characters (A-Z, a-z, 0-9) and differ
 * in the last two; compared, not searched (a strchr per character was
 * most of decoding a mapping line, issue 27 item 9). */
static int
b64_value(const char *abc, char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == abc[62])
		return 62;
	if (c == abc[63])
		return 63;
	return -1;
}

/* Decode n characters (no padding, n % 4 != 1) into out. Trailing bits of
 * a partial quantum must be zero. */
static int
decode_bits(
    const char *in, size_t n, const char *abc, uint8_t *out, size_t *outlen)
{
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t i, o = 0;
	int v;

	for (i = 0; i < n; i++) {
		if ((v = b64_value(abc, in[i])) < 0)
			return ERR_PARSE;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
			acc &= (1U << bits) - 1;
		}
	}
	if (acc != 0)
		return ERR_PARSE; /* non-zero trailing bits */
	*outlen = o;
	return ERR_OK;
}

static int
decode(const char *in, size_t len, const char *abc, int pad, uint8_t **out,
    size_t *outlen)
{
	uint8_t *buf = NULL;
	size_t n = len, got = 0;
	int r;

	*out = NULL;
	*outlen = 0;
	if (in == NULL && len > 0)
		return ERR_INVAL;
	if (pad) {
		if (len % 4 != 0)
			return ERR_PARSE;
		if (n > 0 && in[n - 1] == '=')
			n--;
		if (n > 0 && in[n - 1] == '=')
			n--;
	}
	if (n % 4 == 1)
		return ERR_PARSE;
	if ((buf = malloc(n / 4 * 3 + 3)) == NULL)
		return ERR_NOMEM;
	if ((r = decode_bits(in, n, abc, buf, &got)) != ERR_OK) {
		util_freezero(buf, n / 4 * 3 + 3);
		return r;
	}
	*out = buf;
	*outlen = got;
	return ERR_OK;
}

int
b64_decode(const char *in, size_t len, uint8_t **out, size_t *outlen)
{
	return decode(in, len, b64_std, 1, out, outlen);
}

int
b64url_decode(const char *in, size_t len, uint8_t **out, size_t *outlen)
{
	return decode(in, len, b64_url, 0, out, outlen);
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
hex_decode(const char *in, size_t len, uint8_t **out, size_t *outlen)
{
	uint8_t *buf = NULL;
	size_t i;
	int hi, lo;

	*out = NULL;
	*outlen = 0;
	if (in == NULL && len > 0)
		return ERR_INVAL;
	if (len % 2 != 0)
		return ERR_PARSE;
	if ((buf = malloc(len / 2 + 1)) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < len / 2; i++) {
		hi = hex_value(in[2 * i]);
		lo = hex_value(in[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			util_freezero(buf, len / 2 + 1);
			return ERR_PARSE;
		}
		buf[i] = (uint8_t)((hi << 4) | lo);
	}
	*out = buf;
	*outlen = len / 2;
	return ERR_OK;
}

int
hex_encode(const uint8_t *in, size_t len, char **out)
{
	char *s = NULL;
	size_t i;

	*out = NULL;
	if (in == NULL && len > 0)
		return ERR_INVAL;
	if (len >= SIZE_MAX / 2)
		return ERR_TOO_BIG;
	if ((s = malloc(2 * len + 1)) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < len; i++) {
		s[2 * i] = hex_digits[in[i] >> 4];
		s[2 * i + 1] = hex_digits[in[i] & 0x0f];
	}
	s[2 * len] = '\0';
	*out = s;
	return ERR_OK;
}
