#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/vm/kernel.sh: make sure $VM_CACHE holds an unpacked Debian kernel
# (the package linux-image-amd64 points to), an uncompressed vmlinux for
# a fast PVH boot, and an initramfs built from tests/vm/init.sh. Prints
# three lines: the kernel image, the initramfs, and "pvh" or "bzimage".
#
# Nothing is installed on the host: the .deb is fetched with
# `apt-get download` and unpacked with `dpkg-deb -x` (no maintainer
# scripts). A second run reuses the cache (a few milliseconds).
# Env: VM_CACHE (default /var/tmp/pam-u2f-vm), VM_REFRESH=1 refetches.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VM_CACHE:-/var/tmp/pam-u2f-vm}
mkdir -p "$cache/debs"
exec 9>"$cache/.lock"	# two runs at once share one fetch
flock 9

die() { echo "vm/kernel.sh: $*" >&2; exit 1; }

fetch() {	# fetch PKG: download and unpack into $cache/kernel
	local pkg=$1 sandbox=()
	# As root, apt's _apt sandbox user cannot write here: skip it.
	[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
	rm -f "$cache"/debs/*.deb
	(cd "$cache/debs" && apt-get download -q "${sandbox[@]}" "$pkg" >&2) ||
	    die "apt-get download $pkg failed (try apt-get update)"
	rm -rf "$cache/kernel.tmp" "$cache/kernel"
	mkdir -p "$cache/kernel.tmp"
	dpkg-deb -x "$cache"/debs/"$pkg"_*.deb "$cache/kernel.tmp" ||
	    die "dpkg-deb -x failed"
	# Keep only what the guest needs: the image and the modules.
	rm -rf "$cache/kernel.tmp/usr" "$cache"/debs/*.deb
	mv "$cache/kernel.tmp" "$cache/kernel"
}

# vmlinuz is a bzImage with an xz payload; an ELF vmlinux with a PVH note
# boots through qboot without the ~6 s decompression under TCG.
extract_vmlinux() {	# extract_vmlinux VMLINUZ OUT
	local off
	off=$(grep -abo $'\xfd7zXZ\x00' "$1" | head -1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	# xz complains about the bytes after the stream: check the ELF magic.
	tail -c +$((off + 1)) "$1" | xz -dc >"$2.tmp" 2>/dev/null || true
	if [ "$(head -c 4 "$2.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
		mv "$2.tmp" "$2"
	else
		rm -f "$2.tmp"
		return 1
	fi
}

rel=""
if [ -z "${VM_REFRESH:-}" ] && [ -s "$cache/release" ]; then
	rel=$(cat "$cache/release")
	[ -e "$cache/kernel/boot/vmlinuz-$rel" ] || rel=""
fi
if [ -z "$rel" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	    awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || die "cannot resolve linux-image-amd64 (apt-get update?)"
	rel=${pkg#linux-image-}
	[ -e "$cache/kernel/boot/vmlinuz-$rel" ] || fetch "$pkg"
	echo "$rel" >"$cache/release"
fi

kernel=$cache/kernel/boot/vmlinux-$rel
boot=pvh
if [ -n "${VM_BZIMAGE:-}" ] || { [ ! -e "$kernel" ] &&
    ! extract_vmlinux "$cache/kernel/boot/vmlinuz-$rel" "$kernel"; }; then
	kernel=$cache/kernel/boot/vmlinuz-$rel
	boot=bzimage
fi

initrd=$cache/initramfs-$rel.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/init.sh" -nt "$initrd" ] ||
    [ "$here/mkinitramfs.sh" -nt "$initrd" ]; then
	"$here/mkinitramfs.sh" "$cache/kernel" "$rel" "$here/init.sh" \
	    "$initrd.tmp" || die "initramfs build failed"
	mv "$initrd.tmp" "$initrd"
fi
printf '%s\n%s\n%s\n' "$kernel" "$initrd" "$boot"
