#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/multikey.sh: several keys plugged in at once (issue 16): the time
# from pam_authenticate until every key has received its touch-requiring
# request ("blinks"), with 1, 4 and 16 software tokens, and the round
# trips of one login; ours against Debian 12's libpam-u2f 1.1.0, in the
# test VM (bench/vm-multikey.sh); replaces the "several keys" section of
# bench/RESULTS.md. Run alone (about 5 minutes) or by bench/run.sh
# (BENCH_ONLY=multikey bench/run.sh runs only this). See bench/README.
#
# Env: BENCH_WORK, BENCH_BUILD, BENCH_OUT as for bench/run.sh;
#      BENCH_MK_KEYS      numbers of keys (default "1 4 16")
#      BENCH_MK_RUNS      timed logins per case (default 5)
#      BENCH_MK_TOUCH_MS  the touched key's delay (default 3000)
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh" multikey
keys=${BENCH_MK_KEYS:-1 4 16}
runs=${BENCH_MK_RUNS:-5}
touch_ms=${BENCH_MK_TOUCH_MS:-3000}
f=$rd/multikey.txt

# runs MOD N: per run "FIRST ALL BLINKED_BEFORE_TOUCH SEEN_ALL TOUCH OK
# PROMPTS": ms to the first and to the last key's blink (NA if a key never
# blinked), keys that blinked before the touch, ms to the last key's
# first request of any kind, ms to the touch, 1 if PAM_SUCCESS.
runs() {
	awk -v m="$1" -v n="$2" '
	    $2 != m || $3 != n { next }
	    { r = $4 }
	    $1 == "result" { ok[r] = $5 == "PAM_SUCCESS"; rs[r] = 1 }
	    $1 == "prompts" { pr[r] = $5 }
	    $1 == "touch" { t[r] = $5 }
	    $1 == "blink" { b[r, $5] = $6 }
	    $1 == "seen" { s[r, $5] = $6 }
	    END {
		for (r in rs) {
			first = "NA"; all = 0; cnt = 0; sa = 0
			for (k = 1; k <= n; k++) {
				v = b[r, "k" k]
				if (v == "none") all = "NA"
				else {
					if (first == "NA" || v + 0 < first) first = v
					if (all != "NA" && v + 0 > all) all = v
					if (r in t && v + 0 < t[r] + 0) cnt++
				}
				w = s[r, "k" k]
				if (w == "none") sa = "NA"
				else if (sa != "NA" && w + 0 > sa) sa = w
			}
			print first, all, cnt, sa, (r in t) ? t[r] : "NA", ok[r], pr[r]
		}
	    }' "$f"
}

