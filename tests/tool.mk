# pamu2fcfg: shell tests (TAP) against the software token.
TOOL_TESTS = tests/tool/enroll.sh tests/tool/mapfile.sh tests/tool/race.sh \
	tests/tool/asuser.sh tests/tool/audit.sh \
	tests/tool/module.sh tests/tool/conf.sh tests/tool/manlint.sh \
	tests/tool/ctap2.sh tests/tool/backup.sh tests/tool/multikey.sh \
	tests/tool/resident.sh tests/tool/authcmd.sh tests/tool/ldap.sh \
	tests/tool/nfc.sh tests/tool/silent.sh
TESTS += $(TOOL_TESTS)
dist_check_SCRIPTS += $(TOOL_TESTS)
EXTRA_DIST += tests/tool/lib.sh tests/tool/keys.sh tests/tool/slapd.lib \
	tests/tool/nsexec.lib

check_PROGRAMS += tests/tool/test_lines
TESTS += tests/tool/test_lines
tests_tool_test_lines_SOURCES = tests/tool/test_lines.c tests/test.h \
	tools/lines.c tools/tool.h
tests_tool_test_lines_LDADD = common/libcommon.la

check_PROGRAMS += tests/tool/test_passkeyfmt
TESTS += tests/tool/test_passkeyfmt
tests_tool_test_passkeyfmt_SOURCES = tests/tool/test_passkeyfmt.c \
	tests/test.h tests/passkeyfix.h tools/passkeyfmt.c tools/tool.h
tests_tool_test_passkeyfmt_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
