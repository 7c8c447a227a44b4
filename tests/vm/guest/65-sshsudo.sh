# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 65-sshsudo: sudo over SSH (pam_u2f(8), SUDO OVER SSH) with real
# OpenSSH 9.2, unpacked by tools/openssh-private.sh on the host (never
# installed; the guest reads it through the host's root, VM_OPENSSH_DIR
# or the script's default path): a real sshd (root, privilege
# separation) on the guest's loopback; the user's ed25519-sk key made
# with the regression suite's sk-dummy.so and held by the user's own
# ssh-agent; pamu2fcfg --ssh-agent writes the central file; the client
# logs in with ssh -A and real setuid sudo, whose /etc/pam.d/sudo is
# only our module with remote=agent, runs id -u as root. Without -A the
# same sudo is refused. The client runs in the guest too (a login over
# loopback: sshd sees a remote client all the same).

SSHDIR=${VM_OPENSSH_DIR:-$(sh "$VM_SRC/tools/openssh-private.sh" --path)}
R=$SSHDIR/root
SKD=$R/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so
S=$T/ssh
SOCK=/home/dave/agent/sock
PORT=2222
export SSH_SK_HELPER="$R/usr/lib/openssh/ssh-sk-helper"

# The steps run under run_cmd's timeout, so they are a script of their
# own: $S/steps STEP [ARG...], with R, SKD, S, SOCK, PORT in its
# environment.
mkdir -p "$S"
chmod 755 "$S"
cat >"$S/steps" <<'STEPS'
#!/bin/sh
# as_dave CMD...: CMD as dave with his agent.
as_dave() {
	runuser -u dave -- env HOME=/home/dave SSH_AUTH_SOCK="$SOCK" \
	    SSH_SK_HELPER="$SSH_SK_HELPER" "$@"
}
# ssh_sudo [SSH OPTION...]: dave's ssh into the guest's sshd, running
# sudo there.
ssh_sudo() {
	as_dave "$R/usr/bin/ssh" -F none -i /home/dave/.ssh/id_login \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o BatchMode=yes -p "$PORT" "$@" dave@127.0.0.1 sudo id -u
}

sshd_up() {
	mkdir -p "$S" /run/sshd
	chmod 755 "$S" /run/sshd
	id sshd >/dev/null 2>&1 ||
	    useradd -r -d /run/sshd -s /usr/sbin/nologin sshd
	"$R/usr/bin/ssh-keygen" -q -t ed25519 -N '' -f "$S/hostkey" || return 1
	cp /home/dave/.ssh/id_login.pub "$S/authkeys"
	chmod 644 "$S/authkeys"
	printf '%s\n' "Port $PORT" "ListenAddress 127.0.0.1" \
	    "HostKey $S/hostkey" "AuthorizedKeysFile $S/authkeys" \
	    "UsePAM no" "PidFile $S/sshd.pid" "AllowAgentForwarding yes" \
	    "PasswordAuthentication no" "KbdInteractiveAuthentication no" \
	    "LogLevel VERBOSE" >"$S/sshd_config"
	"$R/usr/sbin/sshd" -f "$S/sshd_config" -E "$S/sshd.log" || return 1
	for _ in $(seq 100); do
		grep -q "Server listening" "$S/sshd.log" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

dave_keys() {
	mkdir -m 700 /home/dave/.ssh /home/dave/agent &&
	    chown dave: /home/dave/.ssh /home/dave/agent &&
	    as_dave "$R/usr/bin/ssh-keygen" -q -t ed25519 -N '' \
		-f /home/dave/.ssh/id_login &&
	    as_dave "$R/usr/bin/ssh-keygen" -q -t ed25519-sk -w "$SKD" -N '' \
		-C dave-sk -f /home/dave/.ssh/id_sk &&
	    as_dave "$R/usr/bin/ssh-agent" -a "$SOCK" -P "$SKD" >/dev/null &&
	    as_dave "$R/usr/bin/ssh-add" -q -S "$SKD" /home/dave/.ssh/id_sk
}

"$@"
STEPS
chmod 755 "$S/steps"
export R SKD S SOCK PORT
STEP=$S/steps

name="sudo over SSH: OpenSSH unpacked, our module and pamu2fcfg built"
if need "$name" "$R/usr/sbin/sshd" "$SKD" "$OURMOD" "$OURCFG"; then
	pass "$name"
	mkuser dave
	ip link set lo up 2>/dev/null
	expect_ok "dave's login key and sk-dummy ed25519-sk key, his agent" \
	    "$STEP" dave_keys
	run_cmd "$STEP" as_dave "$OURCFG" --ssh-agent
	if [ "$rc" -eq 0 ] && grep -q "^@ssh-sk dave sk-ssh-ed25519@openssh.com .* dave-sk$" "$OUT.stdout"; then
		pass "pamu2fcfg --ssh-agent prints dave's @ssh-sk line"
		cp "$OUT.stdout" /etc/u2f_mappings
		chmod 644 /etc/u2f_mappings
	else
		fail "pamu2fcfg --ssh-agent prints dave's @ssh-sk line"
		diag_file "$OUT"
	fi
	printf '%s\n' 'dave ALL=(ALL:ALL) ALL' \
	    'Defaults env_keep += "SSH_AUTH_SOCK"' >/etc/sudoers.d/vmtest-ssh
	chmod 440 /etc/sudoers.d/vmtest-ssh
	: >"$T/sudo-debug.log"
	chmod 644 "$T/sudo-debug.log"
	pam_service sudo \
	    "auth required $OURMOD remote=agent authfile=/etc/u2f_mappings timeout=20 debug debug_file=$T/sudo-debug.log" \
	    "account required pam_permit.so" "session required pam_permit.so"
	expect_ok "a real sshd on the guest's loopback" "$STEP" sshd_up ||
	    diag_file "$S/sshd.log"
	if expect_ok "ssh -A, then sudo there: the forwarded key signs" \
	    "$STEP" ssh_sudo -A; then
		if grep -qx 0 "$OUT.stdout" &&
		    grep -q "remote=agent: verified: key 1 (dave-sk), flags 0x01" \
			"$T/sudo-debug.log"; then
			pass "... as root, verified with the user-present flag"
		else
			fail "... as root, verified with the user-present flag"
			diag_file "$OUT"
			diag_file "$T/sudo-debug.log"
		fi
	else
		diag_file "$T/sudo-debug.log"
	fi
	expect_fail "ssh without -A: sudo is refused (no agent)" "$STEP" ssh_sudo -a &&
	    if grep -q "no SSH_AUTH_SOCK" "$T/sudo-debug.log"; then
		pass "... and the log says no agent was forwarded"
	else
		fail "... and the log says no agent was forwarded"
		diag_file "$T/sudo-debug.log"
	fi
	[ ! -f "$S/sshd.pid" ] || kill "$(cat "$S/sshd.pid")" 2>/dev/null
fi
