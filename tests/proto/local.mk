# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/proto/: U2F and CTAP2.
# test_u2f: APDUs, status words and reply parsing (common/proto/u2f/msg.c);
# test_u2fop: the operations over CTAPHID (common/proto/u2f/protocol.c,
# and the request in flight, common/proto/u2f/wire.c).
check_PROGRAMS += tests/proto/test_u2f tests/proto/test_u2fop
TESTS += tests/proto/test_u2f tests/proto/test_u2fop

tests_proto_test_u2f_SOURCES = tests/proto/test_u2f.c tests/proto/u2ffix.h \
	tests/lib/u2fkat.h tests/lib/test.h
tests_proto_test_u2f_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_u2f_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_proto_test_u2fop_SOURCES = tests/proto/test_u2fop.c \
	tests/proto/u2ffix.h tests/lib/u2fkat.h tests/lib/test.h
tests_proto_test_u2fop_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_u2fop_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# The CTAP2 messages (common/proto/ctap2/msg.c).
check_PROGRAMS += tests/proto/test_ctap2msg
TESTS += tests/proto/test_ctap2msg
tests_proto_test_ctap2msg_SOURCES = tests/proto/test_ctap2msg.c \
	tests/lib/test.h
tests_proto_test_ctap2msg_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_ctap2msg_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# The hmac-secret extension's messages (issue 30) against python3-fido2's
# (tests/proto/hmackat.h, made by tests/proto/hmackat.py).
check_PROGRAMS += tests/proto/test_ctap2hmac
TESTS += tests/proto/test_ctap2hmac
tests_proto_test_ctap2hmac_SOURCES = tests/proto/test_ctap2hmac.c \
	tests/proto/hmackat.h tests/lib/ctap2kat.h tests/lib/test.h
tests_proto_test_ctap2hmac_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_ctap2hmac_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
EXTRA_DIST += tests/proto/hmackat.py

# proto/cose.c, proto/authdata.c, proto/attest.c against the known
# answers of tests/lib/ctap2kat.h (made by tests/lib/ctap2kat.py).
check_PROGRAMS += tests/proto/test_attest
TESTS += tests/proto/test_attest
tests_proto_test_attest_SOURCES = tests/proto/test_attest.c \
	tests/lib/ctap2kat.h tests/lib/ctap2fix.h tests/lib/test.h
tests_proto_test_attest_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_attest_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Real keys' recorded CTAPHID reports (from libfido2) replayed through
# our transport and CTAP2 reply parsers, on the virtual clock.
check_PROGRAMS += tests/proto/test_wiredata
TESTS += tests/proto/test_wiredata
tests_proto_test_wiredata_SOURCES = tests/proto/test_wiredata.c \
	tests/proto/wiredata_fido2.h tests/lib/test.h tests/lib/vclock.c \
	tests/lib/vclock.h
tests_proto_test_wiredata_CPPFLAGS = $(TEST_CPPFLAGS)
tests_proto_test_wiredata_LDADD = tests/lib/libfakehid.la \
	common/libcommon.la $(LIBCRYPTO_LIBS)
tests_proto_test_wiredata_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep

# Which requests are sent again when a key goes silent: the software
# token behind the scripted HID device, on the virtual clock.
check_PROGRAMS += tests/proto/test_resend
TESTS += tests/proto/test_resend
tests_proto_test_resend_SOURCES = tests/proto/test_resend.c \
	tests/lib/test.h tests/lib/vclock.c tests/lib/vclock.h
tests_proto_test_resend_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/tests
tests_proto_test_resend_LDADD = tests/lib/libfakehid.la \
	tests/softtoken/libsofttoken.la common/libcommon.la $(LIBCRYPTO_LIBS)
tests_proto_test_resend_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep
