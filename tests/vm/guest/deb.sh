# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group deb (tests/run.sh stage deb): the Debian packages as an
# administrator uses them. apt install ./*.deb over Debian's libpam-u2f and
# pamu2fcfg (dpkg -i'd first from tools/debian-pam-u2f.sh's .debs, in the
# guest's overlay, unless the host has them): apt removes them; nothing
# in /etc/pam.d changes; pam-auth-update --enable pam_u2f; then real sudo
# through Debian's common-auth: password + enrolled token succeeds, another
# token is refused, a user with no key is refused too (the conffile is
# strict: no nouserok); the package's authcmd account pam-u2f and cache
# /var/cache/pam-u2f work as README's configuration names them; removing
# the package takes the line out again and names a line added by hand;
# purging deletes the cache and keeps the account.
# Needs VM_DEB_DIR (the directory holding the .debs).

mkuser carol
mkuser dave
printf 'carol ALL=(ALL:ALL) ALL\ndave ALL=(ALL:ALL) ALL\n' >/etc/sudoers.d/vmtest
chmod 440 /etc/sudoers.d/vmtest
debs=$(ls "${VM_DEB_DIR:-/nonexistent}"/libpam-u2f-native_*.deb \
    "${VM_DEB_DIR:-/nonexistent}"/pamu2fcfg-native_*.deb 2>/dev/null)
apt_local_only
sudo_setup

debian_pu_installed "Debian's libpam-u2f and pamu2fcfg installed first"
name="apt install ./libpam-u2f-native_*.deb ./pamu2fcfg-native_*.deb"
# shellcheck disable=SC2086 # $debs: two paths without spaces
if [ "$(echo "$debs" | wc -w)" -ne 2 ]; then
	fail "$name" "VM_DEB_DIR=${VM_DEB_DIR:-} holds no pair of .debs"
elif expect_ok "$name" apt-get install -y $debs; then
	name="... apt removed Debian's libpam-u2f and pamu2fcfg"
	if dpkg-query -W -f='${Status}\n' libpam-u2f pamu2fcfg 2>/dev/null |
	    grep -q 'install ok installed'; then
		fail "$name" "$(dpkg -l libpam-u2f pamu2fcfg | tail -2)"
	else
		pass "$name"
	fi
	name="... the module in libpam's directory is ours (dpkg -S)"
	if dpkg -S "$SYSMOD" 2>/dev/null | grep -q '^libpam-u2f-native:' &&
	    [ -x /usr/bin/pamu2fcfg ] &&
	    /usr/bin/pamu2fcfg --version 2>&1 | grep -q 'ES256'; then
		pass "$name"
	else
		fail "$name" "$(dpkg -S "$SYSMOD" 2>&1)" \
		    "$(/usr/bin/pamu2fcfg --version 2>&1 | head -2)"
	fi
	name="... installing changed no PAM configuration"
	if grep -rq pam_u2f /etc/pam.d/; then
		fail "$name" "$(grep -r pam_u2f /etc/pam.d/)"
	else
		pass "$name"
	fi
	name="... man pages, conffile, pam-auth-update profile installed"
	if [ -f /usr/share/man/man8/pam_u2f.8.gz ] &&
	    [ -f /usr/share/man/man1/pamu2fcfg.1.gz ] &&
	    [ -f /usr/share/man/man5/pam_u2f.conf.5.gz ] &&
	    ! grep -Eq '^[[:space:]]*nouserok' /etc/security/pam_u2f.conf &&
	    grep -q 'Default: no' /usr/share/pam-configs/pam_u2f; then
		pass "$name"
	else
		fail "$name"
	fi
	name="... built with PC/SC and LDAP: pam_u2f_ldap in /usr/libexec/pam_u2f"
	if ldd "$SYSMOD" | grep -q 'libpcsclite' &&
	    [ "$(stat -c '%U %a' /usr/libexec/pam_u2f/pam_u2f_ldap)" = "root 755" ] &&
	    [ -f /usr/share/man/man8/pam_u2f_ldap.8.gz ]; then
		/usr/libexec/pam_u2f/pam_u2f_ldap >"$OUT" 2>&1
		if [ $? -eq 2 ] && grep -q 'usage: pam_u2f_ldap' "$OUT"; then
			pass "$name"
		else
			fail "$name" "pam_u2f_ldap without arguments:" "$(cat "$OUT")"
		fi
	else
		fail "$name" "$(ldd "$SYSMOD" | grep -c pcsc) libpcsclite" \
		    "$(ls -l /usr/libexec/pam_u2f/ 2>&1)"
	fi
fi

name="carol enrolls with /usr/bin/pamu2fcfg --add, as herself"
if tok_start a; then
	chmod 666 "$(tok_dev a)"
	expect_ok "$name" runuser -u carol -- env HOME=/home/carol \
	    /usr/bin/pamu2fcfg --add
	expect_ok "... pamu2fcfg --check" runuser -u carol -- \
	    env HOME=/home/carol /usr/bin/pamu2fcfg --check
fi

# README's "Many hosts" names authcmd_user = "pam-u2f" and authcmd_cache =
# "/var/cache/pam-u2f": the package made both, and the module uses them as
# they are (the command runs as pam-u2f, the answer is cached, root's).
name="postinst made the system account pam-u2f (no home, no shell) and its group"
pw=$(getent passwd pam-u2f)
uid=$(echo "$pw" | cut -d: -f3)
if [ -n "$pw" ] && [ "$uid" -lt 1000 ] &&
    [ "$(echo "$pw" | cut -d: -f6,7)" = /nonexistent:/usr/sbin/nologin ] &&
    [ ! -e /nonexistent ] && getent group pam-u2f >/dev/null; then
	pass "$name"
