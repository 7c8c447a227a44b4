#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Resident (discoverable) credentials at login (issue 16): pamu2fcfg -r
# writes "*" lines; the real pam_u2f.so, through libpam (pam_wrapper +
# pamtester, the PIN on its standard input), asks each key for its
# resident credentials with an empty allow list, walks them with
# GetNextAssertion and accepts only one whose signature verifies with a
# "*" line's public key. Counted, not timed: touches and requests in each
# token's log, PIN prompts in the conversation.
# - several resident credentials on one key (another user's newest): one
#   touch, GetNextAssertion, the user's found;
# - a "*" line whose key is on no token: refused;
# - credProtect 2 and 3 (found only with the PIN or UV), resident and not;
# - three keys (U2F-only, PIN, UV) with resident and non-resident
#   credentials: any one logs in with one touch, at most one PIN prompt,
#   the others stopped;
# - nobody touches: at the timeout every FIDO2 key's wait is cancelled;
# - two CTAP 2.1 PIN keys: the user picks one with authenticatorSelection.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
ME=$(id -un)
mkdir "$WORK/svc"
MAP="$WORK/map"

. "${top_srcdir:-.}/tests/tool/keys.sh"

touches() { seen "$1" '^touch$'; }

# ---- one key, several resident credentials ----
token r --ctap2 2.1 --presence now || exit 1
add r -r
ok $? "pamu2fcfg -r on a key without a PIN"
grep -Eq "^$ME:\*,[A-Za-z0-9+/]+=*,es256,\+presence\$" "$MAP"
ok $? "... the line has pam-u2f's \"*\" key handle"
MAP=$WORK/other ME=daemon add r -r
ok $? "a second resident credential (another user, newer) on the same key"
mark r
login "" r
ok $? "the user logs in with the resident credential"
[ "$(touches r)" = 1 ]
ok $? "... one touch"
[ "$(seen r 'cmd=08 status=00')" -ge 1 ]
ok $? "... the user's credential was reached with GetNextAssertion"
grep -q "resident credential 1 of 2 is none of the user's" "$WORK/debug.log"
ok $? "... the other user's credential (the newest) was passed over"

# A "*" line whose public key is on no token (a non-resident
# credential's key, from another token): the assertions do not verify.
token s --ctap2 2.1 --presence now || exit 1
MAP=$WORK/nonres add s
pk=$(sed -n "s/^$ME:[^,]*,\([^,]*\),.*/\1/p" "$WORK/nonres")
printf '%s:*,%s,es256,+presence\n' "$ME" "$pk" >"$WORK/forged"
mark r
MAP=$WORK/forged login "" r
[ $? -ne 0 ] && grep -q "^pam_u2f: result ERR_" "$WORK/debug.log" &&
    ! grep -q "verified on" "$WORK/debug.log"
ok $? "a \"*\" line whose key the token's credentials do not match: refused"
[ "$(seen r 'cmd=02 status=00')" -ge 1 ]
ok $? "... after the token did answer with its resident credentials"

run --device "unix:$WORK/s.sock" -u "$ME" -o pam://mk -r
[ "$RC" = 0 ] &&
    grep -Eq "^$ME:\*,[A-Za-z0-9+/]+=*,es256,\+presence\$" "$WORK/out"
ok $? "pamu2fcfg -r without --add prints a \"*\" line"

# ---- credProtect: found only with verification ----
token p --ctap2 2.1 --pin 1234 --presence now || exit 1
echo 1234 >"$WORK/p.pinval"
MAP=$WORK/cp3 add p -r -N -c 3
ok $? "pamu2fcfg -r -N -c 3 on a PIN key"
mark p
MAP=$WORK/cp3 login 1234 p
ok $? "credProtect 3 resident: logs in with the PIN"
[ "$(prompts)" = 1 ] && [ "$(touches p)" = 1 ]
ok $? "... one PIN prompt, one touch"
mark p
MAP=$WORK/cp3 login "" p
[ $? -ne 0 ] && [ "$(seen p 'cmd=02 status=00')" = 0 ]
ok $? "... without the PIN: refused; the key showed nothing"

MAP=$WORK/cp2 add p -r -N -c 2
ok $? "pamu2fcfg -r -N -c 2"
mark p
MAP=$WORK/cp2 login 1234 p
ok $? "credProtect 2 resident: logs in with the PIN"
[ "$(prompts)" = 1 ] && [ "$(touches p)" = 1 ]
ok $? "... one PIN prompt, one touch"

