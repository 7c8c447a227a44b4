# Unit tests: one program per common/ file, TAP output via tests/test.h.
EXTRA_DIST += tests/test.h tests/run.sh tests/hermetic.lib tests/pcsc.lib

# tools/deps.sh against debian/control's Build-Depends and Conflicts, and
# its --dry-run (policy-rc.d, no removals): stand-ins for apt and dpkg.
dist_check_SCRIPTS += tests/deps_check.sh
TESTS += tests/deps_check.sh
# The version scheme and the packages' Maintainer (README "Versions").
dist_check_SCRIPTS += tests/version_check.sh
TESTS += tests/version_check.sh

# The layers of common/ point one way (every #include read; no cycle).
dist_check_SCRIPTS += tests/layers.sh
TESTS += tests/layers.sh
# Every common/, pam_u2f/, pamu2fcfg/, tools/ or tests/ path that a
# comment or a doc names exists (tests/paths.allow: known stale ones);
# paths_lint.sh checks the check on trees of its own.
dist_check_SCRIPTS += tests/paths.sh tests/paths_lint.sh
TESTS += tests/paths.sh tests/paths_lint.sh
EXTRA_DIST += tests/paths.allow

check_LTLIBRARIES += tests/libtokenctl.la
tests_libtokenctl_la_SOURCES = tests/tokenctl.c tests/tokenctl.h

# Device names made printable (common/base/printable.c).
check_PROGRAMS += tests/test_printable
TESTS += tests/test_printable
tests_test_printable_SOURCES = tests/test_printable.c tests/test.h
tests_test_printable_LDADD = common/libcommon.la

check_PROGRAMS += tests/test_dev
TESTS += tests/test_dev
tests_test_dev_SOURCES = tests/test_dev.c tests/test.h
tests_test_dev_LDADD = tests/libtokenctl.la common/libcommon.la

check_PROGRAMS += tests/test_devset
TESTS += tests/test_devset
tests_test_devset_SOURCES = tests/test_devset.c tests/test.h
tests_test_devset_LDADD = tests/libtokenctl.la common/libcommon.la
# test_devset fails pthread_create on demand (its __wrap_pthread_create).
tests_test_devset_LDFLAGS = -Wl,--wrap=pthread_create

# Log lines escaped (common/base/logesc.c).
check_PROGRAMS += tests/test_logesc
TESTS += tests/test_logesc
tests_test_logesc_SOURCES = tests/test_logesc.c tests/test.h
tests_test_logesc_LDADD = common/libcommon.la
