# SPDX-License-Identifier: BSD-2-Clause
# Module tests: unit tests of the argument parser, the return-code table
# and manual mode's verifier; then the real pam_u2f.so through the real
# libpam (pam_start_confdir) with nss_wrapper users and software tokens
# (test_module: authentication flows; test_modfile: the mapping file,
# arguments and debug file; test_tell: the messages the user sees;
# test_modmanual: manual mode's flag matrix); then
# a lint of the man page.

# The rig the module tests share (and tests/hostile's test_pam_*):
# compiled once into libmt, not once per test program.
check_LTLIBRARIES += tests/module/libmt.la
tests_module_libmt_la_SOURCES = tests/module/mtfix.c tests/module/mtfix.h \
	tests/module/mtmain.h tests/module/modtest.c tests/module/modtest.h \
	tests/module/mtpam.c tests/module/enroll.c tests/module/mtsign.c \
	tests/module/mtsign.h
tests_module_libmt_la_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/tests/module \
	-I$(top_srcdir)/pam_u2f

check_PROGRAMS += tests/module/test_privdrop
TESTS += tests/module/test_privdrop
tests_module_test_privdrop_SOURCES = tests/module/test_privdrop.c \
	tests/lib/test.h
tests_module_test_privdrop_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_privdrop_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS)

check_PROGRAMS += tests/module/test_remote
TESTS += tests/module/test_remote
tests_module_test_remote_SOURCES = tests/module/test_remote.c tests/lib/test.h
tests_module_test_remote_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_remote_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS)

check_PROGRAMS += tests/module/test_modremote
TESTS += tests/module/test_modremote
tests_module_test_modremote_SOURCES = tests/module/test_modremote.c \
	tests/lib/test.h
tests_module_test_modremote_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_modremote_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	pam_u2f/libmodule.la common/libcommon.la $(PAM_LIBS) \
	$(LIBCRYPTO_LIBS) -lpthread -ldl

check_PROGRAMS += tests/module/test_args tests/module/test_manual \
	tests/module/test_module tests/module/test_modfile \
	tests/module/test_tell tests/module/test_retcodes \
	tests/module/test_modmanual
TESTS += tests/module/test_args tests/module/test_manual \
	tests/module/test_module tests/module/test_modfile \
	tests/module/test_tell tests/module/test_retcodes \
	tests/module/test_modmanual

tests_module_test_args_SOURCES = tests/module/test_args.c \
	tests/module/argsfix.h tests/lib/test.h
tests_module_test_args_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_args_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS) $(LIBCRYPTO_LIBS)

tests_module_test_manual_SOURCES = tests/module/test_manual.c \
	tests/lib/test.h
tests_module_test_manual_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	-I$(top_srcdir)/tests/lib
tests_module_test_manual_LDADD = tests/module/libmt.la \
	common/libcommon.la $(LIBCRYPTO_LIBS)

tests_module_test_module_SOURCES = tests/module/test_module.c \
	tests/lib/test.h
tests_module_test_module_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_module_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl

tests_module_test_modfile_SOURCES = tests/module/test_modfile.c \
	tests/lib/test.h
tests_module_test_modfile_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib
tests_module_test_modfile_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl

tests_module_test_modmanual_SOURCES = tests/module/test_modmanual.c \
	tests/lib/test.h
tests_module_test_modmanual_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib
tests_module_test_modmanual_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl

tests_module_test_tell_SOURCES = tests/module/test_tell.c tests/lib/test.h
tests_module_test_tell_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_tell_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl
# test_retcodes: the return-code table of pam_u2f(8), row by row.
tests_module_test_retcodes_SOURCES = tests/module/test_retcodes.c \
	tests/lib/test.h
tests_module_test_retcodes_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib
tests_module_test_retcodes_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl
# (make check builds pam_u2f.la and tests/softtoken/softtoken first, for
# both programs: the module is an ordinary target, the token a check one.)

TESTS += tests/module/manlint.sh
ASAN_SKIP += tests/module/manlint.sh # text only: mandoc on the page
dist_check_SCRIPTS += tests/module/manlint.sh

