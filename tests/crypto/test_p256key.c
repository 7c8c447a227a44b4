/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for common/crypto/p256key.c: a P-256 point imported through
 * the process's key template (crypto_pkey_p256) gives the same answers
 * as the import from the group's name (crypto_pkey_p256_fresh) for the
 * known-answer keys, every one-bit change of a key, and points that are
 * not keys; only the uncompressed form is taken; and threads importing
 * and verifying at once all get the right answer. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "crypto/crypto_int.h"
#include "crypto/crypto_ossl.h"
#include "base/err.h"
#include "test.h"
#include "u2fkat.h"

#define THREADS 8
#define ROUNDS 25

static uint8_t *
unhex(const char *hex)
{
	size_t n;

	return test_unhex(hex, &n);
}

/* The answers of both imports for point; 0 when they differ. */
static int
imports_agree(const uint8_t point[65])
{
	EVP_PKEY *a = NULL, *b = NULL;
	unsigned char *enc = NULL;
	size_t n;
	int ra, rb, same;

	ra = crypto_pkey_p256(point, &a);
	rb = crypto_pkey_p256_fresh(point, &b);
	same = ra == rb && (a == NULL) == (b == NULL) &&
	    (ra == ERR_OK) == (a != NULL);
	if (same && a != NULL) {
		n = EVP_PKEY_get1_encoded_public_key(a, &enc);
		same = EVP_PKEY_eq(a, b) == 1 && n == 65 &&
		    memcmp(enc, point, 65) == 0;
	}
	OPENSSL_free(enc);
	EVP_PKEY_free(a);
	EVP_PKEY_free(b);
	return same;
}

static void
template_agrees(void)
{
	uint8_t *key = unhex(AUTH_KEY), *reg;
	uint8_t pt[65];
	size_t i, bit, regn;
	EVP_PKEY *k = NULL;
	int bad = 0, ok = 0;

	reg = test_unhex(REG_REPLY, &regn);
	T_TRUE(regn > REG_POINT_OFF + 65);
	T_EQ_ERR(crypto_pkey_p256(key, &k), ERR_OK);
	EVP_PKEY_free(k);
	T_TRUE(imports_agree(key));
	T_TRUE(imports_agree(reg + REG_POINT_OFF));
	for (i = 1; i < 65; i++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(pt, key, 65);
			pt[i] ^= (uint8_t)(1u << bit);
			bad += !imports_agree(pt);
			ok += crypto_pkey_p256(pt, &k) == ERR_OK;
			EVP_PKEY_free(k);
			k = NULL;
		}
	T_EQ_INT(bad, 0);
	T_EQ_INT(ok, 0); /* no one-bit change of a key is on the curve */
	memset(pt, 0xff, sizeof(pt)); /* coordinates not below p */
	pt[0] = 0x04;
	T_TRUE(imports_agree(pt));
	memset(pt + 1, 0, 64); /* (0, 0): not on the curve */
	T_TRUE(imports_agree(pt));
	T_EQ_ERR(crypto_pkey_p256(pt, &k), ERR_PARSE);
	T_TRUE(k == NULL);
	free(reg);
	free(key);
}

/* The compressed (02, 03) and hybrid (06, 07) forms of a valid key are
 * refused: the template's setter would take them. */
static void
only_uncompressed(void)
{
	uint8_t *key = unhex(AUTH_KEY);
	uint8_t pt[65];
	static const uint8_t forms[] = {0x00, 0x02, 0x03, 0x05, 0x06, 0x07};
	EVP_PKEY *k = NULL;
	size_t i;

	for (i = 0; i < sizeof(forms); i++) {
		memcpy(pt, key, 65);
		pt[0] = forms[i];
		T_EQ_ERR(crypto_pkey_p256(pt, &k), ERR_PARSE);
		T_TRUE(k == NULL);
		T_EQ_ERR(crypto_pkey_p256_fresh(pt, &k), ERR_PARSE);
		T_TRUE(k == NULL);
	}
	free(key);
}

struct job {
	const uint8_t *key, *msg, *sig;
	size_t msg_len, sig_len;
	int wrong;
};

/* ROUNDS checks of the good signature and of a damaged message. */
static void *
job_run(void *arg)
{
	struct job *j = arg;
	uint8_t msg[128];
	int i;

	memcpy(msg, j->msg, j->msg_len);
	for (i = 0; i < ROUNDS; i++) {
		if (crypto_es256_verify_evp(
			j->key, msg, j->msg_len, j->sig, j->sig_len) != ERR_OK)
			j->wrong++;
		msg[0] ^= 1;
		if (crypto_es256_verify_evp(j->key, msg, j->msg_len, j->sig,
			j->sig_len) != ERR_VERIFY)
			j->wrong++;
		msg[0] ^= 1;
	}
	return NULL;
}

static void
threads_share_template(void)
{
	uint8_t *key = unhex(AUTH_KEY);
	uint8_t *app = unhex(AUTH_APP);
	uint8_t *chal = unhex(AUTH_CHAL);
	uint8_t *sig = unhex(AUTH_SIG);
	uint8_t msg[32 + 1 + 4 + 32];
	struct job jobs[THREADS];
	pthread_t t[THREADS];
	int i, started = 0, wrong = 0;

	/* U2F's signed bytes: app id, flags 01, counter 1, challenge. */
	memcpy(msg, app, 32);
	memcpy(msg + 32, "\x01\x00\x00\x00\x01", 5);
	memcpy(msg + 37, chal, 32);
	for (i = 0; i < THREADS; i++) {
		jobs[i] =
		    (struct job){key, msg, sig, sizeof(msg), AUTH_SIG_LEN, 0};
		started += pthread_create(&t[i], NULL, job_run, &jobs[i]) == 0;
	}
	T_EQ_INT(started, THREADS);
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		wrong += jobs[i].wrong;
	}
	T_EQ_INT(wrong, 0);
	free(key);
	free(app);
	free(chal);
	free(sig);
}

TEST_MAIN(TEST(template_agrees), TEST(only_uncompressed),
    TEST(threads_share_template))
