#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/remote.sh: an agent login (remote=agent, PAM_RHOST another host,
# the user's OpenSSH FIDO key in a real ssh-agent whose provider is
# OpenSSH's own software key, sk-dummy.so, as tests/tool/sshagent.sh
# runs it; unpacked by tools/openssh-private.sh, never installed) against
# a local-key login (the software token on a unix socket, U2F, presence
# at once), both through the real libpam (bench/pamdrive). Measured:
#   - the module's CPU time: CLOCK_PROCESS_CPUTIME_ID around each
#     pam_authenticate (PAMDRIVE_CPU=1), logins 2..N of a process (warm)
#     and the first (cold, libraries loaded and initialised), several
#     processes; the medians are reported;
#   - the agent's and the token's own CPU (clock ticks of their
#     processes over all logins; not the agent's ssh-sk-helper), which
#     is not the module's;
#   - the messages: strace of one login, each request to the agent (its
#     type) and each CTAPHID request to the key (initialisation frames);
#   - one P-256 / Ed25519 signature check alone (openssl speed), the
#     figure the agent path is held against: the issue's target is no
#     more than about 1 ms of the module's CPU beyond it.
# Replaces the marked "remote" section of RESULTS.md (BENCH_OUT), which
# ends with bench/remote-analysis.md (written by hand). Host only, as
# root. Run alone: BENCH_ONLY=remote bench/run.sh, or bench/remote.sh
# (under a minute). Env: BENCH_WORK, BENCH_BUILD, BENCH_OUT,
# BENCH_REMOTE_LOGINS (logins per process, default 20),
# BENCH_REMOTE_PROCS (processes per case, default 5).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh" remote
logins=${BENCH_REMOTE_LOGINS:-20}
procs=${BENCH_REMOTE_PROCS:-5}
FAR=192.0.2.7
ORIGIN=pam://bench-remote

[ "$(id -u)" -eq 0 ] || die "run as root"
for c in strace openssl awk python3; do
	command -v "$c" >/dev/null || die "missing $c"
done
O=$("$top/tools/openssh-private.sh" --path)
R=$O/root
SKD=$R/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so
if [ ! -x "$R/usr/bin/ssh-agent" ] || [ ! -f "$SKD" ]; then
	die "no OpenSSH unpacked in $O (run tools/openssh-private.sh)"
fi
export SSH_SK_HELPER="$R/usr/lib/openssh/ssh-sk-helper"
mkdir -p "$work"
bench_build remote

WORK=$work/remote
rm -rf "$WORK"
mkdir -p "$WORK/raw" "$WORK/pam"
chmod 755 "$WORK"
PIDFILES=""
cleanup() {
	for f in $PIDFILES; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
}
trap cleanup EXIT

# ---- the software token, the agent, the credentials ----------------------
"$build/tests/softtoken/softtoken" --socket "$WORK/t.sock" --daemon \
    --pidfile "$WORK/t.pid" --state "$WORK/t.state" --log /dev/null \
    --presence now </dev/null >/dev/null 2>"$WORK/t.err" ||
    die "softtoken did not start"
PIDFILES="$WORK/t.pid"
mkdir -m 700 "$WORK/agent"
SOCK=$WORK/agent/sock
"$R/usr/bin/ssh-agent" -D -a "$SOCK" -P "$SKD" >/dev/null 2>&1 &
echo $! >"$WORK/agent.pid"
PIDFILES="$PIDFILES $WORK/agent.pid"
for _ in $(seq 100); do
	[ -S "$WORK/t.sock" ] && [ -S "$SOCK" ] && break
	sleep 0.05
done
export SSH_AUTH_SOCK=$SOCK
keygen() { "$R/usr/bin/ssh-keygen" -q -w "$SKD" -N '' "$@"; }
if ! keygen -t ecdsa-sk -C ka -f "$WORK/ka" ||
    ! keygen -t ed25519-sk -C kb -f "$WORK/kb"; then
	die "ssh-keygen -w sk-dummy.so failed"
fi
"$R/usr/bin/ssh-add" -q -S "$SKD" "$WORK/ka" "$WORK/kb" 2>"$WORK/add.err" ||
    die "ssh-add failed ($WORK/add.err)"
