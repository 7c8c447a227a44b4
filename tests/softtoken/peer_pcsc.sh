#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2's CtapPcscDevice as an independent client of the software
# token as an NFC card: a private pcscd with the virtual reader
# (tests/pcsc.lib), then tests/softtoken/peer_pcsc.py, TAP output.
# Skipped (with the reason) without pcscd, vsmartcard-vpcd, pyscard or a
# private mount namespace; python3-fido2 missing is a failure, as in
# peer_fido2.sh. Debian's python3, not whatever python3 PATH finds.
set -u
py=/usr/bin/python3
[ -x "$py" ] || py=python3
ST="${top_builddir:-.}/tests/softtoken/softtoken"
here="${top_srcdir:-.}/tests/softtoken"
# shellcheck source=tests/pcsc.lib
. "${top_srcdir:-.}/tests/pcsc.lib"
if ! pcsc_check; then
	echo "1..0 # SKIP $pcsc_why"
	exit 0
fi
if ! "$py" -c 'import smartcard' 2>/dev/null; then
	echo "1..0 # SKIP python3-pyscard is missing (tools/deps.sh test installs it)"
	exit 0
fi
if ! "$py" -c 'import fido2.pcsc' 2>/dev/null; then
	echo "1..1"
	echo "not ok 1 - python3-fido2 is missing (tools/deps.sh test installs it)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/peer-pcsc.XXXXXX") || exit 1
export PCSC_NO_TRAP=1	# our trap below stops it
trap 'pcsc_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
if ! pcsc_start "$tmp"; then
	echo "1..1"
	echo "not ok 1 - a private pcscd with the virtual reader starts"
	exit 0
fi
export PCSC_DIR PCSC_PORT PCSC_READER
PYTHONDONTWRITEBYTECODE=1 "$py" "$here/peer_pcsc.py" "$ST"
