# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group byhand (tests/run.sh stage deb): README's "Build and install by
# hand" and "Setting up sudo" on Debian 12, with the build tree $B as
# configured by default (tests/run.sh gcc: ./configure with no paths).
# make install refuses while Debian's libpam-u2f owns the module's path;
# after apt remove it installs the module where libpam looks, pamu2fcfg in
# /usr/local/bin, the example /etc/security/pam_u2f.conf; a user enrolls
# with pamu2fcfg --add; README's line "auth required pam_u2f.so cue" after
# @include common-auth in /etc/pam.d/sudo; real sudo with the token
# succeeds, with another token fails.

mkuser carol
printf 'carol ALL=(ALL:ALL) ALL\n' >/etc/sudoers.d/vmtest
chmod 440 /etc/sudoers.d/vmtest
sudo_setup
apt_local_only
asuser=$T/asuser	# $asuser USER CMD...: as the user, a login-like PATH
# shellcheck disable=SC2016 # expanded by the script
printf '%s\n' '#!/bin/sh' 'u=$1' 'shift' \
    'exec runuser -u "$u" -- env HOME="/home/$u" PATH=/usr/local/bin:/usr/bin:/bin "$@"' \
    >"$asuser"
chmod 755 "$asuser"

debian_pu_installed "Debian's libpam-u2f and pamu2fcfg installed first"
name="make install refuses to overwrite Debian's libpam-u2f"
if expect_fail "$name" make -C "$B" install; then
	name="... and says which package owns what"
	if grep -q "pam_u2f.so belongs to Debian's package libpam-u2f" "$OUT"
	then pass "$name"; else fail "$name"; diag_file "$OUT"; fi
fi
expect_ok "apt-get remove libpam-u2f pamu2fcfg" \
    apt-get remove -y libpam-u2f pamu2fcfg
expect_ok "make install" make -C "$B" install
name="... module in libpam's directory, pamu2fcfg in /usr/local/bin, example config"
if [ -f "$SYSMOD" ] && cmp -s "$SYSMOD" "$B/pam_u2f/.libs/pam_u2f.so" &&
    [ -x /usr/local/bin/pamu2fcfg ] &&
    [ -f /usr/local/share/man/man8/pam_u2f.8 ] &&
    cmp -s /etc/security/pam_u2f.conf "$VM_SRC/etc/pam_u2f.conf.example"
then
	pass "$name"
else
	fail "$name" "$(ls -l "$SYSMOD" /usr/local/bin/pamu2fcfg \
	    /etc/security/pam_u2f.conf 2>&1)"
fi

if tok_start a; then
	chmod 666 "$(tok_dev a)"
	expect_ok "step 2: pamu2fcfg --add, as the user" "$asuser" carol \
	    pamu2fcfg --add
	expect_ok "step 3: pamu2fcfg --check" "$asuser" carol pamu2fcfg --check
fi

# Step 4, README's line, after @include common-auth.
sed 's|^@include common-auth|&\nauth required pam_u2f.so cue|' \
    /etc/pam.d/sudo >"$T/sudo" && cat "$T/sudo" >/etc/pam.d/sudo
expect_sudo_root "step 5: sudo with password + token succeeds" carol a
: >"$T/dbg.log"
pam_service vmtest-dbg "auth required pam_u2f.so debug debug_file=$T/dbg.log" \
    "account required pam_permit.so"
run_cmd pamtester vmtest-dbg carol authenticate
name="debug names the config file it read"
if [ "$rc" -eq 0 ] &&
    grep -q 'config file /etc/security/pam_u2f.conf: read' "$T/dbg.log"; then
	pass "$name"
else
	fail "$name" "pamtester exit $rc"
	diag_file "$T/dbg.log"
fi
tok_stop a
if tok_start b; then
	chmod 666 "$(tok_dev b)"
	expect_fail "sudo with another token fails" "$sudo_as" carol "$PASSWORD"
	tok_stop b
fi
