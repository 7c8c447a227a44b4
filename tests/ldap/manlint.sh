#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Lint man/pam_u2f_ldap.8 with mandoc (skipped when mandoc is missing) and
# check that it has the sections a helper's page promises.
. "${top_srcdir:-.}/tests/manlint.lib"
manlint_start "${top_srcdir:-.}/man/pam_u2f_ldap.8" 2
manlint_lint 1 pam_u2f_ldap.8
manlint_sections 2 pam_u2f_ldap.8 NAME SYNOPSIS DESCRIPTION FILES \
    "EXIT STATUS" EXAMPLES "SEE ALSO" "SECURITY CONSIDERATIONS"
