# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/base/.
check_PROGRAMS += tests/base/test_b64 tests/base/test_safefile
TESTS += tests/base/test_b64 tests/base/test_safefile
tests_base_test_b64_SOURCES = tests/base/test_b64.c tests/lib/test.h
tests_base_test_b64_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_b64_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_base_test_safefile_SOURCES = tests/base/test_safefile.c \
	tests/lib/test.h
tests_base_test_safefile_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_safefile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# CBOR, the encoding of CTAP2 (common/base/cbor.c).
check_PROGRAMS += tests/base/test_cbor
TESTS += tests/base/test_cbor
tests_base_test_cbor_SOURCES = tests/base/test_cbor.c tests/lib/test.h
tests_base_test_cbor_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_cbor_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Ed25519 public keys are curve points (common/base/edpoint.c) against
# RFC 8032-derived vectors (tests/base/edpoint_kat.py writes the header)
# and OpenSSL's keys, and where enrollment reads them (cose_key_read).
check_PROGRAMS += tests/base/test_edpoint
TESTS += tests/base/test_edpoint
tests_base_test_edpoint_SOURCES = tests/base/test_edpoint.c \
	tests/base/edpoint_kat.h tests/lib/test.h
EXTRA_DIST += tests/base/edpoint_kat.py
tests_base_test_edpoint_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_edpoint_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Device names made printable (common/base/printable.c).
check_PROGRAMS += tests/base/test_printable
TESTS += tests/base/test_printable
tests_base_test_printable_SOURCES = tests/base/test_printable.c \
	tests/lib/test.h
tests_base_test_printable_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_printable_LDADD = common/libcommon.la

# Log lines escaped (common/base/logesc.c).
check_PROGRAMS += tests/base/test_logesc
TESTS += tests/base/test_logesc
tests_base_test_logesc_SOURCES = tests/base/test_logesc.c tests/lib/test.h
tests_base_test_logesc_CPPFLAGS = $(TEST_CPPFLAGS)
tests_base_test_logesc_LDADD = common/libcommon.la
