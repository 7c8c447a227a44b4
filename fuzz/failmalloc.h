/* SPDX-License-Identifier: BSD-2-Clause */
/* Allocation-failure injection for the fuzz harnesses, without touching
 * production code: the harnesses are linked with
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray,
 *   -Wl,--wrap=strdup,--wrap=strndup
 * so every call to those functions from objects linked statically into the
 * harness (the common/ and pam_u2f/ sources, compiled a second time for
 * fuzzing) goes through the wrappers below. OpenSSL (a shared library) is
 * routed through the same counter with CRYPTO_set_mem_functions(), which
 * failmalloc_init() calls before OpenSSL allocates anything.
 *
 * While armed, allocations are counted; the n-th one (1-based) returns
 * NULL. Only that one fails. Allocations made inside libc itself (fopen,
 * qsort...) are not seen. */
#ifndef PU_FUZZ_FAILMALLOC_H
#define PU_FUZZ_FAILMALLOC_H

#include <stddef.h>

/* Where the injected failure happened. */
enum {
	FAILMALLOC_NONE = 0,
	FAILMALLOC_OURS,  /* a wrapped call from our own code */
	FAILMALLOC_CRYPTO /* an allocation inside OpenSSL */
};

/* Route OpenSSL's allocations through the counter. 0 on success, -1 if
 * OpenSSL had already allocated (then its allocations are not counted). */
int failmalloc_init(void);
/* Start counting; fail the n-th allocation from now (0: only count). */
void failmalloc_arm(size_t n);
/* Stop counting; return how many allocations were seen while armed. */
size_t failmalloc_disarm(void);
/* FAILMALLOC_* for the last armed period. */
int failmalloc_injected(void);

/* The wrappers the linker substitutes (declared for -Wmissing-prototypes). */
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_reallocarray(void *p, size_t nmemb, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

#endif
