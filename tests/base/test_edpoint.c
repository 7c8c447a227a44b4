/* SPDX-License-Identifier: BSD-2-Clause */
/* common/base/edpoint.c: Ed25519 public keys are curve points of large
 * order. Against tests/base/edpoint_kat.h (computed by
 * tests/base/edpoint_kat.py from RFC 8032; RFC 8032 7.1's keys among them),
 * against keys OpenSSL makes, and through the places that read keys: the
 * enrollment path's COSE key (cose_key_read), passkey: values and
 * crypto_pk_normal. */
#include "config.h"

#include <string.h>

#include <openssl/evp.h>

#include "base/cbor.h"
#include "base/cred.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "crypto/cosesig.h"
#include "edpoint_kat.h"
#include "proto/cose.h"
#include "test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
test_kat(void)
{
	uint8_t k[32];
	size_t i;

	for (i = 0; i < N(edkat_valid); i++) {
		T_EQ_ERR(edpoint_check(edkat_valid[i]), ERR_OK);
		/* -x: the sign bit flipped is a point too (x is not 0) */
		memcpy(k, edkat_valid[i], 32);
		k[31] ^= 0x80;
		T_EQ_ERR(edpoint_check(k), ERR_OK);
	}
	for (i = 0; i < N(edkat_bad); i++)
		T_EQ_ERR(edpoint_check(edkat_bad[i]), ERR_PARSE);
	T_EQ_ERR(edpoint_check(NULL), ERR_PARSE);
}

/* Every public key OpenSSL generates is taken. */
static void
test_openssl_keys(void)
{
	uint8_t pk[32];
	size_t n, i;
	EVP_PKEY *k;

	for (i = 0; i < 200; i++) {
		n = sizeof(pk);
		k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
		T_TRUE(k != NULL);
		if (k == NULL)
			return;
		T_TRUE(EVP_PKEY_get_raw_public_key(k, pk, &n) == 1 && n == 32);
		T_EQ_ERR(edpoint_check(pk), ERR_OK);
		EVP_PKEY_free(k);
	}
}

/* A COSE OKP key as a device returns it at enrollment (MakeCredential's
 * attested credential data), read by cose_key_read. */
static int
cose_read(const uint8_t x[32])
{
	uint8_t buf[128], pk[COSESIG_PK_MAX];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len = 0, n = 0;
	int type = 0;

	cbor_wr_init(&w, buf, sizeof(buf));
	T_EQ_ERR(cose_key_write(&w, COSE_EDDSA, x, 32), ERR_OK);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	cbor_rd_init(&r, buf, len);
	return cose_key_read(&r, &type, pk, &n);
}

static void
test_enrollment(void)
{
	uint8_t out[COSESIG_PK_MAX];
	size_t n;

	T_EQ_ERR(cose_read(edkat_valid[0]), ERR_OK);
	T_EQ_ERR(cose_read(edkat_bad[0]), ERR_PARSE); /* y = 2: no point */
	T_EQ_ERR(cose_read(edkat_bad[N(edkat_bad) - 1]), ERR_PARSE);
	T_EQ_ERR(
	    crypto_pk_normal(COSE_EDDSA, edkat_bad[0], 32, out, &n), ERR_PARSE);
	T_EQ_ERR(
	    crypto_pk_normal(COSE_EDDSA, edkat_valid[1], 32, out, &n), ERR_OK);
}

TEST_MAIN(TEST(test_kat), TEST(test_openssl_keys), TEST(test_enrollment))
