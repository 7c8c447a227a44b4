#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remote=agent and pamu2fcfg --ssh-agent against real OpenSSH (unpacked
# by tools/openssh-private.sh, never installed): keys made by ssh-keygen
# with the regression suite's software key (sk-dummy.so), held by a
# real ssh-agent; pamu2fcfg lists them and writes @ssh-sk lines; the
# module (libpam under pam_wrapper, pamtester with PAM_RHOST another
# host) signs through the agent and succeeds, and refuses: a key made
# with no-touch-required whose line does not say so, a key the agent
# does not hold, no SSH_AUTH_SOCK, a socket of another user; SSH_AUTH_SOCK
# taken from the PAM environment too; authcmd= printing authorized_keys
# lines (as sss_ssh_authorizedkeys does, other key types among them).
# Without the unpacked OpenSSH the test skips, or fails under CI=true.
# Runs in a private mount namespace (nsexec.lib) for authcmd='s command,
# which must sit in root's folders: a tmpfs on /mnt there.
. "${top_srcdir:-.}/tests/tool/nsexec.lib"
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module runs as root under sudo"
O=$("${top_srcdir:-.}/tools/openssh-private.sh" --path)
R=$O/root
SKD=$R/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so
if [ ! -x "$R/usr/bin/ssh-agent" ] || [ ! -f "$SKD" ]; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - no OpenSSH unpacked in $O (tools/openssh-private.sh)"
		exit 1
	fi
	echo "1..0 # SKIP no OpenSSH unpacked in $O (run tools/openssh-private.sh)"
	exit 0
fi
export SSH_SK_HELPER="$R/usr/lib/openssh/ssh-sk-helper"
ME=$(id -un)
FAR=192.0.2.7
mkdir "$WORK/svc"
chmod 755 "$WORK"

keygen() { "$R/usr/bin/ssh-keygen" -q -w "$SKD" -N '' "$@"; }
keygen -t ecdsa-sk -C ka -f "$WORK/ka" &&
    keygen -t ed25519-sk -C kb -f "$WORK/kb" &&
    keygen -t ecdsa-sk -C kc -O no-touch-required -f "$WORK/kc" &&
    keygen -t ed25519-sk -C kx -f "$WORK/kx"
ok $? "ssh-keygen -t ecdsa-sk / ed25519-sk -w sk-dummy.so"

mkdir -m 700 "$WORK/agent"
SOCK=$WORK/agent/sock
"$R/usr/bin/ssh-agent" -D -a "$SOCK" -P "$SKD" >/dev/null 2>&1 &
echo $! >"$WORK/agent.pid"
PIDFILES="$PIDFILES $WORK/agent.pid"
for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.05; done
export SSH_AUTH_SOCK="$SOCK"
"$R/usr/bin/ssh-add" -q -S "$SKD" "$WORK/ka" "$WORK/kb" "$WORK/kc" \
    2>"$WORK/add.err"
okshow $? "ssh-agent holds the three keys (ssh-add -S sk-dummy.so)" \
    "$WORK/add.err"

# pamu2fcfg --ssh-agent: one @ssh-sk line per FIDO key of the agent.
"$PAMU2FCFG" --ssh-agent >"$WORK/lines" 2>"$WORK/cfg.err"
st=$?
[ $st -eq 0 ] && [ "$(grep -c "^@ssh-sk $ME sk-" "$WORK/lines")" -eq 3 ] &&
    grep -q "^@ssh-sk $ME sk-ssh-ed25519@openssh.com .* kb$" "$WORK/lines"
okshow $? "pamu2fcfg --ssh-agent prints the agent's three keys" \
    "$WORK/lines" "$WORK/cfg.err"
# --add: into the file beside a mapping line; once only.
echo "$ME:KH,PK,es256,+presence" >"$WORK/map"
chmod 644 "$WORK/map"
"$PAMU2FCFG" --ssh-agent --add "$WORK/map" 2>"$WORK/cfg.err" &&
    "$PAMU2FCFG" --ssh-agent --add "$WORK/map" 2>>"$WORK/cfg.err" &&
    [ "$(grep -c "^@ssh-sk $ME " "$WORK/map")" -eq 3 ] &&
    grep -q "^$ME:KH,PK,es256,+presence$" "$WORK/map" &&
    grep -q "added 0 of the agent's 3" "$WORK/cfg.err"
okshow $? "pamu2fcfg --ssh-agent --add writes each key once" \
    "$WORK/map" "$WORK/cfg.err"
"$PAMU2FCFG" --ssh-agent --list "$WORK/map" 2>"$WORK/cfg.err"
[ $? -eq 2 ]
okshow $? "--ssh-agent with --list is a usage error" "$WORK/cfg.err"

# agent_auth MAP [MORE] [PAMTESTER OPTIONS]: remote=agent with mapping
# file MAP, PAM_RHOST another host.
agent_auth() {
	map=$1
	more=$2
	shift 2
	echo "auth required $MODULE $MOD_CONF remote=agent authfile=$map" \
	    "timeout=10 debug debug_file=$WORK/debug.log $more" \
	    >"$WORK/svc/u2ftest"
	: >"$WORK/debug.log"
	LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
	    pamtester -I rhost=$FAR "$@" u2ftest "$ME" authenticate \
	    >"$WORK/pam.out" 2>&1
}
# keep LINE-PATTERN...: a mapping file of the lines of $WORK/lines
# matching each pattern.
keep() {
	: >"$WORK/m2"
	for p; do grep -- "$p" "$WORK/lines" >>"$WORK/m2"; done
	chmod 644 "$WORK/m2"
}

