#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Smoke test of the software token's CTAP2 options over the socket front:
# the CTAPHID capabilities, CBOR GetInfo and ClientPIN, MSG refused with
# U2F off, KEEPALIVE then CANCEL on a CBOR request, the log, the state
# file, and usage errors. The raw CTAPHID client of peerlib.py; TAP
# output. (The unit tests test_ctap2*.c cover the commands; python3-fido2
# and fido2-tools drive the token elsewhere.)
set -u

ST="${top_builddir:-.}/tests/softtoken/softtoken"
n=0
fails=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not found"
	exit 0
fi

echo "1..13"
dir=$(mktemp -d "${TMPDIR:-/tmp}/ctap2sock.XXXXXX") || exit 1
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$dir"
}
trap cleanup EXIT
# The client imports tests/softtoken/peerlib.py; no bytecode is written
# into the source tree.
client() {
	PYTHONPATH="${top_srcdir:-.}/tests/softtoken" PYTHONDONTWRITEBYTECODE=1 \
	    python3 "$dir/client.py" "$@"
}

cat >"$dir/client.py" <<'PY'
# One "<check> ok|bad" line per check; the CTAPHID client itself is
# tests/softtoken/peerlib.py's.
import sys
from peerlib import check_line as check, hid_connect, hid_init, \
    hid_recv as recv, hid_send as send

def init(s):
    nonce, cmd, r = hid_init(s)
    print("caps %02x" % r[16])
    return r[8:12]

def main():
    s = hid_connect(sys.argv[1])
    cid = init(s)
    if sys.argv[2] == "caps":
        return
    if sys.argv[2] == "cancel":
        ka = []
        send(s, cid, 0x10, b"\x0b")          # Selection: waits for a touch
        r = s.recv(100)
        ka.append(r[7] if r[:4] == cid and r[4] == 0xbb else None)
        send(s, cid, 0x11, b"")
        cmd, rep = recv(s, cid, ka)
        check("cancel", ka[0] == 2 and cmd == 0x10 and rep == b"\x2d")
        return
    send(s, cid, 0x10, b"\x04")                      # GetInfo
    cmd, rep = recv(s, cid, [])
    check("getinfo", cmd == 0x10 and rep[0] == 0 and rep[1] & 0xe0 == 0xa0
          and b"FIDO_2_1" in rep and b"U2F_V2" not in rep)
    send(s, cid, 0x10, b"\x06\xa2\x01\x01\x02\x01")  # getPINRetries
    check("retries", recv(s, cid, []) ==          # {3: 8, 4: false}
          (0x10, b"\x00\xa2\x03\x08\x04\xf4"))
    send(s, cid, 0x03, bytes([0, 3, 0, 0, 0, 0, 0]))  # U2F VERSION
    check("nmsg", recv(s, cid, []) == (0x3f, b"\x01"))
    send(s, cid, 0x10, b"\x06\xa1\x02")              # not CBOR
    check("badcbor", recv(s, cid, []) == (0x10, b"\x12"))

main()
PY

"$ST" --socket "$dir/sock" --ctap2 2.1 --u2f off --pin 1234 \
    --state "$dir/state" --log "$dir/log" --daemon --pidfile "$dir/pid" \
    2>"$dir/err"
ok $? "daemon with --ctap2 2.1 --u2f off --pin starts"
pids="$(cat "$dir/pid" 2>/dev/null)"
client "$dir/sock" basic >"$dir/py" 2>&1
grep -qx "caps 0d" "$dir/py"
ok $? "INIT capabilities: WINK, CBOR, NMSG"
for c in getinfo retries nmsg badcbor; do
	grep -qx "$c ok" "$dir/py"
	ok $? "over the socket: $c"
done
grep -qx "cbor cmd=04 status=00" "$dir/log" &&
    grep -qx "cbor cmd=06 status=00" "$dir/log" &&
    grep -qx "cbor cmd=06 status=12" "$dir/log" && ! grep -q 1234 "$dir/log"
ok $? "log: a line per CBOR command, no PIN"
grep -q "^pin-hash [0-9a-f]\{32\}$" "$dir/state" &&
    grep -qx "pin-retries 8" "$dir/state" &&
    ! grep -q 31323334 "$dir/state"
ok $? "state file: the PIN's hash and retries, not the PIN"

"$ST" --socket "$dir/sock2" --ctap2 2.0 --presence never --daemon \
    --pidfile "$dir/pid2" 2>>"$dir/err"
pids="$pids $(cat "$dir/pid2" 2>/dev/null)"
client "$dir/sock2" caps >"$dir/py2" 2>&1
grep -qx "caps 05" "$dir/py2"
ok $? "--ctap2 2.0 with U2F on: capabilities WINK, CBOR"
"$ST" --socket "$dir/sock3" --ctap2 2.1 --presence never --daemon \
    --pidfile "$dir/pid3" 2>>"$dir/err"
pids="$pids $(cat "$dir/pid3" 2>/dev/null)"
client "$dir/sock3" cancel >"$dir/py3" 2>&1
grep -qx "cancel ok" "$dir/py3"
ok $? "a CBOR request waiting for a touch: KEEPALIVE 02, CANCEL ends it 2D"

bad=0
for args in "--pin 1234" "--ctap2 2.1 --always-uv --u2f on" \
    "--ctap2 2.1 --pin-retries 9" "--ctap2 2.1 --attest x509" \
    "--ctap2 3.0" "--ctap2 2.1 --pin 12" "--ctap2 2.0 --always-uv" \
    "--rk-slots 3" "--ctap2 2.1 --rk-slots 0" "--ctap2 2.0 --rk-slots 257"; do
	# shellcheck disable=SC2086
	"$ST" --socket "$dir/sockx" $args 2>"$dir/errx"
	rc=$?
	if [ $rc -ne 2 ] || [ ! -s "$dir/errx" ]; then
		echo "# $args: exit $rc"
		bad=1
	fi
done
ok $bad "bad CTAP2 usage exits 2 with a message"
"$ST" --socket "$dir/sockx" --ctap2 2.1 --always-uv --u2f on 2>&1 |
    grep -q "always-uv means U2F is off"
ok $? "--always-uv with --u2f on is refused by name"

bad=0
for f in cbor-garbage cbor-noncanonical cbor-wrong-status uv-lie uv-skip \
    cbor-oversized endless-processing getinfo-garbage; do
	"$ST" --fault "$f" --help >"$dir/usage" 2>&1 &&
	    grep -q " $f" "$dir/usage" || bad=1
done
ok $bad "the CTAP2 fault names parse and are listed in the usage"

if [ $fails -ne 0 ]; then
	sed 's/^/# /' "$dir/py" "$dir/py2" "$dir/py3" "$dir/err" 2>/dev/null
fi
exit 0
