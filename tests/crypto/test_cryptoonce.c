/* SPDX-License-Identifier: BSD-2-Clause */
/* The ES256 implementation is chosen once per process
 * (common/crypto/crypto_select.c): the kernel's FIPS switch is read at
 * most once, however many checks run and from however many threads, and
 * never in a build without the direct implementation. Each check used to
 * reopen /proc/sys/crypto/fips_enabled.
 *
 * The reader, crypto_fips_mode (crypto_fips.c), is wrapped at link time
 * (-Wl,--wrap=crypto_fips_mode, tests/crypto/local.mk): __wrap_crypto_fips_mode
 * counts the calls and passes them on to the real one. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "crypto/crypto.h"
#include "crypto/crypto_int.h"
#include "test.h"
#include "u2fkat.h"

#define THREADS 4
#define CHECKS 8

int __real_crypto_fips_mode(const char *path);
int __wrap_crypto_fips_mode(const char *path);

static pthread_mutex_t reads_lock = PTHREAD_MUTEX_INITIALIZER;
static int reads;       /* calls of crypto_fips_mode */
static int reads_other; /* ... with another path than the kernel's */

int
__wrap_crypto_fips_mode(const char *path)
{
	pthread_mutex_lock(&reads_lock);
	reads++;
	if (path == NULL || strcmp(path, CRYPTO_FIPS_PATH) != 0)
		reads_other++;
	pthread_mutex_unlock(&reads_lock);
	return __real_crypto_fips_mode(path);
}

static int
reads_now(void)
{
	int n;

	pthread_mutex_lock(&reads_lock);
	n = reads;
	pthread_mutex_unlock(&reads_lock);
	return n;
}

/* The U2F specification's authentication example (u2fkat.h). */
struct kat {
	uint8_t *key, *app, *chal, *sig;
	size_t key_len, app_len, chal_len, sig_len;
};

static void
kat_load(struct kat *k)
{
	k->key = test_unhex(AUTH_KEY, &k->key_len);
	k->app = test_unhex(AUTH_APP, &k->app_len);
	k->chal = test_unhex(AUTH_CHAL, &k->chal_len);
	k->sig = test_unhex(AUTH_SIG, &k->sig_len);
}

static void
kat_free(struct kat *k)
{
	free(k->key);
	free(k->app);
	free(k->chal);
	free(k->sig);
}

/* CHECKS signature checks, hashes and point checks; the number that
 * failed. */
static void *
checks(void *arg)
{
	const struct kat *k = arg;
	uint8_t out[65];
	intptr_t bad = 0;
	int i;

	for (i = 0; i < CHECKS; i++) {
		bad += crypto_verify_u2f_auth(k->key, k->app, 0x01, 1, k->chal,
			   k->sig, k->sig_len) != ERR_OK;
		bad += crypto_sha256(k->app, k->app_len, out) != ERR_OK;
		bad += crypto_p256_point(k->key, k->key_len, out) != ERR_OK;
	}
	return (void *)bad;
}

static void
read_once(void)
{
	pthread_t t[THREADS];
	struct kat k;
	void *bad;
	int i;

	kat_load(&k);
	T_EQ_INT(reads_now(), 0); /* nothing checked yet */
	/* the first checks race in several threads */
	for (i = 0; i < THREADS; i++)
		T_EQ_INT(pthread_create(&t[i], NULL, checks, &k), 0);
	for (i = 0; i < THREADS; i++) {
		T_EQ_INT(pthread_join(t[i], &bad), 0);
		T_EQ_INT((intptr_t)bad, 0);
	}
	bad = checks(&k);
	T_EQ_INT((intptr_t)bad, 0);
	T_TRUE(crypto_verify_impl() != NULL);
	/* the switch read once, and only where the direct implementation
	 * exists to be chosen */
	T_EQ_INT(reads_now(), DIRECT_VERIFY ? 1 : 0);
	T_EQ_INT(reads_other, 0);
	kat_free(&k);
}

/* The hook sees every read: crypto_impl_at reads the file at each call
 * (in a build with the direct implementation), and the process's choice
 * is the one it gives for the kernel's file. */
static void
hook_counts(void)
{
	int before = reads_now();

	T_EQ_STR(crypto_verify_impl(), crypto_verify_impl_at(CRYPTO_FIPS_PATH));
	T_EQ_INT(reads_now(), before + (DIRECT_VERIFY ? 1 : 0));
	crypto_impl_at(CRYPTO_FIPS_PATH);
	crypto_impl_at(CRYPTO_FIPS_PATH);
	T_EQ_INT(reads_now(), before + (DIRECT_VERIFY ? 3 : 0));
	T_TRUE(crypto_impl() == crypto_impl());
	T_EQ_INT(reads_now(), before + (DIRECT_VERIFY ? 3 : 0));
}

TEST_MAIN(TEST(read_once), TEST(hook_counts))
