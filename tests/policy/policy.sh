#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The attestation policy (pam_u2f.conf's policy section) end to end:
# pamu2fcfg enrolls software tokens that attest with a test CA made now
# by tests/policy/mkca.sh (openssl CLI), and the real module (libpam under
# pam_wrapper, pamtester) checks the stored evidence at login, before any
# key is asked; a directory fleet's line carries its evidence through
# authcmd=. Needs root: the configuration file must be root's, and the
# command of authcmd= sits in a private mount namespace (nsexec.lib).
. "${top_srcdir:-.}/tests/tool/nsexec.lib"
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the configuration file must be owned by root"
mnt_tmpfs pu-policy
if ! command -v openssl >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "Bail out! openssl CLI missing"; exit 1; }
	echo "1..0 # SKIP the openssl CLI is missing"
	exit 0
fi
CA=$WORK/ca
sh "${top_srcdir:-.}/tests/policy/mkca.sh" "$CA" ||
    { echo "Bail out! mkca.sh failed"; exit 1; }
ME=$(id -un)
mkdir "$WORK/svc"
AAGUID=70616d5f-7532-6620-736f-6674746f6b01
OTHER=00112233-4455-6677-8899-aabbccddeeff
# The key identifier of a certificate: SHA-1 of its subjectPublicKey
# (for P-256, the 65-byte point at the end of the SubjectPublicKeyInfo).
keyid() {
	openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin \
	    -outform DER | tail -c 65 | sha1sum | cut -c1-40
}
KEYID_NOEXT=$(keyid "$CA/leaf-noext.pem")

# conf NAME BODY: a root-owned configuration file $WORK/NAME.conf.
conf() {
	printf '%s\n' "$2" >"$WORK/$1.conf"
	chmod 644 "$WORK/$1.conf"
}
policy() { # policy MODE [LINES...]: the section
	m=$1
	shift
	printf 'policy {\n  attestation = %s\n  roots = "%s"\n' "$m" "$CA/root.pem"
	for l; do printf '  %s\n' "$l"; done
	printf '}\n'
}
conf req "$(policy required "aaguid_allow = { \"$AAGUID\" }")"
conf other "$(policy required "aaguid_allow = { \"$OTHER\" }")"
conf deny "$(policy required "aaguid_deny = { \"$AAGUID\" }")"
# U2F sends one certificate: its issuer (int.pem) must be configured.
mkdir "$CA/u2froots" && cp "$CA/root.pem" "$CA/int.pem" "$CA/u2froots/"
conf keyid "$(policy required "aaguid_allow = { \"$KEYID_NOEXT\" }" |
    sed "s|$CA/root.pem|$CA/u2froots|")"
conf any "$(policy required)"
conf opt "$(policy optional "aaguid_allow = { \"$AAGUID\" }")"
conf folder "$(policy required | sed "s|$CA/root.pem|$CA/roots|")"
mkdir "$CA/roots" && cp "$CA/root.pem" "$CA/roots/a.pem" &&
    cp "$CA/other-root.pem" "$CA/roots/b.crt" && echo junk >"$CA/roots/README"

att() { # att NAME: softtoken options to attest with leaf NAME
	echo "--attest-key $CA/leaf-$1.key --attest-chain $CA/chain-$1.pem"
}
# shellcheck disable=SC2046 # att prints words
{
	token good --ctap2 2.0 $(att aaguid) &&
	    token noext --ctap2 2.0 $(att noext) &&
	    token expired --ctap2 2.0 $(att expired) &&
	    token untrusted --ctap2 2.0 $(att other) &&
	    token leafca --ctap2 2.0 $(att ca) &&
	    token forged --ctap2 2.0 $(att aaguid) --forge-aaguid 00112233445566778899aabbccddeeff &&
	    token self --ctap2 2.0 --attest self &&
	    token none --ctap2 2.0 --attest none &&
	    token u2f $(att noext)
} || { echo "Bail out! softtoken did not start"; exit 1; }

