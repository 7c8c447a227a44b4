# Unit tests of the CTAP2 client side: CBOR, the CTAP2 protocol.
check_PROGRAMS += tests/test_cbor
TESTS += tests/test_cbor

tests_test_cbor_SOURCES = tests/test_cbor.c tests/test.h
tests_test_cbor_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/test_ctap2msg
TESTS += tests/test_ctap2msg
tests_test_ctap2msg_SOURCES = tests/test_ctap2msg.c tests/test.h
tests_test_ctap2msg_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Real keys' recorded CTAPHID reports (from libfido2) replayed through
# our transport and CTAP2 reply parsers, on the virtual clock.
check_PROGRAMS += tests/test_wiredata
TESTS += tests/test_wiredata
tests_test_wiredata_SOURCES = tests/test_wiredata.c tests/wiredata_fido2.h \
	tests/test.h tests/vclock.c tests/vclock.h
tests_test_wiredata_LDADD = tests/libfakehid.la common/libcommon.la \
	$(LIBCRYPTO_LIBS)
tests_test_wiredata_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep

# Which requests are sent again when a key goes silent: the software
# token behind the scripted HID device, on the virtual clock.
check_PROGRAMS += tests/test_resend
TESTS += tests/test_resend
tests_test_resend_SOURCES = tests/test_resend.c tests/test.h \
	tests/vclock.c tests/vclock.h
tests_test_resend_LDADD = tests/libfakehid.la \
	tests/softtoken/libsofttoken.la common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_resend_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep
