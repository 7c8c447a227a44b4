# Unit tests of the CTAP2 client side: CBOR, the CTAP2 protocol.
check_PROGRAMS += tests/test_cbor
TESTS += tests/test_cbor

tests_test_cbor_SOURCES = tests/test_cbor.c tests/test.h
tests_test_cbor_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
