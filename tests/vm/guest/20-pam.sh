# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 20-pam: our module in real PAM stacks: pamtester, Debian's own
# /etc/pam.d/login, and real sudo (setuid, its own PAM conversation) with
# /etc/pam.d/sudo replaced in the overlay: with the token, without it,
# with another token.

mkuser alice
mkuser bob
mkuser carol
sudoers=/etc/sudoers.d/vmtest
printf 'alice ALL=(ALL:ALL) ALL\ncarol ALL=(ALL:ALL) ALL\n' >"$sudoers"
chmod 440 "$sudoers"
central=/etc/u2f_mappings

name="enroll alice (central file) and carol (~/.config) with pamu2fcfg"
if ! need "$name" "$OURCFG" "$OURMOD"; then
	:
elif ! tok_start a; then
	fail "$name" "the token did not come up"
elif expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN"; then
	{ cat "$OUT.stdout"; echo; } >"$central"
	chmod 644 "$central"
	chmod 666 "$(tok_dev a)"
	run_cmd runuser -u carol -- env HOME=/home/carol "$OURCFG" \
	    -o "$ORIGIN" --add
	[ "$rc" -eq 0 ] || { diag "carol's enrollment failed:"; diag_file "$OUT"; }
	chmod 600 "$(tok_dev a)"
fi

pam_service vmtest-ours \
    "auth required $OURMOD authfile=$central origin=$ORIGIN timeout=10" \
    "account required pam_permit.so"
# nouserok makes the module step aside (PAM_IGNORE): the stack's other
# modules decide.
pam_service vmtest-nouserok "auth required pam_permit.so" \
    "auth required $OURMOD authfile=$central origin=$ORIGIN timeout=10 nouserok" \
    "account required pam_permit.so"

before=$(tok_signed a)
expect_ok "pamtester: our module authenticates alice with her token" \
    pamtester -v vmtest-ours alice authenticate
name="... and the token signed with user presence"
if [ "$(tok_signed a)" -gt "${before:-0}" ]; then
	pass "$name"
else
	fail "$name" "no ins=02 p1=03 sw=9000 in the token log"
	diag_file "$T/a.log"
fi
expect_fail "pamtester: a user with no mapping is refused" \
    pamtester vmtest-ours bob authenticate
expect_ok "pamtester: ... unless nouserok (then the rest of the stack decides)" \
    pamtester vmtest-nouserok bob authenticate

# Debian's own login stack, with our module after the password.
sed "s|^@include common-auth|&\nauth required $OURMOD authfile=$central origin=$ORIGIN timeout=10|" \
    /etc/pam.d/login >"$T/login" && cat "$T/login" >/etc/pam.d/login
expect_ok "pamtester login: password + token" \
    sh -c "echo '$PASSWORD' | pamtester login alice authenticate"

# sudo: Debian's common-auth (password), then our module from the
# per-user default file (~/.config/Yubico/u2f_keys, read as the user).
pam_service sudo "#%PAM-1.0" \
    "@include common-auth" \
    "auth required $OURMOD origin=$ORIGIN timeout=10 cue cue_prompt=VMCUE-touch" \
    "@include common-account" \
    "@include common-session-noninteractive"

sudo_as=$T/sudo_as	# $sudo_as USER PASSWORD: sudo id -u as USER
# shellcheck disable=SC2016 # expanded by the script
printf '%s\n' '#!/bin/sh' \
    'echo "$2" | runuser -u "$1" -- sudo -k -S id -u' >"$sudo_as"
chmod 755 "$sudo_as"
name="sudo: password + token succeeds"
if expect_ok "$name" "$sudo_as" carol "$PASSWORD"; then
	name="... and runs the command as root"
	if grep -qx 0 "$OUT.stdout"; then pass "$name"; else
		fail "$name" "stdout: $(cat "$OUT.stdout")"
	fi
	name="... and sudo showed the module's cue (cue_prompt=)"
	if grep -q VMCUE-touch "$OUT"; then pass "$name"; else
		fail "$name"
		diag_file "$OUT"
	fi
fi
expect_fail "sudo: wrong password + token fails" "$sudo_as" carol wrong-password
expect_fail "sudo: a user whose file is elsewhere fails" \
    "$sudo_as" alice "$PASSWORD"
tok_stop a
if expect_fail "sudo: without the token fails" "$sudo_as" carol "$PASSWORD"
then
	name="... and sudo showed 'No security key found. Insert your key'"
	if grep -q 'No security key found. Insert your key' "$OUT"; then pass "$name"; else
		fail "$name"
		diag_file "$OUT"
	fi
fi
if tok_start b; then
	expect_fail "sudo: with another token fails" "$sudo_as" carol "$PASSWORD"
	name="... and the other token signed nothing"
	if [ "$(tok_signed b)" = 0 ]; then pass "$name"; else
		fail "$name"
		diag_file "$T/b.log"
	fi
	tok_stop b
fi
if tok_start a; then
	expect_ok "sudo: the same token again succeeds" \
	    "$sudo_as" carol "$PASSWORD"
	tok_stop a
fi
