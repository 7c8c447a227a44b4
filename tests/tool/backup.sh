#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg --add with several keys plugged in: a key that already holds
# one of the user's credentials is not asked (and named), the other one
# is enrolled, so a backup key is enrolled while the first stays plugged
# in; when every key holds one, the run is refused and the file kept.
# The same for a FIDO2 (CTAP2) first key and a U2F-only backup.
. "${top_srcdir:-.}/tests/tool/lib.sh"

token a --presence now || { echo "Bail out! softtoken a did not start"; exit 1; }
token b --presence now || { echo "Bail out! softtoken b did not start"; exit 1; }
A="--device unix:$WORK/a.sock"
B="--device unix:$WORK/b.sock"
m="$WORK/map"

# held NAME DEV...: --check against the file with only these keys.
check_with() {
	"$PAMU2FCFG" --timeout 5 -u alice -o pam://bk "$@" --check "$m" \
	    >/dev/null 2>&1
}

run $A --timeout 5 -u alice -o pam://bk --add "$m"
expect 0 "key a is enrolled"
[ "$(ncreds "$m" alice)" = 1 ]
ok $? "... one credential"

cp "$m" "$m.before"
run $A $B --timeout 5 -u alice -o pam://bk --add "$m"
expect 0 "with a and b plugged in, --add enrolls the backup key"
grep -q "a.sock already holds credential 1 of alice: not asked" "$WORK/err"
ok $? "... and says that key a already holds credential 1"
[ "$(ncreds "$m" alice)" = 2 ]
ok $? "... two credentials now"
grep -q 'added credential 2 for alice' "$WORK/err"
ok $? "... reported as credential 2"
# Credential 2 is b's: with credential 1 removed, b passes --check, a not.
cp "$m" "$WORK/m2"
run -u alice -o pam://bk --remove 1 "$m"
expect 0 "remove credential 1 (a's)"
check_with $B
ok $? "... b holds the remaining one (--check with b passes)"
check_with $A
[ $? -ne 0 ]
ok $? "... a does not (--check with a fails)"
cp "$WORK/m2" "$m"

cp "$m" "$m.both"
run $A $B --timeout 5 -u alice -o pam://bk --add "$m"
[ "$RC" -eq 1 ] && grep -q 'key already enrolled for alice' "$WORK/err"
ok $? "both keys enrolled: --add is refused (exit 1, already enrolled)"
cmp -s "$m" "$m.both"
ok $? "... the file is unchanged"
[ "$(grep -c 'a.sock already holds\|b.sock already holds' "$WORK/err")" = 2 ]
ok $? "... both keys named"

# A FIDO2 first key (CTAP2, probed with a silent GetAssertion), then a
# U2F-only backup while it stays plugged in.
token c --ctap2 2.1 --presence now ||
    { echo "Bail out! softtoken c did not start"; exit 1; }
token d --u2f on --ctap2 off --presence now ||
    { echo "Bail out! softtoken d did not start"; exit 1; }
C="--device unix:$WORK/c.sock"
D="--device unix:$WORK/d.sock"
m="$WORK/map2"
run $C --timeout 5 -u bob -o pam://bk --add "$m"
expect 0 "FIDO2 key c is enrolled"
run $C $D --timeout 5 -u bob -o pam://bk --add "$m"
expect 0 "with c and d plugged in, the U2F-only key d is enrolled"
grep -q "c.sock already holds credential 1 of bob: not asked" "$WORK/err"
ok $? "... and key c is named as already enrolled"
[ "$(ncreds "$m" bob)" = 2 ]
ok $? "... two credentials"
[ "$(grep -c 'cbor cmd=01' "$WORK/c.log")" = 1 ]
ok $? "... key c made one credential only (one MakeCredential in its log)"

done_testing
