#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The ssh layer against real OpenSSH (tests/ssh/README): keys made by
# ssh-keygen with the regression suite's software security key
# (sk-dummy.so), held by a real ssh-agent, signatures cross-checked with
# ssh-keygen -Y verify and -Y sign, and a real sshd of our own on a free
# loopback port reached with ssh -A, inside which sshdrv authenticates
# through the forwarded socket. OpenSSH comes unpacked from
# tools/openssh-private.sh (never installed); without it the test skips,
# or fails under CI=true. TAP output.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
D=$top_builddir/tests/ssh/sshdrv
O=$("$top_srcdir/tools/openssh-private.sh" --path)
R=$O/root
SKD=$R/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so
NS=pam_u2f-remote-auth@pam_u2f
n=0
fails=0

if [ ! -x "$R/usr/sbin/sshd" ] || [ ! -f "$SKD" ]; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - no OpenSSH unpacked in $O (tools/openssh-private.sh)"
		exit 1
	fi
	echo "1..0 # SKIP no OpenSSH unpacked in $O (run tools/openssh-private.sh)"
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
# is EXPECTED TEXT CMD...: CMD's first output line starts with EXPECTED
is() {
	want=$1 what=$2
	shift 2
	got=$("$@" 2>"$T/err" | head -n 1)
	case $got in
	"$want"*) ok 0 "$what" ;;
	*) ok 1 "$what: '$got', expected '$want'"; sed 's/^/# /' "$T/err" ;;
	esac
}

