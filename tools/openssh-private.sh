#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/openssh-private.sh: a private OpenSSH (client, server, and the
# regression suite's sk-dummy.so software security key) for the ssh-agent
# tests (tests/ssh/), WITHOUT installing it: installing openssh-server
# would start a host sshd, and openssh-tests would upgrade the host's
# openssh-client.
#
# `apt-get download` fetches openssh-client, openssh-server,
# openssh-sftp-server and openssh-tests of ONE version (apt's candidate
# for openssh-tests; apt checks them against the signed archive),
# `dpkg-deb -x` unpacks them (no maintainer script runs) into a private
# directory, and the tests use the programs by path. Prints that
# directory, which holds:
#   root/usr/bin/{ssh,ssh-agent,ssh-add,ssh-keygen}  root/usr/sbin/sshd
#   root/usr/lib/openssh/ssh-sk-helper
#   root/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so
#   version   the packages' version
# A second run reuses it; OPENSSH_REFRESH=1 fetches again.
# --path: print the directory only (fetch nothing): how tests find it.
# Env: PU_OPENSSH_DIR (default /var/tmp/pam-u2f-openssh).
set -eu
dir=${PU_OPENSSH_DIR:-/var/tmp/pam-u2f-openssh}
die() { echo "openssh-private.sh: $*" >&2; exit 1; }
if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
[ $# -eq 0 ] || die "usage: tools/openssh-private.sh [--path]"

ready() {
	[ -s "$dir/version" ] && [ -x "$dir/root/usr/sbin/sshd" ] &&
	    [ -f "$dir/root/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so" ]
}
if [ -z "${OPENSSH_REFRESH:-}" ] && ready; then
	echo "$dir"
	exit 0
fi

# shellcheck source=tools/privdebs.lib
. "$(dirname "$0")/privdebs.lib"
privdebs_parent "$dir" PU_OPENSSH_DIR
ver=$(privdebs_candidate openssh-tests)
case $ver in
"" | "(none)") die "apt knows no openssh-tests (apt-get update?)" ;;
esac
pkgs="openssh-client openssh-server openssh-sftp-server openssh-tests"

exec 9>"$dir.lock"	# two runs at once: one fetch
flock 9
tmp=$dir.tmp
list=""
for p in $pkgs; do list="$list $p=$ver"; done
# shellcheck disable=SC2086 # $list: words
privdebs_unpack "$tmp" $list
for f in usr/bin/ssh usr/bin/ssh-agent usr/bin/ssh-add usr/bin/ssh-keygen \
    usr/sbin/sshd usr/lib/openssh/ssh-sk-helper; do
	[ -x "$tmp/root/$f" ] || die "no $f in OpenSSH $ver"
	if ldd "$tmp/root/$f" 2>&1 | grep -q 'not found'; then
		die "$f needs: $(ldd "$tmp/root/$f" | awk '/not found/ { print $1 }' | tr '\n' ' ')"
	fi
done
echo "$ver" >"$tmp/version"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "$dir"
