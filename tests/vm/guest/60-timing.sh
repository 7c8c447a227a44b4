# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 60-timing: the touch comes late (the module keeps asking, or the
# token holds the request and sends keepalives), the key is plugged in
# after an interactive prompt, and a PAM application running as the user
# (a screen locker) meets a root-only node, then an opened one.

mkuser alice
map=$T/map
svc() {	# svc NAME [module args]: a one-module auth stack
	sn=$1
	shift
	pam_service "$sn" "auth required $OURMOD authfile=$map origin=$ORIGIN $*" \
	    "account required pam_permit.so"
}

name="timing: enroll alice"
if ! need "$name" "$OURCFG" "$OURMOD"; then
	return 0
fi
if ! tok_start t; then
	return 0
fi
if ! expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN"; then
	tok_stop t
	return 0
fi
{ cat "$OUT.stdout"; echo; } >"$map"
chmod 644 "$map"
tok_stop t
svc vmtest-t10 timeout=10
svc vmtest-t1 timeout=1 debug debug_file=stderr

# late NAME MODULE-SERVICE WANT [softtoken options]
late() {
	ln=$1 lsvc=$2 lwant=$3
	shift 3
	tok_start t "$@" || return 0
	: >"$T/t.log"	# this run's requests only
	if [ "$lwant" = ok ]; then
		expect_ok "$ln" pamtester "$lsvc" alice authenticate
	else
		expect_fail "$ln" pamtester "$lsvc" alice authenticate
	fi
	tok_stop t
}
late "touched after 1.5 s: the module keeps asking, succeeds" \
    vmtest-t10 ok --presence after:1500
late "touched after 1.5 s with keepalives: succeeds" \
    vmtest-t10 ok --presence after:1500 --keepalive
name="... the token sent keepalives meanwhile"
if grep -q '^keepalive' "$T/t.log"; then pass "$name"; else
	fail "$name"
	diag_file "$T/t.log"
fi
late "touched after 3 s but timeout=1: fails" \
    vmtest-t1 fail --presence after:3000
paced "... having asked only within the timeout" "$T/t.log" \
    '^ins=02 p1=03 sw=6985' 1000
late "never touched, keepalives, timeout=1: fails" \
    vmtest-t1 fail --presence never --keepalive
name="... at its deadline (timed out), the keepalives notwithstanding"
if grep -q 'timed out' "$OUT"; then pass "$name"; else
	fail "$name"
	diag_file "$OUT"
fi

# interactive: the module asks, then looks for a key until its timeout;
# the key is plugged in a second after the answer.
svc vmtest-inter timeout=15 interactive
name="interactive: a key plugged in after the prompt is found"
s=$(date +%s)
(echo | timeout -k 5 60 pamtester vmtest-inter alice authenticate \
    >"$T/inter.out" 2>&1; echo $? >"$T/inter.rc") &
ip=$!
sleep 1
if tok_start t; then
	wait "$ip"
	irc=$(cat "$T/inter.rc")
	if [ "$irc" = 0 ]; then pass "$name"; else
		fail "$name" "pamtester exit $irc after $(($(date +%s) - s)) s"
		diag_file "$T/inter.out"
	fi
	tok_stop t
else
	wait "$ip"
fi

# A PAM application running as alice (as a screen locker does).
if tok_start t; then
	name="as the user, on a root-only node: refused"
	if expect_fail "$name" runuser -u alice -- \
	    pamtester vmtest-t10 alice authenticate; then
		svc vmtest-dbg timeout=10 debug debug_file=stderr
		run_cmd runuser -u alice -- pamtester vmtest-dbg alice \
		    authenticate
		name="... and the debug log says permission denied"
		if grep -qi 'permission denied' "$OUT"; then pass "$name"; else
			fail "$name"
			diag_file "$OUT"
		fi
	fi
	chmod 666 "$(tok_dev t)"
	expect_ok "as the user, on an opened node: succeeds" \
	    runuser -u alice -- pamtester vmtest-t10 alice authenticate
	tok_stop t
fi
