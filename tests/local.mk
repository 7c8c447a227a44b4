# SPDX-License-Identifier: BSD-2-Clause
# The tests. tests/<layer>/ mirrors common/<layer>/ (one local.mk each,
# included by Makefile.am); tests/lib/ holds what more than one layer's
# tests share; tests/module, tests/tool, tests/hostile, tests/softtoken and
# tests/vm are the integration layers. See tests/README.
#
# Next to each registration, a test may be listed in
#   SLOW_TESTS  started first by tests/run.sh (make -j starts tests in the
#               order given; a long one started last would be the tail);
#   ASAN_SKIP   left out of tests/run.sh's ASan stage (the reason is
#               written beside it).
# `make print-slow` and `make print-asan-skip` print them for run.sh.
SLOW_TESTS =
ASAN_SKIP =
EXTRA_DIST += tests/README tests/run.sh tests/hermetic.lib tests/pcsc.lib \
	tests/distlist.sh tests/dist.exclude \
	tests/manlint.lib

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
SLOW_TESTS += tests/layers.sh
# Every common/, pam_u2f/, pamu2fcfg/, tools/ or tests/ path that a
# comment or a doc names exists (tests/paths.allow: known stale ones);
# paths_lint.sh checks the check on trees of its own.
# The licence: LICENSE, an SPDX line in every source file, and a
# machine-readable debian/copyright (README "Licence").
dist_check_SCRIPTS += tests/licence.sh
TESTS += tests/licence.sh
dist_check_SCRIPTS += tests/paths.sh tests/paths_lint.sh
TESTS += tests/paths.sh tests/paths_lint.sh
EXTRA_DIST += tests/paths.allow
# Not under ASan: these read the source text (makefiles, headers, man
# pages, debian/) and run no program of ours; the gcc stage runs them.
ASAN_SKIP += tests/deps_check.sh tests/version_check.sh tests/layers.sh \
	tests/licence.sh tests/paths.sh tests/paths_lint.sh

