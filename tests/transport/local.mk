# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/transport/: CTAPHID channel opening (test_ctaphid)
# and message framing (test_ctaphid_msg) over the scripted device of
# tests/lib/fakehid.c, the hidraw descriptor parser and discovery, the
# unix: socket back end, the ISO 7816 framing, and the libu2f-host back
# end.
check_PROGRAMS += tests/transport/test_ctaphid \
	tests/transport/test_ctaphid_msg tests/transport/test_hidraw \
	tests/transport/test_unixdev
TESTS += tests/transport/test_ctaphid tests/transport/test_ctaphid_msg \
	tests/transport/test_hidraw tests/transport/test_unixdev

tests_transport_test_ctaphid_SOURCES = tests/transport/test_ctaphid.c \
	tests/transport/hidfix.h tests/lib/test.h
tests_transport_test_ctaphid_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_ctaphid_LDADD = tests/lib/libfakehid.la \
	common/libcommon.la $(LIBCRYPTO_LIBS)

tests_transport_test_ctaphid_msg_SOURCES = \
	tests/transport/test_ctaphid_msg.c tests/transport/hidfix.h \
	tests/lib/test.h tests/lib/vclock.c tests/lib/vclock.h
tests_transport_test_ctaphid_msg_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_ctaphid_msg_LDADD = tests/lib/libfakehid.la \
	common/libcommon.la $(LIBCRYPTO_LIBS)
# on the virtual clock of tests/lib/vclock.c
tests_transport_test_ctaphid_msg_LDFLAGS = \
	-Wl,--wrap=clock_gettime,--wrap=nanosleep

tests_transport_test_hidraw_SOURCES = tests/transport/test_hidraw.c \
	tests/lib/test.h
tests_transport_test_hidraw_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_hidraw_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/transport/test_unixpath
TESTS += tests/transport/test_unixpath
tests_transport_test_unixpath_SOURCES = tests/transport/test_unixpath.c \
	tests/lib/test.h
tests_transport_test_unixpath_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_unixpath_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_transport_test_unixdev_SOURCES = tests/transport/test_unixdev.c \
	tests/lib/test.h
tests_transport_test_unixdev_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_unixdev_LDADD = tests/lib/libfakehid.la \
	common/libcommon.la $(LIBCRYPTO_LIBS)

# The ISO 7816 framing of FIDO messages (apdu.c) over a scripted card
# (tests/lib/fakecard.c), on the virtual clock of tests/lib/vclock.c.
check_PROGRAMS += tests/transport/test_apdu
TESTS += tests/transport/test_apdu
tests_transport_test_apdu_SOURCES = tests/transport/test_apdu.c \
	tests/lib/fakecard.c tests/lib/fakecard.h tests/lib/test.h \
	tests/lib/vclock.c tests/lib/vclock.h
tests_transport_test_apdu_CPPFLAGS = $(TEST_CPPFLAGS)
tests_transport_test_apdu_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_transport_test_apdu_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep

# With --with-libu2f-host, the libu2f-host back end (u2fh.c) behind a
# stand-in for the library (tests/transport/u2fhfix.c, in both): test_u2fh
# for selection, discovery and error mapping, test_u2fhop for operations
# on a device.
if WITH_LIBU2F_HOST
check_PROGRAMS += tests/transport/test_u2fh tests/transport/test_u2fhop
TESTS += tests/transport/test_u2fh tests/transport/test_u2fhop
tests_transport_test_u2fh_SOURCES = tests/transport/test_u2fh.c \
	tests/transport/u2fhfix.c tests/transport/u2fhfix.h tests/lib/test.h
tests_transport_test_u2fh_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/tests \
	$(LIBU2FHOST_CFLAGS)
tests_transport_test_u2fh_LDADD = tests/softtoken/libsofttoken.la \
	common/libcommon.la $(LIBU2FHOST_LIBS) $(LIBCRYPTO_LIBS)
tests_transport_test_u2fhop_SOURCES = tests/transport/test_u2fhop.c \
	tests/transport/u2fhfix.c tests/transport/u2fhfix.h tests/lib/test.h
tests_transport_test_u2fhop_CPPFLAGS = $(tests_transport_test_u2fh_CPPFLAGS)
tests_transport_test_u2fhop_LDADD = $(tests_transport_test_u2fh_LDADD)
endif
