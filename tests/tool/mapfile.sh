#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg --add/--list/--remove/--check on mapping files, and refusal
# of unsafe ones.
. "${top_srcdir:-.}/tests/tool/lib.sh"

token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
token other --presence now || exit 1
DEV="--device unix:$WORK/t.sock"
ODEV="--device unix:$WORK/other.sock"

# --add with the default file: folders 0700 and the file 0600 are made.
# (The invoking user's own default: for another user's, see asuser.sh.)
ME=$(id -un)
mkdir "$WORK/home"
HOME="$WORK/home" XDG_CONFIG_HOME="" run $DEV --add
expect 0 "--add to the default per-user file"
f="$WORK/home/.config/Yubico/u2f_keys"
[ "$(stat -c %a "$WORK/home/.config/Yubico")" = 700 ] &&
    [ "$(stat -c %a "$WORK/home/.config")" = 700 ]
ok $? "--add creates ~/.config/Yubico with mode 0700"
[ "$(stat -c %a "$f")" = 600 ]
ok $? "--add creates u2f_keys with mode 0600"
grep -Eqx "$ME:$CRED_RE" "$f" && [ ! -s "$WORK/out" ]
ok $? "the new file holds the user's line; stdout stays empty"
HOME="$WORK/home" XDG_CONFIG_HOME="" run -u "$ME" --list
expect 0 "--list reads the default file"
mkdir "$WORK/xdg"
HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/xdg" run $DEV --add
expect 0 "--add honours XDG_CONFIG_HOME"
[ -f "$WORK/xdg/Yubico/u2f_keys" ]
ok $? "the file is under \$XDG_CONFIG_HOME/Yubico"

# The user's own default file as the module reads it (pam-u2f 1.4):
# --list follows a symlink to the user's own file, with a warning;
# --add still refuses it (its rename would replace the link).
d="$WORK/home/.config/Yubico"
mv "$d/u2f_keys" "$WORK/dotfile_keys"
ln -s "$WORK/dotfile_keys" "$d/u2f_keys"
HOME="$WORK/home" XDG_CONFIG_HOME="" run --list
[ "$RC" -eq 0 ] && [ -s "$WORK/out" ] && grep -q \
    "warning: $d/u2f_keys is a symbolic link to a file of the user" \
    "$WORK/err"
ok $? "--list follows a symlinked default file to the user's own, warning"
HOME="$WORK/home" XDG_CONFIG_HOME="" run $DEV --add
[ "$RC" -eq 4 ] && [ -L "$d/u2f_keys" ]
ok $? "--add refuses the symlinked default file (exit 4)"
rm "$d/u2f_keys"
mv "$WORK/dotfile_keys" "$d/u2f_keys"
# Group-writable: accepted (warning) only for the user's private group
# (named after the user, no other member, listed or by primary gid), as
# by the module (tests/module/test_modfile.c has the hermetic cases).
chmod 664 "$d/u2f_keys"
HOME="$WORK/home" XDG_CONFIG_HOME="" run --list
if [ "$(id -gn)" = "$ME" ] &&
    [ "$(getent group | awk -F: -v g="$(id -g)" -v u="$ME" \
	'$3 == g && $4 != "" && $4 != u' | wc -l)" -eq 0 ] &&
    [ "$(getent passwd | awk -F: -v g="$(id -g)" -v u="$ME" \
	'$4 == g && $1 != u' | wc -l)" -eq 0 ]; then
	[ "$RC" -eq 0 ] && grep -q "private group" "$WORK/err"
	ok $? "--list: a file writable by the user's private group, warning"
else
	[ "$RC" -eq 4 ]
	ok $? "--list: group-writable, not a private group: refused"
fi
chmod 600 "$d/u2f_keys"

# --add to an existing file: every other byte stays as it was.
m="$WORK/map"
printf '# comment\r\nbob:KH,PK,es256,+presence\n\nalice:' > "$m.head"
printf '\ncarol:x\n#end' > "$m.tail"
cat "$m.head" "$m.tail" > "$m"
chmod 640 "$m"
run $DEV -u alice --add "$m"
expect 0 "--add fills alice's empty line"
run $ODEV -u alice --add="$m"
expect 0 "--add appends a second key to alice's line"
[ "$(ncreds "$m" alice)" = 2 ]
ok $? "alice's line has two credentials"
hl=$(wc -c < "$m.head")
tl=$(wc -c < "$m.tail")
head -c "$hl" "$m" | cmp -s - "$m.head" &&
    tail -c "$tl" "$m" | cmp -s - "$m.tail"
