#!/bin/bash
# Install what is needed, build, and run every test; last line:
# "N passed, N failed". Stages (default all): gcc asan distcheck format
# u2fhost analyze fuzz vm deb (gcc, asan and fuzz are configured with
# --enable-direct-verify, so that both signature checkers run, each against
# the other; gcc and asan also with --with-pcsclite, the PC/SC
# transport; u2fhost: the --with-libu2f-host configuration with the default
# EVP signature checks, so that every test also runs with them; also the
# build whose tests/devcheck the vm group 70-libu2fhost uses;
# analyze: tests/analyze.sh on build/gcc; fuzz: fuzz/run.sh, FUZZ_SECONDS
# per harness, default 15; deb: dpkg-buildpackage from a copy in build/deb,
# then in the VM: apt install ./*.deb, pam-auth-update, sudo (guest/deb.sh)
# and README's by-hand make install, sudo (guest/byhand.sh))
#   tests/run.sh                 everything
#   tests/run.sh gcc             only the gcc build + make check
# Builds live in build/<stage>/ under the source tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
# make check -j: the tests mostly wait (timeouts, tokens, pamtester), so
# three per CPU (make check on 2 CPUs: 111 s at -j2, 75 s at -j6, with
# 53 s of CPU either way).
tjobs=$((jobs * 3))
stages=${*:-gcc asan distcheck format u2fhost analyze fuzz vm deb}
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

one() {	# count one pass/fail for a named step
	if [ "$1" -eq 0 ]; then passed=$((passed + 1)); log "ok: $2"
	else failed=$((failed + 1)); log "FAILED: $2"; fi
}

slow_first() {	# the test list, the longest-running ones first (make -j
	# starts them in order; one started last would be the tail)
	local t slow="tests/tool/nfc.sh tests/tool/multikey.sh tests/tool/resident.sh
	    tests/hostile/test_hostile tests/layers.sh tests/tool/authcmd.sh
	    tests/tool/race.sh tests/tool/ctap2.sh tests/hostile/test_pam_hostile
	    tests/tool/silent.sh"
	for t in $slow; do
		case " $* " in *" $t "*) echo "$t" ;; esac
	done
	for t in "$@"; do
		case " $(echo $slow) " in *" $t "*) ;; *) echo "$t" ;; esac
	done
}

configure_in() {	# configure_in DIR [configure args...]
	local dir=$1; shift
	mkdir -p "$dir" && (cd "$dir" && "$top/configure" -q "$@")
}

stage_build() {	# stage_build NAME configure-args...: build + make check
	local name=$1 dir="$top/build/$1" tests; shift
	log "stage $name: configure $*"
	if ! configure_in "$dir" "$@" || ! make -C "$dir" -j"$jobs" -s >/dev/null; then
		one 1 "$name build"
		return
	fi
	log "stage $name: make check"
	tests=$(make -s -C "$dir" print-tests)
	# Under ASan, six tests cannot run: pamtester (not instrumented)
	# cannot load the instrumented module ("undefined symbol:
	# __asan_option_detect_stack_use_after_return", "Module is
	# unknown"). The module still runs under ASan in the C tests that
	# load it through libpam (tests/module, tests/hostile), and under
	# valgrind (stage analyze). The nss_wrapper tests run, with
	# NSS_WRAPPER_DISABLE_DEEPBIND (tests/module/modtest.c, asuser.sh).
	[ "$name" != asan ] || tests=$(printf '%s\n' $tests |
	    grep -v -x -e tests/tool/module.sh -e tests/conf_agree.sh \
	    -e tests/tool/ctap2.sh -e tests/tool/multikey.sh \
	    -e tests/tool/resident.sh -e tests/tool/silent.sh)
	tests=$(slow_first $tests)
	if [ "$name" = gcc ]; then
		stage_gcc_check "$dir" "$(echo $tests)"
		return
	fi
	make -C "$dir" -j"$tjobs" check TESTS="$(echo $tests)" >"$dir/check.out" 2>&1
	count_suite "$dir"
	[ -s "$dir/test-suite.log" ] || one 1 "$name make check produced no results"
}

# stage_gcc_check DIR TESTS: make check with a hostile configuration file
# at the default path, in a private mount namespace (tests/hermetic.lib),
# then the module's tests again under a valid hostile file; the host's
# /etc and /usr are listed before and after.
stage_gcc_check() {
	local dir=$1 t2
	hostlist_before "$dir/hostlist"
	hermetic_make "$dir" 1 "$dir/check.out" "$2" || {
		make -C "$dir" -j"$tjobs" check TESTS="$2" >"$dir/check.out" 2>&1
		count_suite "$dir"
		hostlist_check "$dir/hostlist"
		return
	}
	count_suite "$dir"
	[ -s "$dir/test-suite.log" ] || one 1 "gcc make check produced no results"
	t2=$(hermetic_tests2 "$dir")
	log "hermetic: phase 2: $(echo $t2 | wc -w) tests again"
	hermetic_make "$dir" 2 "$dir/check-hermetic.out" "$(echo $t2)" &&
	    count_suite "$dir"
	hostlist_check "$dir/hostlist"
}

# shellcheck source=tests/hermetic.lib
. "$top/tests/hermetic.lib"
trap 'exit 130' INT TERM

tools/deps.sh build test || { echo "0 passed, 1 failed"; exit 1; }
case " $stages " in *" vm "*|*" deb "*) tools/deps.sh vm || { echo "0 passed, 1 failed"; exit 1; } ;; esac
log "autogen"
./autogen.sh >/dev/null 2>&1 || { echo "autogen failed" >&2; echo "0 passed, 1 failed"; exit 1; }

