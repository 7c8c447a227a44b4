# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/crypto/.
# test_crypto: crypto.c against the FIDO U2F known answers (u2fkat.h).
check_PROGRAMS += tests/crypto/test_crypto
TESTS += tests/crypto/test_crypto
tests_crypto_test_crypto_SOURCES = tests/crypto/test_crypto.c \
	tests/lib/u2fkat.h tests/lib/test.h
tests_crypto_test_crypto_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_crypto_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Both ES256 implementations (common/crypto/crypto.c,
# common/crypto/crypto_direct.c) against NIST's vectors (Debian's
# python3-cryptography-vectors) and each other.
check_PROGRAMS += tests/crypto/test_es256
TESTS += tests/crypto/test_es256
tests_crypto_test_es256_SOURCES = tests/crypto/test_es256.c \
	tests/lib/u2fkat.h tests/lib/test.h tests/crypto/es256_edge.h
EXTRA_DIST += tests/crypto/es256_edge.py
tests_crypto_test_es256_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_es256_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# The P-256 key template (common/crypto/p256key.c, issue 27): the same
# answers as an import from the group's name, in several threads at once.
check_PROGRAMS += tests/crypto/test_p256key
TESTS += tests/crypto/test_p256key
tests_crypto_test_p256key_SOURCES = tests/crypto/test_p256key.c \
	tests/lib/u2fkat.h tests/lib/test.h
tests_crypto_test_p256key_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_p256key_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	-lpthread

# The ES256 implementation is chosen once per process: the kernel's FIPS
# switch (crypto_fips_mode, wrapped to count its calls) is read once.
check_PROGRAMS += tests/crypto/test_cryptoonce
TESTS += tests/crypto/test_cryptoonce
tests_crypto_test_cryptoonce_SOURCES = tests/crypto/test_cryptoonce.c \
	tests/lib/u2fkat.h tests/lib/test.h
tests_crypto_test_cryptoonce_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_cryptoonce_LDFLAGS = -Wl,--wrap=crypto_fips_mode
tests_crypto_test_cryptoonce_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# The CTAP2 client's cryptography (issue 15): crypto/cosesig.c and
# crypto/pinproto.c against the known answers of tests/lib/ctap2kat.h
# (made by tests/lib/ctap2kat.py, which names every source).
CTAP2_TEST_HDRS = tests/lib/ctap2kat.h tests/lib/ctap2fix.h tests/lib/test.h
check_PROGRAMS += tests/crypto/test_cosesig tests/crypto/test_pinproto
TESTS += tests/crypto/test_cosesig tests/crypto/test_pinproto

tests_crypto_test_cosesig_SOURCES = tests/crypto/test_cosesig.c \
	$(CTAP2_TEST_HDRS)
tests_crypto_test_cosesig_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_cosesig_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_crypto_test_pinproto_SOURCES = tests/crypto/test_pinproto.c \
	$(CTAP2_TEST_HDRS)
tests_crypto_test_pinproto_CPPFLAGS = $(TEST_CPPFLAGS)
tests_crypto_test_pinproto_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