ME=$(id -un)
"$build/pamu2fcfg/pamu2fcfg" --device "unix:$WORK/t.sock" -o "$ORIGIN" \
    -u "$ME" >"$WORK/map.local" 2>"$WORK/cfg.err" ||
    die "pamu2fcfg (the software token) failed ($WORK/cfg.err)"
for k in ka kb; do
	sed "s/^/@ssh-sk $ME /" "$WORK/$k.pub" >"$WORK/map.$k"
done
chmod 644 "$WORK"/map.*

MOD=$build/pam_u2f/.libs/pam_u2f.so
: >"$WORK/empty.conf"
COMMON="conf=$WORK/empty.conf origin=$ORIGIN timeout=10"
echo "auth required $MOD $COMMON authfile=$WORK/map.local" \
    "devices=unix:$WORK/t.sock" >"$WORK/pam/local"
for k in ka kb; do
	echo "auth required $MOD $COMMON authfile=$WORK/map.$k remote=agent" \
	    "devices=unix:$WORK/none" >"$WORK/pam/agent-$k"
done
# drive CASE COUNT: COUNT logins in one process, PAM_RHOST another host
# for the agent (the local one is a remote client too: same item cost).
drive() {
	PAMDRIVE_RHOST=$FAR PAMDRIVE_CPU=1 "$work/pamdrive" "$WORK/pam" "$1" \
	    "$ME" "$2"
}
for c in local agent-ka agent-kb; do
	drive "$c" 1 >/dev/null 2>&1 || die "the $c login failed"
done

# ---- CPU: logins 2..N of each process (warm), login 1 (cold) -------------
ticks() { awk '{ print $14 + $15 }' "/proc/$(cat "$1")/stat"; }
hz=$(getconf CLK_TCK)
for c in local agent-ka agent-kb; do
	log "cpu: $c, $procs processes of $logins logins"
	a0=$(ticks "$WORK/agent.pid")
	t0=$(ticks "$WORK/t.pid")
	for p in $(seq "$procs"); do
		drive "$c" "$logins" >"$WORK/raw/$c.$p.out" \
		    2>"$WORK/raw/$c.$p.err" || die "$c failed ($WORK/raw)"
		sed -n 's/^pamdrive: cpu_ns //p' "$WORK/raw/$c.$p.err" \
		    >"$WORK/raw/$c.$p.cpu"
		head -n 1 "$WORK/raw/$c.$p.cpu" >>"$WORK/raw/$c.cold"
		tail -n +2 "$WORK/raw/$c.$p.cpu" >>"$WORK/raw/$c.warm"
	done
	echo "$(($(ticks "$WORK/agent.pid") - a0)) $(($(ticks "$WORK/t.pid") - t0))" \
	    >"$WORK/raw/$c.peer"
done