token v --ctap2 2.1 --uv ok --presence now || exit 1
MAP=$WORK/cpv add v -V -c 3
ok $? "pamu2fcfg -V -c 3 (not resident) on a UV key"
mark v
MAP=$WORK/cpv login "" v
ok $? "credProtect 3, not resident: logs in with built-in UV"
[ "$(touches v)" = 1 ] && [ "$(prompts)" = 0 ]
ok $? "... one touch, no PIN prompt"
grep -q "1 a probe may have missed" "$WORK/debug.log"
ok $? "... the silent probe could not see it: asked for with UV"

# ---- three keys: U2F-only, PIN, UV; resident and not ----
restart p --ctap2 2.1 --pin 1234 --presence now --rk-slots 25
MAP=$WORK/three
token u --u2f on --ctap2 off --presence now || exit 1
add u
ok $? "enroll the U2F-only key (not resident)"
add p -r -N
ok $? "enroll the PIN key (resident, -r -N)"
add v -r -V
ok $? "enroll the UV key (resident, -r -V)"
add v -V
ok $? "... and a non-resident credential on it too"
[ "$(ncreds "$MAP" "$ME")" = 4 ] && [ "$(grep -o ':\*,\|,\*,' "$MAP" |
    wc -l)" = 2 ]
ok $? "four credentials on one line, two of them \"*\""
for k in u p v; do
	case $k in
	u) pin="" opts_u="now" opts_p="never" opts_v="never" ;;
	p) pin=1234 opts_u="never" opts_p="now" opts_v="never" ;;
	v) pin="" opts_u="never" opts_p="never" opts_v="now" ;;
	esac
	restart u --u2f on --ctap2 off --presence $opts_u
	restart p --ctap2 2.1 --pin 1234 --presence $opts_p
	restart v --ctap2 2.1 --uv ok --presence $opts_v
	for t in u p v; do mark $t; done
	login "$pin" u p v
	ok $? "three keys plugged in: $k touched logs in"
	[ "$(touches $k)" = 1 ] && [ "$(prompts)" -le 1 ]
	ok $? "... one touch on $k, at most one PIN prompt ($(prompts))"
	n=0
	for t in p v; do
		[ $t = $k ] && continue
		if stopped $t; then
			n=$((n + 1))
		else
			diag "$t: $(tr '\n' ' ' <"$WORK/tail")"
		fi
	done
	[ "$n" = "$([ $k = u ] && echo 2 || echo 1)" ]
	ok $? "... the other FIDO2 keys are not left waiting"
	if [ $k = p ]; then
		[ "$(seen p '^pin ok$')" = 1 ] && [ "$(seen p '^pin ')" = 1 ]
		ok $? "... the PIN key got its PIN once"
	else
		[ "$(seen p '^pin ')" = 0 ]
		ok $? "... the PIN key, not touched, got no PIN"
	fi
done

# ---- nobody touches: at the timeout every key's wait is cancelled ----
restart u --u2f on --ctap2 off --presence never
restart v --ctap2 2.1 --uv ok --presence never
restart r --ctap2 2.1 --presence never
for t in u v r; do mark $t; done
printf '%s:%s:%s\n' "$ME" "$(sed -n "s/^$ME://p" "$WORK/three")" \
    "$(sed -n "s/^$ME://p" "$WORK/map")" >"$WORK/ur"
MAP=$WORK/ur login "" u v r -- timeout=2
[ $? -ne 0 ] && [ "$(seen u 'sw=6985')" -ge 1 ] &&
    [ "$(seen v 'keepalive')" -ge 1 ] && [ "$(seen r 'keepalive')" -ge 1 ]
ok $? "no key touched: refused at the timeout, each key had been asked"
stopped v && stopped r
ok $? "... and neither FIDO2 key is left waiting (KEEPALIVE_CANCEL)"

# ---- two CTAP 2.1 PIN keys: picked with authenticatorSelection ----
MAP=$WORK/two
token q --ctap2 2.1 --pin 5678 --presence now || exit 1
echo 5678 >"$WORK/q.pinval"
restart p --ctap2 2.1 --pin 1234 --presence now
add p -r -N && add q -r -N
ok $? "two CTAP 2.1 PIN keys, resident credentials"
restart p --ctap2 2.1 --pin 1234 --presence never
restart q --ctap2 2.1 --pin 5678 --presence now
for t in p q; do mark $t; done
login 5678 p q
ok $? "the touched one (q) logs in with its PIN"
[ "$(prompts)" = 1 ]
ok $? "... one PIN prompt"
[ "$(seen q 'cmd=0b status=00')" = 1 ]
ok $? "... q was picked with authenticatorSelection (0x0B)"
[ "$(seen p 'cmd=0b status=2d')" = 1 ] && [ "$(seen p 'pin ')" = 0 ]
ok $? "... p's selection was cancelled; p never saw a PIN"

done_testing
