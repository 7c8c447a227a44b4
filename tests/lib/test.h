/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny TAP test harness: one `static void` per case, registered in a
 * table and run by TEST_MAIN. Assertions print both values on failure and
 * mark the current case failed; they never abort the whole program. */
#ifndef PU_TEST_H
#define PU_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct test_state {
	int failed; /* the current case failed */
	int total_failed;
};

/* The running state; one per test program, only in tests. */
static struct test_state test_st;

#define T_FAIL_AT(...)                                                         \
	do {                                                                   \
		printf("# %s:%d: ", __FILE__, __LINE__);                       \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		test_st.failed = 1;                                            \
	} while (0)

#define T_TRUE(c)                                                              \
	do {                                                                   \
		if (!(c))                                                      \
			T_FAIL_AT("expected true: %s", #c);                    \
	} while (0)

#define T_EQ_INT(a, b)                                                         \
	do {                                                                   \
		long long t_a_ = (long long)(a), t_b_ = (long long)(b);        \
		if (t_a_ != t_b_)                                              \
			T_FAIL_AT("%s == %lld, expected %s == %lld", #a, t_a_, \
			    #b, t_b_);                                         \
	} while (0)

#define T_EQ_ERR(a, b)                                                         \
	do {                                                                   \
		int t_a_ = (a), t_b_ = (b);                                    \
		if (t_a_ != t_b_)                                              \
			T_FAIL_AT("%s == %s (%d), expected %s (%d)", #a,       \
			    err_name(t_a_), t_a_, err_name(t_b_), t_b_);       \
	} while (0)

#define T_EQ_STR(a, b)                                                         \
	do {                                                                   \
		const char *t_a_ = (a), *t_b_ = (b);                           \
		if (t_a_ == NULL || t_b_ == NULL || strcmp(t_a_, t_b_) != 0)   \
			T_FAIL_AT("%s == \"%s\", expected \"%s\"", #a,         \
			    t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)");   \
	} while (0)

#define T_EQ_MEM(a, b, n)                                                      \
	do {                                                                   \
		if (memcmp((a), (b), (n)) != 0)                                \
			T_FAIL_AT("%s and %s differ in %zu bytes", #a, #b,     \
			    (size_t)(n));                                      \
	} while (0)

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define TEST(fn)                                                               \
	{                                                                      \
#fn, fn                                                        \
	}

static inline int
test_run(const struct test_case *cases, size_t n)
{
	size_t i;

	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		test_st.failed = 0;
		cases[i].fn();
		printf("%s %zu - %s\n", test_st.failed ? "not ok" : "ok", i + 1,
		    cases[i].name);
		fflush(stdout);
		if (test_st.failed)
			test_st.total_failed++;
	}
	return test_st.total_failed ? 1 : 0;
}

#define TEST_MAIN(...)                                                         \
	int main(void)                                                         \
	{                                                                      \
		static const struct test_case cases_[] = {__VA_ARGS__};        \
		return test_run(cases_, sizeof(cases_) / sizeof(cases_[0]));   \
	}

/* Hex string to bytes for known-answer vectors; aborts on bad input
 * (a bug in the test itself). Caller frees. */
static inline unsigned char *
test_unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2, i;
	unsigned char *out = malloc(n ? n : 1);
	unsigned int v;

	if (out == NULL || strlen(hex) % 2 != 0)
		abort();
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			abort();
		out[i] = (unsigned char)v;
	}
	*len = n;
	return out;
}

#endif
