# Unit tests for common/crypto.c and common/u2f.c (test_u2f: APDUs,
# status words and reply parsing; test_u2fop: the operations over CTAPHID).
check_PROGRAMS += tests/test_crypto tests/test_u2f tests/test_u2fop
TESTS += tests/test_crypto tests/test_u2f tests/test_u2fop

tests_test_crypto_SOURCES = tests/test_crypto.c tests/u2fkat.h tests/test.h
tests_test_crypto_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_u2f_SOURCES = tests/test_u2f.c tests/u2ffix.h tests/u2fkat.h \
	tests/test.h
tests_test_u2f_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_u2fop_SOURCES = tests/test_u2fop.c tests/u2ffix.h tests/u2fkat.h \
	tests/test.h
tests_test_u2fop_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
