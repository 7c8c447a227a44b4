#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# NFC keys through PC/SC (issue 19), end to end: a private pcscd with
# vsmartcard's virtual reader (tests/pcsc.lib) and the software token as
# the card in it (softtoken --vpcd); pamu2fcfg enrolls through the reader
# and the real pam_u2f.so logs in through libpam (pam_wrapper +
# pamtester, the PIN from its standard input):
# - U2F: enroll, log in (the cue says "touch or tap"), by devices= and by
#   discovery;
# - CTAP2 with a PIN: enroll with -N, log in with the PIN, a wrong PIN
#   refused;
# - the card removed mid-login, a card that stalls after SELECT, a card
#   that breaks its replies: each refused with the reason in the log;
# - a USB key (unix: socket) and the card together: the one touched wins.
# Counted and logged, not timed. Needs --with-pcsclite, root (the module
# wants a root-owned authfile), pamtester, pcscd, vsmartcard-vpcd and a
# private mount namespace (else skipped, with the reason).
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
if ! grep -q '^#define HAVE_PCSCLITE 1' "$top_builddir/config.h"; then
	echo "1..0 # SKIP built without --with-pcsclite"
	exit 0
fi
# shellcheck source=tests/pcsc.lib
. "${top_srcdir:-.}/tests/pcsc.lib"
if ! pcsc_check; then
	echo "1..0 # SKIP $pcsc_why"
	exit 0
fi
PCSC_NO_TRAP=1
trap 'pcsc_stop; cleanup' EXIT
if ! pcsc_start "$WORK/pcsc"; then
	echo "Bail out! a private pcscd with the virtual reader did not start"
	exit 1
fi
ME=$(id -un)
mkdir "$WORK/svc"
MAP="$WORK/map"
READER="pcsc:$PCSC_READER"

# card NAME [softtoken options]: the card in the reader, its state and
# log in $WORK/NAME.*; the one before it leaves the field.
card() {
	cn=$1
	shift
	pcsc_card_stop
	pcsc_card_start --state "$WORK/$cn.state" --log "$WORK/$cn.log" "$@"
}

# login PIN DEVICES [module args]: one authentication, PIN on stdin;
# output in $WORK/pam.out, the debug log in $WORK/debug.log. DEVICES ""
# is discovery.
login() {
	pin=$1
	devs=$2
	shift 2
	dv=""
	[ -z "$devs" ] || dv="[devices=$devs]"
	printf '%s\n' "$pin" | pam_auth "$ME" \
	    "auth required $MODULE $MOD_CONF authfile=$MAP origin=pam://nfc $dv timeout=8 cue debug debug_file=$WORK/debug.log $*"
}

# enroll DEVICE PIN [pamu2fcfg options]: add a credential to $MAP.
enroll() {
	ed=$1
	ep=$2
	shift 2
	printf '%s\n' "$ep" | "$PAMU2FCFG" --device "$ed" -u "$ME" \
	    -o pam://nfc --pin-stdin --timeout 8 "$@" --add "$MAP" \
	    >"$WORK/out" 2>"$WORK/err"
}

logged() { grep -c "$1" "$WORK/debug.log"; }

# ---- U2F ----
card u --u2f on --ctap2 off ||
    { echo "Bail out! the U2F card did not start"; exit 1; }
enroll "$READER" ""
ok $? "pamu2fcfg enrolls a U2F card through the reader"
grep -q "touch or tap the security key" "$WORK/err"
ok $? "... and says touch or tap"
[ "$(ncreds "$MAP" "$ME")" = 1 ] && grep -q 'nfc select U2F_V2' "$WORK/u.log"
ok $? "... one credential; the card was selected as U2F_V2"
login "" "$READER"
ok $? "the module logs in with the U2F card (devices=$READER)"
grep -q "Please touch or tap the device." "$WORK/pam.out"
ok $? "... the cue says touch or tap"
[ "$(logged "verified on $READER")" = 1 ]
ok $? "... verified on the reader"
login "" ""
ok $? "the module finds the card by discovery"
login "" "$READER" cue_prompt=Tap!
grep -q "Tap!" "$WORK/pam.out" && ! grep -q "touch or tap" "$WORK/pam.out"
ok $? "a configured cue is shown as it is"

# ---- no card on the reader yet: the login waits for one (issue 26) ----
pcsc_card_stop
waiting() { [ "$(logged 'no key yet: waiting')" -ge 1 ]; }
( printf '\n' | pam_auth "$ME" \
    "auth required $MODULE $MOD_CONF authfile=$MAP origin=pam://nfc [devices=$READER] timeout=60 cue debug debug_file=$WORK/debug.log"
  echo $? >"$WORK/late.rc" ) &
