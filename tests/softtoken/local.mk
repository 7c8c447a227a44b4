# SPDX-License-Identifier: BSD-2-Clause
# The software U2F token used by the tests (never installed).
check_LTLIBRARIES += tests/softtoken/libsofttoken.la
tests_softtoken_libsofttoken_la_SOURCES = \
	tests/softtoken/token.c tests/softtoken/token.h \
	tests/softtoken/token_int.h tests/softtoken/tokstate.c \
	tests/softtoken/ctaphid_dev.c tests/softtoken/ctaphid_dev.h \
	tests/softtoken/ctap2.h tests/softtoken/ctap2tok.c \
	tests/softtoken/ctap2req.c tests/softtoken/ctap2op.c \
	tests/softtoken/ctap2ga.c tests/softtoken/ctap2rk.c \
	tests/softtoken/ctap2hmac.c \
	tests/softtoken/ctap2pin.c tests/softtoken/ctap2pinx.c \
	tests/softtoken/ctap2cred.c tests/softtoken/ctap2att.c \
	tests/softtoken/attload.c \
	tests/softtoken/nfc_card.c tests/softtoken/nfc_card.h
tests_softtoken_libsofttoken_la_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_libsofttoken_la_LIBADD = common/libcommon.la \
	$(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/softtoken/softtoken
tests_softtoken_softtoken_SOURCES = tests/softtoken/main.c \
	tests/softtoken/detach.c tests/softtoken/detach.h \
	tests/softtoken/front.h tests/softtoken/front_socket.c \
	tests/softtoken/front_uhid.c tests/softtoken/front_vpcd.c
tests_softtoken_softtoken_LDADD = tests/softtoken/libsofttoken.la

check_PROGRAMS += tests/softtoken/test_token
TESTS += tests/softtoken/test_token
tests_softtoken_test_token_SOURCES = tests/softtoken/test_token.c \
	tests/softtoken/tokfix.c tests/softtoken/tokfix.h tests/lib/test.h
tests_softtoken_test_token_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_token_LDADD = tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/softtoken/test_tokhid
TESTS += tests/softtoken/test_tokhid
tests_softtoken_test_tokhid_SOURCES = tests/softtoken/test_tokhid.c \
	tests/softtoken/tokfix.c tests/softtoken/tokfix.h tests/lib/test.h
tests_softtoken_test_tokhid_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_tokhid_LDADD = tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

# The NFC card's APDUs (nfc_card.c), in memory.
check_PROGRAMS += tests/softtoken/test_nfccard
TESTS += tests/softtoken/test_nfccard
tests_softtoken_test_nfccard_SOURCES = tests/softtoken/test_nfccard.c \
	tests/softtoken/tokfix.c tests/softtoken/tokfix.h tests/lib/test.h
tests_softtoken_test_nfccard_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_nfccard_LDADD = tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

TESTS += tests/softtoken/socket.sh
dist_check_SCRIPTS += tests/softtoken/socket.sh
EXTRA_DIST += tests/softtoken/README

# The CTAP2 host side the token's CTAP2 tests share, compiled once.
check_LTLIBRARIES += tests/softtoken/libctap2h.la
tests_softtoken_libctap2h_la_SOURCES = tests/softtoken/ctap2host.c \
	tests/softtoken/ctap2hpin.c tests/softtoken/ctap2hrk.c \
	tests/softtoken/ctap2host.h
tests_softtoken_libctap2h_la_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)

# The CTAP2 side: the host half is the project's (cbor, proto, pinproto).
check_PROGRAMS += tests/softtoken/test_ctap2
TESTS += tests/softtoken/test_ctap2
tests_softtoken_test_ctap2_SOURCES = tests/softtoken/test_ctap2.c \
	tests/lib/test.h
tests_softtoken_test_ctap2_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_ctap2_LDADD = tests/softtoken/libctap2h.la \
	tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/softtoken/test_ctap2f
TESTS += tests/softtoken/test_ctap2f
tests_softtoken_test_ctap2f_SOURCES = tests/softtoken/test_ctap2f.c \
	tests/lib/test.h
tests_softtoken_test_ctap2f_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_ctap2f_LDADD = tests/softtoken/libctap2h.la \
	tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

check_PROGRAMS += tests/softtoken/test_ctap2hid
TESTS += tests/softtoken/test_ctap2hid
tests_softtoken_test_ctap2hid_SOURCES = tests/softtoken/test_ctap2hid.c \
	tests/lib/test.h
tests_softtoken_test_ctap2hid_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_ctap2hid_LDADD = tests/softtoken/libctap2h.la \
	tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

# Resident credentials, GetNextAssertion, credProtect, Selection, the log.
check_PROGRAMS += tests/softtoken/test_ctap2rk
TESTS += tests/softtoken/test_ctap2rk
tests_softtoken_test_ctap2rk_SOURCES = tests/softtoken/test_ctap2rk.c \
	tests/lib/test.h
tests_softtoken_test_ctap2rk_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)
tests_softtoken_test_ctap2rk_LDADD = tests/softtoken/libctap2h.la \
	tests/softtoken/libsofttoken.la \
	$(LIBCRYPTO_LIBS)

TESTS += tests/softtoken/ctap2sock.sh
dist_check_SCRIPTS += tests/softtoken/ctap2sock.sh

# python3-fido2 as an independent client of the token (its socket front).
TESTS += tests/softtoken/peer_fido2.sh
dist_check_SCRIPTS += tests/softtoken/peer_fido2.sh
EXTRA_DIST += tests/softtoken/peer_fido2.py tests/softtoken/peerlib.py \
	tests/softtoken/peerrk.py tests/softtoken/peerhmac.py \
	tests/softtoken/sockhid.py

# python3-fido2's CtapPcscDevice against the token as an NFC card (--vpcd)
# in a private pcscd (tests/pcsc.lib).
TESTS += tests/softtoken/peer_pcsc.sh
dist_check_SCRIPTS += tests/softtoken/peer_pcsc.sh
EXTRA_DIST += tests/softtoken/peer_pcsc.py
