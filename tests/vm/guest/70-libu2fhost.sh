# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 70-libu2fhost: the same device-level checks through both transport
# backends, native and libu2f-host (which only sees real hidraw nodes):
# discovery, register, probe, assert, credentials shared across backends,
# no key, and hostile tokens (framing and reply faults) that must fail
# cleanly and in bounded time, never hang or be accepted. Uses the
# --with-libu2f-host build of tests/run.sh's u2fhost stage (or
# $VM_U2FH_BUILD): its tests/device/devcheck speaks both backends.

UB=${VM_U2FH_BUILD:-$VM_SRC/build/u2fhost}
DEVCHECK=$UB/tests/device/devcheck
UCRED=$T/u2fh.cred

# dc BACKEND ARGS...: devcheck through one backend (output in $OUT).
dc() {
	dcb=$1
	shift
	run_cmd "$DEVCHECK" -v -b "$dcb" "$@"
}

# u2fh_basic BACKEND: the ordinary path on token u (already up).
u2fh_basic() {
	b=$1
	dc "$b" list
	if [ "$rc" -eq 0 ] && grep -q " $b u2f\$" "$OUT.stdout"; then
		pass "u2fh: $b finds the uhid token"
	else
		fail "u2fh: $b finds the uhid token" "status $rc"
		diag_file "$OUT"
	fi
	name="u2fh: $b debug log names the backend"
	if grep -q "transport backend: $b" "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$OUT.stderr"
	fi
	expect_ok "u2fh: $b registers" "$DEVCHECK" -b "$b" register \
	    "$T/$b.cred"
	expect_ok "u2fh: $b probe finds its credential" "$DEVCHECK" -b "$b" \
	    probe "$T/$b.cred"
	name="u2fh: $b probe for another origin: not held"
	if expect_fail "$name" "$DEVCHECK" -b "$b" -o pam://other probe \
	    "$T/$b.cred"; then
		grep -q ERR_WRONG_KH "$OUT.stderr" ||
		    { fail "$name: ERR_WRONG_KH" ; diag_file "$OUT"; }
	fi
	s0=$(tok_signed u)
	expect_ok "u2fh: $b authenticates" "$DEVCHECK" -b "$b" auth \
	    "$T/$b.cred"
	name="u2fh: $b: the token signed one presence-checked assertion"
	if [ "$(tok_signed u)" -eq $((s0 + 1)) ]; then
		pass "$name"
	else
		fail "$name" "signed $s0 -> $(tok_signed u)"
	fi
}

# u2fh_fault BACKEND FAULT [may-succeed]: with the token
# restarted with --fault FAULT, an assertion for $UCRED must fail
# (unless may-succeed) and never hang; endless keepalives, which
# libu2f-host would wait on for ever, end at our deadline (ERR_TIMEOUT).
u2fh_fault() {
	b=$1
	f=$2
	tok_start u --fault "$f" || return 0
	name="u2fh: $b, token --fault $f"
	dc "$b" -t "${UFT:-3000}" auth "$UCRED"
	case $rc in
	124 | 137) fail "$name: no hang" "killed after ${TMO}s" ;;
	0)	if [ "${3:-}" = may-succeed ]; then
			pass "$name: no hang (succeeded)"
		else
			fail "$name: refused" "succeeded with a faulty token"
			diag_file "$OUT"
		fi ;;
	*)	sed -n 's/^error: //p' "$OUT.stderr" >"$T/err.$b.$f"
		pass "$name: refused ($(cat "$T/err.$b.$f"))" ;;
	esac
	if [ "$f" = endless-keepalive ]; then
		if grep -q 'ERR_TIMEOUT' "$T/err.$b.$f" 2>/dev/null; then
			pass "$name: cut off at our deadline (ERR_TIMEOUT)"
		else
			fail "$name: cut off at our deadline (ERR_TIMEOUT)"
			diag_file "$OUT"
		fi
	fi
	tok_stop u
}

name="u2fh: --with-libu2f-host build"
if ! need "$name" "$DEVCHECK" "$SOFTTOKEN"; then
	diag "build it with: tests/run.sh u2fhost (or set VM_U2FH_BUILD)"
	return 0
fi
if ! "$DEVCHECK" -b libu2f-host list >/dev/null 2>"$T/u2fh.probe" &&
    grep -q ERR_UNSUPPORTED "$T/u2fh.probe"; then
	fail "$name" "$UB was configured without --with-libu2f-host"
	return 0
fi
pass "$name"

# No key at all: both backends say so, at once.
for b in native libu2f-host; do
	name="u2fh: $b with no key: clean ERR_NO_KEY"
	if expect_fail "$name" "$DEVCHECK" -b "$b" -t 2000 auth /dev/null; then
		grep -q ERR_NO_KEY "$OUT.stderr" ||
		    { fail "$name: message"; diag_file "$OUT"; }
	fi
