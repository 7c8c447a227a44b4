# SPDX-License-Identifier: BSD-2-Clause
# The attestation policy (common/policy/, pam_u2f.conf's policy section)
# end to end: a test CA made at test time with the openssl CLI (mkca.sh),
# software tokens attesting with it, pamu2fcfg and the module (policy.sh),
# and python3-fido2's verifiers as an independent peer (peer_attest.sh).
POLICY_TESTS = tests/policy/policy.sh tests/policy/peer_attest.sh
TESTS += $(POLICY_TESTS)
SLOW_TESTS += tests/policy/policy.sh
# Not under ASan: the module runs through pamtester (see tests/tool/local.mk).
ASAN_SKIP += tests/policy/policy.sh
dist_check_SCRIPTS += $(POLICY_TESTS)
EXTRA_DIST += tests/policy/mkca.sh tests/policy/mkblob.sh \
	tests/policy/peer_attest.py

# The MDS BLOB's JSON (common/policy/json.c, mds_payload.c), from memory.
check_PROGRAMS += tests/policy/test_mds
TESTS += tests/policy/test_mds
tests_policy_test_mds_SOURCES = tests/policy/test_mds.c tests/lib/test.h
tests_policy_test_mds_CPPFLAGS = $(TEST_CPPFLAGS)
tests_policy_test_mds_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread
