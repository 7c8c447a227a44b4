#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2 as an independent client of the software token (over its
# socket front): tests/softtoken/peer_fido2.py, TAP output. Debian's
# python3 (where python3-fido2 lives), not whatever python3 PATH finds.
set -u
py=/usr/bin/python3
[ -x "$py" ] || py=python3
ST="${top_builddir:-.}/tests/softtoken/softtoken"
here="${top_srcdir:-.}/tests/softtoken"
if ! "$py" -c 'import fido2' 2>/dev/null; then
	echo "1..1"
	echo "not ok 1 - python3-fido2 is missing (tools/deps.sh test installs it)"
	exit 0
fi
PYTHONDONTWRITEBYTECODE=1 exec "$py" "$here/peer_fido2.py" "$ST"
