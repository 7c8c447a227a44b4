#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/vm-multikey.sh: the several-keys part of the benchmark, run as
# root inside the test VM (tests/vm/boot.sh) by bench/multikey.sh. Up to
# 16 software tokens on /dev/uhid (real hidraw nodes), each with
# --log-time; one line of the user's mapping file holds one credential per
# key, enrolled with our pamu2fcfg --add. Both modules run through
# bench/pamdrive with PAMDRIVE_CLOCK=1, so the moment pam_authenticate is
# called and the moment each key got its touch-requiring request are on
# one clock (CLOCK_MONOTONIC).
# Env: VM_BUILD, VM_SRC, BENCH_WORK (pamdrive), BENCH_MK_KEYS (default
# "1 4 16"), BENCH_MK_RUNS (runs per case, default 5), BENCH_MK_TOUCH_MS
# (the touched key's delay, default 3000). Results as lines in
# /vmtest/multikey.txt:
#   key KEY KIND                  the keys, in the order of the line
#   blink MOD N RUN KEY MS        ms from pam_authenticate to KEY's first
#                                 touch-requiring request ("none")
#   seen MOD N RUN KEY MS         ... to its first request of any kind
#   touch MOD N RUN MS            ... to the touched key's touch
#   result MOD N RUN PAM_RESULT
#   prompts MOD N RUN COUNT       echo-off PIN prompts
#   rt MOD N TOTAL                CTAPHID requests of one login (strace)
#   rtkey MOD N KEY COUNT         ... to each key
#   rtcmd MOD N KIND COMMAND|COUNT  ... by command and kind of key
#   inturn old N SECONDS KEYS     old module, the last key touched: keys
#                                 that got a touch request in SECONDS
# diagnostics in /vmtest/diag-multikey.
# shellcheck source=bench/vm-lib.sh
. "$VM_SRC/bench/vm-lib.sh" multikey
NS=${BENCH_MK_KEYS:-1 4 16}
RUNS=${BENCH_MK_RUNS:-5}
MS=${BENCH_MK_TOUCH_MS:-3000}
MAXN=0
for kn in $NS; do [ "$kn" -gt "$MAXN" ] && MAXN=$kn; done
conf=$T/confmk
map=$T/mk.map
mkdir -p "$conf"

# kind I: the I-th key's kind: 1, 4, 7, ... plain CTAP 2.1; 2, 5, ...
# U2F-only; 3, 6, ... CTAP 2.0 with a PIN (credential +pin).
kind() {
	case $(($1 % 3)) in
	1) echo ctap2 ;;
	2) echo u2f ;;
	0) echo ctap2pin ;;
	esac
}
opts() {
	case $1 in
	ctap2) echo "--ctap2 2.1" ;;
	u2f) echo "--u2f on --ctap2 off" ;;
	ctap2pin) echo "--ctap2 2.0 --pin $PIN" ;;
	esac
}

# start I PRESENCE: key kI with its options, logging with time stamps.
start() {
	tok_stop "k$1"
	# shellcheck disable=SC2046
	tok_start "k$1" $(opts "$(kind "$1")") --log-time --presence "$2"
}

# enroll: every key once, one credential each, on one line (in order).
enroll() {
	local ki k f

	: >"$map"
	for ((ki = 1; ki <= MAXN; ki++)); do
		k=$(kind "$ki")
		start "$ki" now || return 1
		f=""
		[ "$k" = ctap2pin ] && f=-N
		# shellcheck disable=SC2086
		echo "$PIN" | timeout 60 "$OURCFG" -u "$TARGET" -o "$ORIGIN" \
		    -i "$ORIGIN" --pin-stdin $f --device "$(tok_dev "k$ki")" \
		    --add "$map" >>"$D" 2>&1 || { put "error enroll k$ki"; return 1; }
		tok_stop "k$ki"
		put "key k$ki $k"
	done
	chmod 644 "$map"
}

# setup N WINNER: keys k1..kN plugged in, WINNER touched MS ms after its
# first touch-requiring request, the others never; the line cut to the
# first N credentials; both services.
setup() {
	local kn=$1 w=$2 ki kp m mod

	tok_stop_all
	for ((ki = 1; ki <= kn; ki++)); do
		kp=never
		[ "$ki" = "$w" ] && kp=after:$MS
		start "$ki" "$kp" || return 1
	done
	cut -d: -f1-$((kn + 1)) "$map" >"$T/map$kn"
	chmod 644 "$T/map$kn"
	for m in ours old; do
		mod=$OURMOD
		[ $m = old ] && mod=$OLD
		printf 'auth required %s authfile=%s origin=%s appid=%s %s\n' \
		    "$mod" "$T/map$kn" "$ORIGIN" "$ORIGIN" max_devices=128 \
		    >"$conf/$m"
	done
}

