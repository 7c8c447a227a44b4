#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Show the main job with the software token, no hardware needed:
#   1. install dependencies and build,
#   2. enroll a (software) security key with pamu2fcfg,
#   3. log in through the real PAM stack (pamtester + /etc/pam.d) with it,
#   4. watch a login with a different key be refused.
# Run as root on Debian 12 (it installs packages and writes a temporary
# /etc/pam.d/pam_u2f_demo, removed at the end).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
b=$top/build/demo	# our own build tree, whatever state the source is in
blog=$b/demo-build.log

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: run me as root (sudo tools/demo.sh): I install packages" >&2
	echo "and add a temporary PAM service file /etc/pam.d/pam_u2f_demo." >&2
	exit 1
fi

step() {	# step TEXT CMD...: one progress line; output to $blog
	printf '   %s ... ' "$1"
	shift
	if "$@" >>"$blog" 2>&1; then
		echo ok
	else
		echo FAILED
		echo "demo.sh: that step failed; its output is in $blog:" >&2
		tail -n 25 "$blog" >&2
		exit 1
	fi
}
configure_demo() {
	[ -f "$src/configure" ] || (cd "$src" && ./autogen.sh) || return 1
	[ -f "$obj/Makefile" ] || (cd "$obj" && "$src/configure" -q)
}

say "Installing dependencies and building (in build/demo, out of tree)"
src=$b/src
obj=$b/obj
mkdir -p "$src" "$obj"
: >"$blog"
# Only what the demo itself runs: the build set and pamtester (no test
# tools, no slapd or pcscd; tools/deps.sh --list demo).
step "packages (tools/deps.sh demo)" tools/deps.sh demo
step "copy the source to build/demo/src" tools/copy-src.sh "$src"
step "autogen and configure" configure_demo
step "build (make -j$(nproc))" make -C "$obj" -j"$(nproc)"
step "build the software token" make -C "$obj" tests/softtoken/softtoken
b=$obj
module=$b/pam_u2f/.libs/pam_u2f.so
[ -f "$module" ] || { echo "demo.sh: $module was not built (see $blog)" >&2; exit 1; }

work=$(mktemp -d /tmp/pam_u2f-demo.XXXXXX)
service=/etc/pam.d/pam_u2f_demo
cleanup() {
	for p in "$work"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
	rm -f "$service"
	rm -rf "$work"
}
trap cleanup EXIT

token() {	# token NAME: start a software token on $work/NAME.sock
	"$b/tests/softtoken/softtoken" --socket "$work/$1.sock" \
	    --state "$work/$1.state" --presence now --daemon \
	    --pidfile "$work/$1.pid"
}
say "Starting two software tokens (stand-ins for USB keys): 'mine' and 'other'"
token mine
token other
user=$(id -un)
origin=pam://pam_u2f-demo

say "Enrolling 'mine' for $user with pamu2fcfg"
echo "\$ pamu2fcfg -u $user -o $origin --device unix:$work/mine.sock"
"$b/pamu2fcfg/pamu2fcfg" -u "$user" -o "$origin" --device "unix:$work/mine.sock" \
    >"$work/u2f_mappings"
echo >>"$work/u2f_mappings"
chmod 0644 "$work/u2f_mappings"
echo "mapping file $work/u2f_mappings:"
cut -c1-60 "$work/u2f_mappings" | sed 's/$/.../'

pam_line() {	# pam_line TOKEN: the service file, using that token
	cat >"$service" <<EOT
# temporary, written by pam_u2f's tools/demo.sh
auth     required $module authfile=$work/u2f_mappings origin=$origin devices=unix:$work/$1.sock cue timeout=5
account  required pam_permit.so
EOT
}

say "Logging in with 'mine' through PAM (pamtester pam_u2f_demo $user authenticate)"
pam_line mine
cat "$service"
if pamtester pam_u2f_demo "$user" authenticate; then
	ok_login=1
else
	ok_login=0
fi

say "Logging in with 'other', a key that was never enrolled"
pam_line other
if pamtester pam_u2f_demo "$user" authenticate; then
	refused=0
else
	refused=1
fi

say "Summary"
[ $ok_login -eq 1 ] && echo "login with the enrolled key:   accepted (as it should be)" ||
    echo "login with the enrolled key:   REFUSED (unexpected)"
[ $refused -eq 1 ] && echo "login with an unenrolled key:  refused (as it should be)" ||
    echo "login with an unenrolled key:  ACCEPTED (unexpected)"
[ $ok_login -eq 1 ] && [ $refused -eq 1 ]