agent_auth "$WORK/map" ""
st=$?
[ $st -eq 0 ] && result ERR_OK &&
    grep -q "remote=agent: verified: key 1 (ka), flags 0x01" \
	"$WORK/debug.log" &&
    grep -q "Touch the security key on your own machine" "$WORK/pam.out"
okshow $st "remote=agent: the agent's ecdsa-sk key signs; the cue says where"
keep " kb$"
agent_auth "$WORK/m2" ""
okshow $? "remote=agent: an ed25519-sk key"

# kc was made with no-touch-required: its signature has no UP flag.
keep " kc$"
! agent_auth "$WORK/m2" "" && result ERR_NO_PRESENCE
okshow $? "refused: a no-touch-required key whose line does not say so"
sed 's/^\(@ssh-sk [^ ]*\) /\1 no-touch-required /' "$WORK/m2" >"$WORK/m3"
chmod 644 "$WORK/m3"
agent_auth "$WORK/m3" ""
okshow $? "... accepted when its line says no-touch-required" "$WORK/m3"

# verify-required, or userverification=1: sk-dummy never sets UV.
sed 's/^\(@ssh-sk [^ ]*\) /\1 verify-required /' "$WORK/lines" \
    >"$WORK/m4"
chmod 644 "$WORK/m4"
! agent_auth "$WORK/m4" "" && result ERR_NO_UV
okshow $? "refused: verify-required and a signature without UV" "$WORK/m4"
! agent_auth "$WORK/map" "userverification=1" && result ERR_NO_UV
okshow $? "refused: userverification=1 and a signature without UV"

# A key the agent does not hold.
"$R/usr/bin/ssh-keygen" -y -f "$WORK/kx" 2>/dev/null |
    sed "s/^/@ssh-sk $ME /" >"$WORK/m5"
chmod 644 "$WORK/m5"
# (PAM_RHOST another host: a remote client, whose messages the debug
# log shows as "not told"; sudo's own host name would show them.)
! agent_auth "$WORK/m5" "" && result ERR_AGENT_NO_KEY &&
    grep -q "Your ssh-agent did not sign .*ssh-add -L" "$WORK/debug.log"
okshow $? "refused, with a message: a key the agent does not hold" \
    "$WORK/m5"

# No agent: told to use ssh -A; from the PAM environment: used.
! SSH_AUTH_SOCK='' agent_auth "$WORK/map" "" && result ERR_NO_KEY &&
    grep -q "no ssh-agent was forwarded: connect with ssh -A" \
	"$WORK/debug.log"
okshow $? "refused, with a message: no SSH_AUTH_SOCK"
SSH_AUTH_SOCK='' agent_auth "$WORK/map" "" -E "SSH_AUTH_SOCK=$SOCK"
okshow $? "SSH_AUTH_SOCK from the PAM environment"

# A socket owned by another user: refused before it is asked.
chown 1:1 "$WORK/agent"
agent_auth "$WORK/map" ""
st=$?
chown 0:0 "$WORK/agent"
[ $st -ne 0 ] && result ERR_AGENT_SOCKET
okshow $? "refused: the socket's folder belongs to another user"

# The same stack in a local session: no agent is asked.
echo "auth required $MODULE $MOD_CONF remote=agent authfile=$WORK/map" \
    "devices=unix:$WORK/none timeout=1 debug debug_file=$WORK/debug.log" \
    >"$WORK/svc/u2ftest"
: >"$WORK/debug.log"
LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" SSH_CONNECTION='' SSH_CLIENT='' \
    pamtester -I rhost=localhost u2ftest "$ME" authenticate \
    >"$WORK/pam.out" 2>&1
if grep -q "remote=agent: session local" "$WORK/debug.log"; then
	! grep -q "asking the agent" "$WORK/debug.log" && result ERR_PARSE
	okshow $? "local session: the mapping line is used, not the agent"
else
	skip "local session" "this host's logind calls this session remote"
fi

# authcmd=: authorized_keys lines, other types among them. The command
# must sit in root's folders, none writable by others: /mnt's tmpfs.
if [ -n "${PU_NS:-}" ] && mount -t tmpfs -o mode=755 pu-sshagent /mnt; then
	mkdir -m 755 /mnt/bin
	{
		echo "#!/bin/sh"
		echo "cat <<'KEYS'"
		echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl other"
		cat "$WORK/ka.pub"
		echo "KEYS"
	} >/mnt/bin/keys
	chmod 755 /mnt/bin/keys
	echo "auth required $MODULE $MOD_CONF remote=agent" \
	    "authcmd=/mnt/bin/keys authcmd_user=nobody timeout=10 debug" \
	    "debug_file=$WORK/debug.log" >"$WORK/svc/u2ftest"
	: >"$WORK/debug.log"
	LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
	    pamtester -I rhost=$FAR u2ftest "$ME" authenticate \
	    >"$WORK/pam.out" 2>&1 &&
	    grep -q "1 key(s) of other types skipped" "$WORK/debug.log"
	okshow $? "authcmd= printing authorized_keys lines (as sss_ssh_authorizedkeys)"
else
	skip "authcmd=" "no private mount namespace with a tmpfs on /mnt"
fi

done_testing
