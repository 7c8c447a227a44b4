/* SPDX-License-Identifier: BSD-2-Clause */
/* Ed25519 public keys: RFC 8032 5.1.3 point decoding, reduced to the
 * question "is there such a point", and the small-order points refused.
 * Field elements mod p = 2^255 - 19 in sixteen 16-bit limbs (as in
 * TweetNaCl), products in 64-bit sums; no constant time (keys are
 * public). Touches nothing but its arguments. */
#include "config.h"

#include <string.h>

#include "edpoint.h"
#include "err.h"

#define NL 16

typedef uint32_t fe[NL]; /* little-endian 16-bit limbs, value < 2^256 */

/* d = -121665 / 121666 mod p, the curve constant. */
static const fe ed_d = {0x78a3, 0x1359, 0x4dca, 0x75eb, 0xd8ab, 0x4141, 0x0a4d,
    0x0070, 0xe898, 0x7779, 0x4079, 0x8cc7, 0xfe73, 0x2b6f, 0x6cee, 0x5203};
/* p - 1, so that a + (p - 1) is a - 1 mod p. */
static const fe ed_pm1 = {0xffec, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
    0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
    0x7fff};
static const fe ed_one = {1};

/* y of the points of order 8 (the others of small order have y = 0, 1
 * and p - 1), little-endian. */
static const uint8_t ed_y8[2][EDPOINT_LEN] = {
    {0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89,
	0xf2, 0xef, 0x98, 0xf0, 0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39,
	0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
    {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76,
	0x0d, 0x10, 0x67, 0x0f, 0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6,
	0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a},
};

/* Limbs of any size (< 2^60) into r, folding 2^256 = 38 (mod p). */
static void
fe_carry(uint64_t t[NL], fe r)
{
	uint64_t c;
	int i;

	do {
		c = 0;
		for (i = 0; i < NL; i++) {
			t[i] += c;
			c = t[i] >> 16;
			t[i] &= 0xffff;
		}
		t[0] += 38 * c;
	} while (c != 0);
	for (i = 0; i < NL; i++)
		r[i] = (uint32_t)t[i];
}

static void
fe_mul(fe r, const fe a, const fe b)
{
	uint64_t t[2 * NL - 1];
	int i, j;

	memset(t, 0, sizeof(t));
	for (i = 0; i < NL; i++)
		for (j = 0; j < NL; j++)
			t[i + j] += (uint64_t)a[i] * b[j];
	for (i = 2 * NL - 2; i >= NL; i--)
		t[i - NL] += 38 * t[i];
	fe_carry(t, r);
}

static void
fe_add(fe r, const fe a, const fe b)
{
	uint64_t t[NL];
	int i;

	for (i = 0; i < NL; i++)
		t[i] = (uint64_t)a[i] + b[i];
	fe_carry(t, r);
}

/* r = a^((p - 1) / 2) = a^(2^254 - 10): 1 for a nonzero square, p - 1
 * for a non-square (Euler's criterion). Bits 253..4 of the exponent are
 * set, then 0110. */
static void
fe_euler(fe r, const fe a)
{
	fe x;
	int i;

	memcpy(x, ed_one, sizeof(x));
	for (i = 253; i >= 0; i--) {
		fe_mul(x, x, x);
		if (i >= 4 || i == 2 || i == 1)
			fe_mul(x, x, a);
	}
	memcpy(r, x, sizeof(x));
}

/* a fully reduced (0 <= a < p). */
static void
fe_canon(fe a)
{
	uint64_t t[NL];
	int i, k;

	for (k = 0; k < 2; k++) { /* fold bit 255: 2^255 = 19 */
		for (i = 0; i < NL; i++)
			t[i] = a[i];
		t[0] += 19 * (t[NL - 1] >> 15);
		t[NL - 1] &= 0x7fff;
		fe_carry(t, a);
	}
	for (i = 1; i < NL - 1 && a[i] == 0xffff; i++)
		;
	if (i == NL - 1 && a[NL - 1] == 0x7fff && a[0] >= 0xffed) {
		a[0] -= 0xffed; /* a - p: the other limbs become 0 */
		memset(a + 1, 0, (NL - 1) * sizeof(a[0]));
	}
}

static int
fe_is(const fe a, const fe b)
{
	fe x, y;

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	fe_canon(x);
	fe_canon(y);
	return memcmp(x, y, sizeof(x)) == 0;
}

/* y (bit 255 dropped) below p? */
static int
y_canonical(const uint8_t pk[EDPOINT_LEN])
{
	int i;

	if ((pk[31] & 0x7f) != 0x7f)
		return 1;
	for (i = 30; i > 0; i--)
		if (pk[i] != 0xff)
			return 1;
	return pk[0] < 0xed;
}

/* y is 0, 1, p - 1, or that of a point of order 8. */
static int
y_small_order(const fe y, const uint8_t pk[EDPOINT_LEN])
{
	static const fe zero = {0};
	uint8_t b[EDPOINT_LEN];

	memcpy(b, pk, sizeof(b));
	b[31] &= 0x7f;
	return fe_is(y, zero) || fe_is(y, ed_one) || fe_is(y, ed_pm1) ||
	    memcmp(b, ed_y8[0], sizeof(b)) == 0 ||
	    memcmp(b, ed_y8[1], sizeof(b)) == 0;
}

int
edpoint_check(const uint8_t pk[EDPOINT_LEN])
{
	fe y, y2, u, v, w;
	int i;

	if (pk == NULL || !y_canonical(pk))
		return ERR_PARSE;
	for (i = 0; i < NL; i++)
		y[i] = (uint32_t)pk[2 * i] | (uint32_t)pk[2 * i + 1] << 8;
	y[NL - 1] &= 0x7fff;
	if (y_small_order(y, pk))
		return ERR_PARSE; /* also x = 0: y = 1 or p - 1 */
	fe_mul(y2, y, y);
	fe_add(u, y2, ed_pm1); /* y^2 - 1, not 0 here */
	fe_mul(v, ed_d, y2);
	fe_add(v, v, ed_one); /* d y^2 + 1, never 0 (d is no square) */
	fe_mul(w, u, v);      /* u / v is a square iff u v is */
	fe_euler(w, w);
	return fe_is(w, ed_one) ? ERR_OK : ERR_PARSE;
}
