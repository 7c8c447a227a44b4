# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 45-fido2: Debian's fido2-tools (libfido2) check the software
# token's CTAP2 over the real kernel path (uhid -> hidraw): fido2-token
# -L/-I/-S/-C, fido2-cred -M/-V for es256, eddsa and rs256, fido2-assert
# -G/-V with -t pin=true and -t uv=true, the UP and UV bits checked by
# fido2-assert -V -p/-v. libfido2 reads PINs on /dev/tty (readpassphrase):
# ptyrun.py gives each command a terminal and answers its prompts.

rp=vmtest.example
PTYRUN="/usr/bin/python3 $VM_SRC/tests/vm/guest/ptyrun.py"
b64() { head -c "$1" /dev/urandom | base64 -w0; }

# pins NAME PIN...: the answers to the next command's prompts.
pins() {
	pn=$T/$1.pins
	shift
	printf '%s\n' "$@" >"$pn"
}

# grep_out NAME PATTERN FILE: pass if FILE has a line matching PATTERN.
grep_out() {
	if grep -Eq "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "no line matching '$2' in:"
		diag_file "$3" 40
	fi
}

# tok_alive NAME: the token is still running after all that (its hidraw
# node is there, and it is not a zombie: kill -0 would not tell).
tok_alive() {
	if [ -c "$(tok_dev "$1")" ] &&
	    ! grep -q '^State:.*zombie' "/proc/$(tok_pid "$1")/status" 2>/dev/null
	then
		pass "token $1 is still running"
	else
		fail "token $1 is still running" "it exited; its stderr:"
		diag_file "$T/$1.err"
	fi
}

# make_cred TAG TYPE [fido2-cred options]: fido2-cred -M (PIN answers
# from $T/pin.pins if it asks) then -V; the credential id and public key
# in $T/TAG.key (line 1, then PEM), the statement in $T/TAG.out.
make_cred() {
	mt=$1 mty=$2
	shift 2
	printf '%s\n%s\nalice\n%s\n' "$(b64 32)" "$rp" "$(b64 32)" >"$T/$mt.in"
	expect_ok "fido2-cred -M${*:+ $*} makes a $mty credential" \
	    $PTYRUN "$T/pin.pins" fido2-cred -M "$@" -i "$T/$mt.in" "$d" "$mty" ||
	    return 1
	cp "$OUT.stdout" "$T/$mt.out"
	grep_out "... in the packed format" '^packed$' "$T/$mt.out"
	expect_ok "fido2-cred -V verifies its attestation ($mty)" \
	    fido2-cred -V -i "$T/$mt.out" -o "$T/$mt.key" "$mty" || return 1
	sed 1d "$T/$mt.key" >"$T/$mt.pem"
}

# get_assert TAG CRED [fido2-assert -G options]: an assertion for the
# credential CRED (made by make_cred) in $T/TAG.out.
get_assert() {
	at=$1 ac=$2
	shift 2
	printf '%s\n%s\n%s\n' "$(b64 32)" "$rp" "$(head -1 "$T/$ac.key")" \
	    >"$T/$at.in"
	expect_ok "fido2-assert -G $* ($ac)" \
	    $PTYRUN "$T/pin.pins" fido2-assert -G "$@" -i "$T/$at.in" "$d" ||
	    return 1
	cp "$OUT.stdout" "$T/$at.out"
}

if ! need "fido2: software token" "$SOFTTOKEN" ||
    ! tok_start f2 --ctap2 2.1; then
	fail "fido2: the token came up"
	return 0
fi
d=$(tok_dev f2)
pins pin

name="fido2-token -L lists the token"
if expect_ok "$name" fido2-token -L && ! grep -q "^$d:" "$OUT.stdout"; then
	fail "... and names $d" "$(cat "$OUT.stdout")"
fi
if expect_ok "fido2-token -I shows the CTAP2 info" fido2-token -I "$d"; then
	cp "$OUT.stdout" "$T/info"
	grep_out "... CBOR in the CTAPHID capabilities" '^caps: .*cbor' "$T/info"
	grep_out "... versions U2F_V2, FIDO_2_0, FIDO_2_1_PRE, FIDO_2_1" \
	    '^version strings: U2F_V2, FIDO_2_0, FIDO_2_1_PRE, FIDO_2_1$' \
	    "$T/info"
	grep_out "... PIN protocols 2, 1" '^pin protocols: 2, 1$' "$T/info"
	grep_out "... options: no PIN set yet, pinUvAuthToken" \
	    '^options: .*noclientPin.*pinUvAuthToken' "$T/info"
	for ty in es256 eddsa rs256; do
		grep_out "... algorithm $ty" "^algorithms: .*$ty" "$T/info"
	done
fi

# Credentials of each type before a PIN is set; assertions verified with
# their keys, presence checked (-p); UV checked (-v) must fail.
for ty in es256 eddsa rs256; do
	make_cred "c$ty" "$ty" || continue
	get_assert "a$ty" "c$ty" -p || continue
	expect_ok "fido2-assert -V -p verifies it with the $ty key (UP set)" \
	    fido2-assert -V -p -i "$T/a$ty.out" "$T/c$ty.pem" "$ty"
	expect_fail "fido2-assert -V -v refuses it (UV clear without PIN)" \
	    fido2-assert -V -v -i "$T/a$ty.out" "$T/c$ty.pem" "$ty"
