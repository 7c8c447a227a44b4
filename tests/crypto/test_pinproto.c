/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for crypto/pinproto.c: known answers computed with
 * python3-fido2's PinProtocolV1/V2 for fixed P-256 keys (ctap2kat.h,
 * tests/lib/ctap2kat.py), both sides of the key agreement, round trips, and
 * the refusals. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "crypto/pinproto.h"
#include "crypto/pinproto_int.h"
#include "ctap2fix.h"
#include "ctap2kat.h"
#include "test.h"

struct keys {
	struct vec plat_priv, plat_x, plat_y, auth_priv, auth_x, auth_y;
};

static void
keys_load(struct keys *k)
{
	k->plat_priv = vec_hex(PIN_PLAT_PRIV);
	k->plat_x = vec_hex(PIN_PLAT_X);
	k->plat_y = vec_hex(PIN_PLAT_Y);
	k->auth_priv = vec_hex(PIN_AUTH_PRIV);
	k->auth_x = vec_hex(PIN_AUTH_X);
	k->auth_y = vec_hex(PIN_AUTH_Y);
}

static void
keys_free(struct keys *k)
{
	vec_free(&k->plat_priv);
	vec_free(&k->plat_x);
	vec_free(&k->plat_y);
	vec_free(&k->auth_priv);
	vec_free(&k->auth_x);
	vec_free(&k->auth_y);
}

/* The platform's agreement with the fixed keys: our public key, and the
 * shared secret python3-fido2 derived. */
static void
kat_agree(int proto, const char *shared_hex, struct pin_shared *s)
{
	struct keys k;
	struct vec want = vec_hex(shared_hex);
	uint8_t x[32], y[32];

	keys_load(&k);
	T_EQ_ERR(pin_agree_with(
		     proto, k.plat_priv.p, k.auth_x.p, k.auth_y.p, x, y, s),
	    ERR_OK);
	T_EQ_MEM(x, k.plat_x.p, 32);
	T_EQ_MEM(y, k.plat_y.p, 32);
	T_EQ_INT(s->proto, proto);
	T_EQ_INT(s->len, want.n);
	T_EQ_MEM(s->key, want.p, want.n);
	keys_free(&k);
	vec_free(&want);
}

static void
check_auth(
    const struct pin_shared *s, const char *shared_mac, const char *token_mac)
{
	struct vec cdh = vec_hex(PIN_CDH), token = vec_hex(PIN_TOKEN),
		   m1 = vec_hex(shared_mac), m2 = vec_hex(token_mac);
	uint8_t out[PIN_AUTH_MAX];
	size_t n = 0;

	T_EQ_ERR(pin_auth_shared(s, cdh.p, cdh.n, out, &n), ERR_OK);
	T_EQ_INT(n, m1.n);
	T_EQ_MEM(out, m1.p, m1.n);
	T_EQ_ERR(
	    pin_auth_token(s->proto, token.p, token.n, cdh.p, cdh.n, out, &n),
	    ERR_OK);
	T_EQ_INT(n, m2.n);
	T_EQ_MEM(out, m2.p, m2.n);
	cdh.p[0] ^= 1;
	T_EQ_ERR(
	    pin_auth_token(s->proto, token.p, token.n, cdh.p, cdh.n, out, &n),
	    ERR_OK);
	T_TRUE(memcmp(out, m2.p, m2.n) != 0);
	vec_free(&cdh);
	vec_free(&token);
	vec_free(&m1);
	vec_free(&m2);
}

static void
protocol1_kat(void)
{
	struct vec hash = vec_hex(PIN_HASH16), enc = vec_hex(PIN1_PINHASHENC);
	struct pin_shared s;
	uint8_t out[64];
	size_t n = 0;

	kat_agree(1, PIN1_SHARED, &s);
	T_EQ_ERR(pin_encrypt(&s, hash.p, hash.n, out, sizeof(out), &n), ERR_OK);
	T_EQ_INT(n, 16); /* IV 0, nothing prepended */
	T_EQ_MEM(out, enc.p, 16);
	T_EQ_ERR(pin_decrypt(&s, enc.p, enc.n, out, sizeof(out), &n), ERR_OK);
	T_EQ_INT(n, 16);
	T_EQ_MEM(out, hash.p, 16);
	check_auth(&s, PIN1_AUTH_SHARED, PIN1_AUTH_TOKEN);
	pin_shared_clear(&s);
	T_EQ_INT(s.len, 0);
	vec_free(&hash);
	vec_free(&enc);
}

