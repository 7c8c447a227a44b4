#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Build the libFuzzer harnesses (clang, --enable-fuzzing) in their own build
# directory and run each for a bounded time. Prints TAP: one line for the
# allocation-failure self-test, one per harness, then a summary of execs/s
# and coverage taken from libFuzzer's final statistics.
#
# Environment:
#   FUZZ_SECONDS     seconds per harness (default 60)
#   FUZZ_TOTAL_SECONDS  instead, the seconds of all harnesses together,
#                    split evenly (at least 5 each): one number for the
#                    whole run, which a new harness does not lengthen
#                    (it runs FUZZ_TOTAL_SECONDS / FUZZ_PARALLEL seconds)
#   FUZZ_BUILD_DIR   build directory (default <source>/build/fuzz)
#   FUZZ_HARNESSES   space-separated subset, e.g. "b64 u2f" (default all)
#   FUZZ_JOBS        make -j (default: number of CPUs)
#   FUZZ_PARALLEL    harnesses run at once (default: FUZZ_JOBS)
#   FUZZ_CONFIGURE   extra configure arguments (e.g. --enable-werror)
#   CC               compiler (default clang)
# Crashes are saved under $FUZZ_BUILD_DIR/crashes/, logs under logs/, the
# growing corpora under corpus/ (seeded from fuzz/corpus/, never modified).
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD_DIR:-$srcdir/build/fuzz}
all="apdu args attest authfile authscan b64 cbor conf ctap2 es256 hid hidraw manual mds passkey sshagent sshkey sshpub u2f"
harnesses=${FUZZ_HARNESSES:-$all}
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
if [ -n "${FUZZ_TOTAL_SECONDS:-}" ]; then
	seconds=$((FUZZ_TOTAL_SECONDS / $(echo $harnesses | wc -w)))
	[ "$seconds" -ge 5 ] || seconds=5
fi
CC=${CC:-clang}
export CC

# Longest input per harness: mapping lines with 4096-character fields,
# 16 KiB key files, key lines past their 8192-byte bound, a CTAPHID exchange of 129 reports; authscan needs
# files well over 128 bytes (AVX2 blocks), several pieces of them.
max_len() {
	case $1 in
	authfile) echo 20000 ;;
	passkey) echo 8192 ;;
	sshkey) echo 17000 ;;
	sshpub) echo 9000 ;;
	hid) echo 9000 ;;
	authscan) echo 8192 ;;
	mds) echo 16384 ;; # evidence up to 12288 bytes, BLOB payloads
	*) echo 4096 ;;
	esac
}

build_all() {
	mkdir -p "$build" || return 1
	if [ ! -f "$build/Makefile" ] || ! "$build/config.status" --config |
	    grep -q -e '--enable-direct-verify'; then
		# both ES256 checkers, held against each other (fuzz_es256)
		(cd "$build" && "$srcdir/configure" -q --enable-fuzzing \
		    --enable-direct-verify \
		    ${FUZZ_CONFIGURE:-}) || return 1
	fi
	targets=fuzz/test_failmalloc
	for h in $harnesses; do
		targets="$targets fuzz/fuzz_$h"
	done
	make -C "$build" -j"$jobs" $targets >"$build/logs/build.log" 2>&1
}

# Value of "key: N" on the DONE line (cov:, ft:) or of stat::key.
final_stat() {
	case $1 in
	stat::*) sed -n "s/^$1: *//p" "$2" | tail -n 1 ;;
	*) grep 'DONE' "$2" | tail -n 1 | sed -n "s/.* $1: \([0-9]*\).*/\1/p" ;;
	esac
}

mkdir -p "$build/logs" "$build/crashes" "$build/corpus"
n=0
failed=0
count=$(echo $harnesses | wc -w)
echo "1..$((count + 1))"
if ! build_all; then
	echo "not ok 1 - build (see $build/logs/build.log)"
	tail -n 20 "$build/logs/build.log" | sed 's/^/# /'
	exit 1
fi

n=$((n + 1))
log=$build/logs/test_failmalloc.log
if top_srcdir=$srcdir "$build/fuzz/test_failmalloc" >"$log" 2>&1; then
	echo "ok $n - test_failmalloc (allocation-failure injection)"
else
	echo "not ok $n - test_failmalloc (see $log)"
	grep -e '^not ok' -e '^#' "$log" | sed 's/^/# /'
	failed=$((failed + 1))
fi

# run_one H N: one harness; its TAP line goes to logs/fuzz_H.tap, the
# summary line to logs/fuzz_H.sum (several run at once, printed in order).
run_one() {
	h=$1
	n=$2
	bin=$build/fuzz/fuzz_$h
	log=$build/logs/fuzz_$h.log
	work=$build/corpus/$h
	mkdir -p "$work"
	dict=
	if [ -f "$srcdir/fuzz/dict/$h.dict" ]; then
		dict=-dict=$srcdir/fuzz/dict/$h.dict
	fi
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	    "$bin" -max_total_time="$seconds" -print_final_stats=1 \
	    -timeout=10 -rss_limit_mb=2560 -max_len="$(max_len "$h")" \
	    -artifact_prefix="$build/crashes/$h-" $dict \
	    "$work" "$srcdir/fuzz/corpus/$h" >"$log" 2>&1
	rc=$?
	runs=$(final_stat stat::number_of_executed_units "$log")
	eps=$(final_stat stat::average_exec_per_sec "$log")
	cov=$(final_stat cov "$log")
	ft=$(final_stat ft "$log")
	line="fuzz_$h: ${runs:-?} runs, ${eps:-?} execs/s, cov ${cov:-?}, ft ${ft:-?}"
	echo "# $line" >"$build/logs/fuzz_$h.sum"
	if [ $rc -eq 0 ]; then
		echo "ok $n - $line"
	else
		echo "not ok $n - fuzz_$h exited $rc (see $log)"
		ls "$build/crashes/$h-"* 2>/dev/null | sed 's/^/# saved: /'
		grep -m 1 -A 12 -e 'ERROR:' -e 'runtime error' \
		    -e 'fuzz check failed' "$log" | sed 's/^/# /'
	fi >"$build/logs/fuzz_$h.tap"
}

# FUZZ_PARALLEL harnesses at a time (default: one per CPU); each still
# gets its full FUZZ_SECONDS.
par=${FUZZ_PARALLEL:-$jobs}
running=0
for h in $harnesses; do
	n=$((n + 1))
	rm -f "$build/logs/fuzz_$h.tap" "$build/logs/fuzz_$h.sum"
	run_one "$h" "$n" &
	running=$((running + 1))
	if [ "$running" -ge "$par" ]; then
		wait
		running=0
	fi
done
wait
summary=""
for h in $harnesses; do
	if [ -s "$build/logs/fuzz_$h.tap" ]; then
		cat "$build/logs/fuzz_$h.tap"
		grep -q '^ok ' "$build/logs/fuzz_$h.tap" || failed=$((failed + 1))
	else
		echo "not ok - fuzz_$h left no result"
		failed=$((failed + 1))
	fi
	summary="$summary
$(cat "$build/logs/fuzz_$h.sum" 2>/dev/null)"
done

echo "# summary ($seconds s per harness, libFuzzer final stats):$summary"
[ $failed -eq 0 ]