done

tok_start u || return 0
u2fh_basic native
u2fh_basic libu2f-host

# A credential made through one backend is used through the other.
expect_ok "u2fh: native credential through libu2f-host" \
    "$DEVCHECK" -b libu2f-host auth "$T/native.cred"
expect_ok "u2fh: libu2f-host credential through native" \
    "$DEVCHECK" -b native auth "$T/libu2f-host.cred"
cp "$T/native.cred" "$UCRED"

# Two tokens: libu2f-host opens both and the right one signs.
if tok_start v; then
	dc libu2f-host list
	name="u2fh: libu2f-host opens two tokens"
	if [ "$(grep -c '^libu2f-host:' "$OUT.stdout")" -eq 2 ]; then
		pass "$name"
	else
		fail "$name"
		diag_file "$OUT"
	fi
	expect_ok "u2fh: libu2f-host, two tokens: the holder signs" \
	    "$DEVCHECK" -b libu2f-host auth "$UCRED"
	tok_stop v
fi
# pamu2fcfg --backend and the module's backend= (with debug, whose log
# must name the backend), in a real PAM stack.
UCFG=$UB/pamu2fcfg/pamu2fcfg
UMOD=$UB/pam_u2f/.libs/pam_u2f.so
mkuser alice
for b in native libu2f-host; do
	name="u2fh: pamu2fcfg --backend $b enrolls alice"
	need "$name" "$UCFG" "$UMOD" || break
	expect_ok "$name" "$UCFG" -d --backend "$b" -u alice -o "$ORIGIN" ||
	    continue
	{ cat "$OUT.stdout"; echo; } >"$T/$b.map"
	chmod 644 "$T/$b.map"
	name="u2fh: pamu2fcfg -d names the $b backend"
	if grep -q "transport backend: $b" "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$OUT.stderr"
	fi
	: >"$T/$b.debug"
	pam_service "vmtest-$b" "auth required $UMOD authfile=$T/$b.map \
origin=$ORIGIN timeout=10 backend=$b debug debug_file=$T/$b.debug" \
	    "account required pam_permit.so"
	s0=$(tok_signed u)
	expect_ok "u2fh: module backend=$b authenticates alice (pamtester)" \
	    pamtester vmtest-$b alice authenticate
	name="u2fh: module backend=$b: the token signed"
	if [ "$(tok_signed u)" -gt "$s0" ]; then
		pass "$name"
	else
		fail "$name" "signed $s0 -> $(tok_signed u)"
	fi
	name="u2fh: module debug log names the $b backend"
	if grep -q "transport backend: $b" "$T/$b.debug" 2>/dev/null; then
		pass "$name"
	else
		fail "$name"
		diag_file "$T/$b.debug"
	fi
done

# An untouched key: clean timeout, close to the deadline.
tok_stop u
for b in native libu2f-host; do
	tok_start u --presence never || break
	: >"$T/u.log"	# this backend's requests only
	name="u2fh: $b, untouched key: fails"
	if expect_fail "$name" "$DEVCHECK" -b "$b" -t 3000 auth "$UCRED"; then
		paced "$name, having asked only within -t 3000" "$T/u.log" \
		    '^ins=02 p1=03 sw=6985' 3000
	fi
	tok_stop u
done

# Hostile framing (the native transport's own handling of these is
# group 80-faults'): libu2f-host must fail cleanly and never hang. It
# gives up on a silent device after ~4 s per frame (2+4+...+2048 ms);
# keepalives it would wait for forever, but our deadline cuts it off.
for f in wrong-cid bcnt-too-large seq-out-of-order missing-continuation \
    endless-keepalive error-frames short-init vanish; do
	u2fh_fault libu2f-host "$f"
done
u2fh_fault libu2f-host burst may-succeed
# Hostile reply bodies, through both backends. Each is refused as soon
# as it arrives, so a long deadline costs nothing, and a loaded machine
# (a slow token under TCG) still gets the reply, not ERR_TIMEOUT, for
# the comparison below.
UFT=20000
for f in garbage-reply bad-signature wrong-signature presence-flag-clear; do
	u2fh_fault native "$f"
	u2fh_fault libu2f-host "$f"
done
UFT=3000

# Faults in the reply bodies pass both transports untouched: the same
# strict parse and signature checks must refuse them with the same error.
for f in garbage-reply bad-signature wrong-signature presence-flag-clear; do
	name="u2fh: --fault $f: the same error through both backends"
	en=$(cat "$T/err.native.$f" 2>/dev/null)
	eu=$(cat "$T/err.libu2f-host.$f" 2>/dev/null)
	if [ -n "$en" ] && [ "$en" = "$eu" ]; then
		pass "$name ($en)"
	else
		fail "$name" "native: '$en', libu2f-host: '$eu'"
	fi
done
