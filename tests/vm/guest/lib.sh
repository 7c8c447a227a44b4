# SPDX-License-Identifier: BSD-2-Clause
# tests/vm/guest/lib.sh: sourced by the guest test groups (POSIX sh, runs
# as root inside the VM). Results go to $VM_TAP as "ok - NAME" /
# "not ok - NAME" lines with "# " diagnostics; the host numbers them.
# Env from tests/vm/run.sh: VM_BUILD (build tree), VM_SRC (source tree),
# VM_TAP (result file), VM_DEBIAN_PAM_U2F (Debian's pam-u2f, unpacked by
# tools/debian-pam-u2f.sh: pam_u2f.so, pamu2fcfg, debs/).
# shellcheck shell=sh disable=SC2034 # variables for the groups
set -u
: "${VM_BUILD:?}" "${VM_SRC:?}" "${VM_TAP:?}"
B=$VM_BUILD
SOFTTOKEN=$B/tests/softtoken/softtoken
OURMOD=$B/pam_u2f/.libs/pam_u2f.so
OURCFG=$B/pamu2fcfg/pamu2fcfg
# Debian's pam-u2f 1.1 (the interop groups): used by path, never from the
# host's /lib or /usr/bin (the host need not have it installed, and must
# not if it uses our package); OLDDEBS holds its .debs, for the groups
# that install packages in the guest's throwaway overlay.
DEBPU=${VM_DEBIAN_PAM_U2F:-/nonexistent/debian-pam-u2f}
OLDMOD=$DEBPU/pam_u2f.so
OLDCFG=$DEBPU/pamu2fcfg
OLDDEBS=$DEBPU/debs
SYSMOD=/lib/x86_64-linux-gnu/security/pam_u2f.so  # where a bare name loads from
ORIGIN=pam://vmtest
T=/run/vmt		# scratch space (tmpfs, gone at power-off)
OUT=$T/out		# output of the last run_cmd
TMO=${VM_CMD_TIMEOUT:-60}	# seconds before any one command is killed
mkdir -p "$T"
chmod 755 "$T"
# What non-root users run (pamu2fcfg, the module a user's pamtester
# loads) must be reachable by them wherever the checkout lives, e.g. in a
# 0700 folder from mktemp -d: they run copies in $T/bin (0755).
mkdir -p "$T/bin"
chmod 755 "$T/bin"
if [ -f "$OURCFG" ] && cp "$OURCFG" "$T/bin/pamu2fcfg"; then
	OURCFG=$T/bin/pamu2fcfg
fi
if [ -f "$OURMOD" ] && cp "$OURMOD" "$T/bin/pam_u2f.so"; then
	OURMOD=$T/bin/pam_u2f.so
fi
mkdir -p "$T/bin/debian"
if [ -f "$OLDCFG" ] && cp "$OLDCFG" "$T/bin/debian/pamu2fcfg"; then
	OLDCFG=$T/bin/debian/pamu2fcfg
fi
if [ -f "$OLDMOD" ] && cp "$OLDMOD" "$T/bin/debian/pam_u2f.so"; then
	OLDMOD=$T/bin/debian/pam_u2f.so
