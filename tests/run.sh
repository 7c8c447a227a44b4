#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Install what is needed, build, and run every test; last line:
# "N passed, N failed". Stages (default all, in this order):
#   gcc       gcc, -Werror, in exactly the configuration debian/rules
#             ships (shipped_flags: EVP checks, pcsclite, ldap, no
#             libu2f-host, dpkg-buildflags' hardening); make check in a
#             private mount namespace with a hostile configuration file
#             (tests/hermetic.lib), the module's tests again under a
#             second one (only those stage asan skips, when it runs: its
#             make check is in phase 2's namespace); /etc and /usr listed before (while the tree
#             builds) and after; the source tree unchanged by the tests;
#             then make dist: the tarball holds every tracked file
#             (tests/distlist.sh), and make install / uninstall into a
#             DESTDIR leave nothing behind (what distcheck checked, once)
#   asan      clang with ASan+UBSan, --with-libu2f-host and
#             --enable-direct-verify: every test but those ASAN_SKIP lists
#             (pamtester cannot load an ASan module; text-only checks), in
#             the private namespace of hermetic phase 2 (a valid hostile
#             configuration file at the default path)
#   format    clang-format --dry-run -Werror over every .c and .h
#   u2fhost   gcc, --with-libu2f-host, pcsclite, ldap, EVP, -Werror, the
#             whole tree built through scan-build (tests/scanbuild.sh: the
#             static analysis, which analyze then skips), and
#             tests/device/devcheck for VM group 70-libu2fhost (asan runs
#             the tests --with-libu2f-host)
#   analyze   tests/analyze.sh on build/gcc (valgrind, cppcheck; scan-build
#             unless stage u2fhost runs it)
#   fuzz      fuzz/run.sh: FUZZ_TOTAL_SECONDS (default 120) split among the
#             harnesses, two at a time (FUZZ_SECONDS: that many each)
#   deb       dpkg-buildpackage -b (nocheck: stage gcc ran this
#             configuration's make check) from stage gcc's tarball
#             unpacked in build/deb (a copy of the tree without it), then
#             debian/rules clean: the tree is the tarball's again
#             (distcheck's distclean check, on the shipped build)
#   vm        tests/vm/run.sh: every group, two boots at a time; with the
#             .debs of stage deb also the groups deb (apt install ./*.deb,
#             pam-auth-update, sudo) and byhand (README's make install,
#             sudo). Stage deb without a vm stage after it boots those two
#             itself.
#   distcheck make distcheck in the shipped configuration; not run by
#             default (stages gcc and deb check what it checks)
# The stages run in three lanes at once (see "Lanes" below): gcc, deb,
# vm; u2fhost, format, asan at nice 5; analyze and fuzz at nice 10.
# (asan and fuzz are configured with --enable-direct-verify, so that both
# signature checkers run, each against the other.)
#   tests/run.sh                 everything
#   tests/run.sh gcc             only the gcc build + make check
# Each stage's wall and CPU time is logged when it ends, and again in a
# table before the last line. Budget on 2 CPUs (quiet Debian 12 host),
# 20 minutes in all: see README ("Running the tests", under Quick start).
# Builds live in build/<stage>/ under the source tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
# make check -j: the tests mostly wait (timeouts, tokens, pamtester), so
# three per CPU (make check on 2 CPUs: 111 s at -j2, 75 s at -j6, with
# 53 s of CPU either way).
tjobs=$((jobs * 3))
stages=${*:-gcc asan format u2fhost analyze fuzz deb vm}
deb_dir=""	# the .debs, once stage deb built them for a later vm stage
passed=0
failed=0
log() { printf '== %s\n' "$*" >&2; }

