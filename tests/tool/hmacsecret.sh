#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The login secret sealed under the key's hmac-secret output (issue 30),
# end to end on the CTAP2 software token: pamu2fcfg --hmac-secret -N
# enrolls, pamu2fcfg --wrap-secret seals a password into the mapping
# file's .secrets file, and the real pam_u2f.so (libpam under
# pam_wrapper, driven by pamtester) sets PAM_AUTHTOK after the PIN and one
# touch; pam_exec expose_authtok after it plays the keyring module and
# writes what it got. Negatives: a wrong PIN, a key without hmac-secret,
# a changed record, another user's record, a record moved to another
# credential, a secrets file others can read: the login stands or falls
# on the signature, PAM_AUTHTOK stays unset (pam_exec then asks, and
# gets NOT-UNSEALED), the debug log says why, and never holds the
# password.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
PAM_EXEC=""
for d in /lib/*/security /usr/lib/*/security /lib/security /usr/lib/security; do
	[ -f "$d/pam_exec.so" ] && PAM_EXEC=$d/pam_exec.so && break
done
if [ -z "$PAM_EXEC" ]; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - pam_exec.so (libpam-modules) is missing"
		exit 1
	fi
	echo "1..0 # SKIP pam_exec.so (libpam-modules) missing"
	exit 0
fi
ME=$(id -un)
SECRET='correct horse:battery staple'
mkdir "$WORK/svc"
cat >"$WORK/keyring" <<EOT
#!/bin/sh
tr -d '\\000' >"$WORK/authtok"
EOT
chmod 755 "$WORK/keyring"
: >"$WORK/all.log"

# login MAP PIN: the module, then pam_exec as the keyring; the PIN, then
# the password pam_exec asks for if PAM_AUTHTOK is unset.
login() {
	rm -f "$WORK/authtok"
	printf '%s\nNOT-UNSEALED\n' "$2" | pam_auth "$ME" \
	    "auth required $MODULE $MOD_CONF authfile=$1 origin=pam://c2 devices=unix:$WORK/k.sock timeout=5 debug debug_file=$WORK/debug.log
auth required $PAM_EXEC expose_authtok quiet $WORK/keyring"
	st=$?
	cat "$WORK/debug.log" >>"$WORK/all.log"
	return $st
}
got() { [ "$(cat "$WORK/authtok" 2>/dev/null)" = "$1" ]; }

# enroll OUT [options]: a +pin credential with hmac-secret (PIN 1234).
enroll() {
	outf=$1
	shift
	echo 1234 | "$PAMU2FCFG" --device "unix:$WORK/k.sock" -u "$ME" \
	    -o pam://c2 --pin-stdin -N "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	cp "$WORK/out" "$outf"
	chmod 600 "$outf"
}

