#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Dynamic and static analysis; prints TAP, one line per tool:
#   1 valgrind memcheck over the module path: the programs that drive
#     pam_u2f.so through libpam and auth_run over the real transport
#     (zero errors, zero definite or indirect leaks, in every process)
#   2 scan-build (clang static analyzer) over common/ pam_u2f/ pamu2fcfg/
#     ldap/ (tests/scanbuild.sh, in a tree of its own, --with-libu2f-host,
#     --with-pcsclite, --with-ldap: every backend's code; skipped with
#     ANALYZE_NO_SCANBUILD=REASON)
#   3 cppcheck (warning, portability, performance) over the same
# Usage: tests/analyze.sh [BUILD_DIR]
#   BUILD_DIR: a configured build tree of this source (default:
#   $top_builddir, else build/gcc); its test programs are built here.
#   Work files go to $ANALYZE_OUT (default BUILD_DIR/analyze).
# A tool that is not installed is a SKIP. Exit status 0 only if all ran
# clean or were skipped.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${top_builddir:-$top/build/gcc}}
jobs=$(nproc 2>/dev/null || echo 2)
failed=0
n=0

tap() {	# tap STATUS NAME [DETAIL-FILE]: one TAP line (+ "# " details)
	n=$((n + 1))
	case $1 in
	0) echo "ok $n - $2" ;;
	skip) echo "ok $n - $2 # SKIP ${3:-}" ;;
	*)
		echo "not ok $n - $2"
		failed=$((failed + 1))
		[ -n "${3:-}" ] && [ -f "$3" ] && head -60 "$3" | sed 's/^/# /'
		;;
	esac
}

[ -f "$build/Makefile" ] || { echo "1..0 # SKIP no build tree at $build"; exit 0; }
build=$(cd "$build" && pwd)
out=${ANALYZE_OUT:-$build/analyze}
rm -rf "$out"
mkdir -p "$out"
echo "1..3"

# ---- 1. valgrind ----
VG_PROGS="tests/device/test_dev tests/module/test_module tests/module/test_modfile
tests/module/test_tell tests/hostile/test_hostile tests/hostile/test_pam_hostile tests/hostile/test_pam_files
tests/mapping/test_authcmd tests/mapping/test_authcache
tests/conf/test_confldap tests/ldap/test_ldescape"
vg_run() {	# vg_run PROG: run it under memcheck, logs in $out/vg
	local name log
	name=$(echo "$1" | tr / _)
	log="$out/vg/$name"
	# Every process is checked (the module tests re-exec themselves
	# under nss_wrapper); the token and shell helpers are not ours, and
	# a set-group-ID copy (test_xdg_ignored_when_secure) valgrind cannot run.
	# test_authcmd's commands are the system's programs; under valgrind,
	# which lacks pidfd_open, it runs authcmd's waitid fall-back.
	(cd "$build" && top_builddir=$build top_srcdir=$top \
	    valgrind --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
	    --trace-children=yes \
	    --trace-children-skip='*/softtoken,*/secure-exe,*/sh,*/bash,*/ls,*/nm,*/awk,*/sort,*/env,*/printf,*/head,*/cat,*/sleep,*/readlink,*/true,*/false,*/dash,*/id' \
	    --log-file="$log.%p.vg" "./$1" >"$log.tap" 2>&1)
}
vg_check() {
	local p bad rc=0 report="$out/vg/report"

	mkdir -p "$out/vg"
	: >"$report"
	# shellcheck disable=SC2086
	if ! make -C "$build" -j"$jobs" -s pam_u2f/pam_u2f.la \
	    tests/softtoken/softtoken $VG_PROGS >"$out/vg/build.log" 2>&1; then
		cp "$out/vg/build.log" "$report"
		return 1
	fi
	# $jobs programs at a time (memcheck is CPU-bound, one per CPU)
	local running=0
	for p in $VG_PROGS; do
		(vg_run "$p"; echo $? >"$out/vg/$(echo "$p" | tr / _).rc") &
		running=$((running + 1))
		[ "$running" -lt "$jobs" ] || { wait; running=0; }
	done
	wait
	for p in $VG_PROGS; do
		if [ "$(cat "$out/vg/$(echo "$p" | tr / _).rc" 2>/dev/null)" != 0 ]
		then
			echo "$p: exit status not 0 (tests or valgrind)" >>"$report"
			# the failed checks ("# file:line: ...") and results
			grep '^not ok\|^Bail\|^# [^ ]*:[0-9]*: ' \
			    "$out/vg/$(echo "$p" | tr / _).tap" >>"$report"
			rc=1
		fi
	done
	# Children's errors do not reach the parent's exit status.
	bad=$(grep -l 'ERROR SUMMARY: [1-9]' "$out"/vg/*.vg 2>/dev/null)
	if [ -n "$bad" ]; then
		# shellcheck disable=SC2086 # file names without blanks
		grep -H -A25 'Invalid\|uninitialised\|definitely lost\|indirectly lost' \
		    $bad | head -80 >>"$report"
		rc=1
	fi
	return $rc
}
if ! command -v valgrind >/dev/null; then
	tap skip "valgrind memcheck" "valgrind not installed"
else
	vg_check
	tap $? "valgrind memcheck: $(echo "$VG_PROGS" | wc -w) programs, every process" \
	    "$out/vg/report"
fi

# ---- 2. scan-build ----
if ! command -v scan-build >/dev/null; then
	tap skip "scan-build" "scan-build not installed (apt-get install clang-tools)"
elif [ -n "${ANALYZE_NO_SCANBUILD:-}" ]; then
	tap skip "scan-build" "$ANALYZE_NO_SCANBUILD"
else
	# its own tree: every file is compiled through the analyzer, in
	# the configuration with the most code (libu2f-host, PC/SC, LDAP)
	"$top/tests/scanbuild.sh" "$out/scan-build" --with-libu2f-host \
	    --with-pcsclite --with-ldap
	tap $? "scan-build: common/ pam_u2f/ pamu2fcfg/ ldap/" \
	    "$out/scan-build/scan-build.bugs"
fi

# ---- 3. cppcheck ----
# Style checks (variable scope and the like) argue with the project's
# declarations-first KNF; warnings, portability and performance do not.
if ! command -v cppcheck >/dev/null; then
	tap skip "cppcheck" "cppcheck not installed"
else
	cppcheck -q --error-exitcode=1 --inline-suppr --std=c11 \
	    --enable=warning,portability,performance \
	    --suppress=missingIncludeSystem -j"$jobs" \
	    -I "$build" -I "$top/common" -I "$top/pam_u2f" -I "$top/pamu2fcfg" \
	    -I "$top/ldap" "$top/common" "$top/pam_u2f" "$top/pamu2fcfg" \
	    "$top/ldap" >"$out/cppcheck" 2>&1
	tap $? "cppcheck: common/ pam_u2f/ pamu2fcfg/ ldap/" "$out/cppcheck"
fi
[ "$failed" -eq 0 ]