# enroll CONF TOKEN: pamu2fcfg under $WORK/CONF.conf; line in $WORK/out.
enroll() {
	run --conf "$WORK/$1.conf" --device "unix:$WORK/$2.sock" -u "$ME" \
	    -o pam://pol
}
# login CONF TOKEN LINE [ARGS]: the module with LINE as the mapping file.
login() {
	printf '%s\n' "$3" >"$WORK/map"
	chmod 644 "$WORK/map"
	asks_before=$(grep -c 'cbor cmd=02\|ins=02 p1=03' "$WORK/$2.log")
	pam_auth "$ME" "auth required $MODULE conf=$WORK/$1.conf origin=pam://pol devices=unix:$WORK/$2.sock authfile=$WORK/map timeout=5 debug debug_file=$WORK/debug.log $4"
	ST=$?
	ASKED=$(($(grep -c 'cbor cmd=02\|ins=02 p1=03' "$WORK/$2.log") - asks_before))
}
has() { grep -q "$1" "$WORK/debug.log"; }

# 1. An approved model: enrolled (the line carries its evidence), logs in.
enroll req good
expect 0 "an approved model is enrolled under attestation = required"
GOOD=$(cat "$WORK/out")
printf '%s' "$GOOD" | grep -q ',att=[A-Za-z0-9+/]*=*$'
ok $? "its line carries the evidence (att=)"
login req good "$GOOD"
[ $ST -eq 0 ] && has "model $AAGUID meets the attestation policy"
okshow $? "it logs in; the log names the model"
# python3-fido2 reads the stored evidence and verifies it on its own.
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
PYTHONDONTWRITEBYTECODE=1 $PY "${top_srcdir:-.}/tests/policy/peer_attest.py" \
    "$SOFTTOKEN" "$CA" "$(printf '%s' "$GOOD" | sed 's/.*,att=//')" \
    >"$WORK/peer.out" 2>&1
okshow $? "python3-fido2 verifies the stored evidence and its chain" "$WORK/peer.out"

# 2. Not on the allow list: refused at enrollment, and at login.
enroll other good
[ "$RC" -ne 0 ] && grep -q "refused by the attestation policy: the model is not on aaguid_allow; model $AAGUID" "$WORK/err"
okshow $? "a model not on aaguid_allow is refused at enrollment" "$WORK/err"
login other good "$GOOD"
[ $ST -ne 0 ] && [ "$ASKED" -eq 0 ] && has "refused by the attestation policy: the model is not on aaguid_allow" &&
    grep -q "not an approved model" "$WORK/pam.out"
okshow $? "and at login, before the key is asked, the user told why"
login deny good "$GOOD"
[ $ST -ne 0 ] && [ "$ASKED" -eq 0 ] && has "the model is on aaguid_deny"
okshow $? "a model on aaguid_deny is refused at login"
# A line added by hand: enrolled with no policy, so without evidence.
run --conf "$EMPTY_CONF" --device "unix:$WORK/good.sock" -u "$ME" -o pam://pol
BARE=$(cat "$WORK/out")
login req good "$BARE"
[ $ST -ne 0 ] && [ "$ASKED" -eq 0 ] && has "no attestation evidence is stored with the credential"
okshow $? "a line without evidence is refused under required"
login opt good "$BARE"
[ $ST -eq 0 ] && has "optional: used anyway): no attestation evidence"
okshow $? "attestation = optional: logged, not refused"
# Another credential's evidence pasted onto a software key's line.
EV=$(printf '%s' "$GOOD" | sed 's/.*,att=//')
run --conf "$EMPTY_CONF" --device "unix:$WORK/self.sock" -u "$ME" -o pam://pol
login req self "$(cat "$WORK/out"),att=$EV"
[ $ST -ne 0 ] && [ "$ASKED" -eq 0 ] && has "the attestation evidence is for another credential"
okshow $? "evidence copied from an approved key gains nothing"
# Of two credentials, the one that fails is dropped and the other used.
login req good "$BARE:${GOOD#*:}"
[ $ST -eq 0 ] && has "credential 1 of $ME refused" && has "credential 2 of $ME: model"
okshow $? "a refused credential leaves the list; an approved one is used"