ok $? "the lines before and after alice's are unchanged byte for byte"
[ "$(stat -c %a "$m")" = 640 ]
ok $? "the file keeps its mode"
[ -z "$(find "$WORK" -maxdepth 1 -name '.map.tmp.*')" ]
ok $? "no temporary file is left behind"

printf 'half' > "$WORK/.map.tmp.AbC123"
printf 'keep' > "$WORK/.map.tmp.notours"
run $DEV -u dave --add "$m"
expect 0 "--add for another user"
[ ! -e "$WORK/.map.tmp.AbC123" ] && [ -e "$WORK/.map.tmp.notours" ]
ok $? "a stale temporary file is removed under the lock, nothing else"

cp "$m" "$m.before"
run $DEV -u alice --add "$m"
[ "$RC" -eq 1 ] && cmp -s "$m" "$m.before"
ok $? "a key already enrolled is refused (exit 1), file unchanged"
grep -q 'already enrolled' "$WORK/err"
ok $? "the message says the key is already enrolled"
tail -n 1 "$m" | grep -Eqx "dave:$CRED_RE"
ok $? "dave's new line is appended at the end, after a newline"

# --list
run -u alice --list "$m"
expect 0 "--list"
[ "$(wc -l < "$WORK/out")" = 2 ] &&
    grep -Eq '^1: [0-9a-f]{8} es256 \+presence$' "$WORK/out" &&
    grep -Eq '^2: [0-9a-f]{8} es256 \+presence$' "$WORK/out"
ok $? "--list numbers the credentials with type, options, fingerprint"
kh=$(grep '^alice:' "$m" | cut -d: -f2 | cut -d, -f1)
fp=$(printf '%s' "$kh" | base64 -d | sha256sum | cut -c1-8)
grep -q "^1: $fp " "$WORK/out"
ok $? "the fingerprint is SHA-256 of the key handle"
run -u nobody-here --list "$m"
[ "$RC" -eq 1 ] && [ ! -s "$WORK/out" ]
ok $? "--list for a user without a line: exit 1"

# --check: the key holding the credential, and one that does not.
run $DEV -u alice --check "$m"
expect 0 "--check succeeds with the enrolled key"
grep -q "^ok: credential 1 on unix:$WORK/t.sock" "$WORK/out"
ok $? "--check reports the credential number and device"
token blank --presence now || exit 1
run --timeout 2 --device "unix:$WORK/blank.sock" -u alice --check "$m"
[ "$RC" -eq 1 ] && [ ! -s "$WORK/out" ]
ok $? "--check with a key holding no credential: exit 1"
run $DEV -u nobody-here --check "$m"
[ "$RC" -eq 1 ]
ok $? "--check for a user without credentials: exit 1"

# --remove
cp "$m" "$m.before"
run -u alice --remove 3 "$m"
[ "$RC" -eq 1 ] && cmp -s "$m" "$m.before"
ok $? "--remove of a number out of range: exit 1, file unchanged"
run -u alice --remove 1 "$m"
expect 0 "--remove 1"
[ "$(ncreds "$m" alice)" = 1 ]
ok $? "alice has one credential left"
run $ODEV -u alice --check "$m"
expect 0 "the remaining credential is the second key's"
cp "$m" "$m.before"
run -u alice --remove 1 "$m"
expect 0 "--remove of the last credential"
! grep -q '^alice' "$m"
ok $? "removing the last credential removes alice's line"
grep -v '^alice:' "$m.before" | cmp -s - "$m"
ok $? "every other line survives --remove byte for byte"
run -u alice --remove 1 "$WORK/missing"
[ "$RC" -eq 4 ] && [ ! -e "$WORK/missing" ]
ok $? "--remove on a missing file: exit 4, nothing created"
# The module reads the user's last line only. Removing the only
# credential there would delete the line and bring an older one (with a
# key refused until then) back: refused, the file unchanged.
run $DEV -u alice --add "$WORK/shadow1"
expect 0 "an old line for alice (first key)"
run $ODEV -u alice --add "$WORK/shadow2"
expect 0 "a newer line for alice (second key)"
{ cat "$WORK/shadow1"; echo '# newer:'; cat "$WORK/shadow2"; } \
    > "$WORK/shadow"
