# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/device/ (over software tokens under control,
# tests/lib/tokenctl.c).
check_PROGRAMS += tests/device/test_dev
TESTS += tests/device/test_dev
tests_device_test_dev_SOURCES = tests/device/test_dev.c tests/lib/test.h
tests_device_test_dev_CPPFLAGS = $(TEST_CPPFLAGS)
tests_device_test_dev_LDADD = tests/lib/libtokenctl.la common/libcommon.la

check_PROGRAMS += tests/device/test_devset
TESTS += tests/device/test_devset
tests_device_test_devset_SOURCES = tests/device/test_devset.c \
	tests/lib/test.h
tests_device_test_devset_CPPFLAGS = $(TEST_CPPFLAGS)
tests_device_test_devset_LDADD = tests/lib/libtokenctl.la \
	common/libcommon.la
# test_devset fails pthread_create on demand (its __wrap_pthread_create).
tests_device_test_devset_LDFLAGS = -Wl,--wrap=pthread_create

# Transport backends: names and selection in every build (test_backend);
# tests/device/devcheck, the device-level checks the VM stage runs against
# both backends (tests/vm/guest/70-libu2fhost.sh).
check_PROGRAMS += tests/device/devcheck tests/device/test_backend
TESTS += tests/device/test_backend
tests_device_test_backend_SOURCES = tests/device/test_backend.c \
	tests/lib/test.h
tests_device_test_backend_CPPFLAGS = $(TEST_CPPFLAGS)
tests_device_test_backend_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
tests_device_devcheck_SOURCES = tests/device/devcheck.c
tests_device_devcheck_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
