# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 35-multikey: FIDO2 and U2F keys together on real hidraw nodes
# (issue 16). Three keys (U2F-only, a PIN key, a UV key) enrolled on one
# line with our pamu2fcfg --add (the PIN and UV keys with a resident and a
# non-resident credential each); each logs in when it is the one touched,
# with at most one PIN prompt and the others not left waiting; two PIN
# keys: only the picked one sees a PIN; a backup key is enrolled while the
# first stays plugged in; ten keys at once, one touched.

mkuser erin
map=$T/mk.map
PIN=1234

# mk_svc NAME [args]: a one-module stack for erin's file.
mk_svc() {
	ms=$1
	shift
	pam_service "$ms" \
	    "auth required $OURMOD authfile=$map origin=$ORIGIN timeout=10 $*" \
	    "account required pam_permit.so"
}

# mk_add NAME TOKEN [options]: our pamu2fcfg --add with only TOKEN.
mk_add() {
	mn=$1 mt=$2
	shift 2
	printf '%s\n' "$PIN" >"$T/mk.pin"
	timeout -k 5 "$TMO" "$OURCFG" -u erin -o "$ORIGIN" --pin-stdin \
	    --device "$(tok_dev "$mt")" "$@" --add "$map" <"$T/mk.pin" \
	    >"$OUT" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then pass "$mn"; else
		fail "$mn" "exit status $rc"
		diag_file "$OUT"
	fi
	return "$rc"
}

# mk_login NAME PINLINE: pamtester for erin, PINLINE on stdin.
mk_login() {
	printf '%s\n' "$2" >"$T/mk.stdin"
	: >"$OUT"
	timeout -k 5 "$TMO" pamtester vmtest-mk erin authenticate \
	    <"$T/mk.stdin" >"$OUT" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then pass "$1"; else
		fail "$1" "exit status $rc"
		diag_file "$OUT"
	fi
	return "$rc"
}

mk_prompts() { grep -c "Please enter the PIN" "$OUT"; }
mk_mark() { for m in "$@"; do wc -l <"$T/$m.log" >"$T/$m.mark"; done; }
mk_tail() { tail -n +"$(($(cat "$T/$1.mark") + 1))" "$T/$1.log"; }
# mk_stopped NAME TOKEN...: none of them is left waiting for a touch
# (each log ends with an answer; the answer that ends a keepalive wait is
# the cancel, status=2d, or a UV key's ClientPIN, cmd=06: its built-in
# UV may finish before the cancel reaches it, and it then holds a token
# for a GetAssertion never sent; a signature after a wait is not one).
# A log still ending in a keepalive may be waiting for its cancel's
# line: given 3 s (settle) before it is read.
mk_answered() { mk_tail "$1" | tail -n 1 | grep -q 'status=\|sw='; }
mk_stopped() {
	sn=$1
	shift
	for s in "$@"; do
		settle 30 mk_answered "$s"
		mk_tail "$s" >"$T/mk.tail"
		if ! tail -n 1 "$T/mk.tail" | grep -q 'status=\|sw=' ||
		    ! awk '/keepalive/ { w = 1; next }
			w && /status=|sw=/ {
				if ($0 !~ /status=2d/ && $0 !~ /cmd=06 /) bad = 1
				w = 0 }
			END { exit bad }' "$T/mk.tail"; then
			fail "$sn" "token $s left waiting:"
			diag_file "$T/mk.tail"
			return 1
		fi
	done
	pass "$sn"
}

# kind TOKEN: its softtoken options by the name's first letter (u U2F-
# only, p CTAP 2.0 with a PIN, v 2.1 with UV, c plain 2.1).
kind() {
	case $1 in
	u*) echo "--u2f on --ctap2 off" ;;
	p*) echo "--ctap2 2.0 --pin $PIN" ;;
	v*) echo "--ctap2 2.1 --uv ok" ;;
	*) echo "--ctap2 2.1" ;;
	esac
}
flags() {
	case $1 in
	p*) echo "-N" ;;
	v*) echo "-V" ;;
	esac
}
# start TOKEN now|never: the token (same state) with that presence.
start() {
	tok_stop "$1"
	# shellcheck disable=SC2046
	tok_start "$1" $(kind "$1") --presence "$2"
}

