# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 25-trysudo: README's "Try it with sudo, no key needed", as
# written. The shell blocks of its steps 1, 3 and 4 are read from the
# README (only `u=` and `B=` set to this test's user and build tree; the
# interactive `su - "$u" -c 'sudo ...'` lines are left out and run as
# $sudo_as, which gives sudo the password on stdin). Real sudo: password +
# the software token's signature succeeds; with the token stopped it is
# refused; step 4 puts /etc/pam.d/sudo back byte for byte and leaves no
# /run/pam_u2f-try.

tryuser=vmtry
mkuser "$tryuser"
printf '%s ALL=(ALL:ALL) ALL\n' "$tryuser" >/etc/sudoers.d/vmtest
chmod 440 /etc/sudoers.d/vmtest
sudo_setup
cp /etc/pam.d/sudo "$T/sudo.before"

# readme_step N: the shell lines of step N's indented blocks (8 spaces).
readme_step() {
	awk -v want="$1" '
	    /^Try it with sudo, no key needed$/ { in_sec = 1; next }
	    in_sec && /^[A-Z].*/ && !/^ / { if (seen) exit }
	    in_sec && /^[0-9]\. / { step = $1 + 0; seen = 1; next }
	    in_sec && step == want && /^        / { print substr($0, 9) }
	' "$VM_SRC/README" |
	    sed -e "s|^u=alice .*|u=$tryuser|" -e "s|^B=\\\$PWD/build/demo/obj .*|B=$B|" |
	    grep -v '^su - '
}
for s in 1 3 4; do
	readme_step "$s" >"$T/step$s.sh"
done
name="README's steps 1, 3 and 4 found (with u= and B= lines in step 1)"
if grep -q "^u=$tryuser\$" "$T/step1.sh" && grep -q "^B=$B\$" "$T/step1.sh" &&
    grep -q softtoken "$T/step1.sh" && grep -q '^kill ' "$T/step3.sh" &&
    grep -q 'sudo.orig /etc/pam.d/sudo' "$T/step4.sh"; then
	pass "$name"
else
	fail "$name"
	diag_file "$T/step1.sh"
	diag_file "$T/step3.sh"
	diag_file "$T/step4.sh"
fi
expect_ok "step 1: start the token, enroll, add the sudo line" \
    sh -e "$T/step1.sh"
name="... /etc/pam.d/sudo has the line after @include common-auth"
if grep -A1 '^@include common-auth' /etc/pam.d/sudo |
    grep -q 'pam_u2f.so authfile=/run/pam_u2f-try/u2f_keys devices=unix:'; then
	pass "$name"
else
	fail "$name"
	diag_file /etc/pam.d/sudo
fi
expect_ok "step 2: sudo with the password and the token" \
    "$sudo_as" "$tryuser" "$PASSWORD"
name="... ran as root, after the touch cue"
if grep -qx 0 "$OUT.stdout" && grep -q 'Please touch' "$OUT"; then
	pass "$name"
else
	fail "$name"
	diag_file "$OUT"
fi
expect_fail "... with a wrong password, refused" "$sudo_as" "$tryuser" wrong-pw
expect_ok "step 3: stop the token" sh -e "$T/step3.sh"
expect_fail "... then sudo is refused" "$sudo_as" "$tryuser" "$PASSWORD"
name="... saying no key was found"
if grep -qi 'no security key' "$OUT"; then pass "$name"; else
	fail "$name"
	diag_file "$OUT"
fi
expect_ok "step 4: put everything back" sh "$T/step4.sh"
name="... /etc/pam.d/sudo as before, /run/pam_u2f-try gone"
if cmp -s /etc/pam.d/sudo "$T/sudo.before" && [ ! -e /run/pam_u2f-try ]; then
	pass "$name"
else
	fail "$name" "$(diff "$T/sudo.before" /etc/pam.d/sudo; ls -ld /run/pam_u2f-try 2>&1)"
fi
expect_ok "... and sudo with the password alone works again" \
    "$sudo_as" "$tryuser" "$PASSWORD"
rm -f /etc/sudoers.d/vmtest
