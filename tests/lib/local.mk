# SPDX-License-Identifier: BSD-2-Clause
# What the tests of more than one layer share (tests/README): the TAP
# harness (test.h), the scripted HID device (fakehid), the scripted card
# (fakecard), the virtual clock (vclock), the software tokens under
# control (tokenctl), and known answers used by two layers' tests.
#
# TEST_CPPFLAGS: for every unit test in tests/<layer>/, so that it
# includes "test.h", "fakehid.h", ... by name.
TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lib
EXTRA_DIST += tests/lib/test.h tests/lib/ctap2kat.py

check_LTLIBRARIES += tests/lib/libtokenctl.la
tests_lib_libtokenctl_la_SOURCES = tests/lib/tokenctl.c tests/lib/tokenctl.h

# The scripted HID device the transport, protocol and device tests link.
check_LTLIBRARIES += tests/lib/libfakehid.la
tests_lib_libfakehid_la_SOURCES = tests/lib/fakehid.c tests/lib/fakehid.h
