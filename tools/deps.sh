#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian 12 packages this project needs to build and test.
# Usage: tools/deps.sh [--dry-run | --list] [SET]...  (default: build test)
#   build  compile the module, pamu2fcfg and the LDAP helper
#   demo   what tools/demo.sh needs: build, plus pamtester
#   test   make check and tests/run.sh's stages (clang, valgrind, slapd,
#          pcscd, vsmartcard, python3-fido2, licensecheck, ...: about 1.6 GB;
#          libfido2-1 for ssh-sk-helper of tools/openssh-private.sh)
#   vm     tests/vm (qemu, the peers' tools; Debian's pam-u2f is fetched
#          and unpacked by tools/debian-pam-u2f.sh, the desktop programs
#          of group 75-desktop by tools/desktop-debs.sh, never installed)
#   bench  bench/
#   deb    dpkg-buildpackage: build-essential, debhelper, dpkg-dev (with
#          the build set, every Build-Depends of debian/control)
# --list     print the sets' packages, one a line; nothing else
# --dry-run  print what it would do (missing packages, apt's plan, each
#            command) and change nothing; no root needed
# Installs only what is missing (as root; otherwise it prints the apt-get
# line). It never installs, removes or replaces a package that conflicts
# with ours (debian/control: libpam-u2f, pamu2fcfg), and never removes
# any package: if apt's plan would, it stops, says why, changes nothing.
# No service starts during the install: /usr/sbin/policy-rc.d answers
# 101 ("action not allowed") meanwhile, and whatever was there before is
# put back. Services it newly installed (slapd, a directory server on
# every interface; pcscd) are also disabled at boot: the tests start
# their own.
set -eu

build="autoconf automake libtool pkg-config make gcc libc6-dev
	libpam0g-dev libssl-dev libconfuse-dev libldap-dev libpcsclite-dev"
demo="$build pamtester"
test="clang python3-cryptography-vectors python3-fido2 libclang-rt-14-dev libu2f-host-dev mandoc libpam-wrapper libnss-wrapper
	pamtester valgrind python3 xz-utils clang-tools cppcheck
	slapd ldap-utils openssl pcscd vsmartcard-vpcd python3-pyscard
	python3-debian licensecheck libfido2-1"
vm="qemu-system-x86 busybox-static sudo fido2-tools u2f-host libfido2-1
	openssh-client cpio kmod u2f-server pamtester xz-utils"
bench="hyperfine valgrind strace libfido2-1 time slapd ldap-utils openssl"
deb="build-essential debhelper dpkg-dev"
# Packages that conflict with ours (debian/control's Conflicts; the test
# tests/deps_check.sh keeps the two in step): never installed here.
conflicting="libpam-u2f pamu2fcfg"
# Packages whose maintainer scripts enable a system service.
services="slapd pcscd"
policy=/usr/sbin/policy-rc.d

mode=install
case ${1:-} in
--dry-run) mode=dry; shift ;;
--list) mode=list; shift ;;
-*) echo "deps.sh: unknown option '$1'" >&2; exit 2 ;;
esac
say() { echo "deps.sh: $*" >&2; }

want=""
[ $# -gt 0 ] || set -- build test
for set_name in "$@"; do
	case "$set_name" in
	build) want="$want $build" ;;
	demo) want="$want $demo" ;;
	test) want="$want $test" ;;
	vm) want="$want $vm" ;;
	bench) want="$want $bench" ;;
	deb) want="$want $build $deb" ;;
	*) say "unknown package set '$set_name'"; exit 2 ;;
	esac
done
# shellcheck disable=SC2086 # one package a word
want=$(printf '%s\n' $want | awk '!seen[$0]++')
if [ "$mode" = list ]; then
	printf '%s\n' "$want"
	exit 0
fi

