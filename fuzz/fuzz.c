/* The run-twice driver shared by the harnesses: see fuzz.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "err.h"
#include "failmalloc.h"
#include "fuzz.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

void
fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, file, line);
	abort();
}

void
fuzz_mix(uint64_t *d, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	if (*d == 0)
		*d = FNV_OFFSET;
	for (i = 0; i < n; i++) {
		*d ^= b[i];
		*d *= FNV_PRIME;
	}
}

void
fuzz_mix_int(uint64_t *d, long long v)
{
	fuzz_mix(d, &v, sizeof(v));
}

/* Check the pass that ran with one failed allocation. */
static void
check_injected(int r0, uint64_t d0, int r1, uint64_t d1, size_t pick,
    size_t n)
{
	int src = failmalloc_injected();

	FUZZ_CHECK(r1 <= ERR_OK && r1 >= ERR_LAST);
	if (src == FAILMALLOC_OURS && r1 == ERR_OK) {
		fprintf(stderr, "allocation %zu of %zu failed, yet the result "
		    "is ERR_OK\n", pick, n);
		fuzz_fail("failed allocation ends in an error", __FILE__,
		    __LINE__);
	}
	if (src == FAILMALLOC_CRYPTO && r1 == ERR_OK &&
	    (r0 != ERR_OK || d0 != d1)) {
		fprintf(stderr, "OpenSSL allocation %zu of %zu failed, yet the "
		    "result is ERR_OK and differs from the clean run\n", pick,
		    n);
		fuzz_fail("OpenSSL allocation failure changes no result",
		    __FILE__, __LINE__);
	}
}

void
fuzz_run(fuzz_pass_fn pass, void *arg, const uint8_t *data, size_t len)
{
	static int once = -1;
	uint64_t d0 = 0, d1 = 0, h = 0;
	size_t n, pick;
	int r0, r1;

	if (once < 0)
		once = getenv("FUZZ_NO_FAILMALLOC") != NULL;
	failmalloc_arm(0);
	r0 = pass(arg, &d0);
	n = failmalloc_disarm();
	FUZZ_CHECK(r0 <= ERR_OK && r0 >= ERR_LAST);
	if (once || n == 0)
		return;
	fuzz_mix(&h, data, len);
	pick = 1 + (size_t)(h % n);
	failmalloc_arm(pick);
	r1 = pass(arg, &d1);
	failmalloc_disarm();
	check_injected(r0, d0, r1, d1, pick, n);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (failmalloc_init() != 0)
		fprintf(stderr, "failmalloc: OpenSSL allocations not counted\n");
	return 0;
}