# stat COL: "median / max" of column COL of runs' output (stdin), or
# "never in K of N" if K runs have NA there.
stat() {
	awk -v c="$1" '{ print $c }' | sort -g | awk '
	    { v[NR] = $1; if ($1 == "NA") na++ }
	    END { if (na) { printf "never in %d of %d", na, NR; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.0f / %.0f", m, v[NR] }'
}
col_min() { awk -v c="$1" 'NR == 1 || $c < m { m = $c } END { print m }'; }
col_sum() { awk -v c="$1" '{ s += $c } END { print s + 0 }'; }

# kinds MOD N: median blink ms by kind of key, over runs and keys.
kinds() {
	awk -v m="$1" -v n="$2" '
	    $1 == "key" { kind[$2] = $3 }
	    $1 == "blink" && $2 == m && $3 == n && $6 != "none" {
		print kind[$5], $6 }' "$f" | sort -k1,1 -k2g | awk '
	    $1 != k { if (k != "") out(); k = $1; c = 0 }
	    { v[++c] = $2 }
	    function out() {
		x = (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
		s = s (s == "" ? "" : ", ") k " " sprintf("%.0f", x) }
	    END { if (k != "") out(); print s }'
}

# mix N: "a ctap2, b u2f, c ctap2pin" of keys k1..kN.
mix() {
	awk -v n="$1" '$1 == "key" && substr($2, 2) + 0 <= n { c[$3]++ }
	    END { for (k in c) s = s (s == "" ? "" : ", ") c[k] " " k; print s }' "$f"
}

get() { awk -v k="$1" -v m="$2" -v n="$3" '$1 == k && $2 == m && $3 == n { print $4 }' "$f"; }

# perkind MOD N: requests per key, by kind ("ctap2 6-7, u2f 22").
perkind() {
	awk -v m="$1" -v n="$2" '
	    $1 == "key" { kind[$2] = $3 }
	    $1 == "rtkey" && $2 == m && $3 == n { k = kind[$4]
		if (!(k in lo) || $5 < lo[k]) lo[k] = $5
		if (!(k in hi) || $5 > hi[k]) hi[k] = $5 }
	    END { for (k in lo) s = s (s == "" ? "" : ", ") k " " \
		(lo[k] == hi[k] ? lo[k] : lo[k] "-" hi[k]); print s }' "$f"
}

# bycmd MOD N: "kind: COMMAND xN, ..." per kind of key.
bycmd() {
	awk -v m="$1" -v n="$2" '
	    $1 == "rtcmd" && $2 == m && $3 == n {
		k = $4; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ /, ""); split($0, p, "|")
		s[k] = s[k] (s[k] == "" ? "" : ", ") p[1] " x" p[2] }
	    END { for (k in s) o = o (o == "" ? "" : "; ") k ": " s[k]; print o }' "$f"
}

section() {
	local n m r ok

	echo "$BEGIN_MARK"
	echo "## Several keys: every key blinks"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), source $(cd "$top" && git rev-parse --short HEAD 2>/dev/null || echo '?') plus the working tree's changes"
	echo "- old module: libpam-u2f $OLD_VERSION (unpacked, not installed) with libfido2 $(dpkg-query -W -f '${Version}' libfido2-1 2>/dev/null)"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); the VM: one vCPU, $(if [ -w /dev/kvm ] 2>/dev/null; then echo KVM; else echo "TCG (no /dev/kvm: emulated, slow)"; fi); host load average (1 min) before / after the VM: $(sed 's| | / |' "$rd/load" 2>/dev/null || echo '?')"
	echo "- reproduce (as root, from the source tree): \`BENCH_ONLY=multikey bench/run.sh\` or \`bench/multikey.sh\` (took $(cat "$rd/took-min" 2>/dev/null || echo '?') min)"
	echo
	echo "In the test VM (tests/vm/boot.sh), N software tokens on /dev/uhid,"
	echo "each with \`--log-time\` (every log line starts with"
	echo "CLOCK_MONOTONIC). Keys k1..kN of three kinds in turn: ctap2 ="
	echo "CTAP 2.1 (\`--ctap2 2.1\`), u2f = U2F-only (\`--ctap2 off\`),"
	echo "ctap2pin = CTAP 2.0 with a PIN (\`--ctap2 2.0 --pin 1234\`,"
	echo "enrolled with \`-N\`, so its credential says +pin):"
	for n in $keys; do echo "N=$n: $(mix "$n");"; done
	echo "one line of the mapping file"
	echo "holds one credential per key, in that order, enrolled with our"
	echo "\`pamu2fcfg --add\`; both modules get the same line and"
	echo "\`authfile=... origin=pam://bench appid=pam://bench max_devices=128\`"
	echo "through bench/pamdrive (PAMDRIVE_CLOCK=1: CLOCK_MONOTONIC right"
	echo "before pam_authenticate; PIN prompts answered with the PIN)."
	echo "A key \"blinks\" when it gets its first touch-requiring request:"
	echo "its log's first \`keepalive\` (a CTAP2 request held for presence:"
	echo "GetAssertion with up, Selection, ...) or its first U2F"
	echo "AUTHENTICATE with P1 03 (enforce presence; answered 6985 at once"
	echo "while not touched). The other keys never see a touch; one key"
	echo "does, \`--presence after:$touch_ms\`: $touch_ms ms after its own first"
	echo "touch-requiring request, so that the others have time to blink."
	echo "For ours that key is kN, the last; the old module asks the key"
	echo "of the first credential and waits there (below), so for it k1 is"
	echo "touched. $runs logins per case; milliseconds from the call of"
	echo "pam_authenticate, median / max over the logins."
	echo
	echo "### Time until every key blinks"
	echo
	echo "| keys | module | logins PAM_SUCCESS | PIN prompts per login | keys blinked before the touch (fewest) | first key blinks, ms | **every key blinks, ms** | every key got a first request, ms | median blink by kind of key, ms |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for n in $keys; do
		for m in ours old; do
			runs "$m" "$n" >"$work/mk-runs"
			ok=$(col_sum 6 <"$work/mk-runs")
			echo "| $n | $m | $ok of $(wc -l <"$work/mk-runs") | $(awk '{print $7}' "$work/mk-runs" | sort -u | paste -sd/) | $(col_min 3 <"$work/mk-runs") of $n | $(stat 1 <"$work/mk-runs") | **$(stat 2 <"$work/mk-runs")** | $(stat 4 <"$work/mk-runs") | $(kinds "$m" "$n") |"
		done
	done
	r=$(awk '$1 == "inturn" { print $4 " s: " $5 }' "$f")
	echo
	echo "The old module asks the keys in turn: with N=4 and only the last"
	echo "key touched (the others never), keys that had got a touch"
	echo "request after ${r:-NA} of 4 (it waits on k1, which holds"
	echo "credential 1, until that key gives up: a CTAP2 key after its"
	echo "30 s, a U2F key never, as libfido2 re-asks it without a"
	echo "deadline)."
	echo
	echo "### Round trips per login"
	echo
	echo "One login under strace (-f -y -xx -s 16 of write(2)): CTAPHID"
	echo "requests the PAM process writes to each hidraw node, one"
	echo "initialisation frame = one request (bench/ctaphid-req.awk). U2F"
	echo "keys are re-asked (AUTHENTICATE P1 03) every 100 ms while no one"
	echo "touches them, so their count grows with the wait (here about"
	echo "$touch_ms ms, longer under strace); CTAP2 keys wait on one"
	echo "request (KEEPALIVE) and are cancelled (CANCEL has no reply)."
	echo
	echo "| keys | module | requests per login | per key, by kind | by command, by kind of key |"
	echo "|---|---|---|---|---|"
	for n in $keys; do
		for m in ours old; do
			echo "| $n | $m | $(get rt "$m" "$n") | $(perkind "$m" "$n") | $(bycmd "$m" "$n") |"
		done
	done
	bench_end
}

bench_need cc make strace
mkdir -p "$work"
if [ -z "${BENCH_MK_SECTION_ONLY:-}" ]; then
	bench_build multikey
	l0=$(cut -d' ' -f1 /proc/loadavg)
	log "vm: boot (keys $keys, $runs runs, both modules)"
	bench_boot multikey BENCH_MK_KEYS="$keys" BENCH_MK_RUNS="$runs" \
	    BENCH_MK_TOUCH_MS="$touch_ms"
	! grep '^error' "$f" || die "errors in the VM (see $rd)"
	echo $(( ($(date +%s) - t_start + 59) / 60 )) >"$rd/took-min"
	echo "$l0 $(cut -d' ' -f1 /proc/loadavg)" >"$rd/load"
fi
section >"$work/multikey.md"
splice "$out" "$work/multikey.md" "$BEGIN_MARK" "$END_MARK"
log "wrote the several-keys section of $out in $(( $(date +%s) - t_start )) s"
cat "$work/multikey.md"
