# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 55-interop2: CTAP2 credentials cross the line between Debian's
# pam-u2f 1.1.0 (libfido2 inside) and ours, both ways, on a real hidraw
# node: plain CTAP2, -N (+pin, PIN through the PAM conversation), -V
# (+verification, the token's built-in UV), -P (no +presence, a token
# that is never touched, userpresence=0), -t RS256 and -r (resident
# "*" lines, with and without -N); an EdDSA
# credential made with fido2-cred (1.1.0 predates EdDSA) logs in through
# our module. Their pamu2fcfg reads the PIN on /dev/tty: ptyrun.py
# answers it. Both modules read the PIN from pamtester's standard input.

mkuser carol
PTYRUN="/usr/bin/python3 $VM_SRC/tests/vm/guest/ptyrun.py"
PIN=1234

# svc SERVICE MODULE MAPFILE [args]: a PAM service with one auth line.
# libpam lowercases service names: SERVICE must be lowercase to be unique.
svc() {
	ss=$1 sm=$2 sf=$3
	shift 3
	pam_service "$ss" \
	    "auth required $sm authfile=$sf origin=$ORIGIN appid=$ORIGIN $*" \
	    "account required pam_permit.so"
}

# login NAME WANT SERVICE [STDIN-LINE]: pamtester carol authenticate with
# STDIN-LINE (a PIN, or nothing) on its standard input; WANT is ok|fail.
login() {
	ln=$1 lw=$2 ls=$3
	printf '%s\n' "${4-}" >"$T/stdin"
	rs=$(date +%s)
	timeout -k 5 "$TMO" pamtester "$ls" carol authenticate \
	    <"$T/stdin" >"$OUT" 2>&1
	rc=$?
	rs=$(($(date +%s) - rs))
	case $lw:$rc in
	ok:0) pass "$ln"; took; return 0 ;;
	fail:124 | fail:137) fail "$ln" "hung: killed after ${TMO}s" ;;
	fail:0) fail "$ln" "succeeded, wanted a failure" ;;
	fail:*) pass "$ln"; took; return 0 ;;
	*) fail "$ln" "exit status $rc, wanted 0" ;;
	esac
	diag_file "$OUT"
	return 1
}

# theirs TAG NAME [pamu2fcfg options]: Debian's pamu2fcfg enrolls carol
# on the current token (PIN $PIN if it asks) into $T/TAG.map.
theirs() {
	tt=$1 tn=$2
	shift 2
	printf '%s\n' "$PIN" >"$T/their.pins"
	need "$tn" "$OLDCFG" || return 1
	# shellcheck disable=SC2086 # PTYRUN is "python3 ptyrun.py"
	expect_ok "$tn" $PTYRUN "$T/their.pins" "$OLDCFG" -u carol \
	    -o "$ORIGIN" -i "$ORIGIN" "$@" || return 1
	{ cat "$OUT.stdout"; echo; } >"$T/$tt.map"
}

# ours TAG NAME [pamu2fcfg options]: our pamu2fcfg enrolls carol on the
# current token ($PIN on standard input) into $T/TAG.map.
ours() {
	ot=$1 on=$2
	shift 2
	need "$on" "$OURCFG" || return 1
	printf '%s\n' "$PIN" >"$T/our.pin"
	rs=$(date +%s)
	timeout -k 5 "$TMO" "$OURCFG" -u carol -o "$ORIGIN" -i "$ORIGIN" \
	    --pin-stdin "$@" <"$T/our.pin" >"$OUT.stdout" 2>"$OUT.stderr"
	rc=$?
	rs=$(($(date +%s) - rs))
	cat "$OUT.stdout" "$OUT.stderr" >"$OUT"
	if [ "$rc" -ne 0 ]; then
		fail "$on" "exit status $rc"
		diag_file "$OUT"
		return 1
	fi
	pass "$on"
	cp "$OUT.stdout" "$T/$ot.map"
}

