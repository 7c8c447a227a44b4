#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/vm/run.sh [GROUP...]: the end-to-end tests on a real kernel.
# Boots Debian's kernel under qemu once per group (tests/vm/guest/*.sh,
# all of them by default), with the host's / visible read-only under a
# throwaway overlay, and runs the group's tests inside as root. Prints
# TAP: "ok N - ..." / "not ok N - ..." per guest test, "# ..." comments,
# and the plan last; exits 0 only if every test passed.
#
# Env: BUILD_DIR  build tree with the module, pamu2fcfg and the software
#                 token (default: <source>/build/gcc)
#      VM_CACHE   kernel and initramfs cache (default /var/tmp/pam-u2f-vm)
#      VM_RESULTS per-group console logs and results (default:
#                 <source>/build/vm)
#      VM_TIMEOUT seconds one boot may take (default 300; deb and byhand:
#                 600, see group_limits)
#      VM_BUDGET  seconds the whole run may take (default 1800): a boot
#                 gets at most what is left, a group that cannot start in
#                 time is a "not ok"
#      VM_JOBS    boots at a time (default: 2 if there are 2 CPUs or more)
#      VM_CMD_TIMEOUT seconds one guest command may take (default 60; deb
#                 and byhand: 300)
#      VM_DEB_DIR the .debs of dpkg-buildpackage (tests/run.sh stage deb):
#                 when set, the default groups include deb and byhand
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$top/build/gcc}
results=${VM_RESULTS:-$top/build/vm}
t0=$(date +%s)
deadline=$((t0 + ${VM_BUDGET:-1800}))
n=0
nfail=0

tap() {	# tap ok|fail NAME: one numbered line
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		nfail=$((nfail + 1))
		echo "not ok $n - $2"
	fi
}
finish() {
	echo "1..$n"
	echo "# vm: $((n - nfail)) passed, $nfail failed in $(($(date +%s) - t0)) s"
	[ "$nfail" -eq 0 ] && [ "$n" -gt 0 ]
	exit
}

# Preconditions: each failure is one "not ok" line with its reason.
missing=""
for c in qemu-system-x86_64 busybox depmod modprobe cpio xz dpkg-deb \
    apt-get timeout flock; do
	command -v "$c" >/dev/null || missing="$missing $c"
done
[ -e /usr/share/qemu/qboot.rom ] || missing="$missing qboot.rom"
if [ -n "$missing" ]; then
	tap fail "vm: host tools missing:$missing (tools/deps.sh vm)"
	finish
fi
if [ ! -f "$build/Makefile" ]; then
	tap fail "vm: no build tree at $build (run tests/run.sh gcc, or set BUILD_DIR)"
	finish
fi
# The software token is a check program: build it if make check has not.
for t in tests/softtoken/softtoken pam_u2f/pam_u2f.la pamu2fcfg/pamu2fcfg; do
	[ -e "$build/$t" ] || make -C "$build" -s "$t" >/dev/null 2>&1 ||
	    echo "# vm: could not build $t in $build"
done
mkdir -p "$results"
if ! kout=$("$here/kernel.sh" 2>"$results/kernel.log"); then
	sed 's/^/# /' "$results/kernel.log"
	tap fail "vm: kernel and initramfs in ${VM_CACHE:-/var/tmp/pam-u2f-vm}"
	finish
fi
echo "# vm: kernel $(printf '%s\n' "$kout" | head -1) ($(($(date +%s) - t0)) s)"
# Debian's pam-u2f for the interop groups (50, 55, deb, byhand): fetched
# and unpacked beside the kernel, never installed (installing it would
# remove our package from a host that uses it).
debpu=""
if ! debpu=$("$top/tools/debian-pam-u2f.sh" 2>"$results/debian-pam-u2f.log"); then
	sed 's/^/# /' "$results/debian-pam-u2f.log"
	tap fail "vm: Debian's pam-u2f unpacked (tools/debian-pam-u2f.sh)"
	debpu=""
fi

# The desktop programs for 75-desktop (pkexec, vlock, Xvfb, lxpolkit,
# xdotool, tesseract: tools/desktop-debs.sh), fetched and unpacked beside
# the kernel when that group runs, never installed on the host.
desktop=""
case " ${*:-75-desktop} " in
*" 75-desktop "*)
	if ! desktop=$("$top/tools/desktop-debs.sh" 2>"$results/desktop-debs.log"); then
		sed 's/^/# /' "$results/desktop-debs.log"
		tap fail "vm: desktop programs unpacked (tools/desktop-debs.sh)"
		desktop=""
	fi ;;
esac

