# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 90-manual: the module's manual mode against libfido2's real
# fido2-assert on a real hidraw node: pamtester shows the challenge, the
# driver pipes it into `fido2-assert -G -p` and pastes its four output
# lines back as the answers. Refused: answers signed by another token, a
# signature over a tampered client data hash, the tampered hash echoed,
# empty answers.

mkuser alice
map=/etc/u2f_mappings_manual

# $drive MODE DEVICE: pamtester vmtest-manual alice authenticate through
# a coprocess; MODE says what becomes of the challenge (see the script).
# Prints what it saw and sent; exits with pamtester's status.
drive=$T/manual_drive
cat >"$drive" <<'EOF'
#!/bin/bash
# MODE: good (as shown), otherkh (the key handle in $OTHER_KH, for another
# token), tamper (fido2-assert signs a changed cdh, the original cdh is
# echoed), tamperecho (fido2-assert signs a changed cdh and we echo it),
# empty (four empty lines).
set -u
mode=$1 dev=$2
flip() {	# one base64 character of $1 changed, still valid base64
	case ${1:0:1} in
	A) printf 'B%s' "${1:1}" ;;
	*) printf 'A%s' "${1:1}" ;;
	esac
}
coproc P { exec stdbuf -o0 pamtester vmtest-manual alice authenticate 2>&1; }
out=${P[0]} in=${P[1]} pid=$P_PID
chal=()
seen=0
while IFS= read -r -t 20 line <&"$out"; do
	echo "pamtester: $line"
	if [ "$seen" = 1 ] && [ -n "$line" ]; then
		chal+=("$line")
		[ ${#chal[@]} -lt 3 ] || break
	fi
	case $line in *"fido2-assert -G"*) seen=1 ;; esac
done
if [ ${#chal[@]} -ne 3 ]; then
	echo "driver: no challenge (got ${#chal[@]} lines)"
	kill "$pid" 2>/dev/null
	exit 90
fi
cdh=${chal[0]} rp=${chal[1]} kh=${chal[2]}
case $mode in
otherkh) kh=$OTHER_KH ;;
tamper | tamperecho) cdh=$(flip "$cdh") ;;
esac
ans=()
if [ "$mode" != empty ]; then
	printf '%s\n%s\n%s\n' "$cdh" "$rp" "$kh" >/run/vmt/manual.in
	if ! mapfile -t ans < <(fido2-assert -G -p -i /run/vmt/manual.in \
	    "$dev"); then
		echo "driver: fido2-assert failed"
	fi
	echo "driver: fido2-assert printed ${#ans[@]} lines"
	[ "$mode" != tamper ] || ans[0]=${chal[0]}
	[ ${#ans[@]} -ge 4 ] || { kill "$pid" 2>/dev/null; exit 91; }
fi
for i in 0 1 2 3; do
	echo "driver: answer $((i + 1)): ${ans[$i]:-}"
	printf '%s\n' "${ans[$i]:-}" >&"$in"
done
exec {in}>&-
while IFS= read -r -t 20 line <&"$out"; do
	echo "pamtester: $line"
done
wait "$pid"
EOF
chmod 755 "$drive"

name="manual: enroll alice with pamu2fcfg (token m)"
if ! need "$name" "$OURCFG" "$OURMOD" || ! tok_start m; then
	fail "$name" "no module, pamu2fcfg or token"
	return 0
fi
if ! expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN"; then
	return 0
fi
{ cat "$OUT.stdout"; echo; } >"$map"
chmod 644 "$map"
dm=$(tok_dev m)

# expect_refused NAME MODE DEVICE: the driver pasted four answers and the
# module refused them (PAM_AUTH_ERR): not a driver or fido2-assert failure.
expect_refused() {
	name=$1
	shift
	run_cmd "$drive" "$@"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
	    grep -q '^driver: answer 4:' "$OUT" &&
	    grep -q '^pamtester: pamtester: Authentication failure' "$OUT"; then
		pass "$name"
		took
		return 0
	fi
	fail "$name" "exit status $rc, wanted the module's refusal: $*"
	diag_file "$OUT"
	return 1
}

pam_service vmtest-manual \
    "auth required $OURMOD authfile=$map origin=$ORIGIN manual debug" \
    "account required pam_permit.so"

before=$(tok_signed m)
name="manual: fido2-assert -G -p on the token answers the module's challenge"
if expect_ok "$name" "$drive" good "$dm"; then
	name="... the module showed the intro with -p and the challenge"
	if grep -q "fido2-assert -G -p" "$OUT" &&
	    grep -q "^pamtester: $ORIGIN\$" "$OUT"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$OUT"
	fi
fi
name="... and the token signed with user presence"
if [ "$(tok_signed m)" -gt "${before:-0}" ]; then pass "$name"; else
	fail "$name" "no ins=02 p1=03 sw=9000 in the token log"
	diag_file "$T/m.log"
fi

expect_refused "manual: the client data hash fido2-assert signed was changed" \
    tamper "$dm"
name="... though fido2-assert answered the changed challenge"
if grep -q "fido2-assert printed 4 lines" "$OUT"; then pass "$name"; else
	fail "$name"
	diag_file "$OUT"
fi
expect_refused "manual: the changed client data hash echoed back" \
    tamperecho "$dm"
expect_refused "manual: four empty answers" empty "$dm"

# Another token: its own credential for the same origin signs the
# module's challenge; the signature does not verify with alice's key.
name="manual: a credential on another token (token o)"
if tok_start o && expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN" \
    --device="$(tok_dev o)"; then
	okh=$(cut -d: -f2 "$OUT.stdout" | cut -d, -f1)
	name="manual: answers signed by the other token are refused"
	export OTHER_KH="$okh"
	if expect_refused "$name" otherkh "$(tok_dev o)"; then
		name="... though fido2-assert answered"
		if grep -q "fido2-assert printed 4 lines" "$OUT"; then
			pass "$name"
		else
			fail "$name"
			diag_file "$OUT"
		fi
	fi
fi
tok_stop o
expect_ok "manual: the enrolled token still succeeds" "$drive" good "$dm"