count_suite() {	# add the automake summary of build dir $1
	local p f
	p=$(sed -n 's/^# PASS: *//p' "$1/test-suite.log" 2>/dev/null | head -1)
	f=$(sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' "$1/test-suite.log" \
	    2>/dev/null | awk '{s+=$1} END {print s+0}')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	[ "${f:-0}" -eq 0 ] || grep -A40 '^FAIL\|^ERROR' "$1/test-suite.log" |
	    head -200 >&2
}

count_summary() {	# add the automake summary printed in make's output $1
	local p f
	p=$(sed -n 's/^# PASS: *//p' "$1" 2>/dev/null | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' "$1" 2>/dev/null |
	    awk '{s+=$1} END {print s+0}')
	passed=$((passed + p))
	failed=$((failed + f))
	log "$(basename "$1"): $p passed, $f failed"
}

one() {	# count one pass/fail for a named step
	if [ "$1" -eq 0 ]; then passed=$((passed + 1)); log "ok: $2"
	else failed=$((failed + 1)); log "FAILED: $2"; fi
}

# cpu_now: sets cpu to the CPU time (user + system, in seconds) of this
# shell and of the children it has waited for: the part of a stage's time
# that does not depend on the machine's load. (No $(...): a subshell
# would count its own.)
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_now() {
	local a
	cpu=0
	read -r -a a <"/proc/$BASHPID/stat" 2>/dev/null || return 0
	# utime stime cutime cstime: fields 14-17 (the name has no space)
	cpu=$(((a[13] + a[14] + a[15] + a[16]) / hz))
}

slow_first() {	# slow_first DIR TESTS...: the test list, the longest-running
	# ones first (make -j starts them in order; one started last would
	# be the tail). The slow ones are listed next to their registration
	# (SLOW_TESTS in tests/*/local.mk; make print-slow).
	local t slow
	slow=$(make -s -C "$1" print-slow); shift
	for t in $slow; do
		case " $* " in *" $t "*) echo "$t" ;; esac
	done
	for t in "$@"; do
		case " $(echo $slow) " in *" $t "*) ;; *) echo "$t" ;; esac
	done
}

# shipped_flags: configure's arguments in debian/rules (the options:
# --libexecdir and the PAM paths are left to distcheck's prefix) and
# dpkg-buildflags' compiler flags with its hardening=+all, quoted for the
# shell that runs configure. Read from debian/rules so that the two
# cannot drift apart.
shipped_flags() {
	local a v
	for a in $(sed -n '/dh_auto_configure --/,/^$/p' "$top/debian/rules" |
	    tr -d '\\'); do
		case $a in --with-*|--without-*|--enable-*|--disable-*)
			case $a in --with-pam-dir=*|--with-pam-conf=*) ;;
			*) printf '%s ' "$a" ;; esac ;;
		esac
	done
	command -v dpkg-buildflags >/dev/null || return 0
	for v in CFLAGS CPPFLAGS LDFLAGS; do
		printf "%s='%s' " "$v" "$(cd "$top" &&
		    DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$v")"
	done
}

configure_in() {	# configure_in DIR [configure args...]
	local dir=$1; shift
	mkdir -p "$dir" && (cd "$dir" && "$top/configure" -q "$@")
}

gcc_flags=()	# stage gcc's configure arguments (after deps.sh: dpkg-dev)
configure_gcc() {	# build/gcc as stage gcc configures it
	configure_in "$top/build/gcc" "${gcc_flags[@]}"
}

stage_build() {	# stage_build NAME configure-args...: build + make check
	local name=$1 dir="$top/build/$1" tests; shift
	log "stage $name: configure $*"
	# gcc: the listing of /etc and /usr before the tests (I/O, about
	# 10-30 s) is taken while the tree builds
	hl_pid=""
	if [ "$name" = gcc ]; then
		mkdir -p "$dir"
		hostlist_before "$dir/hostlist" &
		hl_pid=$!
	fi
	if ! configure_in "$dir" "$@" || ! make -C "$dir" -j"$jobs" -s >/dev/null; then
		one 1 "$name build"
		[ -z "$hl_pid" ] || wait "$hl_pid"
		return
	fi
	log "stage $name: make check"
	tests=$(make -s -C "$dir" print-tests)
	# Under ASan, the tests listed in ASAN_SKIP (tests/*/local.mk, each
	# with its reason; make print-asan-skip) do not run.
	[ "$name" != asan ] || tests=$(printf '%s\n' $tests |
	    grep -v -x -F "$(make -s -C "$dir" print-asan-skip | tr ' ' '\n')")
	tests=$(slow_first "$dir" $tests)
	if [ "$name" = gcc ]; then
		stage_gcc_check "$dir" "$(echo $tests)"
		return
	fi
	# asan: in the namespace of hermetic phase 2 (the valid hostile
	# file), which stage gcc then runs only for the tests asan skips
	if [ "$name" != asan ] ||
	    ! hermetic_make "$dir" 2 "$dir/check.out" "$(echo $tests)"; then
		make -C "$dir" -j"$tjobs" check TESTS="$(echo $tests)" \
		    >"$dir/check.out" 2>&1
	fi
	count_suite "$dir"
	[ -s "$dir/test-suite.log" ] || one 1 "$name make check produced no results"
}

