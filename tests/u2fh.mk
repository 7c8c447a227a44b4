# Transport backends: names and selection in every build; with
# --with-libu2f-host the unit tests of the libu2f-host backend behind a
# stand-in for the library (tests/u2fhfix.c, in both): test_u2fh for
# selection, discovery and error mapping, test_u2fhop for operations on a
# device; tests/devcheck, the device-level checks the VM stage runs
# against both backends.
check_PROGRAMS += tests/devcheck tests/test_backend
TESTS += tests/test_backend
tests_test_backend_SOURCES = tests/test_backend.c tests/test.h
tests_test_backend_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_devcheck_SOURCES = tests/devcheck.c
tests_devcheck_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

if WITH_LIBU2F_HOST
check_PROGRAMS += tests/test_u2fh tests/test_u2fhop
TESTS += tests/test_u2fh tests/test_u2fhop
tests_test_u2fh_SOURCES = tests/test_u2fh.c tests/u2fhfix.c \
	tests/u2fhfix.h tests/test.h
tests_test_u2fh_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests \
	$(LIBU2FHOST_CFLAGS)
tests_test_u2fh_LDADD = tests/softtoken/libsofttoken.la \
	common/libcommon.la $(LIBU2FHOST_LIBS) $(LIBCRYPTO_LIBS)
tests_test_u2fhop_SOURCES = tests/test_u2fhop.c tests/u2fhfix.c \
	tests/u2fhfix.h tests/test.h
tests_test_u2fhop_CPPFLAGS = $(tests_test_u2fh_CPPFLAGS)
tests_test_u2fhop_LDADD = $(tests_test_u2fh_LDADD)
endif
