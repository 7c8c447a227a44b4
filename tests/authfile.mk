# Unit tests for the mapping-file side of common/: b64, authfile,
# authscan, safefile, sshkey (and cred through them).
check_PROGRAMS += tests/test_b64 tests/test_authfile tests/test_authscan \
	tests/test_safefile tests/test_sshkey tests/test_passkey \
	tests/test_authcmd tests/test_authcache
TESTS += tests/test_b64 tests/test_authfile tests/test_authscan \
	tests/test_safefile tests/test_sshkey tests/test_passkey \
	tests/test_authcmd tests/test_authcache

# test_authscan once more on the portable scan path (PU_AUTHSCAN_PATH).
TESTS += tests/authscan_portable.sh
dist_check_SCRIPTS += tests/authscan_portable.sh

tests_test_b64_SOURCES = tests/test_b64.c tests/test.h
tests_test_b64_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_authfile_SOURCES = tests/test_authfile.c tests/authfix.h \
	tests/test.h
tests_test_authfile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_authscan_SOURCES = tests/test_authscan.c tests/authfix.h \
	tests/test.h
tests_test_authscan_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_safefile_SOURCES = tests/test_safefile.c tests/test.h
tests_test_safefile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_sshkey_SOURCES = tests/test_sshkey.c tests/test.h
tests_test_sshkey_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_passkey_SOURCES = tests/test_passkey.c tests/passkeyfix.h \
	tests/test.h
tests_test_passkey_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_authcmd_SOURCES = tests/test_authcmd.c tests/test.h
tests_test_authcmd_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_authcache_SOURCES = tests/test_authcache.c tests/test.h
tests_test_authcache_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# sshkey fixtures made with the real ssh-keygen; see tests/data/README.
EXTRA_DIST += tests/data/README tests/data/sk-fixture-provider.c \
	tests/data/sshkey_ecdsa_sk tests/data/sshkey_ed25519_sk

# The default mapping path and the user-file policy (common/mapping).
check_PROGRAMS += tests/test_mappath
TESTS += tests/test_mappath
tests_test_mappath_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
