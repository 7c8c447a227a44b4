# SPDX-License-Identifier: BSD-2-Clause
# Hostile input: a malicious software token against auth_run and against
# the real module through libpam; regression tests for the known attacks
# on similar modules (see SECURITY.md).
check_PROGRAMS += tests/hostile/test_hostile
TESTS += tests/hostile/test_hostile
SLOW_TESTS += tests/hostile/test_hostile

tests_hostile_test_hostile_SOURCES = tests/hostile/test_hostile.c \
	tests/hostile/mitm.c tests/hostile/mitm.h tests/lib/test.h
tests_hostile_test_hostile_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/tests/lib
tests_hostile_test_hostile_LDADD = tests/lib/libtokenctl.la \
	common/libcommon.la $(LIBCRYPTO_LIBS) -lpthread

check_PROGRAMS += tests/hostile/test_pam_hostile tests/hostile/test_pam_files
TESTS += tests/hostile/test_pam_hostile tests/hostile/test_pam_files
SLOW_TESTS += tests/hostile/test_pam_hostile
PAM_HOSTILE_RIG = tests/hostile/pamrig.c tests/hostile/pamrig.h \
	tests/lib/test.h
PAM_HOSTILE_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/tests/module \
	-I$(top_srcdir)/pam_u2f
PAM_HOSTILE_LDADD = tests/module/libmt.la tests/lib/libtokenctl.la common/libcommon.la $(PAM_LIBS) \
	$(LIBCRYPTO_LIBS) -lpthread -ldl
tests_hostile_test_pam_hostile_SOURCES = tests/hostile/test_pam_hostile.c \
	tests/hostile/mitm.c tests/hostile/mitm.h $(PAM_HOSTILE_RIG)
tests_hostile_test_pam_hostile_CFLAGS = $(PAM_HOSTILE_CFLAGS)
tests_hostile_test_pam_hostile_LDADD = $(PAM_HOSTILE_LDADD)
tests_hostile_test_pam_files_SOURCES = tests/hostile/test_pam_files.c \
	$(PAM_HOSTILE_RIG)
tests_hostile_test_pam_files_CFLAGS = $(PAM_HOSTILE_CFLAGS)
tests_hostile_test_pam_files_LDADD = $(PAM_HOSTILE_LDADD)

# The threat model and the map from known attacks to tests; the
# valgrind/scan-build/cppcheck run (tests/run.sh analyze, or by hand).
EXTRA_DIST += SECURITY.md tests/analyze.sh tests/scanbuild.sh
