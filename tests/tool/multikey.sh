#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Several keys at one login (issue 16): the real pam_u2f.so through libpam
# (pam_wrapper + pamtester, which answers the PIN prompt from its standard
# input) with U2F-only, PIN and UV software tokens plugged in together.
# Counted, not timed: PIN prompts in the conversation, the requests each
# token saw (its log), and that the keys not used were stopped.
# - one PIN key among others: its PIN asked once, at once, one touch;
# - two PIN keys: the user picks one with a touch first (CTAP 2.0's
#   selection), only that key gets the PIN, the other never sees it;
# - ten keys of all kinds, one touched: no PIN prompt, none left waiting;
# - a key whose built-in UV fails falls back to its PIN.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
ME=$(id -un)
mkdir "$WORK/svc"
MAP="$WORK/map"

. "${top_srcdir:-.}/tests/tool/keys.sh"

# Enrollment: every key ready at once.
token u --u2f on --ctap2 off --presence now || exit 1
token p1 --ctap2 2.0 --pin 1111 --presence now || exit 1
token p2 --ctap2 2.0 --pin 2222 --presence now || exit 1
token v --ctap2 2.1 --uv ok --presence now || exit 1
echo 1111 >"$WORK/p1.pinval"
echo 2222 >"$WORK/p2.pinval"
add u
ok $? "enroll the U2F-only key"
add p1 -N
ok $? "enroll PIN key p1 (-N)"
add p2 -N
ok $? "enroll PIN key p2 (-N)"
add v -V
ok $? "enroll UV key v (-V)"
[ "$(ncreds "$MAP" "$ME")" = 4 ]
ok $? "four credentials on one line"

# ---- one PIN key among others: its PIN at once, one prompt ----
restart u --u2f on --ctap2 off --presence never
restart p1 --ctap2 2.0 --pin 1111 --presence now
restart v --ctap2 2.1 --uv ok --presence never
for t in u p1 v; do mark $t; done
login 1111 u p1 v
ok $? "U2F, PIN and UV keys plugged in: the PIN key logs in"
[ "$(prompts)" = 1 ]
ok $? "... one PIN prompt"
[ "$(seen p1 'cmd=01')" = 0 ]
ok $? "... no selection needed (one key with a PIN)"
[ "$(seen p1 'cmd=02 status=00')" = 2 ]
ok $? "... the PIN key: a silent probe and the one assertion"
[ "$(seen v 'cmd=06 status=2d')" = 1 ]
ok $? "... the UV key's wait for its sensor was cancelled"

mark p1
login "" u p1 v
[ $? -ne 0 ] && [ "$(prompts)" = 1 ] && [ "$(seen p1 'cmd=06')" -le 2 ] &&
    [ "$(seen p1 '^pin ')" = 0 ]
ok $? "no PIN given: refused; the PIN key got no PIN (getPINRetries and a key agreement at most)"

# ---- the UV key used: the PIN prompt still comes first, harmless ----
restart p1 --ctap2 2.0 --pin 1111 --presence never
restart v --ctap2 2.1 --uv ok --presence now
mark p1
login "" u p1 v
ok $? "the UV key logs in while the PIN key waits (PIN left empty)"
[ "$(prompts)" = 1 ]
ok $? "... at most one PIN prompt"
[ "$(seen p1 'cmd=06 status=31')" = 0 ]
ok $? "... and no wrong PIN reached the PIN key"

# ---- two PIN keys: the user picks one; only it gets the PIN ----
restart p1 --ctap2 2.0 --pin 1111 --presence never
restart p2 --ctap2 2.0 --pin 2222 --presence now
for t in p1 p2; do mark $t; done
login 2222 p1 p2
ok $? "two PIN keys: the touched one (p2) logs in with its PIN"
[ "$(prompts)" = 1 ]
ok $? "... one PIN prompt"
[ "$(seen p2 'cmd=01 status=31')" = 1 ]
ok $? "... p2 was picked with CTAP 2.0's selection (empty pinAuth)"
[ "$(seen p1 'cmd=06')" = 0 ]
ok $? "... p1 never got a PIN request (its PIN is another)"
[ "$(seen p1 'cmd=01 status=2d')" = 1 ]
ok $? "... p1's selection was cancelled once p2 was picked"

restart p1 --ctap2 2.0 --pin 1111 --presence now
restart p2 --ctap2 2.0 --pin 2222 --presence never
for t in p1 p2; do mark $t; done
login 1111 p1 p2
ok $? "the other way round: p1 picked, logs in with its PIN"
[ "$(seen p2 'cmd=06')" = 0 ]
ok $? "... p2 never got a PIN request"

# ---- ten keys: one touched; the others stop; no PIN asked ----
# 3 U2F-only, 3 plain CTAP2, 2 with a PIN (CTAP 2.0), 2 with UV, each
# enrolled; then only c1 is touched.
MAP10="$WORK/map10"
ten="u1 u2 u3 c1 c2 c3 n1 n2 w1 w2"
for t in $ten; do
	case $t in
	u*) o="--u2f on --ctap2 off" f="" ;;
	c*) o="--ctap2 2.1" f="" ;;
	n*) o="--ctap2 2.0 --pin 4444" f="-N" ;;
	w*) o="--ctap2 2.1 --uv ok" f="-V" ;;
	esac
	echo 4444 >"$WORK/$t.pinval"
	# shellcheck disable=SC2086
	token "$t" $o --presence now || exit 1
	# shellcheck disable=SC2086
	MAP=$MAP10 add "$t" $f || diag "enrolling $t failed: $(cat "$WORK/err")"
	[ "$t" = c1 ] && continue
	# shellcheck disable=SC2086
	restart "$t" $o --presence never
done
[ "$(ncreds "$MAP10" "$ME")" = 10 ]
ok $? "ten keys enrolled on one line"
for t in $ten; do mark "$t"; done
# shellcheck disable=SC2086
MAP=$MAP10 login "" $ten
ok $? "ten keys plugged in: the one touched (c1) logs in"
[ "$(prompts)" = 0 ]
ok $? "... no PIN prompt (the PIN keys were never picked)"
[ "$(seen c1 'cmd=02 status=00')" = 2 ]
ok $? "... c1: a silent probe and the one assertion"
n=0
for t in c2 c3 w1 w2 n1 n2; do
	if stopped "$t"; then
		n=$((n + 1))
	else
		diag "$t: $(tr '\n' ' ' <"$WORK/tail")"
	fi
done
[ "$n" = 6 ]
ok $? "... none of the six other FIDO2 keys is left waiting ($n stopped)"
n=0
for t in n1 n2; do
	[ "$(seen "$t" 'cmd=06')" = 0 ] && n=$((n + 1))
done
[ "$n" = 2 ]
ok $? "... neither PIN key saw a PIN request"

# ---- built-in UV fails: the same key's PIN instead ----
token w --ctap2 2.1 --uv ok --pin 3333 --presence now || exit 1
echo 3333 >"$WORK/w.pinval"
add w -V
ok $? "enroll key w (UV and a PIN) with -V"
restart w --ctap2 2.1 --uv fail --pin 3333 --presence now
mark w
login 3333 w
ok $? "w's UV fails: its PIN logs in instead"
[ "$(prompts)" = 1 ] && [ "$(seen w 'cmd=06 status=3f')" -ge 1 ]
ok $? "... after the UV_INVALID, one PIN prompt"

done_testing
