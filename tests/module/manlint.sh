#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Lint man/pam_u2f.8 with mandoc (skipped when mandoc is missing).
. "${top_srcdir:-.}/tests/manlint.lib"
manlint_start "${top_srcdir:-.}/man/pam_u2f.8" 2
# RETURN VALUES is required for a PAM module's page (the PAM code table)
# although mandoc expects it in sections 2, 3 and 9 only.
manlint_lint 1 pam_u2f.8 'unexpected section: Sh RETURN VALUES'
manlint_sections 2 pam_u2f.8 NAME SYNOPSIS DESCRIPTION OPTIONS FILES \
    "RETURN VALUES" EXAMPLES "SECURITY CONSIDERATIONS" "SEE ALSO"
