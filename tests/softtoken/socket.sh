#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Smoke test of the software token's socket front: start it as a daemon,
# talk CTAPHID and U2F to it over SOCK_SEQPACKET with the raw CTAPHID
# client of peerlib.py, stop it. TAP output.
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

echo "1..22"
dir=$(mktemp -d "${TMPDIR:-/tmp}/softtoken-sh.XXXXXX") || exit 1
pid=
pid2=
cleanup() {
	for p in $pid $pid2; do
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
# Prints one "<check> ok|bad" line per check; the CTAPHID client itself is
# tests/softtoken/peerlib.py's.
import hashlib, os, struct, sys
from peerlib import BCAST, check_line as check, hid_connect, hid_frame, \
    hid_init, hid_recv, hid_send as send, hid_xfer as xfer

def conn():
    return hid_connect(sys.argv[1])

def apdu(s, cid, ins, p1, data=b""):
    a = bytes([0, ins, p1, 0, 0]) + struct.pack(">H", len(data)) + data
    cmd, rep = xfer(s, cid, 0x03, a + b"\0\0")
    if cmd != 0x03 or len(rep) < 2:
        raise Exception("bad MSG reply %r %s" % (cmd, rep.hex()))
    return rep[:-2], struct.unpack(">H", rep[-2:])[0]

def init(s, others=()):
    nonce, cmd, r = hid_init(s)
    check("init", cmd == 0x06 and len(r) == 17 and r[:8] == nonce and
          r[12] == 2 and r[16] == 0x01 and
          r[8:12] not in (bytes(4), BCAST))
    for o in others:   # every client sees every input report
        check("init-other", hid_recv(o, BCAST, []) == (cmd, r))
    return r[8:12]

def slow_reader():
    """a does not read while b's INIT and 40 PINGs of 1000 bytes put 681
    reports on its socket (it holds about 278): a's own reply, sent
    after them, still reaches it, behind the others (the token queues
    what a cannot take yet)."""
    a = conn()
    cid_a = init(a)
    b = conn()
    cid_b = init(b)
    p = os.urandom(1000)
    for _ in range(40):
        if xfer(b, cid_b, 0x01, p) != (0x01, p):
            check("slow-reader", False)
            return
    send(a, cid_a, 0x01, b"hello")
    skipped = 0
    while True:
        r = a.recv(100)
        if r[:4] == cid_a and r[4] == 0x81:
            break
        skipped += 1
    print("skipped %d" % skipped)
    check("slow-reader", r[7:12] == b"hello" and skipped == 681)

def main():
    if sys.argv[2] == "slow":
        slow_reader()
        return
    a = conn()
    if sys.argv[2] == "cancel":
        cid = init(a)
        ka = []
        send(a, cid, 0x03, bytes([0, 1, 3, 0, 0, 0, 64]) + bytes(66))
        r = hid_frame(a, cid)
        ka.append(r[7] if r[4] == 0xbb else None)
        send(a, cid, 0x11, b"")
        cmd, rep = hid_recv(a, cid, ka)
        check("cancel", ka[0] == 2 and cmd == 0x03 and rep == b"\x69\x85")
        return
    b = conn()
    cid = init(a, [b])
    p = os.urandom(1000)
    check("ping", xfer(a, cid, 0x01, p) == (0x01, p))
    check("version", apdu(a, cid, 0x03, 0) == (b"U2F_V2", 0x9000))
    chal = hashlib.sha256(b"challenge").digest()
    app = hashlib.sha256(b"pam://softtoken").digest()
    rep, sw = apdu(a, cid, 0x01, 0x03, chal + app)
    check("register", sw == 0x9000 and rep[0] == 5 and rep[66] == 92)
    point, kh = rep[1:66], rep[67:67 + 92]
    khp = bytes([92]) + kh
    check("probe", apdu(a, cid, 0x02, 0x07, chal + app + khp) ==
          (b"", 0x6985) and apdu(a, cid, 0x02, 0x07, chal + chal + khp) ==
          (b"", 0x6A80))
    auth, sw = apdu(a, cid, 0x02, 0x03, chal + app + khp)
    check("authenticate", sw == 0x9000 and auth[:5] == b"\x01\0\0\0\x01")
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError:
        print("verify skip")
        return
    rest = rep[67 + 92:]
    clen = 4 + struct.unpack(">H", rest[2:4])[0]
    cert = x509.load_der_x509_certificate(rest[:clen])
    cert.public_key().verify(rest[clen:], b"\0" + app + chal + kh + point,
                             ec.ECDSA(hashes.SHA256()))
    pub = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    pub.verify(auth[5:], app + auth[:5] + chal, ec.ECDSA(hashes.SHA256()))
    check("verify", True)

main()
PY

"$ST" --socket "$dir/sock" --daemon --pidfile "$dir/pid" \
    --log "$dir/log" 2>"$dir/err"
ok $? "daemon starts and exits 0 when ready"
pid=$(cat "$dir/pid" 2>/dev/null)
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
ok $? "pidfile names a running process"
mode=$(stat -c %a "$dir/sock" 2>/dev/null)
[ "$mode" = 600 ]
ok $? "socket mode is 0600 (got $mode)"

client "$dir/sock" basic >"$dir/py" 2>&1
for c in init init-other ping version register probe authenticate; do
	grep -qx "$c ok" "$dir/py"
	ok $? "over the socket: $c"
done
if grep -qx "verify skip" "$dir/py"; then
	n=$((n + 1))
	echo "ok $n # SKIP python3 cryptography missing: signatures unchecked"
else
	grep -qx "verify ok" "$dir/py"
	ok $? "register and authenticate signatures verify"
fi
grep -qx "ins=03 p1=00 sw=9000" "$dir/log" &&
    grep -qx "ins=02 p1=07 sw=6a80" "$dir/log" &&
    [ "$(grep -c 'ins=02 p1=03 sw=9000' "$dir/log")" -eq 1 ]
ok $? "log lines for the answered APDUs"

client "$dir/sock" slow >"$dir/py-slow" 2>&1
grep -qx "slow-reader ok" "$dir/py-slow"
ok $? "a client that does not read for 681 reports still gets its reply"

kill -TERM "$pid" 2>/dev/null
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
! kill -0 "$pid" 2>/dev/null && [ ! -e "$dir/sock" ] && [ ! -e "$dir/pid" ]
ok $? "SIGTERM stops it, removes socket and pidfile"
pid=

"$ST" --socket "$dir/sock2" --keepalive --presence never --daemon \
    --pidfile "$dir/pid2" --log "$dir/log2" 2>>"$dir/err"
pid2=$(cat "$dir/pid2" 2>/dev/null)
client "$dir/sock2" cancel >>"$dir/py" 2>&1
grep -qx "cancel ok" "$dir/py" && grep -qx keepalive "$dir/log2" &&
    grep -qx "ins=01 p1=03 sw=6985" "$dir/log2"
ok $? "--keepalive: KEEPALIVE until CANCEL, then 6985"

# --ready-fd: a line on the descriptor once serving, the token still the
# shell's child (wait returns its exit status after SIGTERM)
mkfifo "$dir/ready"
"$ST" --socket "$dir/sock4" --ready-fd 3 3>"$dir/ready" 2>>"$dir/err" &
pid4=$!
line=""
read -r line <"$dir/ready"
[ "$line" = ready ] && [ -S "$dir/sock4" ]
ok $? "--ready-fd: 'ready' on the descriptor once the socket listens (got '$line')"
kill -TERM "$pid4"
wait "$pid4"
rc=$?
[ $rc -eq 0 ] && [ ! -e "$dir/sock4" ]
ok $? "... a child of this shell: SIGTERM, wait, exit status 0 (got $rc)"
"$ST" --socket "$dir/sock5" --ready-fd 9 2>"$dir/err5"
[ $? -eq 2 ] && grep -q -- "--ready-fd 9: not an open descriptor" "$dir/err5"
ok $? "--ready-fd naming a closed descriptor: bad usage, said"
"$ST" --socket "$dir/sock5" --ready-fd 1 2>"$dir/err5"
[ $? -eq 2 ]
ok $? "--ready-fd 1 (standard output): bad usage"
"$ST" --socket "$dir/sock5" --daemon --ready-fd 3 3>/dev/null 2>"$dir/err5"
[ $? -eq 2 ] && grep -q "not both" "$dir/err5"
ok $? "--daemon with --ready-fd: bad usage, said"

"$ST" --socket "$dir/sock3" --presence sometimes 2>/dev/null
[ $? -eq 2 ]
ok $? "bad usage exits 2"
"$ST" --socket "$dir/nodir/sock" 2>"$dir/err3"
[ $? -eq 1 ] && grep -q "nodir/sock" "$dir/err3"
ok $? "an unusable socket path is an error naming it"

if [ $fails -ne 0 ]; then
	sed 's/^/# /' "$dir/py" "$dir/err" 2>/dev/null
fi
exit 0