fi
chmod 755 "$T/bin"/* "$T/bin/debian"/* 2>/dev/null

diag() { printf '%s\n' "$@" | sed 's/^/# /' >>"$VM_TAP"; }
diag_file() {	# diag_file FILE [LINES]: the file's tail as diagnostics
	[ -s "$1" ] || return 0
	tail -n "${2:-25}" "$1" | sed 's/^/#   | /' >>"$VM_TAP"
}
pass() { echo "ok - $1" >>"$VM_TAP"; }
fail() {	# fail NAME REASON...
	n=$1
	shift
	echo "not ok - $n" >>"$VM_TAP"
	[ $# -eq 0 ] || diag "$@"
}

# run_cmd CMD...: run with a timeout, stdout+stderr to $OUT, stdout alone
# to $OUT.stdout, status in $rc (124: killed by the timeout).
# A command that takes 3 s or more gets a "# took N s" line.
run_cmd() {
	uptime_s
	rs=$up
	timeout -k 5 "$TMO" "$@" >"$OUT.stdout" 2>"$OUT.stderr" </dev/null
	rc=$?
	uptime_s
	rs=$((up - rs))
	cat "$OUT.stdout" "$OUT.stderr" >"$OUT"
}
# uptime_s: $up, the guest's uptime in whole seconds, read by the shell
# itself. Under TCG every program started costs about 0.06 to 0.2 s of
# CPU (a fork, an exec, the dynamic loader, all emulated), so the helpers
# that run for every check or poll use the shell's builtins.
uptime_s() {
	read -r up _ </proc/uptime
	up=${up%.*}
}
took() { [ "$rs" -lt 3 ] || diag "took $rs s"; }

# paced NAME LOG PATTERN MS: the requests matching PATTERN in a token's
# LOG number at least one and at most what MS holds at one per 100 ms
# (the host's re-send interval while waiting for a touch), plus the first
# and one at the deadline: the wait ended at its deadline, not later. A
# count, not a duration: a loaded machine sends fewer, never more.
paced() {
	pn=$1 plog=$2 ppat=$3 pms=$4
	pc=$(grep -c "$ppat" "$plog" 2>/dev/null)
	pmax=$((pms / 100 + 2))
	if [ "${pc:-0}" -ge 1 ] && [ "$pc" -le "$pmax" ]; then
		pass "$pn ($pc requests, at most $pmax)"
	else
		fail "$pn" "${pc:-0} requests matching '$ppat', wanted 1..$pmax"
		diag_file "$plog"
	fi
}

# not_timed_out NAME FILE: the failure logged in FILE (the module's debug
# output) was not the deadline's: the error that ended it came first.
not_timed_out() {
	if grep -q 'timed out' "$2"; then
		fail "$1" "ended by the timeout"
		diag_file "$2"
	else
		pass "$1"
	fi
}

# expect_ok NAME CMD...: passes if CMD exits 0.
expect_ok() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$rc" -eq 0 ]; then
		pass "$name"
		took
		return 0
	fi
	fail "$name" "exit status $rc, wanted 0: $*"
	diag_file "$OUT"
	return 1
}

# expect_fail NAME CMD...: passes if CMD fails (not by the timeout).
expect_fail() {
	name=$1
	shift
	run_cmd "$@"
	case $rc in
	0) fail "$name" "succeeded, wanted a failure: $*" ;;
	124 | 137) fail "$name" "hung: killed after ${TMO}s: $*" ;;
	126 | 127) fail "$name" "could not run: $*" ;;
	*) pass "$name"; took; return 0 ;;
	esac
	diag_file "$OUT"
	return 1
}

# need NAME FILE...: fail NAME unless every FILE exists (so that a missing
# binary is reported, never silently skipped).
need() {
	name=$1
	shift
	for f in "$@"; do
		if [ ! -e "$f" ]; then
			fail "$name" "missing $f (not built?)"
			return 1
		fi
	done
	return 0
}

# ---- software tokens on /dev/uhid -------------------------------------
# tok_start NAME [softtoken options]: a token with state $T/NAME.state (the
# same NAME is the same token again) and log $T/NAME.log; waits until its
# hidraw node exists (else a "not ok" line). Its node: $(tok_dev NAME).
# The token writes the node's path to a FIFO once the kernel made it
# (--ready-fd), or closes it having failed: the shell's read waits without
# polling (a program started to sleep costs 60 ms of CPU under TCG), and
# the token stays this shell's child, for tok_stop's wait. A new FIFO for
# each start: a token that wrote its line may not have closed its end yet,
# and the next reader would take it for the next token's writer.
tok_seq=0
tok_start() {
	tn=$1
	shift
	if [ ! -x "$SOFTTOKEN" ]; then
		fail "token $tn comes up" "missing $SOFTTOKEN"
		return 1
	fi
	tok_seq=$((tok_seq + 1))
	tf=$T/ready.$tok_seq
	mkfifo "$tf"
	"$SOFTTOKEN" --uhid --state "$T/$tn.state" --log "$T/$tn.log" \
	    --ready-fd 3 "$@" 3>"$tf" </dev/null >>"$T/$tn.err" 2>&1 &
	tp=$!
	echo "$tp" >"$T/$tn.pid"
	tdev=""
	read -r tdev <"$tf"
	if [ -c "$tdev" ]; then
		echo "$tdev" >"$T/$tn.dev"
		return 0
	fi
	fail "token $tn comes up" "softtoken pid $tp: no hidraw node"
	diag_file "$T/$tn.err"
	return 1
}

tok_dev() { read -r tl <"$T/$1.dev" && echo "$tl"; }
tok_pid() { read -r tl <"$T/$1.pid" && echo "$tl"; }

# tok_stop NAME [SIGNAL]: stop the token and wait until its node is gone.
tok_stop() {
	[ -r "$T/$1.pid" ] || return 0
	read -r tp <"$T/$1.pid"
	tdev=""
	[ ! -r "$T/$1.dev" ] || read -r tdev <"$T/$1.dev"
	kill "-${2:-TERM}" "$tp" 2>/dev/null
	# This shell's child (tok_start): wait returns when it has gone, and
	# with it its uhid device and node (the kernel removes them before).
	# Else (started in a subshell) look every 50 ms, 5 s at most.
	wait "$tp" 2>/dev/null
	i=0
	while kill -0 "$tp" 2>/dev/null && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	i=0
	while [ -n "$tdev" ] && [ -e "$tdev" ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	rm -f "$T/$1.pid" "$T/$1.dev"
}

tok_stop_all() {
	for p in "$T"/*.pid; do
		[ -e "$p" ] || continue
		p=${p##*/}
		tok_stop "${p%.pid}"
	done
}

