/* SPDX-License-Identifier: BSD-2-Clause */
/* The run-twice driver shared by the harnesses: see fuzz.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "failmalloc.h"
#include "fuzz.h"

void
fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, file, line);
	abort();
}

void
fuzz_after_call(int before, int r, const char *what, const char *file, int line)
{
	if (r > ERR_OK || r < ERR_LAST) {
		fprintf(stderr, "%s returned %d, not an ERR_* code\n", what, r);
		fuzz_fail("an ERR_* code", file, line);
	}
	if (r == ERR_OK && before == FAILMALLOC_NONE &&
	    failmalloc_injected() == FAILMALLOC_OURS) {
		fprintf(stderr,
		    "%s returned ERR_OK although an allocation "
		    "inside it failed\n",
		    what);
		fuzz_fail("a failed allocation ends in an error", file, line);
	}
}

/* FNV-1a: picks the allocation to fail, the same for the same input. */
static uint64_t
hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void
fuzz_run(fuzz_pass_fn pass, void *arg, const uint8_t *data, size_t len)
{
	static int once = -1;
	size_t n;

	if (once < 0)
		once = getenv("FUZZ_NO_FAILMALLOC") != NULL;
	failmalloc_arm(0);
	pass(arg);
	n = failmalloc_disarm();
	if (once || n == 0)
		return;
	failmalloc_arm(1 + (size_t)(hash(data, len) % n));
	pass(arg);
	failmalloc_disarm();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (failmalloc_init() != 0)
		fprintf(
		    stderr, "failmalloc: OpenSSL allocations not counted\n");
	return 0;
}

int
fuzz_is_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}
