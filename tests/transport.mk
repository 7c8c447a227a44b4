# Transport tests: CTAPHID channel opening (test_ctaphid) and message
# framing (test_ctaphid_msg) over a scripted device, the hidraw
# descriptor parser and discovery, and the unix: socket back end.
# tests/libfakehid.la is the scripted device other tests may link too.
check_LTLIBRARIES += tests/libfakehid.la
tests_libfakehid_la_SOURCES = tests/fakehid.c tests/fakehid.h

check_PROGRAMS += tests/test_ctaphid tests/test_ctaphid_msg tests/test_hidraw \
	tests/test_unixdev
TESTS += tests/test_ctaphid tests/test_ctaphid_msg tests/test_hidraw \
	tests/test_unixdev

tests_test_ctaphid_SOURCES = tests/test_ctaphid.c tests/hidfix.h tests/test.h
tests_test_ctaphid_LDADD = tests/libfakehid.la common/libcommon.la \
	$(LIBCRYPTO_LIBS)

tests_test_ctaphid_msg_SOURCES = tests/test_ctaphid_msg.c tests/hidfix.h \
	tests/test.h tests/vclock.c tests/vclock.h
tests_test_ctaphid_msg_LDADD = tests/libfakehid.la common/libcommon.la \
	$(LIBCRYPTO_LIBS)
# on the virtual clock of tests/vclock.c
tests_test_ctaphid_msg_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep

tests_test_hidraw_SOURCES = tests/test_hidraw.c tests/test.h
tests_test_hidraw_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/test_unixpath
TESTS += tests/test_unixpath
tests_test_unixpath_SOURCES = tests/test_unixpath.c tests/test.h
tests_test_unixpath_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

tests_test_unixdev_SOURCES = tests/test_unixdev.c tests/test.h
tests_test_unixdev_LDADD = tests/libfakehid.la common/libcommon.la \
	$(LIBCRYPTO_LIBS)

# The ISO 7816 framing of FIDO messages (apdu.c) over a scripted card
# (tests/fakecard.c), on the virtual clock of tests/vclock.c.
check_PROGRAMS += tests/test_apdu
TESTS += tests/test_apdu
tests_test_apdu_SOURCES = tests/test_apdu.c tests/fakecard.c \
	tests/fakecard.h tests/test.h tests/vclock.c tests/vclock.h
tests_test_apdu_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_test_apdu_LDFLAGS = -Wl,--wrap=clock_gettime,--wrap=nanosleep