# has_line NAME TAG REGEX: carol's line in $T/TAG.map matches REGEX
# (after "carol:KH,PK,").
has_line() {
	if grep -Eq "^carol:[A-Za-z0-9+/=]+,[A-Za-z0-9+/=]+,$3\$" "$T/$2.map"
	then
		pass "$1"
	else
		fail "$1" "wanted carol:KH,PK,$3 in:"
		diag_file "$T/$2.map"
	fi
}

# has_rk NAME TAG REGEX: the same for a resident line ("*" key handle).
has_rk() {
	if grep -Eq "^carol:\*,[A-Za-z0-9+/=]+,$3\$" "$T/$2.map"; then
		pass "$1"
	else
		fail "$1" "wanted carol:*,PK,$3 in:"
		diag_file "$T/$2.map"
	fi
}

# mark TOKEN, then saw NAME TOKEN REGEX: TOKEN's log has a line matching
# REGEX after the mark, so a refusal is the one meant (not, say, a token
# that was never asked).
mark() { tm=$(wc -l <"$T/$1.log" 2>/dev/null) || tm=0; }
# (the cancel's line may come after the module has gone: settle)
saw_has() { tail -n +"$((tm + 1))" "$T/$1.log" | grep -Eq "$2"; }
saw() {
	if settle 30 saw_has "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "no '$3' in token $2's log since the mark:"
		tail -n +"$((tm + 1))" "$T/$2.log" >"$T/saw"
		diag_file "$T/saw"
	fi
}

# ---- plain CTAP2 and RS256: a 2.1 token without a PIN ------------------
if tok_start plain --ctap2 2.1; then
	if theirs tp "Debian's pamu2fcfg enrolls a plain CTAP2 credential"; then
		has_line "... es256,+presence" tp 'es256,\+presence'
		svc i2-ours-tp "$OURMOD" "$T/tp.map" timeout=10
		login "our module logs in with it" ok i2-ours-tp
	fi
	if ours op "our pamu2fcfg enrolls a plain CTAP2 credential"; then
		has_line "... es256,+presence" op 'es256,\+presence'
		svc i2-theirs-op "$OLDMOD" "$T/op.map"
		login "their module logs in with it" ok i2-theirs-op
	fi
	if theirs trs "Debian's pamu2fcfg -t RS256" -t RS256; then
		has_line "... rs256,+presence" trs 'rs256,\+presence'
		svc i2-ours-trs "$OURMOD" "$T/trs.map" timeout=10
		login "our module logs in with their RS256 credential" ok \
		    i2-ours-trs
	fi
	if ours ors "our pamu2fcfg -t RS256" -t RS256; then
		has_line "... rs256,+presence" ors 'rs256,\+presence'
		svc i2-theirs-ors "$OLDMOD" "$T/ors.map"
		login "their module logs in with our RS256 credential" ok \
		    i2-theirs-ors
	fi
	# EdDSA from fido2-cred: the 32-byte key from its PEM, as pam-u2f
	# 1.2+ and we write it.
	printf '%s\n%s\ncarol\n%s\n' "$(head -c 32 /dev/urandom | base64 -w0)" \
	    "$ORIGIN" "$(head -c 32 /dev/urandom | base64 -w0)" >"$T/ed.in"
	if expect_ok "fido2-cred -M makes an EdDSA credential for $ORIGIN" \
	    fido2-cred -M -i "$T/ed.in" "$(tok_dev plain)" eddsa &&
	    cp "$OUT.stdout" "$T/ed.out" &&
	    expect_ok "... fido2-cred -V verifies it" \
	    fido2-cred -V -i "$T/ed.out" -o "$T/ed.key" eddsa; then
		sed 1d "$T/ed.key" | openssl pkey -pubin -outform DER |
		    tail -c 32 | base64 -w0 >"$T/ed.pk"
		printf 'carol:%s,%s,eddsa,+presence\n' "$(head -1 "$T/ed.key")" \
		    "$(cat "$T/ed.pk")" >"$T/ed.map"
		has_line "... its mapping line (32-byte key)" ed \
		    'eddsa,\+presence'
		svc i2-ours-ed "$OURMOD" "$T/ed.map" timeout=10
		login "our module logs in with the fido2-cred EdDSA credential" \
		    ok i2-ours-ed
	fi
	tok_stop plain
