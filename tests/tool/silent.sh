#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The silent "is this credential on this key" checks (issue 27): the
# module sends the allow list in batches of up to the key's
# maxCredentialCountInList (GetInfo 0x07; 1 when the key does not say),
# not one GetAssertion per credential. Counted, not timed: the CBOR
# requests each software token logged during one login (its log has a
# line "cbor cmd=XX status=YY" per request; 02 is GetAssertion).
# - three CTAP 2.1 PIN keys, three credentials, one key touched: one
#   silent check per key (one request per credential before);
# - ten credentials the key can meet, it holds the last: with the
#   softtoken's 8, two silent checks; with --max-list 3, four; with
#   --max-list 1 or a CTAP 2.0 key that does not report it, ten.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
ME=$(id -un)
mkdir "$WORK/svc"
MAP="$WORK/map"

. "${top_srcdir:-.}/tests/tool/keys.sh"

# reqs TOKEN [PATTERN]: CBOR requests of TOKEN since its mark.
reqs() { seen "$1" "cbor cmd=${2:-}"; }

# ---- three PIN keys, three credentials, the last key touched ----
for t in p1 p2 p3; do
	echo 1234 >"$WORK/$t.pinval"
	token "$t" --ctap2 2.1 --pin 1234 --presence now || exit 1
	add "$t" -N || diag "enrolling $t failed: $(cat "$WORK/err")"
done
[ "$(ncreds "$MAP" "$ME")" = 3 ]
ok $? "three PIN keys enrolled on one line"
restart p1 --ctap2 2.1 --pin 1234 --presence never
restart p2 --ctap2 2.1 --pin 1234 --presence never
for t in p1 p2 p3; do mark "$t"; done
login 1234 p1 p2 p3
ok $? "three PIN keys plugged in: the touched one (p3) logs in"
n1=$(reqs p1 02) n2=$(reqs p2 02) n3=$(reqs p3 02)
[ "$n1" = 1 ] && [ "$n2" = 1 ]
ok $? "... p1 and p2: one silent check each, the whole list at once ($n1, $n2 GetAssertion)"
[ "$n3" = 2 ]
ok $? "... p3: one silent check and the assertion ($n3 GetAssertion)"
total=$(($(reqs p1) + $(reqs p2) + $(reqs p3)))
diag "CBOR requests of the login, three keys: $total"
[ "$total" -le 14 ]
ok $? "... at most 14 CBOR requests in all ($total)"

# ---- ten credentials on a new line, key k holds only the last: nine
# enrolled on key q, each into a file of its own (q's exclude list stays
# empty), joined ----
token q --ctap2 2.1 --presence now || exit 1
line=$ME
for i in 1 2 3 4 5 6 7 8 9; do
	MAP="$WORK/mq$i" add q || diag "enrolling q ($i) failed: $(cat "$WORK/err")"
	line="$line:$(cut -d: -f2- "$WORK/mq$i")"
done
token k --ctap2 2.1 --presence now || exit 1
MAP="$WORK/mk" add k || diag "enrolling k failed: $(cat "$WORK/err")"
MAP="$WORK/map10"
printf '%s:%s\n' "$line" "$(cut -d: -f2- "$WORK/mk")" >"$MAP"
[ "$(ncreds "$MAP" "$ME")" = 10 ]
ok $? "ten credentials on one line, k's the last"

# one TOKEN OPTIONS...: restart k with OPTIONS; log in with k alone;
# prints its GetAssertion requests.
one() {
	restart k "$@"
	mark k
	login "" k || diag "login with k $* failed"
	reqs k 02
}
n=$(one --ctap2 2.1 --presence now)
[ "$n" = 3 ]
ok $? "maxCredentialCountInList 8 (the default): checks of 8 and 2, the assertion ($n)"
n=$(one --ctap2 2.1 --presence now --max-list 3)
[ "$n" = 5 ]
ok $? "--max-list 3: checks of 3, 3, 3, 1 and the assertion ($n)"
n=$(one --ctap2 2.1 --presence now --max-list 1)
[ "$n" = 11 ]
ok $? "--max-list 1: one check per credential and the assertion ($n)"
n=$(one --ctap2 2.0 --presence now)
[ "$n" = 11 ]
ok $? "a CTAP 2.0 key that does not report it: one per credential ($n)"
n=$(one --ctap2 2.0 --presence now --max-list 13)
[ "$n" = 2 ]
ok $? "a CTAP 2.0 key reporting 13: one check and the assertion ($n)"
[ "$(seen k 'status=15')" = 0 ]
ok $? "... no list was longer than the key takes (no LIMIT_EXCEEDED)"

done_testing