late=$!
_pcsc_wait 600 waiting
okshow $? "no card: the login waits for one (the log says so)"
sleep 2 # the card comes 2 s later; nothing here bounds the time
pcsc_card_start --state "$WORK/u.state" --log "$WORK/u.log" --u2f on \
    --ctap2 off
wait "$late"
[ "$(cat "$WORK/late.rc")" = 0 ] && [ "$(logged "verified on $READER")" = 1 ]
okshow $? "... a card put on the reader 2 s later logs in"
[ "$(grep -c "Please touch or tap the device." "$WORK/pam.out")" = 1 ] &&
    ! grep -q "Insert your key" "$WORK/pam.out"
okshow $? "... the cue says touch or tap, once; never 'Insert your key'"
[ "$(logged 'no key yet: waiting')" = 1 ] &&
    [ "$(logged 'a card is on a reader')" = 1 ]
okshow $? "... one wait, woken by the card (no polling)"
pcsc_card_stop
login "" "$READER" timeout=1
[ $? -ne 0 ] && grep -q "held to the reader within" "$WORK/pam.out" &&
    [ "$(logged 'none came within the timeout')" = 1 ]
okshow $? "no card within the timeout: refused, the message says so"
card u --u2f on --ctap2 off ||
    { echo "Bail out! the U2F card did not start"; exit 1; }

# ---- CTAP2 with a PIN ----
card p --ctap2 2.1 --u2f off --pin 4321 ||
    { echo "Bail out! the CTAP2 card did not start"; exit 1; }
enroll "$READER" 4321 -N
ok $? "pamu2fcfg enrolls a CTAP2 card with its PIN (-N)"
grep -q 'nfc select FIDO_2_0' "$WORK/p.log" && tail -n 1 "$MAP" | grep -q '+pin'
ok $? "... selected as FIDO_2_0; the credential says +pin"
login 4321 "$READER"
ok $? "the module logs in with the CTAP2 card and its PIN"
grep -q "Please enter the PIN" "$WORK/pam.out"
ok $? "... the PIN was asked"
login 1111 "$READER"
[ $? -ne 0 ] && [ "$(logged 'PIN')" -ge 1 ]
ok $? "a wrong PIN is refused"

# ---- faults ----
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-remove
login 4321 "$READER"
[ $? -ne 0 ] && [ "$(logged 'the card was removed from the reader')" -ge 1 ]
st=$?
[ $st -eq 0 ] || sed 's/^/# /' "$WORK/debug.log" "$WORK/pam.out"
ok $st "the card removed mid-login: refused, the log says so"
pcsc_card_wait_gone
ok $? "... the card left the field"
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-bad-sw
login 4321 "$READER"
[ $? -ne 0 ] && [ "$(logged 'SW 6f00')" -ge 1 ]
ok $? "a card answering 6F00: refused, the status word logged"
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-truncated
login 4321 "$READER"
[ $? -ne 0 ]
ok $? "a card with truncated replies: refused"
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-endless-61
login 4321 "$READER"
[ $? -ne 0 ]
ok $? "a card with endless 61xx: refused"
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-wrong-select
login 4321 "$READER"
[ $? -ne 0 ] && [ "$(logged 'SELECT answered an unknown version')" -ge 1 ]
ok $? "a card answering U2F_V3 to SELECT: not used"
card p --ctap2 2.1 --u2f off --pin 4321 --fault card-stall
login 4321 "$READER"
[ $? -ne 0 ] && [ "$(logged 'no answer within')" -ge 1 ]
ok $? "a card that stalls after SELECT: refused, the log says no answer"

# ---- a USB key and the card together: the touched one wins ----
token usb --u2f on --ctap2 off --presence now ||
    { echo "Bail out! softtoken usb did not start"; exit 1; }
enroll "unix:$WORK/usb.sock" ""
ok $? "enroll a USB key beside the card"
card u --u2f on --ctap2 off --presence never
login "" "unix:$WORK/usb.sock,$READER"
ok $? "USB key touched, card never tapped: logged in"
[ "$(logged "verified on unix:$WORK/usb.sock")" = 1 ]
ok $? "... by the USB key"
kill "$(cat "$WORK/usb.pid")"
token usb --u2f on --ctap2 off --presence never ||
    { echo "Bail out! softtoken usb did not restart"; exit 1; }
card u --u2f on --ctap2 off --presence after:300
login "" "unix:$WORK/usb.sock,$READER"
ok $? "card tapped, USB key never touched: logged in"
[ "$(logged "verified on $READER")" = 1 ]
ok $? "... by the card"

done_testing
