# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 40-peers: software others wrote checks our software token over
# the real kernel path: libfido2's fido2-token/-cred/-assert (which also
# verify the attestation and the assertion signature), libu2f-host's
# u2f-host checked by libu2f-server's u2f-server, and OpenSSH's
# ecdsa-sk keys (libfido2 inside ssh-keygen) used by our module.

rp=vmtest.example
b64() { head -c "$1" /dev/urandom | base64 -w0; }
b64url() { b64 "$1" | tr '+/' '-_' | tr -d =; }

if ! need "peers: software token" "$SOFTTOKEN" || ! tok_start p; then
	fail "peers: the token came up"
	return 0
fi
d=$(tok_dev p)

name="fido2-token -L lists the token"
if expect_ok "$name" fido2-token -L && ! grep -q "^$d:" "$OUT.stdout"; then
	fail "... and names $d" "$(cat "$OUT.stdout")"
fi
name="fido2-token -I: CTAPHID version 2, U2F only"
if expect_ok "$name" fido2-token -I "$d"; then
	name="... reports proto 0x02 and nocbor"
	if grep -q '^proto: 0x02' "$OUT.stdout" &&
	    grep -q 'nocbor' "$OUT.stdout"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$OUT.stdout"
	fi
fi

cdh=$(b64 32)
printf '%s\n%s\nalice\n%s\n' "$cdh" "$rp" "$(b64 32)" >"$T/cred.in"
if expect_ok "fido2-cred -M -u makes a U2F credential" \
    fido2-cred -M -u -i "$T/cred.in" "$d"; then
	cp "$OUT.stdout" "$T/cred.out"
	name="... in the fido-u2f format"
	if sed -n 3p "$T/cred.out" | grep -qx fido-u2f; then pass "$name"; else
		fail "$name"
		diag_file "$T/cred.out"
	fi
	if expect_ok "fido2-cred -V verifies its attestation" \
	    fido2-cred -V -i "$T/cred.out" -o "$T/cred.key"; then
		sed 1d "$T/cred.key" >"$T/cred.pem"
		printf '%s\n%s\n%s\n' "$(b64 32)" "$rp" \
		    "$(head -1 "$T/cred.key")" >"$T/assert.in"
		if expect_ok "fido2-assert -G -u gets an assertion" \
		    fido2-assert -G -u -p -i "$T/assert.in" "$d"; then
			cp "$OUT.stdout" "$T/assert.out"
			expect_ok "fido2-assert -V -p verifies it (presence set)" \
			    fido2-assert -V -p -i "$T/assert.out" "$T/cred.pem" es256
			# Another relying party: the token must not sign.
			sed "2s/.*/other.example/" "$T/assert.in" >"$T/assert2.in"
			expect_fail "fido2-assert -G: the credential is refused for another rp" \
			    fido2-assert -G -u -i "$T/assert2.in" "$d"
		fi
	fi
fi

# libu2f-host's u2f-host against the token; libu2f-server's u2f-server
# issues the challenges (-c) and verifies the responses.
o=$ORIGIN
c=$(b64url 32)
printf '{ "challenge": "%s", "version": "U2F_V2", "appId": "%s" }' "$c" "$o" \
    >"$T/reg.chal"
if expect_ok "u2f-host -aregister" \
    sh -c "u2f-host -aregister -o '$o' <'$T/reg.chal'"; then
	cp "$OUT.stdout" "$T/reg.resp"
	if expect_ok "u2f-server verifies the registration" \
	    sh -c "cd '$T' && u2f-server -aregister -o '$o' -i '$o' -c '$c' \
	    -k kh -p pk -x cert <reg.resp"; then
		c=$(b64url 32)
		printf '{ "keyHandle": "%s", "version": "U2F_V2", "challenge": "%s", "appId": "%s" }' \
		    "$(cat "$T/kh")" "$c" "$o" >"$T/auth.chal"
		if expect_ok "u2f-host -aauthenticate" \
		    sh -c "u2f-host -aauthenticate -o '$o' <'$T/auth.chal'"; then
			cp "$OUT.stdout" "$T/auth.resp"
			name="u2f-server verifies the authentication (presence 1)"
			if expect_ok "$name" sh -c "cd '$T' && u2f-server \
			    -aauthenticate -o '$o' -i '$o' -c '$c' -k kh -p pk \
			    <auth.resp"; then
				grep -q 'user presence 1' "$OUT" ||
				    fail "... with user presence" "$(cat "$OUT")"
			fi
			expect_fail "u2f-server refuses it for another challenge" \
			    sh -c "cd '$T' && u2f-server -aauthenticate -o '$o' \
			    -i '$o' -c '$(b64url 32)' -k kh -p pk <auth.resp"
		fi
	fi
fi

# OpenSSH: an ecdsa-sk key made by ssh-keygen (libfido2's U2F path) and
# used by our module with sshformat, the way pam-u2f documents it.
mkuser alice
key=/home/alice/.ssh/id_ecdsa_sk
mkdir -p /home/alice/.ssh
name="ssh-keygen -t ecdsa-sk makes a key on the token"
if expect_ok "$name" ssh-keygen -q -t ecdsa-sk -N '' -f "$key" \
    -C alice@vmtest; then
	chown -R alice:alice /home/alice/.ssh
	chmod 700 /home/alice/.ssh
	pam_service vmtest-ssh \
	    "auth required $OURMOD sshformat origin=ssh: timeout=10" \
	    "account required pam_permit.so"
	need "our module (sshformat) authenticates with that key" "$OURMOD" &&
	    expect_ok "our module (sshformat) authenticates with that key" \
	    pamtester vmtest-ssh alice authenticate
	echo "alice $(cat "$key.pub")" >"$T/allowed"
	echo hello >"$T/msg"
	if expect_ok "ssh-keygen -Y sign with the ecdsa-sk key" \
	    ssh-keygen -Y sign -f "$key" -n file "$T/msg"; then
		expect_ok "ssh-keygen -Y verify accepts the signature" \
		    sh -c "ssh-keygen -Y verify -f '$T/allowed' -I alice \
		    -n file -s '$T/msg.sig' <'$T/msg'"
	fi
fi
tok_stop p
