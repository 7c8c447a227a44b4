#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2's attestation verifiers as an independent peer of the
# software token attesting with a test CA: tests/policy/peer_attest.py,
# TAP output. The CA is made now (mkca.sh) in a folder of our own.
set -u
py=/usr/bin/python3
[ -x "$py" ] || py=python3
ST="${top_builddir:-.}/tests/softtoken/softtoken"
here="${top_srcdir:-.}/tests/policy"
if ! "$py" -c 'import fido2' 2>/dev/null; then
	echo "1..1"
	echo "not ok 1 - python3-fido2 is missing (tools/deps.sh test installs it)"
	exit 0
fi
work=$(mktemp -d /tmp/pu-peeratt.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
if ! sh "$here/mkca.sh" "$work/ca" >"$work/mkca.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 - mkca.sh (the openssl CLI) made no test CA"
	sed 's/^/# /' "$work/mkca.log"
	exit 0
fi
PYTHONDONTWRITEBYTECODE=1 "$py" "$here/peer_attest.py" "$ST" "$work/ca"