fi
# Another token holds none of those credentials: both modules refuse.
if tok_start stranger --ctap2 2.1 && [ -s "$T/tp.map" ]; then
	mark stranger
	login "our module refuses a token that does not hold it" fail \
	    i2-ours-tp &&
	    saw "... which answered NO_CREDENTIALS (0x2e)" stranger \
	    'cmd=02 status=2e'
	mark stranger
	[ -s "$T/op.map" ] &&
	    login "their module refuses a token that does not hold it" fail \
	    i2-theirs-op &&
	    saw "... which answered NO_CREDENTIALS (0x2e)" stranger \
	    'cmd=02 status=2e'
	tok_stop stranger
fi

# ---- -N: a token with a PIN; +pin lines, the PIN through PAM ----------
if tok_start pin --ctap2 2.1 --pin "$PIN"; then
	if theirs tn "Debian's pamu2fcfg -N (PIN on the terminal)" -N; then
		has_line "... es256,+presence+pin" tn 'es256,\+presence\+pin'
		svc i2-ours-tn "$OURMOD" "$T/tn.map" timeout=10
		login "our module logs in with their +pin credential and the PIN" \
		    ok i2-ours-tn "$PIN"
		mark pin
		login "... and refuses a wrong PIN" fail i2-ours-tn 9999 &&
		    saw "... which the token called PIN_INVALID (0x31)" pin \
		    'cmd=06 status=31'
	fi
	if ours on "our pamu2fcfg -N --pin-stdin" -N; then
		has_line "... es256,+presence+pin" on 'es256,\+presence\+pin'
		svc i2-theirs-on "$OLDMOD" "$T/on.map"
		login "their module logs in with our +pin credential and the PIN" \
		    ok i2-theirs-on "$PIN"
		mark pin
		login "... and refuses a wrong PIN" fail i2-theirs-on 9999 &&
		    saw "... which the token called PIN_INVALID (0x31)" pin \
		    'cmd=06 status=31'
	fi
	# Real sudo: the password, then the PIN, both on sudo -S's stdin.
	if [ -s "$T/tn.map" ]; then
		pam_service sudo "#%PAM-1.0" \
		    "auth required $OURMOD authfile=$T/tn.map origin=$ORIGIN appid=$ORIGIN timeout=10" \
		    "@include common-account" \
		    "@include common-session-noninteractive"
		printf 'carol ALL=(ALL:ALL) ALL\n' >/etc/sudoers.d/vmtest2
		chmod 440 /etc/sudoers.d/vmtest2
		printf '%s\n' '#!/bin/sh' \
		    "printf '%s\\n' '$PIN' | runuser -u carol -- sudo -k -S id -u" \
		    >"$T/sudo_pin"
		chmod 755 "$T/sudo_pin"
		if expect_ok "sudo with our module, their +pin credential and the PIN" \
		    "$T/sudo_pin" && ! grep -qx 0 "$OUT.stdout"; then
			fail "... runs the command as root" "$(cat "$OUT")"
		fi
		rm -f /etc/sudoers.d/vmtest2
	fi
	tok_stop pin
fi

# ---- -V: a token with built-in UV; +verification lines -----------------
if tok_start uv --ctap2 2.1 --uv ok; then
	if theirs tv "Debian's pamu2fcfg -V (built-in UV)" -V; then
		has_line "... es256,+presence+verification" tv \
		    'es256,\+presence\+verification'
		svc i2-ours-tv "$OURMOD" "$T/tv.map" timeout=10
		login "our module logs in with their +verification credential" \
		    ok i2-ours-tv
	fi
	if ours ov "our pamu2fcfg -V" -V; then
		has_line "... es256,+presence+verification" ov \
		    'es256,\+presence\+verification'
		svc i2-theirs-ov "$OLDMOD" "$T/ov.map"
		login "their module logs in with our +verification credential" \
		    ok i2-theirs-ov
	fi
	tok_stop uv
