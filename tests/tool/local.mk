# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg: shell tests (TAP) against the software token.
TOOL_TESTS = tests/tool/enroll.sh tests/tool/mapfile.sh tests/tool/race.sh \
	tests/tool/asuser.sh tests/tool/audit.sh \
	tests/tool/module.sh tests/tool/conf.sh tests/tool/manlint.sh \
	tests/tool/ctap2.sh tests/tool/backup.sh tests/tool/multikey.sh \
	tests/tool/resident.sh tests/tool/authcmd.sh tests/tool/ldap.sh \
	tests/tool/nfc.sh tests/tool/silent.sh tests/tool/sshagent.sh \
	tests/tool/sandbox.sh tests/tool/hmacsecret.sh tests/tool/keyring.sh
TESTS += $(TOOL_TESTS)
# The longest-running, started first by tests/run.sh (longest first).
SLOW_TESTS += tests/tool/nfc.sh tests/tool/multikey.sh \
	tests/tool/resident.sh tests/tool/authcmd.sh tests/tool/race.sh \
	tests/tool/ctap2.sh tests/tool/silent.sh tests/tool/keyring.sh
# Not under ASan: these run the module through pamtester, which (not
# instrumented) cannot load the instrumented module ("undefined symbol:
# __asan_option_detect_stack_use_after_return", "Module is unknown"). The
# module still runs under ASan in the C tests that load it through libpam
# (tests/module, tests/hostile), and under valgrind (tests/analyze.sh).
# The nss_wrapper tests run, with NSS_WRAPPER_DISABLE_DEEPBIND
# (tests/module/modtest.c, asuser.sh).
ASAN_SKIP += tests/tool/manlint.sh # text only: mandoc on the page
ASAN_SKIP += tests/tool/module.sh tests/tool/ctap2.sh \
	tests/tool/multikey.sh tests/tool/resident.sh tests/tool/silent.sh \
	tests/tool/sshagent.sh tests/tool/sandbox.sh tests/tool/hmacsecret.sh \
	tests/tool/keyring.sh
dist_check_SCRIPTS += $(TOOL_TESTS)
EXTRA_DIST += tests/tool/lib.sh tests/tool/keys.sh tests/tool/slapd.lib \
	tests/tool/nsexec.lib

check_PROGRAMS += tests/tool/test_lines
TESTS += tests/tool/test_lines
tests_tool_test_lines_SOURCES = tests/tool/test_lines.c tests/lib/test.h \
	pamu2fcfg/lines.c pamu2fcfg/tool.h
tests_tool_test_lines_LDADD = common/libcommon.la

check_PROGRAMS += tests/tool/test_passkeyfmt
TESTS += tests/tool/test_passkeyfmt
tests_tool_test_passkeyfmt_SOURCES = tests/tool/test_passkeyfmt.c \
	tests/lib/test.h tests/lib/passkeyfix.h pamu2fcfg/passkeyfmt.c pamu2fcfg/tool.h
tests_tool_test_passkeyfmt_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
