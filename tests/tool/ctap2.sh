#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# FIDO2 (CTAP2) end to end: pamu2fcfg enrolls on the CTAP2 software token
# (ES256, EdDSA, RS256; -N with a PIN, -V with built-in UV), and the real
# pam_u2f.so logs in through libpam (pam_wrapper + pamtester, which
# answers the PIN prompt from its standard input). pam-u2f's option
# rules, the UV-bit check (CVE-2021-31924) and hostile CTAP2 replies.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
ME=$(id -un)
mkdir "$WORK/svc"

# login TOKEN MAPFILE PIN [ARGS...]: one authentication through libpam,
# PIN on standard input ("" for none); output in $WORK/pam.out.
login() {
	tok=$1 map=$2 pin=$3
	shift 3
	printf '%s\n' "$pin" | pam_auth "$ME" \
	    "auth required $MODULE $MOD_CONF authfile=$map origin=pam://c2 devices=unix:$WORK/$tok.sock timeout=5 debug debug_file=$WORK/debug.log $*"
}

# enroll TOKEN OUTFILE [pamu2fcfg options...] (PIN 1234 on stdin).
enroll() {
	tok=$1 outf=$2
	shift 2
	echo 1234 | "$PAMU2FCFG" --device "unix:$WORK/$tok.sock" -u "$ME" \
	    -o pam://c2 --pin-stdin "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	cp "$WORK/out" "$outf"
	chmod 600 "$outf"
}

