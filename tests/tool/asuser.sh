#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# root running pamu2fcfg for another user without a FILE (-u alice
# --add/--list/--check/--remove): alice's own default file, under her
# home from passwd (not root's HOME or XDG_CONFIG_HOME), created and
# written with her ids: folders and file hers, nothing of root's written;
# refused with a message where alice could not write, for an unknown
# user, and for another user when not root. Users come from nss_wrapper.
. "${top_srcdir:-.}/tests/tool/lib.sh"

NSSW=libnss_wrapper.so
if [ "$(id -u)" != 0 ]; then
	# Not root: another user's default file is refused, not ours written.
	mkdir "$WORK/home"
	HOME="$WORK/home" XDG_CONFIG_HOME="" run -u nosuchuser-$$ --list
	[ "$RC" -eq 1 ] && grep -q 'only nosuchuser-[0-9]* or root can write' \
	    "$WORK/err" && [ ! -e "$WORK/home/.config" ]
	ok $? "not root: -u OTHER without a FILE is refused, nothing made"
	skip "root writes alice's file as alice" "needs root (file owners)"
	done_testing
fi
if ! LD_PRELOAD=$NSSW true 2>/dev/null ||
    ! ldconfig -p 2>/dev/null | grep -q "$NSSW"; then
	echo "1..0 # SKIP $NSSW not installed (tools/deps.sh test)"
	exit 0
fi
token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
DEV="--device unix:$WORK/t.sock"
chmod 755 "$WORK" # alice must reach her home inside it
A="$WORK/home/alice"
mkdir -p "$A" "$WORK/home/bob" "$WORK/roothome"
chown 4711:4711 "$A"
chown 4712:4712 "$WORK/home/bob"
cat > "$WORK/passwd" <<PW
root:x:0:0:root:$WORK/roothome:/bin/sh
alice:x:4711:4711:Alice:$A:/bin/sh
bob:x:4712:4712:Bob:$WORK/home/bob:/bin/sh
PW
printf 'root:x:0:\nalice:x:4711:\nbob:x:4712:\nstaff:x:4720:alice\n' \
    > "$WORK/group"
# NSS_WRAPPER_DISABLE_DEEPBIND: nss_wrapper's dlopen of libc with
# RTLD_DEEPBIND ends a sanitizer-built pamu2fcfg (tests/run.sh asan).
asroot() {	# run as root with the nss_wrapper users, root's HOME/XDG set
	LD_PRELOAD=$NSSW NSS_WRAPPER_DISABLE_DEEPBIND=1 \
	    NSS_WRAPPER_PASSWD="$WORK/passwd" \
	    NSS_WRAPPER_GROUP="$WORK/group" HOME="$WORK/roothome" \
	    XDG_CONFIG_HOME="$WORK/rootxdg" run "$@"
}
f="$A/.config/Yubico/u2f_keys"

asroot $DEV -u alice --add
expect 0 "root: -u alice --add without a FILE"
[ -f "$f" ] && grep -Eqx "alice:$CRED_RE" "$f"
ok $? "the credential is in alice's default file"
[ "$(stat -c %u:%g:%a "$f")" = 4711:4711:600 ] &&
    [ "$(stat -c %u:%g:%a "$A/.config/Yubico")" = 4711:4711:700 ] &&
    [ "$(stat -c %u:%g:%a "$A/.config")" = 4711:4711:700 ]
ok $? "file (0600) and folders (0700) are alice's"
[ ! -e "$WORK/roothome/.config" ] && [ ! -e "$WORK/rootxdg" ]
ok $? "nothing under root's HOME or XDG_CONFIG_HOME"
grep -q "added credential 1 for alice to $f" "$WORK/err"
ok $? "the message names alice's file"
asroot -u alice --list
expect 0 "root: -u alice --list reads her file"
[ "$(wc -l < "$WORK/out")" -eq 1 ]
ok $? "one credential listed"
asroot $DEV -u alice --check
expect 0 "root: -u alice --check against her file"
asroot -u alice --remove 1
expect 0 "root: -u alice --remove 1"
[ "$(stat -c %u:%g:%a "$f")" = 4711:4711:600 ] && ! grep -q ':.' "$f"
ok $? "the rewritten file is still alice's, without the credential"

# alice's folder points at a place of root's: as alice, nothing there.
rm -rf "$A/.config"
mkdir -p "$A/.config" "$WORK/rootonly"
chmod 700 "$WORK/rootonly"
ln -s "$WORK/rootonly" "$A/.config/Yubico"
chown -h 4711:4711 "$A/.config" "$A/.config/Yubico"
asroot $DEV -u alice --add
[ "$RC" -ne 0 ] && [ -z "$(ls -A "$WORK/rootonly")" ]
ok $? "a symlinked folder to root's: refused, nothing written there"
diag "$(cat "$WORK/err")"

# bob's home is root's: bob could not write there, so neither do we.
chown 0:0 "$WORK/home/bob"
asroot $DEV -u bob --add
[ "$RC" -eq 4 ] && [ ! -e "$WORK/home/bob/.config" ] &&
    grep -q "cannot create $WORK/home/bob/.config: Permission denied" \
    "$WORK/err"
ok $? "a home bob cannot write: refused (exit 4), saying why"

# bob's folder exists but is root's 0755: root could write there, bob
# cannot. The check before the touch tests bob's (effective) ids, not
# root's real ones (faccessat AT_EACCESS): refused before any touch.
chown 4712:4712 "$WORK/home/bob"
mkdir -p "$WORK/home/bob/.config/Yubico"
chown 4712:4712 "$WORK/home/bob/.config"
token bt --presence now || exit 1
asroot --device "unix:$WORK/bt.sock" -u bob --add
[ "$RC" -eq 4 ] && [ -z "$(ls -A "$WORK/home/bob/.config/Yubico")" ] &&
    grep -q "refusing $WORK/home/bob/.config/Yubico/u2f_keys: Permission" \
    "$WORK/err" && ! grep -q touch "$WORK/err"
ok $? "a folder bob cannot write: refused before the touch"
diag "$(cat "$WORK/err")"

asroot $DEV -u nosuchuser --add
[ "$RC" -eq 1 ] && grep -q 'no user nosuchuser on this system' "$WORK/err"
ok $? "an unknown user: refused, saying so"
[ ! -e "$WORK/roothome/.config" ] && [ ! -e "$WORK/rootxdg" ]
ok $? "root's own file was never written"

# With a FILE, root writes where it is told, as root (unchanged).
asroot $DEV -u alice --add "$WORK/central"
expect 0 "root: -u alice --add FILE"
[ "$(stat -c %u "$WORK/central")" = 0 ]
ok $? "an explicit FILE is written as root"
done_testing
