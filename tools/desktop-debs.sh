#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/desktop-debs.sh: Debian's desktop programs for the VM group
# tests/vm/guest/75-desktop.sh (pkexec with pkttyagent, vlock, and the
# graphical polkit agent lxpolkit under Xvfb, driven by xdotool and read
# back by tesseract-ocr), WITHOUT installing them on the host: they would
# add setuid programs (pkexec), PAM services (vlock) and an X server.
#
# The packages named below plus what the host lacks of their dependencies
# (apt-get install -s --no-install-recommends: the missing closure,
# computed against this host, which is also the guest's /) are fetched
# with `apt-get download` (apt checks them against the signed archive)
# and unpacked with `dpkg-deb -x` (no maintainer script runs) into
# VM_CACHE/desktop/root, /bin, /sbin and /lib merged into /usr as Debian
# 12 has them. The guest mounts root/usr over its /usr (an overlay in its
# throwaway root) and copies root/etc and root/var. Prints the directory,
# which holds:
#   root/      the unpacked packages     packages   NAME=VERSION, one a line
#   want       the list asked for (a changed list fetches again)
# A second run reuses it; VM_REFRESH=1 fetches apt's candidates again.
# Env: VM_CACHE (default /var/tmp/pam-u2f-vm).
set -eu
cache=${VM_CACHE:-/var/tmp/pam-u2f-vm}
dir=$cache/desktop
want="pkexec vlock xvfb xdotool lxpolkit tesseract-ocr tesseract-ocr-eng
	polkitd dbus-daemon libglib2.0-bin"
die() { echo "desktop-debs.sh: $*" >&2; exit 1; }

# Root runs these programs in the guest (pkexec is setuid there).
# shellcheck source=tools/cachedir.lib
. "$(dirname "$0")/cachedir.lib"
cachedir_safe "$cache"

# shellcheck disable=SC2086 # one package a word
wanted=$(printf '%s\n' $want)
if [ -z "${VM_REFRESH:-}" ] && [ -e "$dir/packages" ] &&
    [ "$(cat "$dir/want" 2>/dev/null)" = "$wanted" ] && [ -d "$dir/root" ]; then
	echo "$dir"
	exit 0
fi

exec 9>"$cache/.desktop.lock"	# two runs at once: one fetch
flock 9
# The missing closure, as apt would install it here (nothing installed):
# of the packages asked for, those the host lacks (one it has at another
# version is the host's), and their dependencies.
missing=""
for p in $wanted; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed' || missing="$missing $p"
done
plan=""
# shellcheck disable=SC2086
[ -z "$missing" ] ||
    plan=$(apt-get install -s -q --no-install-recommends $missing 2>&1) ||
    die "apt cannot resolve$missing: $(printf '%s\n' "$plan" | tail -n 5)"
pkgs=$(printf '%s\n' "$plan" | awk '$1 == "Inst" {
	v = $3; if (v ~ /^\[/) v = $4
	gsub(/[()]/, "", v); print $2 "=" v }')
tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp/debs" "$tmp/root"
chmod 755 "$tmp" "$tmp/root"
printf '%s\n' "$wanted" >"$tmp/want"
printf '%s\n' "$pkgs" | sed '/^$/d' >"$tmp/packages"
if [ -s "$tmp/packages" ]; then
	# As root, apt's _apt sandbox user cannot write here: skip it.
	sandbox=""
	[ "$(id -u)" -ne 0 ] || sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086 # $sandbox, $pkgs: words
	(cd "$tmp/debs" && apt-get download -q $sandbox $pkgs >&2) ||
	    die "apt-get download failed:" $pkgs
	for deb in "$tmp"/debs/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root" || die "dpkg-deb -x $deb failed"
	done
fi
rm -rf "$tmp/debs" "$tmp/root/usr/share/doc" "$tmp/root/usr/share/man" \
    "$tmp/root/usr/share/locale"
# Debian 12's merged /usr: /bin, /sbin and /lib are links into /usr.
for d in bin sbin lib lib64; do
	if [ ! -d "$tmp/root/$d" ] || [ -L "$tmp/root/$d" ]; then
		continue
	fi
	mkdir -p "$tmp/root/usr/$d"
	cp -a "$tmp/root/$d/." "$tmp/root/usr/$d/"
	rm -rf "${tmp:?}/root/$d"
done
# What the group runs: each from the fetch, or the host's own.
for f in usr/bin/pkexec usr/bin/vlock usr/bin/Xvfb usr/bin/xdotool \
    usr/bin/lxpolkit usr/bin/tesseract usr/bin/pkttyagent \
    usr/lib/polkit-1/polkitd usr/bin/dbus-daemon usr/bin/gdbus; do
	[ -e "$tmp/root/$f" ] || [ -e "/$f" ] || die "no $f after the fetch"
done
rm -rf "$dir"
mv "$tmp" "$dir"
echo "$dir"
