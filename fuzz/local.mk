# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer harnesses (configure --enable-fuzzing, clang). The parsers are
# compiled a second time, from the same common/ and pam_u2f/args.c sources,
# into fuzz/libfuzzcommon.la with FUZZ_CFLAGS (fuzzer-no-link, ASan,
# UBSan); production objects and flags are untouched. Allocation failures
# are injected with -Wl,--wrap (fuzz/failmalloc.c), and sleeps only move
# a virtual clock (fuzz/vclock.c). See fuzz/README.
EXTRA_DIST += fuzz/README fuzz/run.sh fuzz/mkcorpus.py fuzz/corpus fuzz/dict \
	fuzz/crashes-found

FUZZ_HARNESSES = fuzz/fuzz_apdu fuzz/fuzz_args fuzz/fuzz_attest fuzz/fuzz_authfile fuzz/fuzz_authscan \
	fuzz/fuzz_b64 fuzz/fuzz_cbor fuzz/fuzz_conf fuzz/fuzz_ctap2 fuzz/fuzz_es256 fuzz/fuzz_hid fuzz/fuzz_hidraw \
	fuzz/fuzz_manual fuzz/fuzz_passkey fuzz/fuzz_sshagent fuzz/fuzz_sshkey \
	fuzz/fuzz_sshpub fuzz/fuzz_u2f fuzz/fuzz_mds

if ENABLE_FUZZING
noinst_LTLIBRARIES += fuzz/libfuzzcommon.la fuzz/libfuzzsupport.la
noinst_PROGRAMS += $(FUZZ_HARNESSES)

fuzzers: $(FUZZ_HARNESSES)
.PHONY: fuzzers
endif

FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/pam_u2f -I$(top_srcdir)/fuzz \
	-I$(top_srcdir)/tests/lib
FUZZ_ALL_CFLAGS = $(WARN_CFLAGS) $(FUZZ_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	$(LIBCONFUSE_CFLAGS) $(PCSCLITE_CFLAGS)
FUZZ_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
	-Wl,--wrap=reallocarray,--wrap=strdup,--wrap=strndup \
	-Wl,--wrap=nanosleep,--wrap=clock_gettime
FUZZ_LDADD = fuzz/libfuzzsupport.la fuzz/libfuzzcommon.la \
	$(LIBCRYPTO_LIBS) $(LIBCONFUSE_LIBS) $(LIBU2FHOST_LIBS) \
	$(PCSCLITE_LIBS) -lpthread

fuzz_libfuzzcommon_la_SOURCES = $(COMMON_SOURCES) \
	pam_u2f/args.c pam_u2f/args.h
# Same sources and defines as the layers of common/ (common/local.mk).
fuzz_libfuzzcommon_la_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	$(common_conf_libconf_la_CPPFLAGS)
fuzz_libfuzzcommon_la_CFLAGS = $(FUZZ_ALL_CFLAGS)

fuzz_libfuzzsupport_la_SOURCES = fuzz/fuzz.c fuzz/fuzz.h \
	fuzz/failmalloc.c fuzz/failmalloc.h fuzz/vclock.c fuzz/vclock.h \
	fuzz/manualkat.c fuzz/manualkat.h
fuzz_libfuzzsupport_la_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_libfuzzsupport_la_CFLAGS = $(FUZZ_ALL_CFLAGS)

fuzz_fuzz_apdu_SOURCES = fuzz/fuzz_apdu.c
fuzz_fuzz_apdu_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_apdu_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_apdu_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_apdu_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_args_SOURCES = fuzz/fuzz_args.c
fuzz_fuzz_args_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_args_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_args_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_args_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_attest_SOURCES = fuzz/fuzz_attest.c
fuzz_fuzz_attest_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_attest_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_attest_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_attest_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_mds_SOURCES = fuzz/fuzz_mds.c
fuzz_fuzz_mds_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_mds_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_mds_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_mds_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_authfile_SOURCES = fuzz/fuzz_authfile.c
fuzz_fuzz_authfile_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_authfile_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_authfile_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_authfile_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_es256_SOURCES = fuzz/fuzz_es256.c
fuzz_fuzz_es256_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_es256_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_es256_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_es256_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_authscan_SOURCES = fuzz/fuzz_authscan.c
fuzz_fuzz_authscan_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_authscan_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_authscan_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_authscan_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_b64_SOURCES = fuzz/fuzz_b64.c
fuzz_fuzz_b64_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_b64_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_b64_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_b64_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_cbor_SOURCES = fuzz/fuzz_cbor.c
fuzz_fuzz_cbor_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_cbor_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_cbor_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_cbor_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_ctap2_SOURCES = fuzz/fuzz_ctap2.c
fuzz_fuzz_ctap2_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_ctap2_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_ctap2_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_ctap2_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_conf_SOURCES = fuzz/fuzz_conf.c
fuzz_fuzz_conf_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_conf_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_conf_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_conf_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_hid_SOURCES = fuzz/fuzz_hid.c
fuzz_fuzz_hid_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_hid_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_hid_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_hid_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_hidraw_SOURCES = fuzz/fuzz_hidraw.c
fuzz_fuzz_hidraw_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_hidraw_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_hidraw_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_hidraw_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_passkey_SOURCES = fuzz/fuzz_passkey.c
fuzz_fuzz_passkey_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_passkey_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_passkey_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_passkey_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_sshkey_SOURCES = fuzz/fuzz_sshkey.c
fuzz_fuzz_sshkey_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_sshkey_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_sshkey_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_sshkey_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_sshagent_SOURCES = fuzz/fuzz_sshagent.c
fuzz_fuzz_sshagent_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/tests/ssh
fuzz_fuzz_sshagent_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_sshagent_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_sshagent_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_sshpub_SOURCES = fuzz/fuzz_sshpub.c
fuzz_fuzz_sshpub_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_sshpub_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_sshpub_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_sshpub_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_manual_SOURCES = fuzz/fuzz_manual.c
fuzz_fuzz_manual_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_manual_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_manual_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_manual_LDADD = $(FUZZ_LDADD)

fuzz_fuzz_u2f_SOURCES = fuzz/fuzz_u2f.c
fuzz_fuzz_u2f_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_u2f_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_fuzz_u2f_LDFLAGS = $(FUZZ_LDFLAGS) $(FUZZ_WRAP)
fuzz_fuzz_u2f_LDADD = $(FUZZ_LDADD)

# The injection itself and a sweep over every allocation of the valid
# seeds (TAP; also run by fuzz/run.sh). Linked without libFuzzer.
if ENABLE_FUZZING
check_PROGRAMS += fuzz/test_failmalloc
TESTS += fuzz/test_failmalloc
endif
fuzz_test_failmalloc_SOURCES = fuzz/test_failmalloc.c tests/lib/test.h
fuzz_test_failmalloc_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_test_failmalloc_CFLAGS = $(FUZZ_ALL_CFLAGS)
fuzz_test_failmalloc_LDFLAGS = $(FUZZ_TEST_LDFLAGS) $(FUZZ_WRAP)
fuzz_test_failmalloc_LDADD = $(FUZZ_LDADD)
