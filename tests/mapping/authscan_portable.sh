#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The mapping-file scan tests again on the portable (non-AVX2) path, which
# production takes only on CPUs without AVX2 (common/mapping/authscan.c):
# tests/mapping/test_authscan with PU_AUTHSCAN_PATH=portable.
PU_AUTHSCAN_PATH=portable
export PU_AUTHSCAN_PATH
exec "${top_builddir:-.}/tests/mapping/test_authscan"
