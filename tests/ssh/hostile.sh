#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sshauth_run against a hostile agent of our own (hostile_agent.py: a
# software sk-ecdsa key, each answer bent as its mode says), and the
# socket checks: a symlink, a directory others can write, another user's
# socket or peer, a TCP address, a file, a socket nobody listens on.
# Every case names the error it expects (and for the socket, the reason
# logged). Needs python3 with python3-cryptography. TAP output.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
D=$top_builddir/tests/ssh/sshdrv
n=0
fails=0

if ! python3 -c 'import cryptography' 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - python3-cryptography missing (tools/deps.sh test)"
		exit 1
	fi
	echo "1..0 # SKIP python3-cryptography missing (tools/deps.sh test)"
	exit 0
fi

ok() {	# ok RC TEXT
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}
# is EXPECTED LOGTEXT TEXT CMD...: CMD prints EXPECTED first, and its
# log (stderr) holds LOGTEXT
is() {
	want=$1 logt=$2 what=$3
	shift 3
	got=$("$@" 2>"$T/err" | head -n 1)
	case $got in
	"$want"*)
		if [ -z "$logt" ] || grep -qF -- "$logt" "$T/err"; then
			ok 0 "$what"
		else
			ok 1 "$what: no log line '$logt'"
			sed 's/^/# /' "$T/err"
		fi
		;;
	*) ok 1 "$what: '$got', expected '$want'"; sed 's/^/# /' "$T/err" ;;
	esac
}

T=$(mktemp -d "${TMPDIR:-/tmp}/hostile-sh.XXXXXX") || exit 1
apid=
cleanup() {
	[ -z "$apid" ] || kill "$apid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
mkdir -m 700 "$T/a"
export SSH_AUTH_SOCK="$T/a/sock"

# agent MODE: the hostile agent answers in MODE from its next connection
# on (it reads $T/mode at each); started when none runs, or after the
# mode "killed" (its process ends itself). One agent and one key for all
# the cases: a python start (and its import of cryptography) each cost
# 10 s of CPU in all.
lastmode=
agent() {
	echo "$1" >"$T/mode.new" && mv "$T/mode.new" "$T/mode"
	if [ -n "$apid" ] && [ "$lastmode" != killed ]; then
		lastmode=$1
		return 0
	fi
	lastmode=$1
	[ -z "$apid" ] || { kill "$apid" 2>/dev/null; wait "$apid" 2>/dev/null; }
	rm -f "$SSH_AUTH_SOCK" "$T/key"
	python3 "$top_srcdir/tests/ssh/hostile_agent.py" "$SSH_AUTH_SOCK" \
	    "$T/key" "@$T/mode" &
	apid=$!
	for _ in $(seq 200); do
		[ -f "$T/key" ] && return 0
		sleep 0.05
	done
	echo "# the hostile agent did not start"
}

echo "1..24"
export HOSTILE_AGENT_LOG="$T/requests"
agent good
: >"$T/requests"
is "ok key=0 flags=0x01 counter=42" "" "a well-behaved answer: verified, counter 42 reported" "$D" auth "$T/key"
[ "$(tr '\n' ' ' <"$T/requests")" = "13 " ]
ok $? "... one key: one round trip, the sign request (requests: $(tr '\n' ' ' <"$T/requests"))"
echo "verify-required $(cat "$T/key")" >"$T/key.vr"
is ERR_NO_UV "user verification flag not set" "flags 0x01 for a verify-required key: ERR_NO_UV" "$D" auth "$T/key.vr"
agent uv
echo "verify-required $(cat "$T/key")" >"$T/key.vr"
is "ok key=0 flags=0x05" "" "flags 0x05 (UP|UV) for a verify-required key: verified" "$D" auth "$T/key.vr"
agent flags0
is ERR_NO_PRESENCE "flags 0x00" "flags 0x00 (no UP): ERR_NO_PRESENCE" "$D" auth "$T/key"
agent wrongkey
is ERR_VERIFY "signature" "signed by another key: ERR_VERIFY" "$D" auth "$T/key"
agent badsig
is ERR_VERIFY "signature" "a flipped bit in r: ERR_VERIFY" "$D" auth "$T/key"
agent otherdata
is ERR_VERIFY "signature" "a valid signature over other data: ERR_VERIFY" "$D" auth "$T/key"
agent wrongtype
is ERR_AGENT_REPLY "signature" "another type name in the signature: ERR_AGENT_REPLY" "$D" auth "$T/key"
agent trailing
is ERR_AGENT_REPLY "signature" "a byte after the counter: ERR_AGENT_REPLY" "$D" auth "$T/key"
agent oversized
is ERR_AGENT_REPLY "sign" "a reply length of 1 MiB: ERR_AGENT_REPLY" "$D" auth "$T/key"
agent hugelist
is ERR_AGENT_REPLY "list" "an identities answer over 64 KiB (listed after a refused sign): ERR_AGENT_REPLY" "$D" auth "$T/key"
agent failure
: >"$T/requests"
is ERR_AGENT_REFUSED "sign" "SSH_AGENT_FAILURE: ERR_AGENT_REFUSED" "$D" auth "$T/key"
[ "$(tr '\n' ' ' <"$T/requests")" = "13 11 " ]
ok $? "... refused: then the identities, to tell why (requests: $(tr '\n' ' ' <"$T/requests"))"
agent killed
is ERR_AGENT_REPLY "sign" "killed after half a reply: refused" "$D" auth "$T/key" 5000
agent silent
is ERR_AGENT_TIMEOUT "sign" "silent after the sign request: ERR_AGENT_TIMEOUT at the deadline" "$D" auth "$T/key" 300

# The socket.
agent good
ln -s "$SSH_AUTH_SOCK" "$T/a/link"
is ERR_AGENT_SOCKET "it is a symlink" "a symlink to the socket: refused" env SSH_AUTH_SOCK="$T/a/link" "$D" auth "$T/key"
chmod 777 "$T/a"
is ERR_AGENT_SOCKET "writable by group or others" "a directory others can write: refused" "$D" auth "$T/key"
chmod 700 "$T/a"
is ERR_AGENT_SOCKET "belongs to another user" "another user's socket: refused" env PU_SSH_UID=54321 "$D" auth "$T/key"
if [ "$(id -u)" -eq 0 ] &&
    [ "$(awk '{ print $1 $2 $3 }' /proc/self/uid_map)" = 004294967295 ]; then
	chown 54321 "$SSH_AUTH_SOCK"
	is ERR_AGENT_SOCKET "another user's" "a socket of the user's served by another uid (SO_PEERCRED): refused" env PU_SSH_UID=54321 "$D" auth "$T/key"
	chown 0 "$SSH_AUTH_SOCK"
else
	n=$((n + 1))
	echo "ok $n # SKIP not root: cannot give a socket to another user"
fi
is ERR_AGENT_SOCKET "not an absolute path" "a TCP address: refused" env SSH_AUTH_SOCK=127.0.0.1:22 "$D" auth "$T/key"
: >"$T/a/file"
is ERR_AGENT_SOCKET "not a socket" "a regular file: refused" env SSH_AUTH_SOCK="$T/a/file" "$D" auth "$T/key"
kill "$apid"
wait "$apid" 2>/dev/null
apid=
is ERR_AGENT_CONNECT "connect" "a socket nobody listens on: ERR_AGENT_CONNECT" "$D" auth "$T/key"
agent good
is "sk-ecdsa-sha2-nistp256@openssh.com " "" "sshagent_list_sk lists the agent's key" "$D" list
[ "$fails" -eq 0 ]