# stage_u2fhost: the tree --with-libu2f-host (and pcsclite, ldap), built
# by gcc with -Werror through scan-build (tests/scanbuild.sh): one compile
# gives the static analysis of the configuration with the most code
# (stage analyze then skips its own) and the programs VM group
# 70-libu2fhost boots (pamu2fcfg, pam_u2f.so, tests/device/devcheck).
# No make check: every test runs --with-libu2f-host in stage asan (but
# the pamtester tests, which never choose backend=libu2f-host: they run
# in gcc).
stage_u2fhost() {
	local rc dir="$top/build/u2fhost" a=(--with-libu2f-host --enable-werror
	    --with-ldap --with-pcsclite)
	log "stage u2fhost: scan-build, configure CC=gcc ${a[*]}"
	if command -v scan-build >/dev/null; then
		tests/scanbuild.sh "$dir" "${a[@]}"
		rc=$?
		[ $rc -eq 0 ] || head -60 "$dir/scan-build.bugs" >&2
		one $rc "u2fhost: scan-build (clang static analyzer) over common/ pam_u2f/ pamu2fcfg/ ldap/, built by gcc -Werror: no finding"
	else
		configure_in "$dir" CC=gcc "${a[@]}" &&
		    make -C "$dir" -j"$jobs" -s >"$dir/build.log" 2>&1
		one $? "u2fhost: the tree built by gcc -Werror (scan-build not installed)"
	fi
	make -C "$dir" -j"$jobs" -s tests/device/devcheck >"$dir/devcheck.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || tail -20 "$dir/devcheck.log" >&2
	one $rc "u2fhost: tests/device/devcheck (the libu2f-host backend) for VM group 70-libu2fhost"
}

# stage_gcc_check DIR TESTS: make check with a hostile configuration file
# at the default path, in a private mount namespace (tests/hermetic.lib),
# then the module's tests again under a valid hostile file; the host's
# /etc and /usr are listed before (stage_build started it: hl_pid) and
# after.
stage_gcc_check() {
	local dir=$1 t2
	wait "$hl_pid"
	touch "$dir/srcstamp"
	if hermetic_make "$dir" 1 "$dir/check.out" "$2"; then
		count_suite "$dir"
		[ -s "$dir/test-suite.log" ] ||
		    one 1 "gcc make check produced no results"
		t2=$(hermetic_tests2 "$dir")
		# those that stage asan runs, it runs under phase 2
		case " $stages " in
		*" asan "*)
			t2=$(printf '%s\n' $t2 | grep -x -F \
			    "$(make -s -C "$dir" print-asan-skip | tr ' ' '\n')")
			log "hermetic: phase 2: $(echo $t2 | wc -w) tests again (the others in stage asan's make check)" ;;
		*) log "hermetic: phase 2: $(echo $t2 | wc -w) tests again" ;;
		esac
		if [ -n "$t2" ] && hermetic_make "$dir" 2 \
		    "$dir/check-hermetic.out" "$(echo $t2)"; then
			count_suite "$dir"
		fi
	else
		make -C "$dir" -j"$tjobs" check TESTS="$2" >"$dir/check.out" 2>&1
		count_suite "$dir"
	fi
	hostlist_check "$dir/hostlist"
	srcdir_check "$dir/srcstamp"
	dist_check "$dir"
}

# srcdir_check STAMP: one step: no file of the source tree (but build/
# and .git/) was written after STAMP, i.e. by the tests (distcheck ran
# them on a read-only copy for this).
srcdir_check() {
	local w
	w=$(find "$top" \( -path "$top/build" -o -path "$top/.git" \) -prune \
	    -o ! -type d -newer "$1" -print | head -20)
	[ -z "$w" ] || printf 'written by the tests:\n%s\n' "$w" >&2
	[ -z "$w" ]
	one $? "the tests wrote nothing in the source tree"
}

