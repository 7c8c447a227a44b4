# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 10-token: the uhid token makes a real hidraw node; our discovery
# finds it with no device path; pamu2fcfg enrolls as root and as a user;
# a root-only node gives a non-root user a clear permission message; a
# keyboard node and a FIDO node with report IDs are named as such; root
# enrolls another user into that user's own file, as that user.

name="uhid token creates a FIDO hidraw node"
if need "$name" "$SOFTTOKEN" && tok_start a; then
	d=$(tok_dev a)
	rd=/sys/class/hidraw/${d#/dev/}/device/report_descriptor
	usage=$(od -An -tx1 -N5 "$rd" | tr -d ' \n')
	if [ "$usage" = 06d0f10901 ]; then
		pass "$name ($d)"
	else
		fail "$name" "$rd starts with $usage, not 06d0f10901"
	fi
else
	fail "$name" "the token did not come up"
fi

# No udev in the guest: devtmpfs makes the node 0600 root, which the
# permission test below relies on.
name="hidraw node is root-only without udev"
if [ -e "$T/a.dev" ] && [ "$(stat -c %a:%U "$(tok_dev a)")" = 600:root ]; then
	pass "$name"
else
	fail "$name" "$(ls -l /dev/hidraw* 2>&1)"
fi

name="pamu2fcfg enrolls root through discovery (no --device)"
if need "$name" "$OURCFG" && [ -e "$T/a.dev" ] &&
    expect_ok "$name" "$OURCFG" -v -u root -o "$ORIGIN"; then
	cp "$OUT.stdout" "$T/root.map"
	name="pamu2fcfg prints a pam-u2f mapping line"
	if is_mapping root "$T/root.map"; then
		pass "$name"
	else
		fail "$name" "got: $(cat "$T/root.map")"
	fi
	name="pamu2fcfg -v names the discovered node"
	if grep -q "$(tok_dev a)" "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name" "$(tok_dev a) not in:"
		diag_file "$OUT.stderr"
	fi
fi

name="token signed one registration"
if grep -q '^ins=01 p1=.. sw=9000' "$T/a.log" 2>/dev/null; then
	pass "$name"
else
	fail "$name" "token log:"
	diag_file "$T/a.log"
fi

mkuser bob
name="non-root pamu2fcfg on a root-only node: clear permission message"
if need "$name" "$OURCFG" && [ -e "$T/a.dev" ] &&
    expect_fail "$name" runuser -u bob -- "$OURCFG" -u bob -o "$ORIGIN" \
    --timeout 3; then
	name="... and says permission denied"
	if grep -qi 'permission denied' "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name" "wanted 'permission denied' in:"
		diag_file "$OUT.stderr"
	fi
	name="... and names the node, its owner and mode"
	if grep -q "^pamu2fcfg: $(tok_dev a) (.*): owner root, group root, mode 0600\$" \
	    "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name" "wanted '$(tok_dev a) (...): owner root, group root, mode 0600' in:"
		diag_file "$OUT.stderr"
	fi
fi

name="non-root pamu2fcfg --add on an opened-up node"
if need "$name" "$OURCFG" && [ -e "$T/a.dev" ]; then
	chmod 666 "$(tok_dev a)"
	if expect_ok "$name" runuser -u bob -- env HOME=/home/bob \
	    "$OURCFG" -o "$ORIGIN" --add; then
		f=/home/bob/.config/Yubico/u2f_keys
		name="--add wrote bob's ~/.config/Yubico/u2f_keys"
		if is_mapping bob "$f" && [ "$(stat -c %U "$f")" = bob ]; then
			pass "$name"
		else
			fail "$name" "$(ls -l "$f" 2>&1)"
			diag_file "$f"
		fi
	fi
	f=/home/bob/.config/Yubico/u2f_keys
	[ -s "$f" ] && expect_ok "non-root pamu2fcfg --check authenticates bob" \
	    runuser -u bob -- env HOME=/home/bob "$OURCFG" -o "$ORIGIN" --check
	chmod 600 "$(tok_dev a)"
fi
tok_stop a

name="pamu2fcfg with no key fails cleanly"
if need "$name" "$OURCFG" &&
    expect_fail "$name" "$OURCFG" -u root -o "$ORIGIN" --timeout 2; then
	name="... saying no security key was found"
	if grep -qi 'no security key' "$OUT.stderr"; then pass "$name"; else
		fail "$name"
		diag_file "$OUT"
	fi
fi

name="pamu2fcfg with an untouched key times out cleanly"
if need "$name" "$OURCFG" && tok_start a --presence never; then
	: >"$T/a.log"	# this run's requests only
	if expect_fail "$name" "$OURCFG" -u root -o "$ORIGIN" --timeout 3; then
		name="... saying the touch timed out"
		if grep -q 'touch timed out' "$OUT.stderr"; then pass "$name"
		else
			fail "$name"
			diag_file "$OUT"
		fi
		paced "... asking only within its --timeout (3 s)" \
		    "$T/a.log" '^ins=01 .*sw=6985' 3000
	fi
	tok_stop a
fi

# A node that is not a FIDO interface (a key's OTP keyboard): named at
# once, before the first wait (no "waiting up to" line), not after the
# whole --timeout as "no security key found".
name="pamu2fcfg --device on a keyboard node: refused at once, named"
if need "$name" "$OURCFG" && tok_start kbd --rdesc keyboard; then
	d=$(tok_dev kbd)
	run_cmd "$OURCFG" -u root -o "$ORIGIN" --timeout 30 --device "$d"
	if [ "$rc" -eq 3 ] &&
	    grep -q "$d is not a FIDO interface" "$OUT.stderr" &&
	    ! grep -q 'waiting up to' "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name" "exit status $rc"
		diag_file "$OUT"
	fi
	tok_stop kbd
fi

# FIDO with report IDs: named at --device, and when discovery skips it.
name="pamu2fcfg names a FIDO node with report IDs (--device, discovery)"
if need "$name" "$OURCFG" && tok_start rid --rdesc report-ids; then
	d=$(tok_dev rid)
	msg="$d is a FIDO interface whose report descriptor uses report IDs"
	run_cmd "$OURCFG" -u root -o "$ORIGIN" --timeout 30 --device "$d"
	r1=$rc
	grep -q "$msg, which pamu2fcfg does not support\$" "$OUT.stderr"
	g1=$?
	run_cmd "$OURCFG" -u root -o "$ORIGIN" --timeout 1
	if [ "$r1" -eq 3 ] && [ "$g1" -eq 0 ] && [ "$rc" -eq 3 ] &&
	    grep -q "$msg, which pamu2fcfg does not support: skipped" \
	    "$OUT.stderr"; then
		pass "$name"
	else
		fail "$name" "exit status $r1, then $rc"
		diag_file "$OUT"
	fi
	tok_stop rid
fi

# root for another user, no FILE: dave's own file, written as dave (with
# root's HOME and XDG_CONFIG_HOME set, which must not be used).
name="root: pamu2fcfg -u dave --add writes dave's own file as dave"
df=/home/dave/.config/Yubico/u2f_keys
if need "$name" "$OURCFG" && mkuser dave && tok_start a; then
	rm -rf /root/.vmxdg
	before=$(ls -la /root/.config/Yubico 2>&1)
	run_cmd env HOME=/root XDG_CONFIG_HOME=/root/.vmxdg "$OURCFG" \
	    -u dave -o "$ORIGIN" --add
	if [ "$rc" -eq 0 ] && is_mapping dave "$df" &&
	    [ "$(stat -c %U:%a "$df")" = dave:600 ] &&
	    [ "$(stat -c %U:%a /home/dave/.config/Yubico)" = dave:700 ] &&
	    [ ! -e /root/.vmxdg ] &&
	    [ "$(ls -la /root/.config/Yubico 2>&1)" = "$before" ]; then
		pass "$name"
	else
		fail "$name" "exit status $rc; $(ls -la "$df" 2>&1)"
		diag_file "$OUT"
	fi
	chmod 666 "$(tok_dev a)"
	expect_ok "... and dave's own pamu2fcfg --check uses it" \
	    runuser -u dave -- env HOME=/home/dave "$OURCFG" -o "$ORIGIN" \
	    --check
	tok_stop a
fi
