# Unit tests of the CTAP2 client side: CBOR, the CTAP2 protocol.
check_PROGRAMS += tests/test_cbor
TESTS += tests/test_cbor

tests_test_cbor_SOURCES = tests/test_cbor.c tests/test.h
tests_test_cbor_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/test_ctap2msg
TESTS += tests/test_ctap2msg
tests_test_ctap2msg_SOURCES = tests/test_ctap2msg.c tests/test.h
tests_test_ctap2msg_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
