# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of ldap/ (pam_u2f_ldap's parts that do not touch libldap).
# The escaper's table (RFC 4515), built with or without libldap.
check_PROGRAMS += tests/ldap/test_ldescape
TESTS += tests/ldap/test_ldescape
tests_ldap_test_ldescape_SOURCES = tests/ldap/test_ldescape.c \
	tests/lib/test.h
tests_ldap_test_ldescape_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/ldap
tests_ldap_test_ldescape_LDADD = ldap/libldhelp.la common/libcommon.la

# Its man page: mandoc -T lint and the sections.
TESTS += tests/ldap/manlint.sh
ASAN_SKIP += tests/ldap/manlint.sh # text only: mandoc on the page
dist_check_SCRIPTS += tests/ldap/manlint.sh