T=$(mktemp -d "${TMPDIR:-/tmp}/openssh-sh.XXXXXX") || exit 1
chmod 755 "$T"	# the sshd session's user reads keys and sshdrv here
agent_pid=
sshd_pid=
cleanup() {
	for p in $agent_pid $sshd_pid; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
export HOME="$T" SSH_SK_HELPER="$R/usr/lib/openssh/ssh-sk-helper"
keygen() { "$R/usr/bin/ssh-keygen" "$@"; }

echo "1..24"
# Keys: ecdsa-sk, ed25519-sk, ecdsa-sk without touch, one not in the agent.
rc=0
keygen -q -t ecdsa-sk -w "$SKD" -N '' -C ka -f "$T/ka" || rc=1
keygen -q -t ed25519-sk -w "$SKD" -N '' -C kb -f "$T/kb" || rc=1
keygen -q -t ecdsa-sk -w "$SKD" -N '' -C kc -O no-touch-required \
    -f "$T/kc" || rc=1
keygen -q -t ed25519-sk -w "$SKD" -N '' -C kx -f "$T/kx" || rc=1
ok $rc "ssh-keygen -t ecdsa-sk/ed25519-sk -w sk-dummy.so"
chmod 644 "$T"/*.pub

SSH_AUTH_SOCK=$T/agent/sock
export SSH_AUTH_SOCK
mkdir -m 700 "$T/agent"
"$R/usr/bin/ssh-agent" -D -a "$SSH_AUTH_SOCK" -P "$SKD" >/dev/null 2>&1 &
agent_pid=$!
rc=1
for _ in $(seq 100); do
	[ -S "$SSH_AUTH_SOCK" ] && { rc=0; break; }
	sleep 0.05
done
"$R/usr/bin/ssh-add" -q -S "$SKD" "$T/ka" "$T/kb" "$T/kc" 2>"$T/err" || rc=1
ok $rc "ssh-agent -P sk-dummy.so; ssh-add -S sk-dummy.so"

"$R/usr/bin/ssh-add" -L | LC_ALL=C sort >"$T/added"
"$D" list | LC_ALL=C sort >"$T/listed"
cmp -s "$T/added" "$T/listed"
ok $? "sshagent_list_sk lists what ssh-add -L lists, line for line"

line() { cat "$T/$1.pub"; }
line ka >"$T/keys.a"
line kb >"$T/keys.b"
line kc >"$T/keys.c"
echo "no-touch-required $(line kc)" >"$T/keys.c-nt"
echo "verify-required $(line kb)" >"$T/keys.b-vr"
{ line kx; line kb; } >"$T/keys.xb"
line kx >"$T/keys.x"
is "ok key=0 flags=0x01" "ecdsa-sk: signed with UP, verified" "$D" auth "$T/keys.a"
is "ok key=0 flags=0x01" "ed25519-sk: signed with UP, verified" "$D" auth "$T/keys.b"
is ERR_NO_PRESENCE "a no-touch-required key (flags 0x00) refused when its line does not say so" "$D" auth "$T/keys.c"
is "ok key=0 flags=0x00" "the same key accepted when its line says no-touch-required" "$D" auth "$T/keys.c-nt"
is ERR_NO_UV "verify-required: refused without UV (sk-dummy never sets it)" "$D" auth "$T/keys.b-vr"
is ERR_NO_UV "need_uv (the module's userverification=1): refused without UV" "$D" auth "$T/keys.a" 10000 uv
is "ok key=1" "the first of the user's keys that the agent holds is used" "$D" auth "$T/keys.xb"
is ERR_AGENT_NO_KEY "none of the user's keys in the agent: ERR_AGENT_NO_KEY" "$D" auth "$T/keys.x"

# SSHSIG framing against ssh-keygen, both ways.
echo "a message to sign" >"$T/msg"
echo "tester $(line ka)" >"$T/allowed"
echo "tester $(line kb)" >>"$T/allowed"
for k in ka kb; do
	"$D" sign "$(line $k)" "$NS" <"$T/msg" >"$T/msg.$k.sig" 2>"$T/err"
	keygen -Y verify -f "$T/allowed" -I tester -n "$NS" \
	    -s "$T/msg.$k.sig" <"$T/msg" >"$T/err" 2>&1
	ok $? "$k: our SSHSIG verifies with ssh-keygen -Y verify -n $NS"
done
rc=0
keygen -Y verify -f "$T/allowed" -I tester -n file -s "$T/msg.ka.sig" \
    <"$T/msg" >/dev/null 2>&1 && rc=1
ok $rc "ssh-keygen -Y verify -n file refuses it (namespace separation)"
cp "$T/msg" "$T/m2"
keygen -q -Y sign -f "$T/kb.pub" -n file "$T/m2" >/dev/null 2>&1
is "ok flags=0x01" "ssh-keygen -Y sign's SSHSIG verifies with sshsig_verify" \
    "$D" verify "$(line kb)" file "$T/m2.sig" <"$T/m2"
echo "other" >>"$T/m2"
is ERR_VERIFY "... and not over other data" "$D" verify "$(line kb)" file \
    "$T/m2.sig" <"$T/m2"

# A destination-constrained key on a local (unbound) connection.
keygen -q -t ecdsa-sk -w "$SKD" -N '' -C kd -f "$T/kd"
keygen -q -t ecdsa-sk -w "$SKD" -N '' -C ke -f "$T/ke"
chmod 644 "$T"/*.pub
keygen -q -t ed25519 -N '' -f "$T/hostkey"
keygen -q -t ed25519 -N '' -f "$T/userkey"
cp "$T/userkey.pub" "$T/authkeys"
chmod 644 "$T/authkeys" "$T/hostkey.pub"
{ echo "testhost $(cat "$T/hostkey.pub")"; echo "otherhost $(cat "$T/userkey.pub")"; } >"$T/known_hosts"
"$R/usr/bin/ssh-add" -q -S "$SKD" -H "$T/known_hosts" -h testhost "$T/kd" 2>"$T/err"
"$R/usr/bin/ssh-add" -q -S "$SKD" -H "$T/known_hosts" -h testhost \
    -h "testhost>otherhost" "$T/ke" 2>"$T/err"
line kd >"$T/keys.d"
line ke >"$T/keys.e"
is ERR_AGENT_REFUSED "ssh-add -h key, local connection: listed, signing refused" "$D" auth "$T/keys.d"

# A stopped agent: refused at the deadline.
kill -STOP "$agent_pid"
is ERR_AGENT_TIMEOUT "a stopped agent: ERR_AGENT_TIMEOUT at the deadline" "$D" auth "$T/keys.a" 300
kill -CONT "$agent_pid"

# shellcheck source=tests/ssh/sshd.lib
. "$top_srcdir/tests/ssh/sshd.lib"
if ! sshd_start; then
	for _ in 1 2 3 4 5 6; do
		n=$((n + 1))
		echo "ok $n # SKIP $sshd_why"
	done
	exit $((fails > 0))
fi
remote() {	# remote CMD: run CMD in a session of our sshd, with ssh -A
	"$R/usr/bin/ssh" -F /dev/null -A -p "$sshd_port" -i "$T/userkey" \
	    -o UserKnownHostsFile="$T/known_hosts" -o HostKeyAlias=testhost \
	    -o BatchMode=yes -o IdentitiesOnly=yes -o LogLevel=ERROR \
	    "$sshd_user@127.0.0.1" "$@"
}
abs_D=$(cd "$(dirname "$D")" && pwd)/sshdrv
cp "$abs_D" "$T/sshdrv"
chmod 755 "$T/sshdrv"
is "sshd_user=$sshd_user" "ssh -A into our sshd on 127.0.0.1:$sshd_port" remote "echo sshd_user=\$(id -un)"
is "ok key=0 flags=0x01" "in the session: sshauth_run through the forwarded socket (ecdsa-sk)" remote "$T/sshdrv auth $T/keys.a"
is "ok key=0 flags=0x01" "in the session: ed25519-sk" remote "$T/sshdrv auth $T/keys.b"
is ERR_NO_PRESENCE "in the session: the no-touch key refused" remote "$T/sshdrv auth $T/keys.c"
is ERR_AGENT_NO_KEY "ssh-add -h testhost: hidden on the forwarded connection" remote "$T/sshdrv auth $T/keys.d"
is ERR_AGENT_REFUSED "ssh-add -h testhost>otherhost: listed, signing refused" remote "$T/sshdrv auth $T/keys.e"
[ "$fails" -eq 0 ]
