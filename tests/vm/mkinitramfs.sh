#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/vm/mkinitramfs.sh KROOT RELEASE INIT OUT.cpio.gz
# A ~2 MB initramfs: busybox-static, the modules for virtio-9p, overlayfs
# and uhid/hid-generic (dependencies and load order resolved by kmod on the
# unpacked tree KROOT), and INIT as /init. Needs busybox-static, kmod, gzip.
set -euo pipefail
kroot=$1 rel=$2 init=$3 out=$4

# hid-generic must be there: without a bound driver no hidraw node appears.
want="virtio_pci 9pnet_virtio 9p overlay hid-generic uhid"
depmod -b "$kroot" "$rel"
order=$(for m in $want; do
	modprobe -d "$kroot" -S "$rel" --show-depends "$m" ||
	    { echo "mkinitramfs: cannot resolve module $m" >&2; exit 1; }
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }')

if ldd /bin/busybox >/dev/null 2>&1; then
	echo "mkinitramfs: /bin/busybox is not static (busybox-static)" >&2
	exit 1
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,host,rw,newroot,results,lib/modules}
cp /bin/busybox "$stage/bin/busybox"
: >"$stage/modules.list"
for path in $order; do
	cp "$path" "$stage/lib/modules/"
	basename "$path" >>"$stage/modules.list"
done
cp "$init" "$stage/init"
chmod 755 "$stage/init"
# The kernel opens /dev/console before /init can mount devtmpfs.
mknod -m 600 "$stage/dev/console" c 5 1
(cd "$stage" && find . | busybox cpio -o -H newc 2>/dev/null) |
    gzip -1 >"$out"
