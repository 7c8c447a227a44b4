#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/debian-pam-u2f.sh: Debian's own pam-u2f (the packages libpam-u2f
# and pamu2fcfg), for the interoperability tests (tests/vm/guest/50-interop.sh,
# 55-interop2, deb, byhand) and the benchmarks, WITHOUT installing it:
# installing it would remove our package, and with it the second factor.
#
# `apt-get download` fetches the two .debs (apt checks them against the
# signed archive), `dpkg-deb -x` unpacks them (no maintainer script runs)
# into a private directory, and the module and the tool are used by path.
# Prints that directory, which holds:
#   pam_u2f.so   Debian's module        pamu2fcfg   Debian's tool
#   version      the packages' version  debs/       the two .debs
# A second run reuses it (a few milliseconds); VM_REFRESH=1 fetches apt's
# current candidate again.
# Needs libfido2-1 installed (tools/deps.sh vm), which both link with.
# Env: VM_CACHE (default /var/tmp/pam-u2f-vm: the directory is
# VM_CACHE/debian-pam-u2f, beside the test VM's kernel).
set -eu
cache=${VM_CACHE:-/var/tmp/pam-u2f-vm}
dir=$cache/debian-pam-u2f
die() { echo "debian-pam-u2f.sh: $*" >&2; exit 1; }

# Root loads this module (sudo in the VM, the benchmarks' PAM driver).
# shellcheck source=tools/cachedir.lib
. "$(dirname "$0")/cachedir.lib"
cachedir_safe "$cache"

if [ -z "${VM_REFRESH:-}" ] && [ -s "$dir/version" ] &&
    [ -f "$dir/pam_u2f.so" ] && [ -x "$dir/pamu2fcfg" ]; then
	echo "$dir"
	exit 0
fi

candidate() {	# candidate PKG: apt's candidate version of PKG
	apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }'
}
ver=$(candidate libpam-u2f)
case $ver in
"" | "(none)") die "apt knows no libpam-u2f (apt-get update?)" ;;
esac
[ "$(candidate pamu2fcfg)" = "$ver" ] ||
    die "libpam-u2f $ver and pamu2fcfg $(candidate pamu2fcfg) differ"

exec 9>"$cache/.debian-pam-u2f.lock"	# two runs at once: one fetch
flock 9
tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp/debs" "$tmp/root"
# As root, apt's _apt sandbox user cannot write here: skip it.
sandbox=""
[ "$(id -u)" -ne 0 ] || sandbox="-o APT::Sandbox::User=root"
# shellcheck disable=SC2086 # $sandbox: no option or one of two words
(cd "$tmp/debs" && apt-get download -q $sandbox \
    "libpam-u2f=$ver" "pamu2fcfg=$ver" >&2) ||
    die "apt-get download libpam-u2f=$ver pamu2fcfg=$ver failed"
for deb in "$tmp"/debs/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root" || die "dpkg-deb -x $deb failed"
done
mod=$(find "$tmp/root" -path '*/security/pam_u2f.so' -type f | head -n 1)
[ -n "$mod" ] || die "no security/pam_u2f.so in libpam-u2f $ver"
[ -x "$tmp/root/usr/bin/pamu2fcfg" ] || die "no usr/bin/pamu2fcfg in pamu2fcfg $ver"
cp "$mod" "$tmp/pam_u2f.so"
cp "$tmp/root/usr/bin/pamu2fcfg" "$tmp/pamu2fcfg"
rm -rf "$tmp/root"
for f in "$tmp/pam_u2f.so" "$tmp/pamu2fcfg"; do
	if ldd "$f" 2>&1 | grep -q 'not found'; then
		die "Debian's ${f##*/} needs: $(ldd "$f" | awk '/not found/ { print $1 }' | tr '\n' ' ')(tools/deps.sh vm installs libfido2-1)"
	fi
done
echo "$ver" >"$tmp/version"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "$dir"