# group_limits GROUP: "EXPECT BOOT COMMAND": the seconds the group takes
# on a quiet host (tests/vm/README, Timings; deb and byhand: 83 s for the
# two, two boots at a time; the "took" lines update them; the boots start
# longest first, so that a long one does not start last and run alone),
# and its limits per boot and per guest command. apt and dpkg under TCG
# (deb, byhand): one apt call took 36-150 s in the VM of a loaded
# machine, past the 60 s per command and 150 s per boot of the others.
group_limits() {
	local e b=${VM_TIMEOUT:-300} c=${VM_CMD_TIMEOUT:-60}
	case $1 in
	deb) e=80 b=${VM_TIMEOUT:-600} c=${VM_CMD_TIMEOUT:-300} ;;
	byhand) e=70 b=${VM_TIMEOUT:-600} c=${VM_CMD_TIMEOUT:-300} ;;
	35-multikey) e=66 ;;
	55-interop2) e=52 ;;
	45-fido2) e=47 ;;
	57-ldap) e=44 ;;
	20-pam) e=30 ;;
	25-trysudo) e=25 ;;
	65-sshsudo) e=30 ;;
	75-desktop) e=120 b=${VM_TIMEOUT:-300} ;;
	*) e=20 ;;
	esac
	echo "$e $b $c"
}

if [ $# -gt 0 ]; then
	groups=("$@")
else
	groups=()
	for f in "$here"/guest/[0-9]*.sh; do
		g=${f##*/}
		groups+=("${g%.sh}")
	done
	[ -z "${VM_DEB_DIR:-}" ] || groups+=(deb byhand)
fi
# the order of the boots: longest expected first
mapfile -t order < <(for g in "${groups[@]}"; do
	echo "$(group_limits "$g" | cut -d' ' -f1) $g"
done | sort -s -k1,1nr | cut -d' ' -f2)

# The guest starts with an empty environment: pass on the VM_* variables
# (e.g. VM_U2FH_BUILD for 70-libu2fhost) and the ones it needs.
guest_env=()
for v in $(compgen -e | grep '^VM_'); do
	guest_env+=("$v=${!v}")
done
[ -z "$debpu" ] || guest_env+=(VM_DEBIAN_PAM_U2F="$debpu")
[ -z "$desktop" ] || guest_env+=(VM_DESKTOP="$desktop")
# 65-sshsudo: the OpenSSH that tools/openssh-private.sh unpacked (where
# tests/run.sh's setup put it), unless VM_OPENSSH_DIR names one.
[ -n "${VM_OPENSSH_DIR:-}" ] || [ -z "${PU_OPENSSH_DIR:-}" ] ||
    guest_env+=(VM_OPENSSH_DIR="$PU_OPENSSH_DIR")
guest_env+=(VM_BUILD="$build" VM_SRC="$top" VM_TAP=/vmtest/tap)

boot_group() {	# boot_group GROUP: boot, results in $results/GROUP
	local g=$1 rd=$results/$1 s left lim
	rm -rf "$rd"
	mkdir -p "$rd"
	read -r -a lim < <(group_limits "$g")
	s=$(date +%s)
	left=$((deadline - s))
	[ "$left" -lt "${lim[1]}" ] || left=${lim[1]}
	if [ "$left" -lt 10 ]; then
		echo "run.sh: not started: VM_BUDGET exhausted" >"$rd/boot.out"
		echo 124 >"$rd/status"
		echo 0 >"$rd/seconds"
		return
	fi
	(cd "$top" && "$here/boot.sh" --results "$rd" --timeout "$left" -- \
	    env "${guest_env[@]}" VM_CMD_TIMEOUT="${lim[2]}" \
	    sh "$here/guest/main.sh" "$g") >"$rd/boot.out" 2>&1
	echo $? >"$rd/status"
	echo $(($(date +%s) - s)) >"$rd/seconds"
}

report_group() {	# report_group GROUP: number its lines, check it ended
	local g=$1 rd=$results/$1 st line
	st=$(cat "$rd/status")
	while IFS= read -r line; do
		case $line in
		"ok - "*) tap ok "${line#ok - }" ;;
		"not ok - "*) tap fail "${line#not ok - }" ;;
		"#"*) printf '%s\n' "$line" ;;
		*) printf '# %s\n' "$line" ;;
		esac
	done <"$rd/tap"
	if [ "$st" -ne 0 ] || [ ! -e "$rd/done" ]; then
		sed 's/^/# /' "$rd/boot.out"
		tail -n 30 "$rd/console.log" 2>/dev/null | sed 's/^/#  console: /'
		tap fail "vm group $g finished (boot status $st, see $rd)"
	fi
	echo "# vm: group $g took $(cat "$rd/seconds") s"
}

jobs=${VM_JOBS:-$(($(nproc 2>/dev/null || echo 1) >= 2 ? 2 : 1))}
mkdir -p "$results"
running=0
for g in "${order[@]}"; do
	if [ ! -f "$here/guest/$g.sh" ]; then
		echo "# vm: no group $g" >&2
		continue
	fi
	boot_group "$g" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
for g in "${groups[@]}"; do
	[ -f "$here/guest/$g.sh" ] || { tap fail "vm: no group $g"; continue; }
	touch "$results/$g/tap"
	report_group "$g"
done
finish