# settle TRIES CMD...: run CMD until it succeeds, at most TRIES times,
# 0.1 s apart; its last status. For a token's log read right after the
# module has gone: the module waits 100 ms for the answer to its cancel
# (a CTAPHID_CANCEL's status=2d), and a loaded guest may log it later.
# Costs nothing when CMD succeeds at once.
settle() {
	sn_left=$1
	shift
	while ! "$@"; do
		sn_left=$((sn_left - 1))
		[ "$sn_left" -gt 0 ] || return 1
		sleep 0.1
	done
}

# tok_signed NAME: how many presence-checked signatures (P1 03) it made.
tok_signed() { grep -c '^ins=02 p1=03 sw=9000' "$T/$1.log" 2>/dev/null; }

# ---- users and PAM ----------------------------------------------------
PASSWORD=vm-Secret-1
# mkuser NAME: a user with a home and the password $PASSWORD. The guest
# starts with none of the host's own accounts (host_users_off), so a user
# of that name on the host never changes a test.
mkuser() {
	id "$1" >/dev/null 2>&1 && return 0
	useradd -m -s /bin/sh "$1" && echo "$1:$PASSWORD" | chpasswd
}

# host_users_off: the guest sees the host's /etc (read-only under a
# throwaway overlay); the tests make their own users (mkuser), so the
# host's accounts (uid 1000..59999: people, not system accounts) are
# deleted in the overlay and /home is an empty tmpfs. A host user alice
# with another password or her own ~/.config/Yubico/u2f_keys then changes
# nothing. Deleted with their private groups; nothing of the host is
# touched (the overlay is thrown away at power-off).
host_users_off() {
	awk -F: '$3 >= 1000 && $3 < 60000 { print $1 }' /etc/passwd |
	    while read -r hu; do
		userdel -f "$hu" 2>/dev/null ||
		    diag "could not delete host user $hu"
	done
	mountpoint -q /home || mount -t tmpfs -o mode=0755 vmhome /home
}
host_users_off

# pam_service NAME LINE...: write /etc/pam.d/NAME (in the overlay only).
pam_service() {
	ps=/etc/pam.d/$1
	shift
	printf '%s\n' "$@" >"$ps"
}

# A valid mapping line: user:KH,PK,es256,+presence (pam-u2f's format).
is_mapping() {	# is_mapping USER FILE
	grep -Eq "^$1:[A-Za-z0-9+/=_-]+,[A-Za-z0-9+/=_-]+,es256,\+presence" "$2"
}

# ---- Debian's packages, for the install groups (deb, byhand) ----------
# debian_pu_installed NAME: Debian's libpam-u2f and pamu2fcfg installed in
# the guest's throwaway overlay (dpkg -i of $OLDDEBS, unless the host has
# them): what an administrator who used them starts from. "ok"/"not ok".
debian_pu_installed() {
	if [ "$(dpkg-query -W -f='${Status}\n' libpam-u2f pamu2fcfg 2>/dev/null |
	    grep -c 'install ok installed')" = 2 ]; then
		pass "$1 (the host has them)"
		return 0
	fi
	need "$1" "$OLDDEBS" || return 1
	expect_ok "$1" dpkg -i "$OLDDEBS"/libpam-u2f_*.deb "$OLDDEBS"/pamu2fcfg_*.deb
}

# apt_local_only: apt and dpkg as the install groups need them, quick
# under TCG. man-db's trigger would rebuild its whole index (over a minute):
# without its auto-update file it skips that. apt would parse the host's
# package lists (about 19 MB) and build its cache from them at every call
# (tens of seconds each under TCG): the groups only install local .debs
# whose dependencies are installed and remove packages, which need no
# list, so an empty tmpfs stands in for them (the guest's / is a
# throwaway overlay either way).
apt_local_only() {
	export DEBIAN_FRONTEND=noninteractive
	rm -f /var/lib/man-db/auto-update
	mount -t tmpfs -o mode=755 tmpfs /var/lib/apt/lists &&
	    mkdir -p /var/lib/apt/lists/partial ||
	    diag "apt_local_only: no tmpfs on apt's lists (apt reads the host's)"
}

# ---- sudo as a user, for the install groups (deb, byhand) -------------
# sudo_setup: $sudo_as USER PASSWORD runs "sudo -k -S id -u" as USER.
sudo_setup() {
	sudo_as=$T/sudo_as
	# shellcheck disable=SC2016 # expanded by the script
	printf '%s\n' '#!/bin/sh' \
	    'echo "$2" | runuser -u "$1" -- sudo -k -S id -u' >"$sudo_as"
	chmod 755 "$sudo_as"
}
# expect_sudo_root NAME USER TOKEN: sudo with the password succeeds, runs
# the command as root, and TOKEN made a presence-checked signature.
expect_sudo_root() {
	expect_ok "$1" "$sudo_as" "$2" "$PASSWORD" || return 1
	if grep -qx 0 "$OUT.stdout" && [ "$(tok_signed "$3")" -ge 1 ]; then
		pass "... as root, and token $3 signed"
	else
		fail "... as root, and token $3 signed"
		diag_file "$OUT"
	fi
}

trap 'tok_stop_all' EXIT
