# Unit tests of the CTAP2 client's cryptography and parsing (issue 15):
# crypto/cosesig.c, crypto/pinproto.c, proto/cose.c, proto/authdata.c,
# proto/attest.c, against the known answers of tests/ctap2kat.h (made by
# tests/ctap2kat.py, which names every source).
EXTRA_DIST += tests/ctap2kat.py
check_PROGRAMS += tests/test_cosesig tests/test_pinproto tests/test_attest
TESTS += tests/test_cosesig tests/test_pinproto tests/test_attest
CTAP2_TEST_HDRS = tests/ctap2kat.h tests/ctap2fix.h tests/test.h

tests_test_cosesig_SOURCES = tests/test_cosesig.c $(CTAP2_TEST_HDRS)
tests_test_cosesig_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_pinproto_SOURCES = tests/test_pinproto.c $(CTAP2_TEST_HDRS)
tests_test_pinproto_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_attest_SOURCES = tests/test_attest.c $(CTAP2_TEST_HDRS)
tests_test_attest_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
