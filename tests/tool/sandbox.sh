#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The module where a sandbox hides the keys (polkit 124's
# polkit-agent-helper@.service without our drop-in: PrivateDevices=yes
# gives it a /dev without hidraw nodes while /sys still lists them). In a
# private mount namespace (nsexec.lib), a tmpfs on /sys/class/hidraw
# holds a node hidraw97 whose report descriptor is FIDO's (usage page
# F1D0) and which /dev lacks. Through libpam (pam_wrapper, pamtester),
# with no devices= (the real hidraw discovery), the module fails and says
# "no security key is visible to this process" and names the drop-in in
# pam_u2f(8), not "No security key found"; its debug log names the node.
# With the node's descriptor a keyboard's, the module says what it said
# before. Needs root (the mounts); else skipped.
. "${top_srcdir:-.}/tests/tool/nsexec.lib"
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "a tmpfs on /sys/class/hidraw in a private mount namespace"
NODE=hidraw97
if [ -z "${PU_NS:-}" ] || [ -e "/dev/$NODE" ] ||
    ! mount -t tmpfs -o mode=755 pu-sandbox /sys/class/hidraw; then
	echo "1..0 # SKIP no private mount namespace with a tmpfs on" \
	    "/sys/class/hidraw (or /dev/$NODE exists)"
	exit 0
fi
D=/sys/class/hidraw/$NODE/device
mkdir -p "$D"
# a FIDO report descriptor (64-byte input and output reports), and a
# boot keyboard's: octal escapes for printf
FIDO='\006\320\361\011\001\241\001\011\040\025\000\046\377\000\165\010'
FIDO=$FIDO'\225\100\201\002\011\041\025\000\046\377\000\165\010\225\100'
FIDO=$FIDO'\221\002\300'
KBD='\005\001\011\006\241\001\005\007\031\340\051\347\025\000\045\001'
KBD=$KBD'\165\001\225\010\201\002\300'
printf '%s\n' "HID_ID=0003:00001050:00000407" "HID_NAME=Sandboxed Key" \
    >"$D/uevent"

token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
mkdir "$WORK/svc"
run --device "unix:$WORK/t.sock" -o pam://sbx --add "$WORK/map"
expect 0 "a credential enrolled (on the software token)"
LINE="auth required $MODULE $MOD_CONF authfile=$WORK/map origin=pam://sbx timeout=1 debug debug_file=$WORK/debug.log"

printf "$FIDO" >"$D/report_descriptor"
pam_auth "$(id -un)" "$LINE"
st=$?
[ $st -ne 0 ] &&
    grep -q "no security key is visible to this process; a sandboxed polkit helper needs the drop-in: see pam_u2f(8)" "$WORK/pam.out" &&
    ! grep -q "No security key found" "$WORK/pam.out"
okshow $? "sysfs lists a FIDO node, /dev lacks it: refused, 'no security key is visible to this process' (pamtester status $st)"
grep -q "/sys/class/hidraw lists FIDO nodes ($NODE) but /dev has none" \
    "$WORK/debug.log"
okshow $? "... the debug log names the node and the private /dev"

printf "$KBD" >"$D/report_descriptor"
pam_auth "$(id -un)" "$LINE"
st=$?
[ $st -ne 0 ] && grep -q "No security key found" "$WORK/pam.out" &&
    ! grep -q "visible to this process" "$WORK/pam.out"
okshow $? "the node is a keyboard: refused, 'No security key found' as before (pamtester status $st)"

done_testing