# dist_check DIR: make dist in stage gcc's tree; the tarball holds every
# tracked file (tests/distlist.sh); make install and make uninstall into
# a DESTDIR leave nothing behind. Stage deb builds the package from this
# tarball (dist_tarball).
dist_tarball() { ls "$top"/build/gcc/pam_u2f-*.tar.xz 2>/dev/null | head -1; }
dist_check() {
	local dir=$1 rc left d=$1/destdir
	rm -f "$dir"/pam_u2f-*.tar.*
	if ! make -C "$dir" -s dist >"$dir/dist.out" 2>&1; then
		tail -20 "$dir/dist.out" >&2
		one 1 "make dist"
		return
	fi
	tests/distlist.sh "$(dist_tarball)" >"$dir/distlist.out" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then log "$(cat "$dir/distlist.out")"
	else
		[ $rc -eq 0 ] || cat "$dir/distlist.out" >&2
		one $rc "make dist: the tarball holds every tracked file (tests/distlist.sh)"
	fi
	rm -rf "$d"
	make -C "$dir" -s install DESTDIR="$d" >"$dir/install.out" 2>&1 &&
	    make -C "$dir" -s uninstall DESTDIR="$d" >>"$dir/install.out" 2>&1
	rc=$?
	left=$(find "$d" ! -type d 2>/dev/null | head -20)
	[ -z "$left" ] || { rc=1; printf 'left after uninstall:\n%s\n' "$left" >&2; }
	[ $rc -eq 0 ] || tail -20 "$dir/install.out" >&2
	one $rc "make install, make uninstall (DESTDIR): nothing left"
}

# shellcheck source=tests/hermetic.lib
. "$top/tests/hermetic.lib"
trap 'exit 130' INT TERM

# configure, and the libtool it writes (one call per object and per
# link), run under dash where there is one: the same build takes about a
# third less CPU than under bash (stage gcc's tree, configure + make +
# the check programs: 278 s of CPU under bash, 182 s under dash). Every
# configure of this run inherits it: the stages' trees, scan-build's,
# fuzz/run.sh's and the package's (dh_auto_configure).
[ ! -x /bin/dash ] || export CONFIG_SHELL=/bin/dash

t_all=$SECONDS
cpu_now
c_all=$cpu
tools/deps.sh build test || { echo "0 passed, 1 failed"; exit 1; }
# OpenSSH unpacked for tests/ssh/openssh.sh (never installed), and the
# directory its tests read.
PU_OPENSSH_DIR=$(tools/openssh-private.sh) || { echo "0 passed, 1 failed"; exit 1; }
export PU_OPENSSH_DIR
# GNOME Keyring unpacked for tests/tool/keyring.sh (never installed).
PU_KEYRING_DIR=$(tools/keyring-private.sh) || { echo "0 passed, 1 failed"; exit 1; }
export PU_KEYRING_DIR
case " $stages " in *" vm "*|*" deb "*) tools/deps.sh vm || { echo "0 passed, 1 failed"; exit 1; } ;; esac
# stage gcc's configure arguments: the shipped ones, and -Werror
eval "gcc_flags=(CC=gcc --enable-werror $(shipped_flags))"
log "autogen"
./autogen.sh >/dev/null 2>&1 || { echo "autogen failed" >&2; echo "0 passed, 1 failed"; exit 1; }

vm_run() {	# vm_run OUT NAME [GROUP...]: tests/vm/run.sh, counted
	local out=$1 name=$2 rc p f
	shift 2
	[ -x tests/vm/run.sh ] || return 0
	mkdir -p "$top/build"
	tests/vm/run.sh "$@" >"$out" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$out"); f=$(grep -c '^not ok ' "$out")
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -gt 0 ]; then
		# each failure with its group's name and the lines around it
		# (the tail alone may show none of them)
		grep -n '^# group \|^not ok ' "$out" | grep -B1 '^[0-9]*:not ok' |
		    grep -v '^--$' >&2
		grep -B3 -A15 '^not ok ' "$out" | head -200 >&2
		tail -20 "$out" >&2
	elif [ $rc -ne 0 ]; then
		tail -60 "$out" >&2
		one 1 "$name stage"
	fi
	log "$name: $p passed, $f failed"
}

