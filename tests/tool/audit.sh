#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg --audit: the users with a login shell (root, and uids in the
# range of --uids or --login-defs) whose mapping file gives no key, each
# file read with its user's ids (a file only root could read "cannot be
# checked"); users without a login shell or outside the range are not
# listed; exit 0 only when nobody is listed; a central FILE; nothing is
# written. Users come from nss_wrapper, never the host's passwd.
. "${top_srcdir:-.}/tests/tool/lib.sh"

NSSW=libnss_wrapper.so
if [ "$(id -u)" != 0 ]; then
	skip "--audit reads every user's file as that user" "needs root"
	done_testing
fi
if ! LD_PRELOAD=$NSSW true 2>/dev/null ||
    ! ldconfig -p 2>/dev/null | grep -q "$NSSW"; then
	echo "1..0 # SKIP $NSSW not installed (tools/deps.sh test)"
	exit 0
fi
token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
chmod 755 "$WORK"
H=$WORK/home
for u in root alice bob carol dave erin svc daemon high; do
	mkdir -p "$H/$u/.config/Yubico"
done
cat >"$WORK/passwd" <<PW
root:x:0:0:root:$H/root:/bin/sh
daemon:x:1:1:daemon:$H/daemon:/bin/sh
alice:x:4711:4711:Alice:$H/alice:/bin/sh
bob:x:4712:4712:Bob:$H/bob:/bin/sh
carol:x:4713:4713:Carol:$H/carol:/bin/bash
dave:x:4714:4714:Dave:$H/dave:/bin/sh
erin:x:4716:4716:Erin:$H/erin:/bin/sh
svc:x:4715:4715:Service:$H/svc:/usr/sbin/nologin
high:x:70000:70000:High:$H/high:/bin/sh
PW
: >"$WORK/group"
for u in alice:4711 bob:4712 carol:4713 dave:4714 svc:4715 erin:4716 \
    high:70000 daemon:1; do
	printf '%s:x:%s:\n' "${u%%:*}" "${u#*:}" >>"$WORK/group"
	chown -R "${u#*:}:${u#*:}" "$H/${u%%:*}"
done
printf 'root:x:0:\n' >>"$WORK/group"
asroot() {	# run as root with the nss_wrapper users
	LD_PRELOAD=$NSSW NSS_WRAPPER_DISABLE_DEEPBIND=1 \
	    NSS_WRAPPER_PASSWD="$WORK/passwd" \
	    NSS_WRAPPER_GROUP="$WORK/group" HOME="$H/root" run "$@"
}
keys() {	# keys USER TEXT MODE: USER's default file, USER's
	f="$H/$1/.config/Yubico/u2f_keys"
	printf '%s' "$2" >"$f"
	chmod "$3" "$f"
	chown "$(stat -c %u:%g "$H/$1")" "$f"
}
run --device "unix:$WORK/t.sock" -n
expect 0 "a credential to use (pamu2fcfg -n)"
CRED=$(cat "$WORK/out")
keys root "root$CRED
" 600
keys alice "alice$CRED
" 600
keys carol "carol$CRED
" 000	# root could read it; carol cannot
keys dave "alice$CRED
" 644
keys erin "erin:garbage
" 644
find "$WORK/home" -type f -exec stat -c '%n %s %Y' {} + | sort >"$WORK/before"

asroot --uids 4000-5000 --audit
expect 1 "--audit with users lacking a key: exit 1"
cut -f1 "$WORK/out" | tr '\n' ' ' >"$WORK/names"
[ "$(cat "$WORK/names")" = "bob carol dave erin " ]
ok $? "listed: bob, carol, dave, erin; not root or alice (keys), svc (nologin), daemon and high (uid range)"
diag "$(cat "$WORK/out")"
grep -qx "bob	no key	$H/bob/.config/Yubico/u2f_keys: does not exist" \
    "$WORK/out"
ok $? "bob: no key, his file does not exist"
grep -qx "carol	cannot check	$H/carol/.config/Yubico/u2f_keys: Permission denied" \
    "$WORK/out"
ok $? "carol's file (mode 000) was read as carol: cannot check"
grep -qx "dave	no key	$H/dave/.config/Yubico/u2f_keys: no credentials for the user" \
    "$WORK/out"
ok $? "dave: a file without his line is no key"
grep -qx "erin	cannot check	$H/erin/.config/Yubico/u2f_keys: line 1 is malformed" \
    "$WORK/out"
ok $? "erin: a malformed line cannot be checked"
grep -q '6 user(s) with a login shell, uid 0 or 4000-5000: 2 without a key, 2 could not be checked' \
    "$WORK/err"
ok $? "the summary counts them"
find "$WORK/home" -type f -exec stat -c '%n %s %Y' {} + | sort |
    cmp -s - "$WORK/before"
ok $? "nothing was written or created"

asroot --uids 4000-5000 -v --audit
grep -q "^alice	key	$H/alice/" "$WORK/out" &&
    grep -q "^root	key	$H/root/" "$WORK/out"
ok $? "-v lists the users with a key too"

printf 'UID_MIN 4712\nUID_MAX\t4712\n# UID_MAX 9\n' >"$WORK/login.defs"
asroot --login-defs "$WORK/login.defs" --audit
expect 1 "--login-defs: UID_MIN and UID_MAX from the file"
[ "$(cut -f1 "$WORK/out" | tr '\n' ' ')" = "bob " ]
ok $? "... only bob (4712) besides root"

keys bob "bob$CRED
" 600
keys carol "carol$CRED
" 600
keys dave "dave$CRED
" 600
keys erin "erin$CRED
" 600
asroot --uids 4000-5000 --audit
expect 0 "every user has a key: exit 0"
[ ! -s "$WORK/out" ]
ok $? "... and nothing listed"

# A central file (root's): read as root, each user's line looked for.
printf 'alice%s\nbob%s\n' "$CRED" "$CRED" >"$WORK/central"
chmod 644 "$WORK/central"
asroot --uids 4000-5000 --audit "$WORK/central"
expect 1 "a central FILE: users without a line"
[ "$(cut -f1 "$WORK/out" | tr '\n' ' ')" = "root carol dave erin " ] &&
    grep -q "^carol	no key	$WORK/central: no credentials for the user" \
    "$WORK/out"
ok $? "... root, carol, dave, erin listed against it"

asroot --uids 5000-4000 --audit
expect 2 "--uids MIN above MAX: a usage error"
asroot --uids 1000-2000 --list
expect 2 "--uids without --audit: a usage error"
done_testing