if ! need "multikey: our tools" "$OURCFG" "$OURMOD"; then
	return 0
fi
for t in ua pa va; do
	start "$t" now || return 0
	# A resident credential first (--add cannot tell that a key holds
	# one: it is not probed), then a non-resident one.
	# shellcheck disable=SC2046
	case $t in
	pa | va) mk_add "enroll $t with a resident credential (-r)" "$t" \
	    -r $(flags "$t") ;;
	esac
	# shellcheck disable=SC2046
	mk_add "enroll $t with our pamu2fcfg --add" "$t" $(flags "$t")
done
if [ "$(grep -o ',' "$map" | wc -l)" = 15 ] &&
    [ "$(grep -o '[:,]\*,' "$map" | wc -l)" = 2 ]; then
	pass "five credentials on erin's line, two of them resident"
else
	fail "five credentials on erin's line, two of them resident" \
	    "$(cat "$map")"
fi
mk_svc vmtest-mk
for win in ua pa va; do
	for t in ua pa va; do
		if [ "$t" = "$win" ]; then start "$t" now; else start "$t" never; fi
	done
	mk_mark ua pa va
	others=$(echo "ua pa va" | sed "s/$win//")
	# shellcheck disable=SC2086
	if mk_login "three keys plugged in, $win touched: logs in" "$PIN"; then
		[ "$(mk_prompts)" -le 1 ] &&
		    pass "... at most one PIN prompt ($(mk_prompts))" ||
		    fail "... at most one PIN prompt" "$(mk_prompts) prompts"
		mk_stopped "... the other keys are not left waiting" $others
	fi
done

# Two PIN keys: the touched one is picked; the other never sees a PIN.
start pa never
if start pb now && mk_add "enroll a second PIN key pb" pb -N; then
	mk_mark pa pb
	if mk_login "two PIN keys, pb touched: logs in with its PIN" "$PIN"; then
		[ "$(mk_prompts)" = 1 ] && pass "... one PIN prompt" ||
		    fail "... one PIN prompt" "$(mk_prompts) prompts"
		if [ "$(mk_tail pa | grep -c 'cmd=06')" = 0 ]; then
			pass "... pa never got a PIN request"
		else
			fail "... pa never got a PIN request"
			diag_file "$T/pa.log"
		fi
		mk_stopped "... pa was stopped" pa
	fi
fi
tok_stop_all

# A backup key while the first stays plugged in.
start ua now
if start cb now &&
    printf '%s\n' "" >"$T/mk.pin" &&
    timeout -k 5 "$TMO" "$OURCFG" -u erin -o "$ORIGIN" \
    --device "$(tok_dev ua)" --device "$(tok_dev cb)" --add "$map" \
    >"$OUT" 2>&1 </dev/null; then
	pass "--add with the enrolled key plugged in enrolls the backup key"
	grep -q "already holds credential 1 of erin: not asked" "$OUT" &&
	    pass "... naming the key already enrolled" ||
	    { fail "... naming the key already enrolled"; diag_file "$OUT"; }
else
	fail "--add with the enrolled key plugged in enrolls the backup key" \
	    "exit status $?"
	diag_file "$OUT"
fi
tok_stop_all

# Ten keys at once, one touched.
ten="u1 u2 u3 c1 c2 c3 p1 p2 v1 v2"
map=$T/mk10.map
n=0
for t in $ten; do
	start "$t" now || continue
	# shellcheck disable=SC2046
	mk_add "ten: enroll $t" "$t" $(flags "$t") && n=$((n + 1))
	[ "$t" = c1 ] || start "$t" never
done
if [ "$n" = 10 ]; then
	mk_svc vmtest-mk
	# shellcheck disable=SC2086
	mk_mark $ten
	if mk_login "ten keys plugged in (real hidraw), c1 touched: logs in" ""
	then
		[ "$(mk_prompts)" = 0 ] && pass "... no PIN prompt" ||
		    fail "... no PIN prompt" "$(mk_prompts) prompts"
		# shellcheck disable=SC2086
		# shellcheck disable=SC2046 # token names without blanks
		mk_stopped "... none of the nine others is left waiting" \
		    $(echo "$ten" | sed 's/c1//')
	fi
fi