# 3. Forged AAGUID, bad chains, no attestation.
enroll any forged
[ "$RC" -ne 0 ] && grep -qi "aaguid" "$WORK/err"
okshow $? "authData's AAGUID differing from the certificate's is refused" "$WORK/err"
enroll any expired
[ "$RC" -ne 0 ] && grep -q "does not verify to a configured root: certificate has expired" "$WORK/err"
okshow $? "an expired attestation certificate is refused" "$WORK/err"
enroll any untrusted
[ "$RC" -ne 0 ] && grep -q "does not verify to a configured root" "$WORK/err"
okshow $? "a chain to a root not configured is refused" "$WORK/err"
enroll folder untrusted
expect 0 "roots as a folder: its .pem and .crt files are all trusted"
enroll any leafca
[ "$RC" -ne 0 ] && grep -q "basic constraints say CA" "$WORK/err"
okshow $? "an attestation certificate with CA:TRUE is refused" "$WORK/err"
enroll any self
[ "$RC" -ne 0 ] && grep -q "self attestation" "$WORK/err"
okshow $? "self attestation is refused under required" "$WORK/err"
enroll any none
[ "$RC" -ne 0 ] && grep -q "format none" "$WORK/err"
okshow $? "attestation format none is refused under required" "$WORK/err"
enroll opt self
[ "$RC" -eq 0 ] && grep -q "optional: enrolled anyway" "$WORK/err"
okshow $? "optional: self attestation enrolled with a warning" "$WORK/err"

# 4. No AAGUID extension: known by the key identifier, also for U2F.
enroll req noext
[ "$RC" -ne 0 ] && grep -q "not on aaguid_allow; model $KEYID_NOEXT" "$WORK/err"
okshow $? "without the AAGUID extension, the AAGUID of authData is not trusted" "$WORK/err"
enroll keyid noext
expect 0 "an allow list entry by key identifier admits it"
enroll keyid u2f
expect 0 "a U2F key (fido-u2f) is known by its key identifier"
U2F=$(cat "$WORK/out")
login keyid u2f "$U2F"
[ $ST -eq 0 ] && has "model $KEYID_NOEXT meets"
okshow $? "the U2F key logs in under the policy"

