# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash disable=SC2034 # variables for the caller
# bench/lib.sh NAME: sourced by bench/ctap2.sh and bench/multikey.sh (NAME
# ctap2 or multikey): the common variables (here, top, work, out, the
# VM's results rd, the section's marks), log, die, and the steps below.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
work=${BENCH_WORK:-/var/tmp/pam-u2f-bench}
out=${BENCH_OUT:-$here/RESULTS.md}
rd=$work/vm-$1
t_start=$(date +%s)
BEGIN_MARK="<!-- $1: written by bench/$1.sh -->"
END_MARK="<!-- end $1 -->"
BENCH_NAME=$1

log() { printf '== %s\n' "$*" >&2; }
die() { printf 'bench/%s: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

# bench_build NAME: our module, pamu2fcfg and the software token in
# $build (BENCH_BUILD, else $work/build, configured if new; make's
# output in $work/make-NAME.log), and $work/pamdrive. Sets build.
bench_build() {
	build=${BENCH_BUILD:-$work/build}
	mkdir -p "$build"
	if [ ! -f "$build/Makefile" ]; then
		(cd "$build" && "$top/configure" -q) || die "configure failed"
	fi
	make -C "$build" -s -j2 pam_u2f/pam_u2f.la pamu2fcfg/pamu2fcfg \
	    tests/softtoken/softtoken >"$work/make-$1.log" 2>&1 ||
	    { tail -30 "$work/make-$1.log" >&2; die "build failed"; }
	cc -O2 -Wall -Wextra -o "$work/pamdrive" "$here/pamdrive.c" -lpam ||
	    die "cannot build bench/pamdrive.c"
}

# bench_boot NAME [VAR=VALUE]...: the test VM runs bench/vm-NAME.sh with
# VM_BUILD, VM_SRC, BENCH_WORK and the assignments; its /vmtest is
# $work/vm-NAME (emptied first), the console's output $work/vm-NAME.out.
# Dies unless $work/vm-NAME/NAME.txt ends with "done".
bench_boot() {
	local name=$1 rd=$work/vm-$1

	shift
	command -v qemu-system-x86_64 >/dev/null || die "qemu missing"
	rm -rf "$rd"
	mkdir -p "$rd"
	(cd "$top" && timeout 900 tests/vm/boot.sh --results "$rd" \
	    --timeout 840 --mem 1024 -- env VM_BUILD="$build" VM_SRC="$top" \
	    VM_DEBIAN_PAM_U2F="$DEBPU" BENCH_WORK="$work" "$@" \
	    bash "$here/vm-$name.sh") \
	    >"$work/vm-$name.out" 2>&1
	grep -qx "done" "$rd/$name.txt" 2>/dev/null ||
	    die "the VM gave no complete result (see $rd, $work/vm-$name.out)"
}

# splice OUT FILE BEGIN END: replace the section of OUT between the
# lines BEGIN and END (both included) with FILE, or append FILE to OUT.
splice() {
	local out=$1 file=$2 begin=$3 end=$4 tmp=$1.tmp

	if [ -f "$out" ] && grep -qxF "$begin" "$out"; then
		awk -v b="$begin" -v e="$end" -v f="$file" '
		    $0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
		    $0 == e && skip { skip = 0; next }
		    !skip' "$out" >"$tmp"
	else
		{ [ -f "$out" ] && cat "$out" && echo; cat "$file"; } >"$tmp"
	fi
	mv "$tmp" "$out"
}

# bench_need TOOL...: root, the tools, and Debian's pam-u2f, fetched and
# unpacked by tools/debian-pam-u2f.sh, never installed (sets DEBPU, its
# directory, and OLD_VERSION).
bench_need() {
	local c

	[ "$(id -u)" -eq 0 ] || die "run as root"
	for c in "$@"; do
		command -v "$c" >/dev/null || die "missing $c"
	done
	DEBPU=$("$top/tools/debian-pam-u2f.sh") ||
	    die "no copy of Debian's pam-u2f (tools/debian-pam-u2f.sh)"
	OLD_VERSION=$(cat "$DEBPU/version")
}

# bench_end: the section's end: bench/NAME-analysis.md (written by hand)
# if there is one, and the end mark.
bench_end() {
	if [ -f "$here/$BENCH_NAME-analysis.md" ]; then
		echo
		cat "$here/$BENCH_NAME-analysis.md"
	fi
	echo "$END_MARK"
}
