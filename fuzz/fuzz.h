/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared parts of the libFuzzer harnesses: the run-twice driver that
 * injects one allocation failure per input, a digest for comparing two
 * runs, and a checked abort. See fuzz/README. */
#ifndef PU_FUZZ_H
#define PU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "failmalloc.h"

/* One pass of a harness over its input: call the production code through
 * FUZZ_CALL and check what it returned. A pass must not abort when a
 * production call fails with ERR_NOMEM (or any error, when an allocation
 * was made to fail). */
typedef void (*fuzz_pass_fn)(void *arg);

/* Run pass once counting allocations, then once more failing the
 * allocation chosen by a hash of (data, len). Set FUZZ_NO_FAILMALLOC=1 in
 * the environment to run each input once. */
void fuzz_run(fuzz_pass_fn pass, void *arg, const uint8_t *data, size_t len);

/* r = expr, a production call returning ERR_*. Aborts when r is not an
 * ERR_* code, or when an allocation of our own code was made to fail
 * inside the call and it still returned ERR_OK. (A failure injected into
 * OpenSSL may be absorbed by OpenSSL: only a crash is caught then.) */
#define FUZZ_CALL(r, expr)                                                     \
	do {                                                                   \
		int fuzz_before_ = failmalloc_injected();                      \
		(r) = (expr);                                                  \
		fuzz_after_call(fuzz_before_, (r), #expr, __FILE__, __LINE__); \
	} while (0)
void fuzz_after_call(
    int before, int r, const char *what, const char *file, int line);

/* 1 when the n bytes at p are all zero (an output cleared on error). */
int fuzz_is_zero(const void *p, size_t n);

/* Print "fuzz check failed: <what> (<file>:<line>)" and abort. */
#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			fuzz_fail(#cond, __FILE__, __LINE__);                  \
	} while (0)
void fuzz_fail(const char *what, const char *file, int line)
    __attribute__((noreturn));

/* libFuzzer entry points every harness defines. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#endif
