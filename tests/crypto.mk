# Unit tests for common/crypto.c and common/u2f.c.
check_PROGRAMS += tests/test_crypto tests/test_u2f
TESTS += tests/test_crypto tests/test_u2f

tests_test_crypto_SOURCES = tests/test_crypto.c tests/test.h
tests_test_crypto_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_u2f_SOURCES = tests/test_u2f.c tests/test.h
tests_test_u2f_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