run_stage() {	# run_stage NAME: one stage, counted in passed/failed
	local s=$1 dir out rc p f files d
	case $s in
	gcc) stage_build gcc "${gcc_flags[@]}" ;;
	u2fhost) stage_u2fhost ;;
	asan)
		export ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:abort_on_error=0
		export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
		# --with-libu2f-host: its buffer work-around is only
		# checked under ASan (tests/transport/test_u2fhop.c).
		# -gline-tables-only: the reports' stacks keep file and line,
		# and the build takes 8 % less CPU than with -g.
		stage_build asan CC=clang --enable-werror --with-libu2f-host \
		    --enable-direct-verify --with-pcsclite --with-ldap \
		    CFLAGS="-gline-tables-only -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		    LDFLAGS="-fsanitize=address,undefined -Wl,-z,undefs"
		unset ASAN_OPTIONS UBSAN_OPTIONS ;;
	distcheck)
		# make distcheck builds the tarball's tree in exactly the
		# configuration debian/rules ships (shipped_flags) and runs
		# the whole make check there: the shipped configuration's
		# make check
		log "stage distcheck: $(shipped_flags)"
		dir="$top/build/gcc"
		[ -f "$dir/Makefile" ] || configure_in "$dir" CC=gcc
		make -C "$dir" -j"$tjobs" distcheck \
		    DISTCHECK_CONFIGURE_FLAGS="$(shipped_flags)" \
		    >"$top/build/distcheck.out" 2>&1
		rc=$?
		[ $rc -eq 0 ] || tail -40 "$top/build/distcheck.out" >&2
		count_summary "$top/build/distcheck.out"
		one $rc "make distcheck (the configuration debian/rules ships)" ;;
	format)
		mkdir -p "$top/build"
		files=$(git ls-files '*.c' '*.h' 2>/dev/null)
		if [ -n "$files" ] && command -v clang-format >/dev/null; then
			# shellcheck disable=SC2086
			clang-format --dry-run -Werror $files >"$top/build/format.out" 2>&1
			rc=$?
			[ $rc -eq 0 ] || head -30 "$top/build/format.out" >&2
			one $rc "clang-format check"
		fi ;;
	fuzz)
		# every libFuzzer harness: FUZZ_TOTAL_SECONDS (default 120)
		# split among them, two at a time (or FUZZ_SECONDS each)
		log "stage fuzz"
		out="$top/build/fuzz.out"
		mkdir -p "$top/build"
		[ -n "${FUZZ_SECONDS:-}" ] ||
		    export FUZZ_TOTAL_SECONDS=${FUZZ_TOTAL_SECONDS:-120}
		FUZZ_CONFIGURE=--enable-werror fuzz/run.sh >"$out" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$out"); f=$(grep -c '^not ok ' "$out")
		passed=$((passed + p)); failed=$((failed + f))
		[ "$f" -eq 0 ] && [ $rc -eq 0 ] && [ "$p" -gt 0 ] || { tail -60 "$out" >&2; [ "$f" -gt 0 ] || one 1 "fuzz stage"; }
		log "fuzz: $p passed, $f failed" ;;
	analyze)
		# valgrind, scan-build, cppcheck (tests/analyze.sh): TAP lines
		log "stage analyze"
		dir="$top/build/gcc"
		[ -f "$dir/Makefile" ] || configure_gcc
		out="$top/build/analyze.out"
		# stage u2fhost builds its tree through scan-build
		case " $stages " in
		*" u2fhost "*) export ANALYZE_NO_SCANBUILD="stage u2fhost runs it" ;;
		esac
		tests/analyze.sh "$dir" >"$out" 2>&1
		# (a step skipped here because another stage runs it is
		# counted there)
		p=$(grep '^ok ' "$out" | grep -vc '# SKIP stage ')
		f=$(grep -c '^not ok ' "$out")
		passed=$((passed + p)); failed=$((failed + f))
		[ "$f" -eq 0 ] && [ "$p" -gt 0 ] || { grep -v '^ok ' "$out" | head -80 >&2; [ "$f" -gt 0 ] || one 1 "analyze stage"; }
		log "analyze: $p passed, $f failed" ;;
	vm)	# every VM group, deb and byhand too when stage deb built the
		# .debs before (they share the boots two at a time)
		[ -z "$deb_dir" ] || log "vm: with deb and byhand ($deb_dir)"
		wait_u2fhost	# group 70-libu2fhost boots its devcheck
		VM_DEB_DIR=$deb_dir vm_run "$top/build/vm.out" vm ;;
	deb)	# build the .debs from a copy; install, enable, sudo in the VM
		log "stage deb"
		d="$top/build/deb"
		out="$top/build/deb.out"
		rm -rf "$d"
		mkdir -p "$d"
		{ tools/deps.sh deb vm && deb_src "$d/src" &&
		    (cd "$d/src" && DEB_BUILD_OPTIONS=nocheck \
			dpkg-buildpackage -b -us -uc -j"$jobs"); } >"$out" 2>&1
		rc=$?
		[ $rc -eq 0 ] || tail -40 "$out" >&2
		one $rc "dpkg-buildpackage -b (make check of this configuration: stage gcc)"
		[ $rc -eq 0 ] || return
		deb_clean_check "$d/src" "$out"
		# byhand runs make install in build/gcc: bring it up to date
		# here (after autogen, config.status would rerun under TCG)
		make -C "$top/build/gcc" -s -j"$jobs" >>"$out" 2>&1
		# a vm stage later in this run boots the groups deb and byhand
		# among the others; else they get their own run here
		case " ${stages#*deb} " in
		*" vm "*) deb_dir=$d ;;
		*) VM_DEB_DIR=$d vm_run "$out.vm" deb deb byhand ;;
		esac ;;
	*) log "unknown stage $s"; one 1 "stage $s" ;;
	esac
}

