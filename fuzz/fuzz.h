/* Shared parts of the libFuzzer harnesses: the run-twice driver that
 * injects one allocation failure per input, a digest for comparing two
 * runs, and a checked abort. See fuzz/README. */
#ifndef PU_FUZZ_H
#define PU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One pass of a harness over its input: call the production code, check
 * what it returned, fold the outputs into *digest with fuzz_mix, and
 * return the first error code (ERR_*) or ERR_OK. A pass must not abort
 * when a production call fails with ERR_NOMEM. */
typedef int (*fuzz_pass_fn)(void *arg, uint64_t *digest);

/* Run pass once counting allocations, then once more failing the
 * allocation chosen by a hash of (data, len). Aborts when the second pass
 * returns ERR_OK although an allocation of our code failed, or returns a
 * different success although an OpenSSL allocation failed. Set
 * FUZZ_NO_FAILMALLOC=1 in the environment to run each input once. */
void fuzz_run(fuzz_pass_fn pass, void *arg, const uint8_t *data,
    size_t len);

/* FNV-1a over n bytes at p, folded into *d. */
void fuzz_mix(uint64_t *d, const void *p, size_t n);
/* The same for one integer. */
void fuzz_mix_int(uint64_t *d, long long v);

/* Print "fuzz check failed: <what> (<file>:<line>)" and abort. */
#define FUZZ_CHECK(cond) do {						\
	if (!(cond))							\
		fuzz_fail(#cond, __FILE__, __LINE__);			\
} while (0)
void fuzz_fail(const char *what, const char *file, int line)
    __attribute__((noreturn));

/* libFuzzer entry points every harness defines. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#endif
