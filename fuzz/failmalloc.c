/* SPDX-License-Identifier: BSD-2-Clause */
/* Allocation-failure injection: see failmalloc.h. The state is per
 * process; libFuzzer runs one input at a time on one thread. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "failmalloc.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_reallocarray(void *p, size_t nmemb, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

static struct {
	int armed;
	size_t seen;
	size_t fail_at;
	int injected;
} fm;

/* Count one allocation; nonzero when this one must fail. */
static int
fm_fail(int source)
{
	if (!fm.armed)
		return 0;
	fm.seen++;
	if (fm.fail_at == 0 || fm.seen != fm.fail_at)
		return 0;
	fm.injected = source;
	return 1;
}

void *
__wrap_malloc(size_t n)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t nmemb, size_t size)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL : __real_calloc(nmemb, size);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL : __real_realloc(p, n);
}

void *
__wrap_reallocarray(void *p, size_t nmemb, size_t size)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL
					: __real_reallocarray(p, nmemb, size);
}

char *
__wrap_strdup(const char *s)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL : __real_strdup(s);
}

char *
__wrap_strndup(const char *s, size_t n)
{
	return fm_fail(FAILMALLOC_OURS) ? NULL : __real_strndup(s, n);
}

static void *
fm_crypto_malloc(size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	return fm_fail(FAILMALLOC_CRYPTO) ? NULL : __real_malloc(n);
}

static void *
fm_crypto_realloc(void *p, size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	return fm_fail(FAILMALLOC_CRYPTO) ? NULL : __real_realloc(p, n);
}

static void
fm_crypto_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	free(p);
}

int
failmalloc_init(void)
{
	if (CRYPTO_set_mem_functions(
		fm_crypto_malloc, fm_crypto_realloc, fm_crypto_free) != 1)
		return -1;
	return 0;
}

void
failmalloc_arm(size_t n)
{
	fm.armed = 1;
	fm.seen = 0;
	fm.fail_at = n;
	fm.injected = FAILMALLOC_NONE;
}

size_t
failmalloc_disarm(void)
{
	fm.armed = 0;
	return fm.seen;
}

int
failmalloc_injected(void)
{
	return fm.injected;
}