deb_src() {	# deb_src DEST: stage gcc's tarball unpacked (else a copy)
	local tb
	tb=$(dist_tarball)
	if [ -z "$tb" ]; then
		log "deb: no tarball of stage gcc: from a copy of the tree"
		tools/copy-src.sh "$1"
		return
	fi
	mkdir -p "$1.unpack" && tar -C "$1.unpack" -xf "$tb" &&
	    mv "$1.unpack"/pam_u2f-* "$1" && rmdir "$1.unpack" &&
	    tar -tf "$tb" | sed -n 's|^[^/]*/||p' | grep -v '^$' |
	    grep -v '/$' | sort >"$1.files"
}

# deb_clean_check SRC OUT: one step (when SRC came from the tarball):
# debian/rules clean makes the tree the tarball's again, no file more
# or fewer (distcheck's distclean check, on the build that ships).
deb_clean_check() {
	local diff
	[ -f "$1.files" ] || return 0
	(cd "$1" && debian/rules clean) >>"$2" 2>&1 || {
		one 1 "debian/rules clean"; return; }
	diff=$(cd "$1" && find . ! -type d | sed 's|^\./||' | sort |
	    diff "$1.files" - | grep '^[<>]' | head -20)
	[ -z "$diff" ] || printf '%s\n' "after debian/rules clean (< gone, > left):" "$diff" >&2
	[ -z "$diff" ]
	one $? "debian/rules clean: the tree is the tarball's again"
}

# timed_stage NAME: run_stage, then its wall and CPU time: logged, and a
# row of times_table.
timed_stage() {
	local t_s=$SECONDS c_s w c
	cpu_now
	c_s=$cpu
	run_stage "$1"
	w=$((SECONDS - t_s))
	cpu_now
	c=$((cpu - c_s))
	log "stage $1: $w s (cpu $c s)${2:-}"
	times_table="$times_table$(printf '%-10s %6d s %6d s%s' "$1" "$w" "$c" "${2:-}")
"
}

# Lanes. The stages run in three lanes at once, since one stage alone
# leaves CPU idle (make check's tests wait for timeouts and tokens, the
# VM guests for sudo's delay and their tokens) and the run is CPU-bound
# on 2 CPUs only when they overlap:
# - main: gcc, deb, vm (in this order: deb builds from gcc's tarball,
#   vm boots gcc's build and deb's packages);
# - side: u2fhost, format, asan, from the start (they need nothing of
#   the others; the vm stage waits for u2fhost, whose devcheck VM group
#   70-libu2fhost runs: lock build/lanes/u2fhost.lock), at nice 5: the
#   main lane is the longest chain, and its VM guests (deb and byhand
#   above all: dpkg's database read over 9p) slow down four- to fivefold
#   when every 9p request waits behind asan's tests for a CPU (deb 83 s
#   alone, 370 s beside the side lane at nice 0);
# - beside: analyze and fuzz at nice 10, from the end of stage gcc (whose
#   build/gcc analyze reads: lock build/lanes/gcc.lock; from the start if
#   gcc is not run), so that they take what the others leave.
# Each lane is a subshell of its own, so that a stage's CPU time is its
# own lane's (a lane that ends is not counted in another's stage). The
# run waits for every lane before its table; a lane's counts and times
# come back through build/lanes/NAME.
main="" side="" beside=""
for s in $stages; do
	case $s in
	u2fhost|format|asan|analyze|fuzz) ;;
	*) main="$main $s" ;;
	esac