# 5. A directory fleet: the line and its evidence from authcmd=.
mkdir /mnt/bin /mnt/data
printf '%s\n' "$GOOD" >/mnt/data/good
printf '%s\n' "$BARE" >/mnt/data/bare
echo '#!/bin/sh' >/mnt/bin/cmd
# shellcheck disable=SC2016 # $2 is the command's
echo 'cat "/mnt/data/$2"' >>/mnt/bin/cmd
chmod 755 /mnt/bin/cmd
chmod 644 /mnt/data/*
fleet() {
	pam_auth "$ME" "auth required $MODULE conf=$WORK/req.conf origin=pam://pol devices=unix:$WORK/good.sock timeout=5 debug debug_file=$WORK/debug.log authcmd_user=nobody [authcmd=/mnt/bin/cmd %u $1]"
	ST=$?
}
fleet good
[ $ST -eq 0 ] && has "model $AAGUID meets"
okshow $? "authcmd=: a fleet credential with its evidence logs in"
fleet bare
[ $ST -ne 0 ] && has "no attestation evidence"
okshow $? "authcmd=: without evidence it is refused"

# 6. Bad values are errors naming the file and line, for both readers.
conf bad "$(policy maybe)"
run --conf "$WORK/bad.conf" --device "unix:$WORK/good.sock" -u "$ME" -o pam://pol
[ "$RC" -ne 0 ] && grep -q "bad.conf:2: policy: attestation must be none, optional or required" "$WORK/err"
okshow $? "pamu2fcfg: a bad attestation value names the file and line" "$WORK/err"
login bad good "$GOOD"
[ $ST -ne 0 ] && has "bad.conf:2: policy: attestation must be"
okshow $? "pam_u2f: the same file fails the login"
conf badid "$(policy required 'aaguid_allow = { "not-an-aaguid" }')"
run --conf "$WORK/badid.conf" --device "unix:$WORK/good.sock" -u "$ME" -o pam://pol
[ "$RC" -ne 0 ] && grep -q "policy: aaguid_allow entries must be AAGUIDs" "$WORK/err"
okshow $? "a malformed list entry is an error" "$WORK/err"
printf 'policy {\n  attestation = required\n}\n' >"$WORK/noroots.conf"
run --conf "$WORK/noroots.conf" --device "unix:$WORK/good.sock" -u "$ME" -o pam://pol
[ "$RC" -ne 0 ] && grep -q "policy: roots is required" "$WORK/err"
okshow $? "required without roots is an error" "$WORK/err"
conf missing "$(policy required | sed "s|$CA/root.pem|$CA/nothing.pem|")"
run --conf "$WORK/missing.conf" --device "unix:$WORK/good.sock" -u "$ME" -o pam://pol
[ "$RC" -ne 0 ] && grep -q "policy: roots: $CA/nothing.pem" "$WORK/err" &&
    ! grep -q "touch the security key" "$WORK/err"
okshow $? "pamu2fcfg: roots that cannot be read: refused before the touch" "$WORK/err"
login missing good "$GOOD"
[ $ST -ne 0 ] && has "policy: roots: $CA/nothing.pem"
okshow $? "a roots file that cannot be read fails the login, named"
conf optmissing "$(policy optional | sed "s|$CA/root.pem|$CA/nothing.pem|")"
login optmissing good "$BARE"
[ $ST -eq 0 ] && has "policy: roots: $CA/nothing.pem" && has "the policy is not applied"
okshow $? "optional: even a roots file that cannot be read is logged, not fatal"

# 7. The MDS BLOB, offline: signed by a test MDS signer under mds-root.
blob() { # blob NAME NO DATE STATUS: $WORK/NAME.jwt
	sh "${top_srcdir:-.}/tests/policy/mkblob.sh" "$CA" "$2" "$3" \
	    "$AAGUID" "$4" "$KEYID_NOEXT" >"$WORK/$1.jwt" && chmod 644 "$WORK/$1.jwt"
}
mdsconf() { # mdsconf NAME BLOB [ROOTS [GRACE]]
	conf "$1" "$(policy required "aaguid_allow = { \"$AAGUID\" }" \
	    "mds = \"$WORK/$2.jwt\"" "mds_roots = \"${3:-$CA/mds-root.pem}\"" \
	    "mds_state = \"$WORK/mds.state\"" "mds_grace = ${4:-0}")"
}
blob certified 5 2099-01-01 -
mdsconf mds1 certified
enroll mds1 good
[ "$RC" -eq 0 ] && [ "$(cat "$WORK/mds.state")" = 5 ]
okshow $? "mds: a model the BLOB certifies is enrolled; no=5 recorded" "$WORK/err"
login mds1 good "$GOOD"
[ $ST -eq 0 ] && has "model $AAGUID meets"
okshow $? "mds: it logs in"
blob revoked 6 2099-01-01 REVOKED
mdsconf mds2 revoked
enroll mds2 good
[ "$RC" -ne 0 ] && grep -q 'reports "pam_u2f softtoken (test)" as REVOKED; model '"$AAGUID" "$WORK/err"
okshow $? "mds: a REVOKED model is refused at enrollment, model and status named" "$WORK/err"
login mds2 good "$GOOD"
[ $ST -ne 0 ] && [ "$ASKED" -eq 0 ] && has 'as REVOKED; model '"$AAGUID"
okshow $? "mds: and at login, before the key is asked"
# Tampered: the revoked BLOB's payload swapped for the certified one's.
cut -d. -f1 "$WORK/revoked.jwt" | tr -d '\n' >"$WORK/tampered.jwt"
printf '.%s.%s\n' "$(sed 's/^\([^.]*\)\.\([^.]*\)\..*/\2/' "$WORK/certified.jwt")" \
    "$(cut -d. -f3 "$WORK/revoked.jwt")" >>"$WORK/tampered.jwt"
chmod 644 "$WORK/tampered.jwt"
mdsconf mds3 tampered
login mds3 good "$GOOD"
[ $ST -ne 0 ] && has "tampered.jwt refused: its RS256 signature does not verify"
okshow $? "mds: a tampered BLOB is refused"
blob old 5 2099-01-01 -
mdsconf mds4 old
login mds4 good "$GOOD"
[ $ST -ne 0 ] && has "its no=5 is older than the last one accepted (6): rolled back"
okshow $? "mds: a BLOB whose no went backwards is refused"
blob stale 7 2020-01-01 -
mdsconf mds5 stale
login mds5 good "$GOOD"
[ $ST -ne 0 ] && has "the BLOB is stale"
okshow $? "mds: past nextUpdate and its grace, the BLOB is refused"
blob grace 8 "$(date -u -d '-2 days' +%F)" -
mdsconf mds6 grace "" 30
login mds6 good "$GOOD"
[ $ST -eq 0 ] && [ "$(cat "$WORK/mds.state")" = 8 ]
okshow $? "mds: within mds_grace days after nextUpdate it is used"
mdsconf mds7 grace "$CA/root.pem"
login mds7 good "$GOOD"
[ $ST -ne 0 ] && has "its signer does not chain to mds_roots"
okshow $? "mds: a BLOB signed under another root is refused"

done_testing