# restart TOKEN [softtoken options...]: same state file (and PIN), new
# options; a token that does not start is a failed test and the end.
restart() {
	name=$1
	shift
	kill "$(cat "$WORK/$name.pid")" 2>/dev/null
	i=0
	while [ -S "$WORK/$name.sock" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	token "$name" "$@" && return 0
	ok 1 "softtoken $name starts with: $*"
	done_testing
	exit 1
}

token k --ctap2 2.1 --pin 1234 --uv ok --presence now ||
    { echo "Bail out! softtoken did not start"; exit 1; }

# ---- enrollment: the three algorithms, pam-u2f's line format ----
for t in ES256:es256:64 EDDSA:eddsa:32 RS256:rs256:259; do
	T=${t%%:*} rest=${t#*:}
	name=${rest%%:*} len=${rest#*:}
	enroll k "$WORK/map.$name" -t "$T"
	expect 0 "-t $T enrolls on a CTAP2 key"
	grep -Eqx "$ME:[A-Za-z0-9+/]+=*,[A-Za-z0-9+/]+=*,$name,\+presence" \
	    "$WORK/map.$name"
	ok $? "-t $T prints user:KH,PK,$name,+presence"
	[ "$(pk_len "$(cat "$WORK/map.$name")")" = "$len" ]
	ok $? "-t $T: the public key is $len raw bytes"
	login k "$WORK/map.$name" ""
	ok $? "the module logs in with the $name credential"
done
grep -q "CTAP2 versions" "$WORK/debug.log"
ok $? "the module spoke CTAP2 to the CTAP2 key"

# ---- PIN ----
enroll k "$WORK/map.pin" -N
expect 0 "-N enrolls with the PIN"
grep -Eq ',es256,\+presence\+pin$' "$WORK/map.pin"
ok $? "-N writes +presence+pin"
grep -q "touch the security key to register it for $ME" "$WORK/err"
ok $? "-N: the touch is asked for (once the PIN is read)"
"$PAMU2FCFG" --device "unix:$WORK/k.sock" -u "$ME" -o pam://c2 --pin-stdin \
    -N </dev/null >"$WORK/out" 2>"$WORK/err"
[ $? -ne 0 ] && ! grep -q "touch" "$WORK/err"
st=$?
[ $st -eq 0 ] || sed 's/^/# /' "$WORK/err"
ok $st "-N: no PIN given, so the touch was never asked for (PIN first)"
login k "$WORK/map.pin" 1234
ok $? "+pin: the right PIN logs in"
grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "+pin: the PIN is asked for through the conversation"
! grep -q 1234 "$WORK/debug.log"
ok $? "the PIN is not in the debug log"
echo 1234 | "$PAMU2FCFG" --device "unix:$WORK/k.sock" -u "$ME" -o pam://c2 \
    --pin-stdin --check "$WORK/map.pin" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q "^ok: credential 1" "$WORK/out"
ok $? "pamu2fcfg --check with the PIN"
echo 9999 | "$PAMU2FCFG" --device "unix:$WORK/k.sock" -u "$ME" -o pam://c2 \
    --pin-stdin --check "$WORK/map.pin" >"$WORK/out" 2>"$WORK/err"
[ $? -ne 0 ] && grep -q "wrong PIN: 7 tries left" "$WORK/err"
ok $? "pamu2fcfg --check with a wrong PIN says how many tries are left"
login k "$WORK/map.pin" 9999
[ $? -ne 0 ] && grep -q "wrong PIN: 6 tries left" "$WORK/pam.out"
ok $? "+pin: a wrong PIN fails and says how many tries are left"
login k "$WORK/map.pin" ""
[ $? -ne 0 ]
ok $? "+pin: no PIN fails"
login k "$WORK/map.es256" 1234 pinverification=1
ok $? "pinverification=1 asks a plain credential for the PIN"
grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "pinverification=1: the PIN prompt was shown"
login k "$WORK/map.pin" "" pinverification=0
[ $? -ne 0 ]
ok $? "+pin wins over pinverification=0"

# ---- the prompt names the key; a password is never spent as a PIN ----
grep -q "Please enter the PIN for unix:$WORK/k.sock, then touch the key: " \
    "$WORK/pam.out"
ok $? "the PIN prompt names the key it goes to (its path)"
# pinchecks TOKEN: the PIN checks the token has logged so far.
pinchecks() { grep -c '^pin \(ok\|bad\)' "$WORK/$1.log"; }
SETITEMS=
for f in /usr/lib/*/pam_wrapper/pam_set_items.so \
    /usr/lib*/pam_wrapper/pam_set_items.so; do
	[ -f "$f" ] && SETITEMS=$f && break
done
# login_pw PASSWORD PIN: as login on $WORK/map.pin, with PASSWORD as
# PAM_AUTHTOK (set by pam_wrapper's pam_set_items before our module).
login_pw() {
	PAM_AUTHTOK=$1
	export PAM_AUTHTOK
	printf '%s\n' "$2" | pam_auth "$ME" "auth required $SETITEMS
auth required $MODULE $MOD_CONF authfile=$WORK/map.pin origin=pam://c2 devices=unix:$WORK/k.sock timeout=5 debug debug_file=$WORK/debug.log"
	st=$?
	unset PAM_AUTHTOK
	return $st
}
if [ -n "$SETITEMS" ]; then
	before=$(pinchecks k)
	login_pw 1234 1234
	[ $? -ne 0 ] && grep -q "is the password of this login" "$WORK/pam.out" &&
	    [ "$(pinchecks k)" = "$before" ]
	okshow $? "the login's password typed as the PIN is not sent to the key"
	login_pw "a password" 1234
	okshow $? "a PIN that is not the password logs in"
else
	skip "the password is not sent as a PIN" "no pam_set_items.so"
	skip "a PIN that is not the password logs in" "no pam_set_items.so"
fi
# A key with 3 or fewer PIN tries left is not asked (state file edited).
token low --ctap2 2.1 --pin 1234 --presence now || exit 1
enroll low "$WORK/map.low" -N
expect 0 "-N enrolls on a second PIN key"
# lowtries N: restart "low" with N PIN tries left.
lowtries() {
	kill "$(cat "$WORK/low.pid")" 2>/dev/null
	i=0
	while [ -S "$WORK/low.sock" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sed -i "s/^pin-retries .*/pin-retries $1/" "$WORK/low.state"
	token low --ctap2 2.1 --presence now
}
lowtries 3 || exit 1
before=$(pinchecks low)
login low "$WORK/map.low" 1234
[ $? -ne 0 ] && grep -q "has only 3 PIN tries left" "$WORK/pam.out" &&
    grep -q "fido2-token -C unix:$WORK/low.sock" "$WORK/pam.out" &&
    ! grep -q "Please enter the PIN" "$WORK/pam.out" &&
    [ "$(pinchecks low)" = "$before" ]
okshow $? "3 PIN tries left: nothing asked or sent, the user told how to go on"
lowtries 0 || exit 1
login low "$WORK/map.low" 1234
[ $? -ne 0 ] && grep -q "is blocked (no tries left)" "$WORK/pam.out" &&
    ! grep -q "Please enter the PIN" "$WORK/pam.out"
okshow $? "no PIN tries left: told that only a reset helps"
lowtries 4 || exit 1
login low "$WORK/map.low" 1234
[ $? -eq 0 ] && [ "$(pinchecks low)" = "$((before + 1))" ]
okshow $? "4 PIN tries left: the PIN is asked for and logs in"

# ---- the cue comes when the key waits for the touch (UPNEEDED) ----
restart k --ctap2 2.1 --pin 1234 --uv ok --presence after:300
login k "$WORK/map.pin" 1234 cue
ok $? "+pin with cue: logs in after the touch"
tr '\n' ' ' <"$WORK/pam.out" |
    grep -q "Please enter the PIN.*Please touch the device"
st=$?
[ $st -eq 0 ] || sed 's/^/# /' "$WORK/pam.out"
ok $st "the cue comes after the PIN prompt, when the key asks for the touch"
restart k --ctap2 2.1 --pin 1234 --uv ok --presence now
login k "$WORK/map.es256" "" cue
ok $? "a key that needs no wait logs in"
! grep -q "Please touch the device" "$WORK/pam.out"
ok $? "no cue when the key never waited for a touch (no UPNEEDED)"

# ---- built-in user verification ----
enroll k "$WORK/map.uv" -V
expect 0 "-V enrolls with built-in UV"
grep -Eq ',es256,\+presence\+verification$' "$WORK/map.uv"
ok $? "-V writes +presence+verification"
login k "$WORK/map.uv" ""
ok $? "+verification logs in with built-in UV (no PIN asked)"
! grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "+verification: no PIN prompt"

# ---- built-in UV fails: the PIN instead, where allowed ----
restart k --ctap2 2.1 --pin 1234 --uv fail --presence now
login k "$WORK/map.uv" 1234
ok $? "+verification: the key's UV fails, the PIN logs in instead"
grep -q "Please enter the PIN" "$WORK/pam.out" &&
    grep -q "built-in user verification failed: [0-9]* tr" "$WORK/pam.out"
st=$?
[ $st -eq 0 ] || sed 's/^/# /' "$WORK/pam.out"
ok $st "... the user is told, then asked for the PIN"
login k "$WORK/map.uv" 1234 pinverification=0
[ $? -ne 0 ] && ! grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "... not with pinverification=0: refused, no PIN prompt"
login k "$WORK/map.uv" 9999
[ $? -ne 0 ]
ok $? "... a wrong PIN after the failed UV is refused"
for v in 2.0 2.1-pre; do
	restart k --ctap2 "$v" --pin 1234 --uv fail --presence now
	login k "$WORK/map.uv" 1234
	ok $? "CTAP $v (the uv option): UV fails, the PIN logs in instead"
done
token uvnopin --ctap2 2.1 --uv ok --presence now || exit 1
enroll uvnopin "$WORK/map.uvnopin" -V
restart uvnopin --ctap2 2.1 --uv fail --presence now
login uvnopin "$WORK/map.uvnopin" ""
[ $? -ne 0 ] && ! grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "a key whose UV fails and that has no PIN: refused, no prompt"
restart k --ctap2 2.1 --pin 1234 --uv ok --presence now

# ---- a key that cannot meet the credential is skipped ----
restart k --ctap2 2.1 --presence now
login k "$WORK/map.uv" ""
[ $? -ne 0 ] && grep -q "can do what your credential asks" "$WORK/pam.out"
ok $? "a key without UV is skipped for +verification, with a message"
login k "$WORK/map.es256" "" userverification=1
[ $? -ne 0 ]
ok $? "userverification=1 refuses a key without UV"
token nopin --ctap2 2.1 --presence now || exit 1
run --device "unix:$WORK/nopin.sock" -u "$ME" -o pam://c2 -V
[ "$RC" -eq 1 ] && grep -q "cannot do what was asked" "$WORK/err"
ok $? "-V on a key without built-in UV is refused, naming the reason"
run --device "unix:$WORK/nopin.sock" -u "$ME" -o pam://c2 -N
[ "$RC" -eq 1 ] && grep -q "no PIN" "$WORK/err"
ok $? "-N on a key without a PIN is refused, naming the reason"

# ---- the UV flag must be set when the PIN was used (CVE-2021-31924) ----
restart k --ctap2 2.1 --pin 1234 --presence now --fault uv-skip
login k "$WORK/map.pin" 1234
[ $? -ne 0 ] && grep -q "UV flag is clear" "$WORK/debug.log"
ok $? "a token that skips UV and clears the flag is refused"
restart k --ctap2 2.1 --pin 1234 --presence now
login k "$WORK/map.pin" 1234
ok $? "the same credential logs in when the token verifies"

# ---- a packed attestation certificate that misses WebAuthn 8.2.1 ----
token badou --ctap2 2.1 --presence now --fault attest-bad-ou ||
    echo "# softtoken badou did not start"
"$PAMU2FCFG" --device "unix:$WORK/badou.sock" -u "$ME" -o pam://c2 \
    >"$WORK/badou.out" 2>"$WORK/badou.err"
[ $? -ne 0 ] && [ ! -s "$WORK/badou.out" ] &&
    grep -q 'attestation is refused: .*subject OU is not "Authenticator Attestation"' \
	"$WORK/badou.err"
ok $? "an attestation certificate without OU=Authenticator Attestation is refused, by name"

# ---- CTAP 2.0 and 2.1-pre keys: getPinToken, the uv option ----
for v in 2.0 2.1-pre; do
	restart k --ctap2 "$v" --pin 1234 --uv ok --presence now
	login k "$WORK/map.pin" 1234
	ok $? "CTAP $v: +pin logs in"
	login k "$WORK/map.uv" ""
	ok $? "CTAP $v: +verification logs in"
done

# ---- alwaysUv and no U2F ----
restart k --ctap2 2.1 --pin 1234 --presence now --always-uv --u2f off
login k "$WORK/map.es256" 1234
ok $? "an alwaysUv key (no U2F) logs in, with its PIN"

# ---- a key that claims CTAP2 but fails GetInfo is used through U2F ----
token fb --ctap2 2.1 --presence now --fault getinfo-garbage || exit 1
run --device "unix:$WORK/fb.sock" -u "$ME" -o pam://c2 -d
expect 0 "a key whose GetInfo fails enrolls through U2F"
cp "$WORK/out" "$WORK/map.fb"
chmod 600 "$WORK/map.fb"
grep -q "GetInfo failed" "$WORK/err" && grep -q "(u2f)\|u2f" "$WORK/err"
ok $? "pamu2fcfg says GetInfo failed and falls back to U2F"
login fb "$WORK/map.fb" ""
ok $? "the module logs in with it through U2F"
grep -q "GetInfo failed" "$WORK/debug.log" && ! grep -q "CTAP2 versions" "$WORK/debug.log"
ok $? "the module fell back to U2F too"

# ---- hostile replies fail cleanly, for the reason named ----
for f in "cbor-garbage:malformed GetAssertion reply" \
    "cbor-noncanonical:malformed GetAssertion reply" \
    "cbor-wrong-status:status 0x7f (OTHER)" \
    "cbor-oversized:malformed GetAssertion reply" \
    "endless-processing:timed out"; do
	restart k --ctap2 2.1 --pin 1234 --presence now --fault "${f%%:*}"
	login k "$WORK/map.es256" ""
	[ $? -ne 0 ] && grep -q "${f#*:}" "$WORK/debug.log"
	ok $? "--fault ${f%%:*}: the login fails (${f#*:})"
done

done_testing