# stamps KEY T0: "BLINK SEEN TOUCH" in ms after T0 from kKEY's log ("none").
stamps() {
	awk -v t0="$2" '
	    $1 < t0 { next }
	    !s { s = $1 }
	    !b && ($2 == "keepalive" || ($2 == "ins=02" && $3 == "p1=03")) { b = $1 }
	    !t && $2 == "touch" { t = $1 }
	    function ms(x) { return x ? sprintf("%.1f", (x - t0) * 1000) : "none" }
	    END { print ms(b), ms(s), ms(t) }' "$T/$1.log"
}

# login MOD N RUN: one timed login; every key's figures.
login() {
	local m=$1 kn=$2 run=$3 t0 ki b s t res

	res=$(PAMDRIVE_CLOCK=1 PAMDRIVE_VERBOSE=1 PAMDRIVE_PIN=$PIN timeout 60 \
	    "$W/pamdrive" "$conf" "$m" "$TARGET" 2>"$T/drv.err" |
	    awk '{print $1}')
	put "result $m $kn $run ${res:-none}"
	put "prompts $m $kn $run $(grep -c 'conv style 1: .*PIN' "$T/drv.err")"
	t0=$(sed -n 's/^pamdrive: pam_authenticate at //p' "$T/drv.err")
	[ -n "$t0" ] || { cat "$T/drv.err" >&2; return 1; }
	for ((ki = 1; ki <= kn; ki++)); do
		read -r b s t <<<"$(stamps "k$ki" "$t0")"
		put "blink $m $kn $run k$ki $b"
		put "seen $m $kn $run k$ki $s"
		[ "$t" != none ] && put "touch $m $kn $run $t"
	done
	return 0
}

# rounds MOD N: one login under strace; requests per key and command.
rounds() {
	local m=$1 kn=$2 f=/vmtest/stmk-$1-$2 ki

	: >"$T/nodes"
	for ((ki = 1; ki <= kn; ki++)); do
		echo "$(tok_dev "k$ki") k$ki $(kind "$ki")" >>"$T/nodes"
	done
	PAMDRIVE_PIN=$PIN timeout 60 strace -f -y -xx -s 16 -e trace=write \
	    -o "$f" "$W/pamdrive" "$conf" "$m" "$TARGET" >"$f.res" 2>&1
	awk -f "$VM_SRC/bench/ctaphid-req.awk" "$f" >"$f.req"
	put "rt $m $kn $(wc -l <"$f.req")"
	awk 'NR == FNR { k[$1] = $2; next } { c[k[$1]]++ }
	    END { for (x in c) print x, c[x] }' \
	    "$T/nodes" "$f.req" | sort -V | while read -r key cnt; do
		put "rtkey $m $kn $key $cnt"
	done
	awk 'NR == FNR { kind[$1] = $3; next }
	    { d = $1; sub(/^[^ ]+ /, ""); print kind[d] "|" $0 }' \
	    "$T/nodes" "$f.req" | sort | uniq -c | while read -r cnt what; do
		put "rtcmd $m $kn ${what%%|*} ${what#*|}|$cnt"
	done
}

# inturn N SECONDS: the old module with only the last key touched: which
# keys get a touch request within SECONDS (it asks them in turn).
inturn() {
	local kn=$1 sec=$2 t0 ki c=0 b

	setup "$kn" "$kn" || return 1
	# pamdrive, killed, prints no time: the uptime (CLOCK_BOOTTIME, the
	# same as CLOCK_MONOTONIC in a guest that never suspends) before it
	t0=$(awk '{print $1}' /proc/uptime)
	timeout "$sec" "$W/pamdrive" "$conf" old "$TARGET" >/dev/null 2>&1
	for ((ki = 1; ki <= kn; ki++)); do
		read -r b _ <<<"$(stamps "k$ki" "$t0")"
		[ "$b" != none ] && c=$((c + 1))
	done
	put "inturn old $kn $sec $c"
}

enroll || { put "done"; exit 0; }
for kn in $NS; do
	for m in ours old; do
		# ours: the last key is touched, so every key must blink
		# first; the old module asks the first credential's key
		# first and waits there: that one is touched.
		w=$kn
		[ $m = old ] && w=1
		setup "$kn" "$w" || continue
		for ((r = 1; r <= RUNS; r++)); do
			login "$m" "$kn" "$r"
		done
		rounds "$m" "$kn"
	done
done
tok_stop_all
inturn 4 8
tok_stop_all
put "done"