in_list() {	# in_list WORD LIST...: WORD is one of LIST
	w=$1
	shift
	for x in "$@"; do [ "$x" != "$w" ] || return 0; done
	return 1
}
# shellcheck disable=SC2086
for p in $want; do
	if in_list "$p" $conflicting; then
		say "the sets name $p, which conflicts with our package: not installing it"
		exit 1
	fi
done

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	[ "$mode" = install ] || say "nothing to install"
	exit 0
fi
say "missing:$missing"
if [ "$mode" = install ] && [ "$(id -u)" -ne 0 ]; then
	say "run as root, or: sudo apt-get install --no-install-recommends$missing"
	exit 1
fi

run() {	# run CMD...: print it; run it unless --dry-run
	if [ "$mode" = dry ]; then
		say "would run: $*"
	else
		say "running: $*"
		"$@"
	fi
}
export DEBIAN_FRONTEND=noninteractive
run apt-get update -qq

# apt's plan, simulated: nothing may be removed, nothing conflicting
# may come in as a dependency.
# shellcheck disable=SC2086
plan=$(apt-get install -s --no-install-recommends $missing 2>&1) || {
	printf '%s\n' "$plan" | tail -n 20 >&2
	say "apt cannot install$missing (above); nothing changed"
	exit 1
}
removes=$(printf '%s\n' "$plan" | awk '$1 == "Remv" { printf " %s", $2 }')
if [ -n "$removes" ]; then
	say "apt would remove:$removes"
	say "stopping: deps.sh never removes a package (that would take the"
	say "second factor away if it is ours); nothing changed"
	exit 1
fi
for p in $(printf '%s\n' "$plan" | awk '$1 == "Inst" { print $2 }'); do
	# shellcheck disable=SC2086
	if in_list "$p" $conflicting; then
		say "apt would install $p, which conflicts with our package"
		say "(libpam-u2f-native, pamu2fcfg-native): stopping; nothing changed"
		exit 1
	fi
done
say "apt's plan: install $(printf '%s\n' "$plan" | grep -c '^Inst ') packages, remove none"

# policy-rc.d (exit 101) while apt runs: no service starts. The one
# there before (if any) is kept aside and put back on any exit.
saved=""
policy_on() {
	if [ "$mode" = dry ]; then
		if [ -e "$policy" ] || [ -L "$policy" ]; then
			say "would keep $policy aside"
		fi
		say "would write $policy (exit 101: no service starts while apt runs)"
		return 0
	fi
	if [ -e "$policy" ] || [ -L "$policy" ]; then
		saved=$(mktemp "$policy.deps-saved.XXXXXX")
		cp -p "$policy" "$saved"
	fi
	trap policy_off EXIT
	trap 'exit 130' INT TERM
	printf '#!/bin/sh\n# tools/deps.sh: no service starts while it installs\nexit 101\n' \
	    >"$policy.deps-tmp"
	chmod 755 "$policy.deps-tmp"
	mv -f "$policy.deps-tmp" "$policy"
	say "wrote $policy (exit 101: no service starts while apt runs)"
}
policy_off() {
	if [ "$mode" = dry ]; then
		say "would put $policy back as it was"
		return 0
	fi
	if [ -n "$saved" ]; then
		mv -f "$saved" "$policy"
	else
		rm -f "$policy"
	fi
	trap - EXIT
	say "put $policy back as it was"
}

policy_on
# shellcheck disable=SC2086
run apt-get install -y -qq --no-install-recommends $missing
policy_off

# Newly installed services stay off at boot too.
quiet=""
for p in $missing; do
	# shellcheck disable=SC2086
	in_list "$p" $services && quiet="$quiet $p"
done
for p in $quiet; do
	run update-rc.d "$p" disable
	if [ "$p" = pcscd ] && { [ "$mode" = dry ] || command -v systemctl >/dev/null; }; then
		run systemctl --quiet disable pcscd.socket
	fi
done
[ -z "$quiet" ] ||
    say "installed, not started and off at boot:$quiet (systemctl enable --now NAME to use them)"