chmod 600 "$WORK/shadow"
cp "$WORK/shadow" "$WORK/shadow.before"
run -u alice --remove 1 "$WORK/shadow"
[ "$RC" -eq 1 ] && cmp -s "$WORK/shadow" "$WORK/shadow.before" &&
    grep -q "older one (line 1) count again" "$WORK/err"
ok $? "--remove refuses to bring back alice's older line (line 1)"

# Unsafe mapping files are refused before any key is asked for.
printf 'alice:\n' > "$WORK/real"
chmod 600 "$WORK/real"
ln -s "$WORK/real" "$WORK/link"
run $DEV -u alice --add "$WORK/link"
[ "$RC" -eq 4 ] && [ -L "$WORK/link" ] && [ "$(cat "$WORK/real")" = alice: ]
ok $? "a symlinked mapping file is refused (exit 4), unchanged"
grep -q 'symbolic link' "$WORK/err"
ok $? "the message names the symlink"
mkfifo "$WORK/fifo"
run $DEV -u alice --add "$WORK/fifo"
[ "$RC" -eq 4 ] && [ -p "$WORK/fifo" ]
ok $? "a FIFO is refused (exit 4) without blocking"
cp "$WORK/real" "$WORK/gw"
chmod 620 "$WORK/gw"
run $DEV -u alice --add "$WORK/gw"
[ "$RC" -eq 4 ] && [ "$(cat "$WORK/gw")" = alice: ]
ok $? "a group-writable file is refused (exit 4), unchanged"
grep -q 'is group- or world-writable' "$WORK/err"
ok $? "the message says why"
run -u alice --remove 1 "$WORK/gw"
[ "$RC" -eq 4 ]
ok $? "--remove refuses a group-writable file too"
run -u alice --list "$WORK/link"
[ "$RC" -eq 4 ]
ok $? "--list refuses a symlink"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp "$WORK/real" "$WORK/theirs"
	chown nobody "$WORK/theirs"
	run $DEV -u alice --add "$WORK/theirs"
	[ "$RC" -eq 4 ] && [ "$(cat "$WORK/theirs")" = alice: ] &&
	    grep -q 'owned by another user (run pamu2fcfg as its owner)' \
	    "$WORK/err"
	ok $? "a file owned by another user is refused, saying what to do"
else
	skip "a file owned by another user is refused, saying what to do" "needs root"
fi
token lazy --presence never || exit 1
run --timeout 5 --device "unix:$WORK/lazy.sock" -u alice \
    --add "$WORK/nodir/map"
[ "$RC" -eq 4 ] && [ ! -e "$WORK/nodir" ] && ! grep -q touch "$WORK/err"
ok $? "--add into a missing folder fails (exit 4) before asking for a touch"
# A failed --add to the default file takes back the folders it made
# (not those that were there before).
mkdir -p "$WORK/fresh" "$WORK/half/.config"
HOME="$WORK/fresh" XDG_CONFIG_HOME="" run --timeout 1 \
    --device "unix:$WORK/lazy.sock" --add
[ "$RC" -ne 0 ] && [ -z "$(ls -A "$WORK/fresh")" ]
ok $? "a failed --add leaves no empty ~/.config/Yubico behind"
HOME="$WORK/half" XDG_CONFIG_HOME="" run --timeout 1 \
    --device "unix:$WORK/lazy.sock" --add
[ "$RC" -ne 0 ] && [ -d "$WORK/half/.config" ] &&
    [ -z "$(ls -A "$WORK/half/.config")" ]
ok $? "a failed --add keeps a ~/.config that was there"
mkdir "$WORK/open"
chmod 777 "$WORK/open"
run --timeout 5 --device "unix:$WORK/lazy.sock" -u alice \
    --add "$WORK/open/map"
[ "$RC" -eq 4 ] && [ ! -e "$WORK/open/map" ]
ok $? "--add into a world-writable folder is refused (exit 4)"
grep -q 'folder is writable by group or others' "$WORK/err"
ok $? "the message names the folder"
printf 'alice:KH\0x,PK,es256,\n' > "$WORK/bad"
chmod 600 "$WORK/bad"
cp "$WORK/bad" "$WORK/bad.before"
run $DEV -u alice --add "$WORK/bad"
[ "$RC" -eq 4 ] && cmp -s "$WORK/bad" "$WORK/bad.before"
ok $? "a malformed file is refused (exit 4), unchanged"

done_testing
