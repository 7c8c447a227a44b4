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

# Ed25519 public keys are curve points (common/base/edpoint.c) against
# RFC 8032-derived vectors (tests/edpoint_kat.py writes the header) and
# OpenSSL's keys, and where enrollment reads them (cose_key_read).
check_PROGRAMS += tests/test_edpoint
TESTS += tests/test_edpoint
tests_test_edpoint_SOURCES = tests/test_edpoint.c tests/edpoint_kat.h \
	tests/test.h
EXTRA_DIST += tests/edpoint_kat.py
tests_test_edpoint_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Both ES256 implementations (common/crypto.c, common/crypto_direct.c)
# against NIST's vectors (Debian's python3-cryptography-vectors) and each
# other.
check_PROGRAMS += tests/test_es256
TESTS += tests/test_es256
tests_test_es256_SOURCES = tests/test_es256.c tests/u2fkat.h tests/test.h \
	tests/es256_edge.h
EXTRA_DIST += tests/es256_edge.py
tests_test_es256_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# The ES256 implementation is chosen once per process: the kernel's FIPS
# switch (crypto_fips_mode, wrapped to count its calls) is read once.
check_PROGRAMS += tests/test_cryptoonce
TESTS += tests/test_cryptoonce
tests_test_cryptoonce_SOURCES = tests/test_cryptoonce.c tests/u2fkat.h \
	tests/test.h
tests_test_cryptoonce_LDFLAGS = -Wl,--wrap=crypto_fips_mode
tests_test_cryptoonce_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