# ---- messages: one login under strace ------------------------------------
# Each send on a socket connected to the agent's path is one request
# (its type, byte 5); on the token's, a CTAPHID initialisation frame
# (bit 7 of byte 5) is one request to the key.
msgs() {
	PAMDRIVE_RHOST=$FAR strace -f -xx -s 8 -e trace=connect,sendto,close \
	    -o "$WORK/raw/$1.strace" "$work/pamdrive" "$WORK/pam" "$1" "$ME" \
	    >/dev/null 2>&1 || die "strace of $1 failed"
	awk -v agent="$SOCK" -v token="$WORK/t.sock" '
	function hex(s) { return index("0123456789abcdef", substr(s, 1, 1)) * 16 - 16 + index("0123456789abcdef", substr(s, 2, 1)) - 1 }
	function unhex(s,   n, a, i, o) {
		if (s !~ /^\\x/) return s
		n = split(s, a, /\\x/); o = ""
		for (i = 2; i <= n; i++) o = o sprintf("%c", hex(a[i]))
		return o
	}
	/connect\(/ && /sun_path=/ {
		fd = $0; sub(/.*connect\(/, "", fd); sub(/,.*/, "", fd)
		p = $0; sub(/.*sun_path="/, "", p); sub(/".*/, "", p)
		path[$1 " " fd] = unhex(p)
	}
	/ close\(/ { fd = $0; sub(/.*close\(/, "", fd); sub(/\).*/, "", fd); delete path[$1 " " fd] }
	/sendto\(/ {
		fd = $0; sub(/.*sendto\(/, "", fd); sub(/,.*/, "", fd)
		b = $0; sub(/[^"]*"/, "", b); sub(/".*/, "", b)
		t = hex(substr(b, 19, 2))
		if (path[$1 " " fd] == agent) { na++; at = at " " t }
		else if (path[$1 " " fd] == token) { nr++; if (t >= 128) nk++ }
	}
	END { printf "%d %d %d%s\n", na + 0, nk + 0, nr + 0, at }' \
	    "$WORK/raw/$1.strace"
}
for c in local agent-ka agent-kb; do
	msgs "$c" >"$WORK/raw/$c.msgs"
done

# ---- one signature check alone -------------------------------------------
openssl speed -seconds 2 ecdsap256 >"$WORK/raw/speed-p256" 2>/dev/null
openssl speed -seconds 2 ed25519 >"$WORK/raw/speed-ed25519" 2>/dev/null
# verify/s, the last column of the result line, as microseconds
vus() { awk -v k="$2" '$0 ~ k { v = $NF } END { if (v) printf "%.0f", 1e6 / v; else print "?" }' "$1"; }
p256_us=$(vus "$WORK/raw/speed-p256" "nistp256")
ed_us=$(vus "$WORK/raw/speed-ed25519" "Ed25519")

# ---- the section -----------------------------------------------------------
med() { sort -n "$1" | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f", m / 1000 }'; }
row() {
	local c=$1 name=$2 sig=$3 m p
	read -r na nk nr at <"$WORK/raw/$c.msgs"
	read -r ta tt <"$WORK/raw/$c.peer"
	m=$(med "$WORK/raw/$c.warm")
	echo "| $name | $m | $(med "$WORK/raw/$c.cold") | $sig | $((m - sig)) | $na${at:+ (types $at)} | $nk ($nr reports) | $(awk -v t="$ta" -v h="$hz" -v n=$((procs * logins)) 'BEGIN { printf "%.2f", t * 1000 / h / n }') | $(awk -v t="$tt" -v h="$hz" -v n=$((procs * logins)) 'BEGIN { printf "%.2f", t * 1000 / h / n }') |"
}
sec=$WORK/section.md
{
	echo "$BEGIN_MARK"
	echo "## Sudo over SSH: an agent login against a local-key login (bench/remote.sh)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); medians of $procs processes of $logins logins each (bench/pamdrive, PAM_RHOST $FAR). Local: the software token on a unix socket (U2F, presence at once). Agent: remote=agent, OpenSSH's ssh-agent with sk-dummy.so (Debian 12's OpenSSH, tools/openssh-private.sh)."
	echo
	echo "| login | module CPU us, warm | module CPU us, first login | one signature check alone, us (openssl speed) | warm minus that | requests to the agent | CTAPHID requests to the key | agent's CPU ms/login | token's CPU ms/login |"
	echo "|---|---|---|---|---|---|---|---|---|"
	row local "local key (ES256, U2F)" "$p256_us"
	row agent-ka "agent, sk-ecdsa-sha2-nistp256" "$p256_us"
	row agent-kb "agent, sk-ssh-ed25519" "$ed_us"
	echo
	echo "- Module CPU: CLOCK_PROCESS_CPUTIME_ID of the PAM process around pam_authenticate; warm = logins 2..$logins of a process, first = login 1 (loading and initialising libraries). Agent and token CPU: their processes' clock ticks (the agent's own, without the ssh-sk-helper it starts per signature) over all $((procs * logins)) logins of the row ($((1000 / hz)) ms ticks), not the module's."
	echo "- Requests: one login under strace; agent request types 11 = list identities, 13 = sign; CTAPHID requests are initialisation frames."
	echo "- command: \`bench/remote.sh\`; raw data in $WORK/raw."
	bench_end
} >"$sec"
splice "$out" "$sec" "$BEGIN_MARK" "$END_MARK"
log "done: $out (section remote), $(($(date +%s) - t_start)) s"