# The configuration file seen by the module (issue 5; tests/conf/ holds
# the unit tests of common/conf/).
# Phase 2: the module's arguments over the file (unit level, through
# pam_u2f/libmodule.la).
check_PROGRAMS += tests/module/test_confargs
TESTS += tests/module/test_confargs
tests_module_test_confargs_SOURCES = tests/module/test_confargs.c \
	tests/module/argsfix.h tests/lib/test.h
tests_module_test_confargs_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_confargs_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS) $(LIBCRYPTO_LIBS)

# Phase 2: the file through the real pam_u2f.so and libpam (the harness of
# tests/module/test_module).
check_PROGRAMS += tests/module/test_confmod
TESTS += tests/module/test_confmod
tests_module_test_confmod_SOURCES = tests/module/test_confmod.c \
	tests/lib/test.h
tests_module_test_confmod_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests/lib
tests_module_test_confmod_LDADD = tests/module/libmt.la \
	tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl

# The options table reaches every source it names: module arguments, the
# file and pamu2fcfg (common/conf/opts.h, row by row).
check_PROGRAMS += tests/module/test_opttable
TESTS += tests/module/test_opttable
tests_module_test_opttable_SOURCES = tests/module/test_opttable.c \
	tests/module/argsfix.h tests/lib/test.h \
	pamu2fcfg/opts.c pamu2fcfg/optcheck.c pamu2fcfg/config.c \
	pamu2fcfg/msg.c pamu2fcfg/passkeyfmt.c \
	pamu2fcfg/tool.h
tests_module_test_opttable_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f -I$(top_srcdir)/pamu2fcfg
tests_module_test_opttable_LDADD = pam_u2f/libmodule.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS)


# What the module tells when sysfs lists FIDO nodes that /dev lacks (a
# sandbox) or refuses (EACCES): tell_no_key on a fake sysfs and /dev.
check_PROGRAMS += tests/module/test_tellhid
TESTS += tests/module/test_tellhid
tests_module_test_tellhid_SOURCES = tests/module/test_tellhid.c \
	tests/lib/test.h
tests_module_test_tellhid_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/pam_u2f
tests_module_test_tellhid_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS)

# The conversation (issue 29): test_conv, its rules (pam_u2f(8),
# DESKTOPS, "The conversation"); test_frontends, the harness of front
# ends (gdm, lightdm, sddm, a lock screen, a slow typist). Both run the
# module on the virtual clock: feclock.c defines clock_gettime and
# nanosleep, exported (only these two) so that pam_u2f.so binds to them.
FE_SRCS = tests/module/fe.c tests/module/fe.h tests/module/feclock.c \
	tests/lib/vclock.c tests/lib/vclock.h tests/lib/test.h
FE_TEST_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/tests/module \
	-I$(top_srcdir)/pam_u2f
FE_EXPORT_CLOCK = -Wl,--export-dynamic-symbol=clock_gettime \
	-Wl,--export-dynamic-symbol=nanosleep
FE_TEST_LIBS = tests/module/libmt.la tests/lib/libtokenctl.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl
check_PROGRAMS += tests/module/test_conv tests/module/test_frontends
TESTS += tests/module/test_conv tests/module/test_frontends
tests_module_test_conv_SOURCES = tests/module/test_conv.c $(FE_SRCS)
tests_module_test_conv_CFLAGS = $(FE_TEST_CFLAGS)
tests_module_test_conv_LDFLAGS = $(FE_EXPORT_CLOCK)
tests_module_test_conv_LDADD = $(FE_TEST_LIBS)
tests_module_test_frontends_SOURCES = tests/module/test_frontends.c \
	$(FE_SRCS)
tests_module_test_frontends_CFLAGS = $(FE_TEST_CFLAGS)
tests_module_test_frontends_LDFLAGS = $(FE_EXPORT_CLOCK)
tests_module_test_frontends_LDADD = $(FE_TEST_LIBS)
