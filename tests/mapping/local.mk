# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/mapping/: authfile, authscan, sshkey, passkey (and
# cred through them), authcmd, authcache, mappath.
check_PROGRAMS += tests/mapping/test_authfile tests/mapping/test_authscan \
	tests/mapping/test_sshkey tests/mapping/test_passkey \
	tests/mapping/test_authcmd tests/mapping/test_authcache
TESTS += tests/mapping/test_authfile tests/mapping/test_authscan \
	tests/mapping/test_sshkey tests/mapping/test_passkey \
	tests/mapping/test_authcmd tests/mapping/test_authcache

# test_authscan once more on the portable scan path (PU_AUTHSCAN_PATH).
TESTS += tests/mapping/authscan_portable.sh
dist_check_SCRIPTS += tests/mapping/authscan_portable.sh

tests_mapping_test_authfile_SOURCES = tests/mapping/test_authfile.c \
	tests/mapping/authfix.h tests/lib/test.h
tests_mapping_test_authfile_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_authfile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_mapping_test_authscan_SOURCES = tests/mapping/test_authscan.c \
	tests/mapping/authfix.h tests/lib/test.h
tests_mapping_test_authscan_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_authscan_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
check_PROGRAMS += tests/mapping/test_sshline
TESTS += tests/mapping/test_sshline
tests_mapping_test_sshline_SOURCES = tests/mapping/test_sshline.c \
	tests/lib/test.h
tests_mapping_test_sshline_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_sshline_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_mapping_test_sshkey_SOURCES = tests/mapping/test_sshkey.c \
	tests/lib/test.h
tests_mapping_test_sshkey_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_sshkey_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_mapping_test_passkey_SOURCES = tests/mapping/test_passkey.c \
	tests/lib/passkeyfix.h tests/lib/test.h
tests_mapping_test_passkey_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_passkey_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_mapping_test_authcmd_SOURCES = tests/mapping/test_authcmd.c \
	tests/lib/test.h
tests_mapping_test_authcmd_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_authcmd_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_mapping_test_authcache_SOURCES = tests/mapping/test_authcache.c \
	tests/lib/test.h
tests_mapping_test_authcache_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_authcache_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# sshkey fixtures made with the real ssh-keygen; see
# tests/mapping/data/README.
EXTRA_DIST += tests/mapping/data/README \
	tests/mapping/data/sk-fixture-provider.c \
	tests/mapping/data/sshkey_ecdsa_sk tests/mapping/data/sshkey_ed25519_sk

# The default mapping path and the user-file policy (common/mapping).
check_PROGRAMS += tests/mapping/test_mappath
TESTS += tests/mapping/test_mappath
tests_mapping_test_mappath_SOURCES = tests/mapping/test_mappath.c \
	tests/lib/test.h
tests_mapping_test_mappath_CPPFLAGS = $(TEST_CPPFLAGS)
tests_mapping_test_mappath_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
