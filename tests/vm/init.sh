#!/bin/busybox sh
# SPDX-License-Identifier: BSD-2-Clause
# /init of the test initramfs: PID 1 in the guest, busybox only.
#  1. mount proc/sys/dev and load the modules named in /modules.list;
#  2. mount the host's / (9p tag "hostroot", read-only) as the lower layer
#     of an overlay whose upper layer is a tmpfs: a writable root whose
#     changes vanish at power-off, the host is never modified;
#  3. mount the host's results directory (9p tag "results") at /vmtest;
#  4. chroot and run /vmtest/cmd in the directory named by /vmtest/cwd;
#  5. write its exit status to /vmtest/rc and power off.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 1 >/proc/sys/kernel/printk

die() {
	echo "vm-init: FATAL: $*"
	echo 99 >/results/rc 2>/dev/null
	sync
	poweroff -f
}

echo "vm-init: up at $(cut -d' ' -f1 /proc/uptime)s, kernel $(uname -r)"
for m in $(cat /modules.list); do
	insmod "/lib/modules/$m" || die "insmod $m"
done

o9p=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "$o9p" results /results || die "mount results"
mount -t 9p -o "$o9p,ro,cache=loose" hostroot /host || die "mount hostroot"
mount -t tmpfs -o mode=755 tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work \
    overlay /newroot || die "mount overlay"

r=/newroot
mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount -t devtmpfs devtmpfs $r/dev
mkdir -p $r/dev/pts $r/dev/shm
# What udev would add: /dev/fd and /dev/std{in,out,err}.
ln -sf /proc/self/fd $r/dev/fd
ln -sf /proc/self/fd/0 $r/dev/stdin
ln -sf /proc/self/fd/1 $r/dev/stdout
ln -sf /proc/self/fd/2 $r/dev/stderr
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $r/dev/pts
mount -t tmpfs tmpfs $r/dev/shm
# /tmp stays the overlay's (the source tree may live under the host's
# /tmp); /run is fresh and is where the guest tests keep their files.
mount -t tmpfs -o mode=755 tmpfs $r/run
mkdir -p $r/run/lock $r/vmtest
mount -o bind /results $r/vmtest
ip link set lo up 2>/dev/null
hostname vmtest
echo vmtest >$r/etc/hostname
printf '127.0.0.1 localhost\n127.0.1.1 vmtest\n' >$r/etc/hosts

echo "vm-init: root ready at $(cut -d' ' -f1 /proc/uptime)s"
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb \
    chroot $r /bin/sh -c 'cd "$(cat /vmtest/cwd)" && exec /bin/sh /vmtest/cmd'
rc=$?
echo "vm-init: command exited $rc at $(cut -d' ' -f1 /proc/uptime)s"
echo $rc >/results/rc
sync
umount $r/vmtest /results 2>/dev/null
poweroff -f
