/* SPDX-License-Identifier: BSD-2-Clause */
/* main() of a module test program (test_module.c, test_modfile.c): set
 * up the nss_wrapper tree (mt_setup), run the cases, or only the one
 * PU_MODTEST_ONLY names (for debugging), and tear down. */
#ifndef PU_MTMAIN_H
#define PU_MTMAIN_H

#include <stdlib.h>
#include <string.h>

#include "modtest.h"
#include "test.h"

static inline int
mtmain_run(char **argv, const struct test_case *cases, size_t n)
{
	const char *only = getenv("PU_MODTEST_ONLY");
	size_t i;
	int r;

	if ((r = mt_setup(argv)) != 0)
		return r == 77 ? 0 : r;
	for (i = 0; only != NULL && i < n; i++)
		if (strcmp(cases[i].name, only) == 0)
			break;
	if (only != NULL && i < n)
		r = test_run(&cases[i], 1);
	else
		r = test_run(cases, n);
	mt_teardown();
	return r;
}

#endif