done
# side and beside in this order whatever the order asked: u2fhost first,
# since the vm stage waits for it
for s in u2fhost format asan; do
	case " $stages " in *" $s "*) side="$side $s" ;; esac
done
for s in analyze fuzz; do
	case " $stages " in *" $s "*) beside="$beside $s" ;; esac
done
lanes=$top/build/lanes
rm -rf "$lanes"
mkdir -p "$lanes"
# run_lane NAME NICE LOCKED WAITFOR STAGES... (in a subshell): the stages
# in turn; fd 9, when LOCKED names one of them, holds LOCKED's lock until
# that stage ends; WAITFOR, when set, is another lane's lock to wait for
# first.
run_lane() {
	local name=$1 n=$2 locked=$3 waitfor=$4 tag=" ($1)"
	shift 4
	passed=0 failed=0 times_table=""
	if [ "$n" -gt 0 ]; then
		renice -n "$n" -p "$BASHPID" >/dev/null 2>&1
		tag=" ($name, nice $n)"
	fi
	[ -z "$waitfor" ] || [ ! -e "$lanes/$waitfor.lock" ] ||
	    flock "$lanes/$waitfor.lock" true
	for s in "$@"; do
		# (fd 9, the lane's lock, is not the stages')
		timed_stage "$s" "$tag" 9>&-
		[ "$s" != "$locked" ] || exec 9>&-
	done
	echo "$passed $failed" >"$lanes/$name.counts"
	printf '%s' "$times_table" >"$lanes/$name.times"
}
# start_lane NAME NICE LOCKED WAITFOR STAGES...: run_lane in the
# background, its pid in lpid_NAME; the lock of LOCKED (when it is
# among STAGES) taken before, so that no lane can see it free too early.
start_lane() {
	local name=$1 locked=$3
	[ $# -gt 4 ] || return 0
	log "lane $name:${*:5}${4:+ (after $4)}"
	case " ${*:5} " in
	*" $locked "*) exec 9>"$lanes/$locked.lock"; flock 9 ;;
	*) locked="" ;;
	esac
	run_lane "$1" "$2" "$locked" "$4" "${@:5}" &
	printf -v "lpid_$name" '%s' "$!"
	exec 9>&-
}
wait_u2fhost() {	# block until the side lane's stage u2fhost ended
	[ ! -e "$lanes/u2fhost.lock" ] || flock "$lanes/u2fhost.lock" true
}
end_lane() {	# end_lane NAME: wait for it, add its counts and times
	local p f v=lpid_$1 pid
	pid=${!v:-}
	[ -n "$pid" ] || return 0
	wait "$pid"
	read -r p f <"$lanes/$1.counts" ||
	    { p=0 f=1; log "FAILED: lane $1 left no counts"; }
	passed=$((passed + p))
	failed=$((failed + f))
	times_table="$times_table$(cat "$lanes/$1.times" 2>/dev/null)
"
}

# Each stage's wall time and CPU time, logged as it ends and again as a
# table before the last line (so that a stage's growth shows).
cpu_now
times_table=$(printf '%-10s %6d s %6d s' setup "$((SECONDS - t_all))" \
    "$((cpu - c_all))")
times_table="$times_table
"
# Without stage gcc, build/gcc (which analyze reads and distcheck runs
# in) is configured here, before anything runs beside: two stages must
# not configure one folder at the same time.
case " $stages " in
*" gcc "*) ;;
*)	[ -z "$beside" ] || [ -f "$top/build/gcc/Makefile" ] ||
	    configure_gcc || one 1 "configure build/gcc" ;;
esac
# shellcheck disable=SC2086 # stage names are words
{
	start_lane main 0 gcc "" $main
	start_lane side 5 u2fhost "" $side
	start_lane beside 10 "" gcc $beside
}
end_lane main
end_lane side
end_lane beside
cpu_now
{
	echo "== stage times (wall, cpu):"
	printf '%s' "$times_table"
	printf '%-10s %6d s %6d s\n' total "$((SECONDS - t_all))" \
	    "$((cpu - c_all))"
} >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
