# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 50-interop: Debian's pam-u2f 1.1 (libfido2 inside) and ours share
# keys: a credential enrolled with their pamu2fcfg authenticates with our
# module, and one enrolled with ours authenticates with their pam_u2f.so,
# through pamtester and through real sudo.

mkuser alice
mkuser dave
printf 'dave ALL=(ALL:ALL) ALL\n' >/etc/sudoers.d/vmtest
chmod 440 /etc/sudoers.d/vmtest
theirs=$T/theirs.map	# enrolled by Debian's pamu2fcfg ($OLDCFG)
ours=$T/ours.map	# enrolled by our pamu2fcfg

stack() {	# stack SERVICE MODULE FILE [args]
	ss=$1 sm=$2 sf=$3
	shift 3
	pam_service "$ss" \
	    "auth required $sm authfile=$sf origin=$ORIGIN appid=$ORIGIN $*" \
	    "account required pam_permit.so"
}

if ! tok_start i; then
	fail "interop: the token came up"
	return 0
fi

name="Debian's pamu2fcfg 1.1 enrolls alice"
if need "$name" "$OLDCFG" &&
    expect_ok "$name" "$OLDCFG" -u alice -o "$ORIGIN" -i "$ORIGIN"; then
	{ cat "$OUT.stdout"; echo; } >"$theirs"
	name="... and its line has the format our parser expects"
	if is_mapping alice "$theirs"; then pass "$name"; else
		fail "$name"
		diag_file "$theirs"
	fi
	if need "our module accepts their enrollment" "$OURMOD"; then
		stack vmtest-ours-theirs "$OURMOD" "$theirs" timeout=10
		expect_ok "our module accepts their enrollment (pamtester)" \
		    pamtester vmtest-ours-theirs alice authenticate
	fi
fi

name="our pamu2fcfg enrolls alice and dave"
if need "$name" "$OURCFG" &&
    expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN" -i "$ORIGIN"; then
	{ cat "$OUT.stdout"; echo; } >"$ours"
	run_cmd "$OURCFG" -u dave -o "$ORIGIN" -i "$ORIGIN"
	{ cat "$OUT.stdout"; echo; } >>"$ours"
	[ "$rc" -eq 0 ] || { diag "dave's enrollment failed:"; diag_file "$OUT"; }
	if need "their module accepts our enrollment" "$OLDMOD"; then
		stack vmtest-theirs-ours "$OLDMOD" "$ours"
		expect_ok "their module accepts our enrollment (pamtester)" \
		    pamtester vmtest-theirs-ours alice authenticate

		# Real sudo with their module and our file, as dave.
		pam_service sudo "#%PAM-1.0" \
		    "auth required $OLDMOD authfile=$ours origin=$ORIGIN appid=$ORIGIN" \
		    "@include common-account" \
		    "@include common-session-noninteractive"
		expect_ok "sudo with their module and our enrollment" \
		    runuser -u dave -- sudo -k -S id -u
		pam_service sudo "#%PAM-1.0" \
		    "auth required $OURMOD authfile=$ours origin=$ORIGIN appid=$ORIGIN timeout=10" \
		    "@include common-account" \
		    "@include common-session-noninteractive"
		expect_ok "sudo with our module and our enrollment" \
		    runuser -u dave -- sudo -k -S id -u
	fi
fi

# A token they have never seen: both modules must refuse it.
tok_stop i
if tok_start other && [ -s "$ours" ] && [ -s "$theirs" ]; then
	expect_fail "their module refuses another token" \
	    pamtester vmtest-theirs-ours alice authenticate
	expect_fail "our module refuses another token (their enrollment)" \
	    pamtester vmtest-ours-theirs alice authenticate
	tok_stop other
fi