static void
protocol2_kat(void)
{
	struct vec hash = vec_hex(PIN_HASH16), enc = vec_hex(PIN2_PINHASHENC);
	struct pin_shared s;
	uint8_t a[64], b[64], plain[64];
	size_t na = 0, nb = 0, n = 0;

	kat_agree(2, PIN2_SHARED, &s);
	T_EQ_ERR(
	    pin_decrypt(&s, enc.p, enc.n, plain, sizeof(plain), &n), ERR_OK);
	T_EQ_INT(n, 16);
	T_EQ_MEM(plain, hash.p, 16);
	/* A random IV, prepended: two encryptions differ, both decrypt. */
	T_EQ_ERR(pin_encrypt(&s, hash.p, hash.n, a, sizeof(a), &na), ERR_OK);
	T_EQ_ERR(pin_encrypt(&s, hash.p, hash.n, b, sizeof(b), &nb), ERR_OK);
	T_EQ_INT(na, 32);
	T_EQ_INT(nb, 32);
	T_TRUE(memcmp(a, b, 16) != 0);
	T_TRUE(memcmp(a + 16, b + 16, 16) != 0);
	T_EQ_ERR(pin_decrypt(&s, b, nb, plain, sizeof(plain), &n), ERR_OK);
	T_EQ_MEM(plain, hash.p, 16);
	a[0] ^= 1; /* the IV is used: a changed IV changes the first block */
	T_EQ_ERR(pin_decrypt(&s, a, na, plain, sizeof(plain), &n), ERR_OK);
	T_TRUE(memcmp(plain, hash.p, 16) != 0);
	check_auth(&s, PIN2_AUTH_SHARED, PIN2_AUTH_TOKEN);
	pin_shared_clear(&s);
	vec_free(&hash);
	vec_free(&enc);
}

/* pin_agree's fresh key: the authenticator, agreeing with the public key
 * it returns, gets the same secret. */
static void
round_trip(void)
{
	struct keys k;
	struct pin_shared ours, theirs;
	uint8_t x[32], y[32], ax[32], ay[32], buf[80], back[64];
	uint8_t msg[64];
	size_t n = 0, m = 0;
	int proto;

	keys_load(&k);
	memset(msg, 0x5a, sizeof(msg));
	for (proto = 1; proto <= 2; proto++) {
		T_EQ_ERR(pin_agree(proto, k.auth_x.p, k.auth_y.p, x, y, &ours),
		    ERR_OK);
		T_EQ_ERR(
		    pin_agree_with(proto, k.auth_priv.p, x, y, ax, ay, &theirs),
		    ERR_OK);
		T_EQ_MEM(ax, k.auth_x.p, 32);
		T_EQ_INT(ours.len, theirs.len);
		T_EQ_MEM(ours.key, theirs.key, ours.len);
		T_EQ_ERR(
		    pin_encrypt(&ours, msg, 64, buf, sizeof(buf), &n), ERR_OK);
		T_EQ_ERR(pin_decrypt(&theirs, buf, n, back, sizeof(back), &m),
		    ERR_OK);
		T_EQ_INT(m, 64);
		T_EQ_MEM(back, msg, 64);
		pin_shared_clear(&ours);
		pin_shared_clear(&theirs);
	}
	keys_free(&k);
}

static void
refusals(void)
{
	struct keys k;
	struct pin_shared s;
	uint8_t x[32], y[32], buf[64], zero[32] = {0}, token[32] = {0};
	size_t n = 0;

	keys_load(&k);
	T_EQ_ERR(pin_agree(3, k.auth_x.p, k.auth_y.p, x, y, &s), ERR_INVAL);
	k.auth_y.p[31] ^= 1; /* off the curve */
	T_EQ_ERR(pin_agree(2, k.auth_x.p, k.auth_y.p, x, y, &s), ERR_PARSE);
	T_EQ_INT(s.len, 0);
	k.auth_y.p[31] ^= 1;
	T_EQ_ERR(pin_agree_with(1, zero, k.auth_x.p, k.auth_y.p, x, y, &s),
	    ERR_PARSE);
	T_EQ_ERR(pin_agree(1, k.auth_x.p, k.auth_y.p, x, y, &s), ERR_OK);
	T_EQ_ERR(pin_encrypt(&s, buf, 15, buf, sizeof(buf), &n), ERR_INVAL);
	T_EQ_ERR(pin_encrypt(&s, buf, 32, buf + 32, 16, &n), ERR_TOO_BIG);
	T_EQ_ERR(pin_decrypt(&s, buf, 17, buf, sizeof(buf), &n), ERR_PARSE);
	T_EQ_ERR(pin_auth_token(1, token, 15, buf, 1, buf, &n), ERR_INVAL);
	pin_shared_clear(&s);
	T_EQ_ERR(pin_agree(2, k.auth_x.p, k.auth_y.p, x, y, &s), ERR_OK);
	T_EQ_ERR(pin_decrypt(&s, buf, 8, buf + 8, 32, &n), ERR_PARSE);
	T_EQ_ERR(pin_decrypt(&s, buf, 40, buf + 40, 24, &n), ERR_PARSE);
	T_EQ_ERR(pin_encrypt(&s, buf, 16, buf + 16, 31, &n), ERR_TOO_BIG);
	T_EQ_ERR(pin_auth_token(2, token, 16, buf, 1, buf, &n), ERR_INVAL);
	pin_shared_clear(&s);
	T_EQ_ERR(pin_encrypt(&s, buf, 16, buf + 16, 32, &n), ERR_INVAL);
	keys_free(&k);
}

TEST_MAIN(
    TEST(protocol1_kat), TEST(protocol2_kat), TEST(round_trip), TEST(refusals))
