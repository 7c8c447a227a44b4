#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Lint man/pamu2fcfg.1 with mandoc (skipped when mandoc is missing) and
# check that it has every section the tool's page promises.
. "${top_srcdir:-.}/tests/manlint.lib"
manlint_start "${top_srcdir:-.}/man/pamu2fcfg.1" 2
manlint_lint 1 pamu2fcfg.1
manlint_sections 2 pamu2fcfg.1 NAME SYNOPSIS DESCRIPTION OPTIONS \
    "OUTPUT FORMAT" FILES "EXIT STATUS" EXAMPLES "SEE ALSO"