else
	fail "$name" "passwd: $pw" "group: $(getent group pam-u2f)"
fi
name="postinst made /var/cache/pam-u2f, root's, 0700"
if [ "$(stat -c '%U %G %a' /var/cache/pam-u2f 2>&1)" = "root root 700" ]; then
	pass "$name"
else
	fail "$name" "$(ls -ld /var/cache/pam-u2f 2>&1)"
fi
mkdir -p /usr/local/libexec
keys=/usr/local/libexec/vmtest-keys
# shellcheck disable=SC2016 # for the script
printf '%s\n' '#!/bin/sh' '[ "$(id -un)" = pam-u2f ] || exit 3' \
    'cat /etc/vmtest-keys' >"$keys"
chmod 755 "$keys"
cp /home/carol/.config/Yubico/u2f_keys /etc/vmtest-keys 2>/dev/null
chmod 644 /etc/vmtest-keys 2>/dev/null
pam_service vmtest-authcmd "auth required pam_u2f.so authcmd=$keys authcmd_user=pam-u2f authcmd_cache=/var/cache/pam-u2f" \
    "account required pam_permit.so"
name="authcmd as the package's pam-u2f, cached in its /var/cache/pam-u2f"
if expect_ok "$name" pamtester vmtest-authcmd carol authenticate; then
	ent=/var/cache/pam-u2f/u-$(printf carol | od -An -tx1 | tr -d ' \n')
	name="... the cache entry is root's, 0600"
	if [ "$(stat -c '%U %a' "$ent" 2>&1)" = "root 600" ]; then
		pass "$name"
	else
		fail "$name" "$(ls -la /var/cache/pam-u2f)"
	fi
fi
rm -f /etc/pam.d/vmtest-authcmd

name="pam-auth-update --enable pam_u2f"
if expect_ok "$name" pam-auth-update --enable pam_u2f; then
	name="... common-auth requires pam_u2f.so after the password"
	if grep -Eq '^auth[[:space:]]+required[[:space:]]+pam_u2f\.so cue' \
	    /etc/pam.d/common-auth; then
		pass "$name"
	else
		fail "$name"
		diag_file /etc/pam.d/common-auth 40
	fi
fi

expect_sudo_root "sudo (Debian's /etc/pam.d/sudo): password + enrolled token succeeds" carol a
expect_fail "sudo: the right token but a wrong password fails" \
    "$sudo_as" carol wrong-password
tok_stop a
if tok_start b; then
	chmod 666 "$(tok_dev b)"
	expect_fail "sudo: another (unenrolled) token is refused" \
	    "$sudo_as" carol "$PASSWORD"
	name="... and it signed nothing"
	if [ "$(tok_signed b)" = 0 ]; then pass "$name"; else fail "$name"; fi
	tok_stop b
fi
expect_fail "sudo: a user with no key enrolled is refused (strict conffile)" \
    "$sudo_as" dave "$PASSWORD"

# An upgrade (the same package again): the profile stays enabled, and
# postinst says to restart long-running PAM users (-z nodelete).
libdeb=$(echo "$debs" | grep '/libpam-u2f-native_')
name="dpkg -i libpam-u2f-native again (an upgrade)"
if [ -n "$libdeb" ] && expect_ok "$name" dpkg -i "$libdeb"; then
	name="... postinst prints the restart hint (-z nodelete)"
	if grep -q 'linked with -z nodelete' "$OUT"; then pass "$name"; else
		fail "$name"
		diag_file "$OUT"
	fi
	name="... and pam_u2f.so stays enabled in common-auth"
	if grep -q 'pam_u2f\.so' /etc/pam.d/common-auth; then pass "$name"
	else fail "$name"; fi
fi

# A line added by hand (README's by-hand route) stays: prerm names it.
pam_service vmtest-byhand "auth required pam_unix.so" \
    "auth required pam_u2f.so cue"
name="apt-get remove libpam-u2f-native takes the line out of common-auth"
if expect_ok "$name" apt-get remove -y libpam-u2f-native; then
	cp "$OUT" "$T/remove.out"
	if grep -q pam_u2f /etc/pam.d/common-auth; then
		fail "$name: common-auth" "$(grep pam_u2f /etc/pam.d/common-auth)"
	else
		pass "... and common-auth no longer names pam_u2f.so"
	fi
	expect_ok "... sudo still works (password)" "$sudo_as" dave "$PASSWORD"
	name="... and it warns of the line added by hand, naming the file"
	if grep -q 'WARNING: pam_u2f.so is being removed' "$T/remove.out" &&
	    grep -q '/etc/pam.d/vmtest-byhand:2: *auth required pam_u2f.so cue' "$T/remove.out" &&
	    ! grep -q '/etc/pam.d/common-auth' "$T/remove.out"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$T/remove.out"
	fi
fi
rm -f /etc/pam.d/vmtest-byhand
name="apt-get purge libpam-u2f-native deletes /var/cache/pam-u2f"
if expect_ok "$name" apt-get purge -y libpam-u2f-native; then
	if [ -e /var/cache/pam-u2f ]; then
		fail "$name" "$(ls -la /var/cache/pam-u2f)"
	else
		pass "... gone"
	fi
	name="... and keeps the system account pam-u2f (Debian's practice)"
	if getent passwd pam-u2f >/dev/null; then pass "$name"; else fail "$name"; fi
fi
