# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 30-multi: two tokens at once (the credential on the second), the
# devices= restriction, and a token that goes away while the module waits
# for the touch: a clean failure, long before the module's timeout.

mkuser alice
map=$T/map
svc() {	# svc NAME [module args]: a one-module auth stack
	sn=$1
	shift
	pam_service "$sn" "auth required $OURMOD authfile=$map origin=$ORIGIN $*" \
	    "account required pam_permit.so"
}

name="two tokens: enroll alice on the second one only (--device)"
if ! need "$name" "$OURCFG" "$OURMOD"; then
	:
elif ! tok_start one || ! tok_start two; then
	fail "$name" "the tokens did not come up"
elif expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN" \
    --device "$(tok_dev two)"; then
	{ cat "$OUT.stdout"; echo; } >"$map"
	svc vmtest-multi timeout=10
	expect_ok "two tokens: the module finds the credential on the second" \
	    pamtester vmtest-multi alice authenticate
	name="... the second token signed, the first did not"
	if [ "$(tok_signed two)" = 1 ] && [ "$(tok_signed one)" = 0 ]; then
		pass "$name"
	else
		fail "$name" "signatures: one $(tok_signed one), two $(tok_signed two)"
		diag_file "$T/one.log" 8
		diag_file "$T/two.log" 8
	fi
	svc vmtest-only-one timeout=10 "devices=$(tok_dev one)"
	expect_fail "devices= naming only the first token: refused" \
	    pamtester vmtest-only-one alice authenticate
	svc vmtest-only-two timeout=10 "devices=$(tok_dev two)"
	expect_ok "devices= naming the second token: accepted" \
	    pamtester vmtest-only-two alice authenticate
fi
tok_stop one
tok_stop two

# unplug NAME SIGNAL [softtoken options]: alice's token "two" again, now
# never touched; unplug it once the module is waiting for the touch.
unplug() {
	un=$1 sig=$2
	shift 2
	name="unplugged ($un) while waiting for the touch: clean failure"
	tok_start two "$@" || { fail "$name" "token did not start"; return; }
	svc vmtest-wait timeout=30 debug debug_file=stderr
	: >"$T/two.log"
	timeout -k 5 60 pamtester vmtest-wait alice authenticate \
	    >"$OUT" 2>&1 </dev/null &
	pp=$!
	i=0	# until the module has asked for a signature
	until grep -q "${WAITFOR:-^ins=02 p1=03 sw=6985}" "$T/two.log"; do
		i=$((i + 1))
		[ $i -lt 200 ] || break
		sleep 0.05
	done
	asked=$i
	sleep 0.3
	tok_stop two "$sig"
	wait "$pp"
	prc=$?
	if [ "$asked" -ge 200 ]; then
		fail "$name" "the module never asked for the touch"
		diag_file "$T/two.log"
		diag_file "$OUT"
	elif [ "$prc" -ne 0 ] && [ "$prc" -ne 124 ] && [ "$prc" -ne 137 ]; then
		pass "$name (timeout=30)"
		not_timed_out "... ended by the unplug, not by timeout=30" "$OUT"
	else
		fail "$name" "pamtester exit $prc (timeout=30)"
		diag_file "$OUT"
	fi
}
if ! [ -s "$map" ]; then
	fail "unplug tests" "no enrollment from the two-token test"
elif need "unplug tests" "$OURMOD"; then
	unplug "token stopped: UHID_DESTROY" TERM --presence never
	unplug "token killed" KILL --presence never
	WAITFOR=keepalive unplug "killed while sending keepalives" KILL \
	    --presence never --keepalive
	name="token vanishes in the middle of a reply: clean failure"
	if tok_start two --fault vanish; then
		if expect_fail "$name" pamtester vmtest-wait alice authenticate; then
			not_timed_out "... ended by the vanishing, not by timeout=30" \
			    "$OUT"
		fi
		tok_stop two
	fi
	if tok_start two; then
		expect_ok "after the unplugs, the same token works again" \
		    pamtester vmtest-wait alice authenticate
		tok_stop two
	fi
fi
