#!/bin/sh
# Install the Debian 12 packages this project needs to build and test.
# Usage: tools/deps.sh [build|test|vm|bench|deb]...  (default: build test)
# Does nothing for packages already installed; needs root otherwise.
set -eu

build="autoconf automake libtool pkg-config make gcc libc6-dev
	libpam0g-dev libssl-dev libconfuse-dev libldap-dev libpcsclite-dev"
test="clang python3-cryptography-vectors python3-fido2 libclang-rt-14-dev libu2f-host-dev mandoc libpam-wrapper libnss-wrapper
	pamtester valgrind python3 xz-utils clang-tools cppcheck
	slapd ldap-utils openssl pcscd vsmartcard-vpcd python3-pyscard"
vm="qemu-system-x86 busybox-static sudo fido2-tools u2f-host libpam-u2f
	pamu2fcfg openssh-client cpio kmod u2f-server pamtester xz-utils"
bench="hyperfine valgrind libpam-u2f pamu2fcfg time slapd ldap-utils openssl"
deb="debhelper dpkg-dev"

want=""
[ $# -gt 0 ] || set -- build test
for set_name in "$@"; do
	case "$set_name" in
	build) want="$want $build" ;;
	test) want="$want $test" ;;
	vm) want="$want $vm" ;;
	bench) want="$want $bench" ;;
	deb) want="$want $deb" ;;
	*) echo "deps.sh: unknown package set '$set_name'" >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages:$missing" >&2
	echo "deps.sh: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