for s in $stages; do
	case $s in
	gcc) stage_build gcc CC=gcc --enable-werror --enable-direct-verify \
		--with-pcsclite --with-ldap ;;
	u2fhost) stage_build u2fhost CC=gcc --with-libu2f-host --enable-werror \
	    --with-ldap ;;
	asan)
		export ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:abort_on_error=0
		export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
		# --with-libu2f-host: its buffer work-around is only
		# checked under ASan (tests/test_u2fhop.c).
		stage_build asan CC=clang --enable-werror --with-libu2f-host \
		    --enable-direct-verify --with-pcsclite --with-ldap \
		    CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		    LDFLAGS="-fsanitize=address,undefined -Wl,-z,undefs"
		unset ASAN_OPTIONS UBSAN_OPTIONS ;;
	distcheck)
		log "stage distcheck"
		dir="$top/build/gcc"
		[ -f "$dir/Makefile" ] || configure_in "$dir" CC=gcc --enable-direct-verify
		make -C "$dir" -j"$tjobs" distcheck >"$top/build/distcheck.out" 2>&1
		rc=$?
		[ $rc -eq 0 ] || tail -40 "$top/build/distcheck.out" >&2
		one $rc "make distcheck" ;;
	format)
		files=$(git ls-files '*.c' '*.h' 2>/dev/null)
		if [ -n "$files" ] && command -v clang-format >/dev/null; then
			# shellcheck disable=SC2086
			clang-format --dry-run -Werror $files >"$top/build/format.out" 2>&1
			rc=$?
			[ $rc -eq 0 ] || head -30 "$top/build/format.out" >&2
			one $rc "clang-format check"
		fi ;;
	fuzz)
		# every libFuzzer harness for FUZZ_SECONDS (default 15 here)
		log "stage fuzz"
		out="$top/build/fuzz.out"
		mkdir -p "$top/build"
		FUZZ_SECONDS=${FUZZ_SECONDS:-15} FUZZ_CONFIGURE=--enable-werror \
		    fuzz/run.sh >"$out" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$out"); f=$(grep -c '^not ok ' "$out")
		passed=$((passed + p)); failed=$((failed + f))
		[ "$f" -eq 0 ] && [ $rc -eq 0 ] && [ "$p" -gt 0 ] || { tail -60 "$out" >&2; [ "$f" -gt 0 ] || one 1 "fuzz stage"; }
		log "fuzz: $p passed, $f failed" ;;
	analyze)
		# valgrind, scan-build, cppcheck (tests/analyze.sh): TAP lines
		log "stage analyze"
		dir="$top/build/gcc"
		[ -f "$dir/Makefile" ] || configure_in "$dir" CC=gcc --enable-werror --enable-direct-verify
		out="$top/build/analyze.out"
		tests/analyze.sh "$dir" >"$out" 2>&1
		p=$(grep -c '^ok ' "$out"); f=$(grep -c '^not ok ' "$out")
		passed=$((passed + p)); failed=$((failed + f))
		[ "$f" -eq 0 ] && [ "$p" -gt 0 ] || { grep -v '^ok ' "$out" | head -80 >&2; [ "$f" -gt 0 ] || one 1 "analyze stage"; }
		log "analyze: $p passed, $f failed" ;;
	vm)
		if [ -x tests/vm/run.sh ]; then
			out="$top/build/vm.out"
			mkdir -p "$top/build"
			tests/vm/run.sh >"$out" 2>&1
			rc=$?
			p=$(grep -c '^ok ' "$out"); f=$(grep -c '^not ok ' "$out")
			passed=$((passed + p)); failed=$((failed + f))
			[ "$f" -eq 0 ] && [ $rc -eq 0 ] || { tail -60 "$out" >&2; [ "$f" -gt 0 ] || one 1 "vm stage"; }
			log "vm: $p passed, $f failed"
		fi ;;
	deb)	# build the .debs from a copy; install, enable, sudo in the VM
		log "stage deb"
		d="$top/build/deb"
		out="$top/build/deb.out"
		rm -rf "$d"
		mkdir -p "$d"
		{ tools/deps.sh deb vm && tools/copy-src.sh "$d/src" &&
		    (cd "$d/src" && DEB_BUILD_OPTIONS=nocheck \
			dpkg-buildpackage -b -us -uc); } >"$out" 2>&1
		rc=$?
		[ $rc -eq 0 ] || tail -40 "$out" >&2
		one $rc "dpkg-buildpackage -b (make check: stage gcc)"
		[ $rc -eq 0 ] || continue
		# byhand runs make install in build/gcc: bring it up to date
		# here (after autogen, config.status would rerun under TCG)
		make -C "$top/build/gcc" -s -j"$jobs" >>"$out" 2>&1
		# apt and dpkg under TCG: one apt call took 36-150 s in the VM
		# of a loaded machine, past the 60 s per command and 150 s per
		# boot that the other groups get.
		VM_DEB_DIR="$d" VM_CMD_TIMEOUT=${VM_CMD_TIMEOUT:-300} \
		    VM_TIMEOUT=${VM_TIMEOUT:-600} \
		    tests/vm/run.sh deb byhand >"$out.vm" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$out.vm"); f=$(grep -c '^not ok ' "$out.vm")
		passed=$((passed + p)); failed=$((failed + f))
		[ "$f" -eq 0 ] && [ $rc -eq 0 ] || { tail -60 "$out.vm" >&2; [ "$f" -gt 0 ] || one 1 "deb stage"; }
		log "deb: $p passed, $f failed" ;;
	*) log "unknown stage $s"; one 1 "stage $s" ;;
	esac
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