fi
# The same token, its UV now failing: neither module says yes.
if tok_start uv --ctap2 2.1 --uv fail && [ -s "$T/tv.map" ]; then
	mark uv
	login "our module refuses when the token's UV fails" fail i2-ours-tv &&
	    saw "... which answered UV_INVALID (0x3f)" uv 'status=3f'
	mark uv
	[ -s "$T/ov.map" ] &&
	    login "their module refuses when the token's UV fails" fail \
	    i2-theirs-ov &&
	    saw "... which answered UV_INVALID (0x3f)" uv 'status=3f'
	tok_stop uv
fi

# ---- -P: no +presence; a token that is never touched ------------------
if tok_start np --ctap2 2.1; then
	theirs tnoup "Debian's pamu2fcfg -P" -P &&
	    has_line "... es256, with no flags" tnoup 'es256,'
	ours onoup "our pamu2fcfg -P" -P &&
	    has_line "... es256, with no flags" onoup 'es256,'
	tok_stop np
fi
if tok_start np --ctap2 2.1 --presence never; then
	if [ -s "$T/tnoup.map" ]; then
		svc i2-ours-tnoup "$OURMOD" "$T/tnoup.map" timeout=10 userpresence=0
		login "our module, userpresence=0: their -P credential, no touch" \
		    ok i2-ours-tnoup
		svc i2-ours-tnoup1 "$OURMOD" "$T/tnoup.map" timeout=2
		mark np
		login "... without userpresence=0 it waits for a touch, refused" \
		    fail i2-ours-tnoup1 &&
		    saw "... the token kept asking for one" np 'keepalive' &&
		    saw "... and the module cancelled it (KEEPALIVE_CANCEL)" \
		    np 'cmd=02 status=2d'
	fi
	if [ -s "$T/onoup.map" ]; then
		svc i2-theirs-onoup "$OLDMOD" "$T/onoup.map" userpresence=0
		login "their module, userpresence=0: our -P credential, no touch" \
		    ok i2-theirs-onoup
	fi
	tok_stop np
fi

# ---- -r: resident credentials ("*" lines), found by the key itself ----
if tok_start rk --ctap2 2.1; then
	if theirs trk "Debian's pamu2fcfg -r (resident)" -r; then
		has_rk "... a \"*\" line, es256,+presence" trk 'es256,\+presence'
		svc i2-ours-trk "$OURMOD" "$T/trk.map" timeout=10
		login "our module logs in with their resident credential" ok \
		    i2-ours-trk
	fi
	if ours ork "our pamu2fcfg -r" -r; then
		has_rk "... a \"*\" line, es256,+presence" ork 'es256,\+presence'
		svc i2-theirs-ork "$OLDMOD" "$T/ork.map"
		login "their module logs in with our resident credential" ok \
		    i2-theirs-ork
	fi
	# The token now holds both, ours the newer: it answers ours first.
	mark rk
	[ -s "$T/trk.map" ] && [ -s "$T/ork.map" ] &&
	    login "our module, their line, ours newer on the key" ok \
	    i2-ours-trk &&
	    saw "... their credential reached with GetNextAssertion" rk \
	    'cmd=08 status=00'
	tok_stop rk
fi
# Resident with a PIN: -r -N both ways, the PIN through the conversation.
if tok_start rkpin --ctap2 2.1 --pin "$PIN"; then
	if theirs trkn "Debian's pamu2fcfg -r -N" -r -N; then
		has_rk "... a \"*\" line, es256,+presence+pin" trkn \
		    'es256,\+presence\+pin'
		svc i2-ours-trkn "$OURMOD" "$T/trkn.map" timeout=10
		login "our module logs in with it and the PIN" ok i2-ours-trkn \
		    "$PIN"
		mark rkpin
		login "... and refuses a wrong PIN" fail i2-ours-trkn 9999 &&
		    saw "... which the token called PIN_INVALID (0x31)" rkpin \
		    'cmd=06 status=31'
	fi
	if ours orkn "our pamu2fcfg -r -N" -r -N; then
		has_rk "... a \"*\" line, es256,+presence+pin" orkn \
		    'es256,\+presence\+pin'
		svc i2-theirs-orkn "$OLDMOD" "$T/orkn.map"
		login "their module logs in with it and the PIN" ok \
		    i2-theirs-orkn "$PIN"
	fi
	tok_stop rkpin
fi