done
# The signature is checked: another key refuses the es256 assertion.
if [ -s "$T/aes256.out" ]; then
	make_cred cother es256 &&
	    expect_fail "fido2-assert -V with another credential's key refuses" \
	    fido2-assert -V -i "$T/aes256.out" "$T/cother.pem" es256
fi

# A PIN, set and changed through fido2-token on the terminal.
pins set 1234 1234
expect_ok "fido2-token -S sets a PIN" $PTYRUN "$T/set.pins" fido2-token -S "$d"
if expect_ok "fido2-token -I after -S" fido2-token -I "$d"; then
	cp "$OUT.stdout" "$T/info2"
	grep_out "... options say clientPin" '^options: (.*, )?clientPin(,|$)' "$T/info2"
	grep_out "... pin retries: 8" '^pin retries: 8$' "$T/info2"
fi
pins pin 1234
if get_assert apin ces256 -p -t pin=true; then
	expect_ok "fido2-assert -V -p -v: UP and UV set with the PIN" \
	    fido2-assert -V -p -v -i "$T/apin.out" "$T/ces256.pem" es256
fi
pins pin 0000
expect_fail "fido2-assert -G -t pin=true with a wrong PIN fails" \
    $PTYRUN "$T/pin.pins" fido2-assert -G -t pin=true -i "$T/apin.in" "$d" &&
    grep_out "... with libfido2's PIN_INVALID" 'FIDO_ERR_PIN_INVALID' "$OUT"
if expect_ok "fido2-token -I: the wrong PIN took one retry" \
    fido2-token -I "$d"; then
	grep_out "... pin retries: 7" '^pin retries: 7$' "$OUT.stdout"
fi
pins pin 1234
for ty in eddsa rs256; do
	make_cred "p$ty" "$ty" -v || continue
	if get_assert "ap$ty" "p$ty" -t pin=true; then
		expect_ok "fido2-assert -V -v: UV set ($ty, PIN)" \
		    fido2-assert -V -v -i "$T/ap$ty.out" "$T/p$ty.pem" "$ty"
	fi
done

pins change 1234 56789 56789
expect_ok "fido2-token -C changes the PIN" \
    $PTYRUN "$T/change.pins" fido2-token -C "$d"
pins pin 1234
expect_fail "fido2-assert -t pin=true with the old PIN fails" \
    $PTYRUN "$T/pin.pins" fido2-assert -G -t pin=true -i "$T/apin.in" "$d" &&
    grep_out "... with libfido2's PIN_INVALID" 'FIDO_ERR_PIN_INVALID' "$OUT"
pins pin 56789
if get_assert anew ces256 -t pin=true; then
	expect_ok "fido2-assert -V -v: UV set with the new PIN" \
	    fido2-assert -V -v -i "$T/anew.out" "$T/ces256.pem" es256
fi
tok_alive f2
tok_stop f2

# A CTAP 2.0 token with a PIN (softtoken --ctap2 2.0 --pin): libfido2
# takes the 2.0 road (getPinToken, PIN protocol 1); fido2-cred -M asks
# for the PIN because the token answers PIN_REQUIRED.
if tok_start f20 --ctap2 2.0 --pin 1234; then
	d=$(tok_dev f20)
	pins pin 1234
	if expect_ok "fido2-token -I (--ctap2 2.0 --pin)" fido2-token -I "$d"; then
		cp "$OUT.stdout" "$T/info20"
		grep_out "... versions U2F_V2, FIDO_2_0" \
		    '^version strings: U2F_V2, FIDO_2_0$' "$T/info20"
		grep_out "... PIN protocol 1" '^pin protocols: 1$' "$T/info20"
		grep_out "... options say clientPin" \
		    '^options: (.*, )?clientPin(,|$)' "$T/info20"
	fi
	if make_cred c20 eddsa; then
		expect_ok "fido2-cred -V -v: UV set (2.0, PIN)" \
		    fido2-cred -V -v -i "$T/c20.out" eddsa
		if get_assert a20 c20 -t pin=true; then
			expect_ok "fido2-assert -V -p -v: UP and UV set (2.0, PIN)" \
			    fido2-assert -V -p -v -i "$T/a20.out" "$T/c20.pem" eddsa
		fi
	fi
	tok_alive f20
	tok_stop f20
fi

# Built-in user verification (softtoken --uv ok): -t uv=true.
if tok_start f2uv --ctap2 2.1 --uv ok; then
	d=$(tok_dev f2uv)
	pins pin
	if expect_ok "fido2-token -I (--uv ok)" fido2-token -I "$d"; then
		grep_out "... options say uv" '^options: (.*, )?uv(,|$)' "$OUT.stdout"
	fi
	if make_cred cuv es256 -v; then
		expect_ok "fido2-cred -V -v: UV set (built-in UV)" \
		    fido2-cred -V -v -i "$T/cuv.out" es256
		if get_assert auv cuv -p -t uv=true; then
			expect_ok "fido2-assert -V -p -v: UP and UV set (-t uv=true)" \
			    fido2-assert -V -p -v -i "$T/auv.out" "$T/cuv.pem" es256
		fi
		if get_assert anouv cuv -p; then
			expect_fail "fido2-assert -V -v refuses one without uv" \
			    fido2-assert -V -v -i "$T/anouv.out" "$T/cuv.pem" es256
		fi
	fi
	tok_alive f2uv
	tok_stop f2uv
fi