# wrap MAP [USER]: seal $SECRET (then PIN 1234) for USER's credentials.
wrap() {
	printf '%s\n1234\n' "$SECRET" | "$PAMU2FCFG" \
	    --device "unix:$WORK/k.sock" -u "${2:-$ME}" -o pam://c2 \
	    --secret-stdin --pin-stdin --wrap-secret "$1" \
	    >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

token k --ctap2 2.1 --pin 1234 --presence now ||
    { echo "Bail out! softtoken did not start"; exit 1; }

enroll "$WORK/map" --hmac-secret
expect 0 "-N --hmac-secret enrolls"
wrap "$WORK/map"
expect 0 "--wrap-secret seals the password (stdin), one touch"
[ "$(stat -c %a "$WORK/map.secrets")" = 600 ] &&
    grep -q "^pam_u2f-secret-v1 $ME " "$WORK/map.secrets"
ok $? "... into MAP.secrets, mode 600, one record for the user"
! grep -q "correct horse" "$WORK/map.secrets" "$WORK/out" "$WORK/err"
ok $? "... which does not hold the password in clear"
cp "$WORK/map.secrets" "$WORK/good.secrets"

login "$WORK/map" 1234
okshow $? "the module logs in with the PIN and a touch"
got "$SECRET"
okshow $? "... and the next module gets the password as PAM_AUTHTOK"
[ "$(grep -c "touch\|Touch" "$WORK/pam.out")" -le 1 ] &&
    grep -q "login secret unsealed" "$WORK/debug.log"
okshow $? "... unsealed in the same GetAssertion (no second touch)"

wrap "$WORK/map"
expect 0 "--wrap-secret again (a new salt) replaces the record"
[ "$(grep -c "^pam_u2f-secret-v1 $ME " "$WORK/map.secrets")" = 1 ] &&
    ! cmp -s "$WORK/map.secrets" "$WORK/good.secrets"
ok $? "... still one record, another one"
login "$WORK/map" 1234 && got "$SECRET"
okshow $? "... and it unseals"
cp "$WORK/map.secrets" "$WORK/good.secrets"

# ---- negatives ----
login "$WORK/map" 9999
[ $? -ne 0 ] && ! got "$SECRET"
okshow $? "a wrong PIN: refused, PAM_AUTHTOK unset"

# A changed sealed field (its first character).
awk '{ c = substr($6, 1, 1); $6 = (c == "A" ? "B" : "A") substr($6, 2); print }' \
    "$WORK/good.secrets" >"$WORK/map.secrets"
login "$WORK/map" 1234
st=$?
[ $st -eq 0 ] && got NOT-UNSEALED && grep -q "does not unseal" "$WORK/debug.log"
okshow $? "a changed record: the login stands, nothing unsealed, logged"

# Another user's record: sealed for "other", relabelled as ours.
sed "s/^$ME:/other:/" "$WORK/map" >"$WORK/map.other"
chmod 600 "$WORK/map.other"
rm -f "$WORK/map.other.secrets"
wrap "$WORK/map.other" other
expect 0 "--wrap-secret for another user of the same key"
sed "s/^pam_u2f-secret-v1 other /pam_u2f-secret-v1 $ME /" \
    "$WORK/map.other.secrets" >"$WORK/map.secrets"
login "$WORK/map" 1234
[ $? -eq 0 ] && got NOT-UNSEALED && grep -q "does not unseal" "$WORK/debug.log"
okshow $? "another user's record: the login stands, nothing unsealed"

# A record moved to another credential of the same user and key.
enroll "$WORK/map2" --hmac-secret
expect 0 "a second credential with hmac-secret"
kh2=$(cut -d: -f2 "$WORK/map2" | cut -d, -f1)
awk -v kh="$kh2" '{ $3 = kh; print }' "$WORK/good.secrets" \
    >"$WORK/map2.secrets"
chmod 600 "$WORK/map2.secrets"
login "$WORK/map2" 1234
[ $? -eq 0 ] && got NOT-UNSEALED && grep -q "does not unseal" "$WORK/debug.log"
okshow $? "a record moved to another credential: nothing unsealed"

# Readable by others: refused whole.
cp "$WORK/good.secrets" "$WORK/map.secrets"
chmod 644 "$WORK/map.secrets"
login "$WORK/map" 1234
[ $? -eq 0 ] && got NOT-UNSEALED &&
    grep -q "readable by group or others" "$WORK/debug.log"
okshow $? "a secrets file others can read: refused, the login stands"
chmod 600 "$WORK/map.secrets"

# A credential without hmac-secret: --wrap-secret says why.
enroll "$WORK/map3"
expect 0 "-N without --hmac-secret enrolls"
wrap "$WORK/map3"
[ "$RC" -ne 0 ] && grep -q "no hmac-secret output" "$WORK/err"
ok $? "--wrap-secret refuses a credential made without hmac-secret"

# restart_k OPTIONS...: the token again, same state, other options.
restart_k() {
	kill "$(cat "$WORK/k.pid")"
	i=0
	while [ -S "$WORK/k.sock" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	token k "$@" || { ok 1 "softtoken restarts with: $*"; done_testing; exit 1; }
}

# A key that does not do hmac-secret (same credentials, extension off).
restart_k --ctap2 2.1 --pin 1234 --presence now --hmac-secret off
login "$WORK/map" 1234
[ $? -eq 0 ] && got NOT-UNSEALED &&
    grep -q "no hmac-secret output" "$WORK/debug.log"
okshow $? "a key without hmac-secret: the login works, nothing unsealed, logged"

# A key that lists hmac-secret but refuses its input: asked again
# without it, the login stands on the signature.
restart_k --ctap2 2.1 --pin 1234 --presence now --hmac-secret refuse
login "$WORK/map" 1234
[ $? -eq 0 ] && got NOT-UNSEALED &&
    grep -q "asked again without it" "$WORK/debug.log"
okshow $? "a key that refuses the extension's input: the login works without it"

# A CTAP 2.0 key with built-in UV (the uv option, no token): the salt
# goes under a key agreement of its own.
token v --ctap2 2.0 --uv ok --presence now ||
    { ok 1 "softtoken v starts"; done_testing; exit 1; }
"$PAMU2FCFG" --device "unix:$WORK/v.sock" -u "$ME" -o pam://c2 -V \
    --hmac-secret >"$WORK/mapv" 2>"$WORK/err"
RC=$?
chmod 600 "$WORK/mapv"
expect 0 "CTAP 2.0, built-in UV: -V --hmac-secret enrolls"
printf '%s\n' "$SECRET" | "$PAMU2FCFG" --device "unix:$WORK/v.sock" \
    -u "$ME" -o pam://c2 --secret-stdin --wrap-secret "$WORK/mapv" \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
expect 0 "... --wrap-secret seals under its output"
rm -f "$WORK/authtok"
printf 'NOT-UNSEALED\n' | pam_auth "$ME" \
    "auth required $MODULE $MOD_CONF authfile=$WORK/mapv origin=pam://c2 devices=unix:$WORK/v.sock timeout=5 debug debug_file=$WORK/debug.log
auth required $PAM_EXEC expose_authtok quiet $WORK/keyring"
[ $? -eq 0 ] && got "$SECRET"
okshow $? "... and the module unseals it (uv option, its own key agreement)"
cat "$WORK/debug.log" >>"$WORK/all.log"

! grep -q "correct horse" "$WORK/all.log"
ok $? "the password is in no debug log"
! grep -rq "correct horse" "$WORK"/*.log "$WORK/pam.out"
ok $? "... nor in the token's log or pamtester's output"

done_testing
