#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/vm/boot.sh [options] -- COMMAND [ARG...]
# Boot a throwaway qemu guest (Debian's kernel, tests/vm/init.sh as PID 1)
# whose root is the host's / read-only with a tmpfs overlay, run COMMAND
# as root in the current directory, power off, and exit with COMMAND's
# status: 124 on timeout, 125 if the guest wrote no status. The guest's
# console goes to RESULTS/console.log (and to stdout with --console).
#
#   --results DIR   shared read-write with the guest at /vmtest (default: a
#                   temporary directory, removed afterwards)
#   --timeout S     kill qemu after S seconds (default 300)
#   --mem MiB       guest memory (default 384)
#   --console       copy the guest console to stdout too
# Env: VM_CACHE (see kernel.sh), VM_ACCEL (tcg|kvm; default tcg unless
# the CPU shows vmx/svm and /dev/kvm is usable), VM_APPEND (extra kernel
# command line; default "quiet loglevel=1").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
results="" tmo=300 mem=384 console=0
while [ $# -gt 0 ]; do
	case $1 in
	--results) results=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--console) console=1; shift ;;
	--) shift; break ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [options] -- command..." >&2; exit 2; }

mapfile -t k < <("$here/kernel.sh")
[ "${#k[@]}" -eq 3 ] || { echo "boot.sh: no kernel" >&2; exit 125; }
fw=()
[ "${k[2]}" = pvh ] && fw=(-bios /usr/share/qemu/qboot.rom)

if [ -z "$results" ]; then
	results=$(mktemp -d /tmp/vmboot.XXXXXX)
	trap 'rm -rf "$results"' EXIT
fi
mkdir -p "$results"
rm -f "$results/rc"
pwd >"$results/cwd"
{ printf '%q ' "$@"; echo; } >"$results/cmd"

accel=${VM_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	# /dev/kvm on PVM hosts (no vmx/svm) cannot run a normal guest.
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	    grep -qwE 'vmx|svm' /proc/cpuinfo; then
		accel=kvm
	fi
fi
# shellcheck disable=SC2054 # commas inside one qemu argument
case $accel in
kvm) acc=(-accel kvm -cpu host) ;;
tcg) acc=(-accel tcg,thread=multi -cpu max) ;;
*) echo "boot.sh: bad VM_ACCEL $accel" >&2; exit 2 ;;
esac
if [ "$console" = 1 ]; then
	ser=(-chardev "stdio,id=s0,signal=off,logfile=$results/console.log")
else
	ser=(-chardev "file,id=s0,path=$results/console.log")
fi

set +e
# no_timer_check: under TCG on a loaded host the kernel's check of the
# IO-APIC timer can miss its ticks and panic ("IO-APIC + timer doesn't
# work!", seen at load 20); the emulated timer is right, only slow.
# clocksource=hpet: under TCG the guest's TSC follows the host's, and a
# fresh-clone CI saw the guest's clock leap 92580 s at once (VM group
# 30-multi: "command exited 0 at 92584.34s", every timeout fired); the
# HPET follows QEMU's monotonic clock.
timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -no-user-config \
    -machine pc "${acc[@]}" -smp 1 -m "$mem" -no-reboot -display none \
    "${fw[@]}" -kernel "${k[0]}" -initrd "${k[1]}" \
    -append "console=ttyS0 ${VM_APPEND:-quiet loglevel=1} no_timer_check clocksource=hpet panic=-1 oops=panic" \
    "${ser[@]}" -serial chardev:s0 \
    -virtfs local,path=/,mount_tag=hostroot,security_model=passthrough,readonly=on,multidevs=remap \
    -virtfs "local,path=$results,mount_tag=results,security_model=passthrough,multidevs=remap" \
    </dev/null
qrc=$?
set -e
case $qrc in
124 | 137) echo "boot.sh: timeout after ${tmo}s" >&2; exit 124 ;;
esac
if [ ! -s "$results/rc" ]; then
	echo "boot.sh: the guest wrote no status (qemu exit $qrc)" >&2
	exit 125
fi
exit "$(cat "$results/rc")"
