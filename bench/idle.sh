#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/idle.sh: what waiting for a touch costs. The module (through
# bench/pamdrive.c and the real libpam) and pamu2fcfg --check wait for a
# touch that never comes, against the software token on a unix: socket in
# two modes: a U2F key that answers "touch needed" at once (--presence
# never: the host asks again every 100 ms) and one that sends KEEPALIVE
# frames while it waits (--keepalive). Prints a markdown table: wall
# seconds, user and system CPU seconds (getrusage of the child) and CPU as
# a share of the wait. Target: at most 1 %.
#
# Env: BENCH_BUILD  a configured build tree (default: build one out of
#                   tree in $BENCH_WORK/build-idle)
#      BENCH_WORK   scratch directory (default /var/tmp/pam-u2f-bench)
#      IDLE_WAIT    seconds of the longer wait (default 12)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
work=${BENCH_WORK:-/var/tmp/pam-u2f-bench}/idle
wait_s=${IDLE_WAIT:-12}
ORIGIN=pam://bench
USER_=nobody

die() { printf 'idle: %s\n' "$*" >&2; exit 1; }

command -v python3 >/dev/null || die "needs python3 (for getrusage)"
mkdir -p "$work/conf" || die "cannot create $work"
build=${BENCH_BUILD:-$work/build}
if [ -z "${BENCH_BUILD:-}" ] && [ ! -f "$build/Makefile" ]; then
	mkdir -p "$build" && (cd "$build" && "$top/configure" -q) ||
	    die "configure failed"
fi
make -C "$build" -s -j"$(nproc)" pam_u2f/pam_u2f.la pamu2fcfg/pamu2fcfg \
    tests/softtoken/softtoken >"$work/make.log" 2>&1 || die "build failed"
cc -O2 -o "$work/pamdrive" "$here/pamdrive.c" -lpam ||
    die "cannot build pamdrive"
OURS=$build/pam_u2f/.libs/pam_u2f.so
CFG=$build/pamu2fcfg/pamu2fcfg
TOK=$build/tests/softtoken/softtoken
sock=$work/tok.sock

token() {	# token ARGS...: (re)start the software token
	[ -f "$work/tok.pid" ] && kill "$(cat "$work/tok.pid")" 2>/dev/null
	sleep 0.2
	rm -f "$sock"
	"$TOK" --socket "$sock" --daemon --pidfile "$work/tok.pid" \
	    --state "$work/tok.state" "$@" >/dev/null 2>&1 ||
	    die "the software token did not start"
}

# Enroll once with a token that is touched at once.
rm -f "$work/tok.state"
token --presence now
"$CFG" --device="unix:$sock" -u "$USER_" -o "$ORIGIN" -i "$ORIGIN" \
    >"$work/map" 2>"$work/enroll.err" || die "enrollment failed"
echo >>"$work/map"
chmod 0644 "$work/map"

# cpu CMD...: "wall user sys" of one run, from getrusage(RUSAGE_CHILDREN)
# (to the microsecond), less what it said before the run: python's own
# start-up may run children (a site .pth file), whose CPU (0.2-0.5 s,
# varying) swamped the wait's and made the share noisy (-0.9 to 1.0 %).
cpu() {
	python3 -c '
import resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.monotonic() - t, r.ru_utime - r0.ru_utime,
    r.ru_stime - r0.ru_stime)' "$@"
}

# service NAME TIMEOUT: the module with that timeout=.
service() {
	printf 'auth required %s authfile=%s origin=%s appid=%s devices=unix:%s timeout=%s\n' \
	    "$OURS" "$work/map" "$ORIGIN" "$ORIGIN" "$sock" "$2" \
	    >"$work/conf/$1"
}

# row LABEL KIND: KIND module or tool, waited for short_s and wait_s; the
# share is the CPU of the longer wait less that of the shorter one, over
# the extra wall time: what waiting itself costs, without the start-up.
row() {
	local a b
	if [ "$2" = module ]; then
		a=$(cpu "$work/pamdrive" "$work/conf" short "$USER_")
		b=$(cpu "$work/pamdrive" "$work/conf" long "$USER_")
	else
		a=$(cpu "$CFG" --device="unix:$sock" -u "$USER_" -o "$ORIGIN" \
		    -i "$ORIGIN" --timeout="$short_s" --check="$work/map")
		b=$(cpu "$CFG" --device="unix:$sock" -u "$USER_" -o "$ORIGIN" \
		    -i "$ORIGIN" --timeout="$wait_s" --check="$work/map")
	fi
	echo "$a $b" | awk -v l="$1" '{
		share = $4 > $1 ? 100 * ($5 + $6 - $2 - $3) / ($4 - $1) : 0
		printf "| %s | %.2f | %.3f | %.3f | %.2f %% |\n", l, $4, $5,
		    $6, share
	}'
}

short_s=2
service short "$short_s"
service long "$wait_s"
echo "| waiting for a touch that never comes | wall s | user s | sys s | CPU / wait |"
echo "|---|---|---|---|---|"
for mode in "touch needed (--presence never)|--presence never" \
    "keepalive (--presence never --keepalive)|--presence never --keepalive"; do
	label=${mode%%|*}
	# shellcheck disable=SC2086
	token ${mode#*|}
	row "module, $label" module
	row "pamu2fcfg --check, $label" tool
done
kill "$(cat "$work/tok.pid")" 2>/dev/null
exit 0
