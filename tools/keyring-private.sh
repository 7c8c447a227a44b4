#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/keyring-private.sh: Debian's GNOME Keyring (gnome-keyring,
# libpam-gnome-keyring, libsecret-tools' secret-tool, and the libraries
# they need that the host lacks) for tests/tool/keyring.sh, WITHOUT
# installing it: installing libpam-gnome-keyring would add it to the
# host's PAM stacks (pam-auth-update), and gnome-keyring would start
# daemons in the host's sessions.
#
# `apt-get download` fetches the packages (apt checks them against the
# signed archive), `dpkg-deb -x` unpacks them (no maintainer script runs)
# into a private directory; the test uses them by path inside a private
# mount namespace (pam_gnome_keyring.so runs the fixed path
# /usr/bin/gnome-keyring-daemon). Prints that directory, which holds:
#   root/usr/bin/{gnome-keyring-daemon,secret-tool}
#   root/lib/x86_64-linux-gnu/security/pam_gnome_keyring.so (or usr/lib)
#   root/usr/lib/<triplet>/lib{gck-1,gcr-base-3,secret-1}.so.*
#   root/usr/share/dbus-1/services/org.freedesktop.secrets.service
#   version   gnome-keyring's version
# A second run reuses it; KEYRING_REFRESH=1 fetches again.
# --path: print the directory only (fetch nothing): how tests find it.
# Env: PU_KEYRING_DIR (default /var/tmp/pam-u2f-keyring).
set -eu
dir=${PU_KEYRING_DIR:-/var/tmp/pam-u2f-keyring}
die() { echo "keyring-private.sh: $*" >&2; exit 1; }
if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
[ $# -eq 0 ] || die "usage: tools/keyring-private.sh [--path]"

ready() {
	[ -s "$dir/version" ] && [ -x "$dir/root/usr/bin/gnome-keyring-daemon" ] &&
	    [ -x "$dir/root/usr/bin/secret-tool" ]
}
if [ -z "${KEYRING_REFRESH:-}" ] && ready; then
	echo "$dir"
	exit 0
fi

# shellcheck source=tools/privdebs.lib
. "$(dirname "$0")/privdebs.lib"
privdebs_parent "$dir" PU_KEYRING_DIR
ver=$(privdebs_candidate gnome-keyring)
case $ver in
"" | "(none)") die "apt knows no gnome-keyring (apt-get update?)" ;;
esac
pkgs="gnome-keyring libpam-gnome-keyring libsecret-tools libgck-1-0
	libgcr-base-3-1 libsecret-1-0"

exec 9>"$dir.lock"	# two runs at once: one fetch
flock 9
tmp=$dir.tmp
# shellcheck disable=SC2086 # $pkgs: words
privdebs_unpack "$tmp" $pkgs
rm -rf "$tmp/root/usr/share/locale"
libs=$(find "$tmp/root" -name 'libsecret-1.so.0' -exec dirname {} \;)
for f in usr/bin/gnome-keyring-daemon usr/bin/secret-tool; do
	[ -x "$tmp/root/$f" ] || die "no $f in gnome-keyring $ver"
	if LD_LIBRARY_PATH=$libs ldd "$tmp/root/$f" 2>&1 | grep -q 'not found'; then
		die "$f needs: $(LD_LIBRARY_PATH=$libs ldd "$tmp/root/$f" |
		    awk '/not found/ { print $1 }' | tr '\n' ' ')"
	fi
done
[ -n "$(find "$tmp/root" -name pam_gnome_keyring.so)" ] ||
    die "no pam_gnome_keyring.so in libpam-gnome-keyring $ver"
echo "$ver" >"$tmp/version"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "$dir"
