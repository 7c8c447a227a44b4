# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 57-ldap: real sudo whose second factor comes from an LDAP
# directory only. A private slapd on loopback (tests/tool/slapd.lib: TLS
# with a CA made now, SSSD's passkey schema) holds dave's credential,
# enrolled with pamu2fcfg --format=ldif | ldapmodify from a CTAP2 token
# with a PIN on a real hidraw node; sudo's stack is the password, then
# our module with authcmd= running the shipped pam_u2f_ldap as nobody,
# installed the way README says. Then: revocation in the directory takes
# effect at the next sudo; with the directory down a fresh cache lets
# sudo in, no cache does not (PAM_AUTHINFO_UNAVAIL).

WORK=$T/ldap
PIDFILES=""
mkdir -p "$WORK"
# shellcheck source=../../tool/slapd.lib
. "$VM_SRC/tests/tool/slapd.lib"
HELPER=$B/ldap/pam_u2f_ldap
LHELPER=/usr/local/libexec/pam_u2f/pam_u2f_ldap
LCONF=/etc/security/pam_u2f-vmldap.conf
LCA=/etc/security/vmldap-ca.pem
LCACHE=/var/cache/pam-u2f-vm
LDBG=$T/ldap-debug.log
PIN=4321
DS=$WORK/ds
DN="uid=dave,ou=people,$SUFFIX"

# ldap_sudo NAME ok|fail: sudo -k -S id -u as dave, the password then
# the PIN on its standard input; ok: it ran id as root.
ldap_sudo() {
	: >"$LDBG"
	if [ "$2" = ok ]; then
		expect_ok "$1" "$T/sudo_ldap" || return 1
		grep -qx 0 "$OUT.stdout" && return 0
		fail "... ran the command as root" "$(cat "$OUT")"
		return 1
	fi
	expect_fail "$1" "$T/sudo_ldap"
}
# logged NAME PATTERN: the module's debug log of the last sudo says it.
logged() {
	if grep -q "$2" "$LDBG"; then
		pass "$1"
	else
		fail "$1" "no '$2' in the module's debug log"
		diag_file "$LDBG" 15
	fi
}

ldap_setup() {
	for p in slapd slapadd ldapmodify ldapsearch openssl python3; do
		command -v $p >/dev/null 2>&1 || [ -x /usr/sbin/$p ] || {
			fail "ldap: $p is installed" "tools/deps.sh test"
			return 1
		}
	done
	need "ldap: the helper, pamu2fcfg and the module are built" \
	    "$HELPER" "$OURCFG" "$OURMOD" || return 1
	PATH=$PATH:/usr/sbin
	mkdir -p "$DS" && certs "$DS" && schema "$DS/schema" &&
	    slapd_conf "$DS" yes && {
		echo "dn: $SUFFIX"
		printf '%s\n' "objectClass: puTestObject" "dc: example" ""
		echo "dn: ou=people,$SUFFIX"
		printf '%s\n' "objectClass: puTestObject" "ou: people" ""
		echo "dn: $DN"
		printf '%s\n' "objectClass: puTestObject" \
		    "objectClass: passkeyUser" "uid: dave" ""
	} >"$DS/init.ldif" && slapd_load "$DS" "$DS/init.ldif" || {
		fail "ldap: a directory made with slapadd" "$(cat "$DS/slapadd.log" "$DS/openssl.log" 2>/dev/null)"
		return 1
	}
	P=$(free_port)
	if slapd_start "$DS" "ldaps://127.0.0.1:$P/"; then
		pass "ldap: slapd serves ldaps on 127.0.0.1:$P"
	else
		fail "ldap: slapd serves ldaps on 127.0.0.1:$P"
		diag_file "$DS/log"
		return 1
	fi
	# As README's "Many hosts": the helper in libexec, root's; the CA
	# readable by the helper's user; the cache directory root's, 0700.
	install -D -m 755 "$HELPER" "$LHELPER" && install -m 644 "$DS/ca.pem" "$LCA" &&
	    install -d -m 700 "$LCACHE" || return 1
	ldap_conf "authcmd_cache = \"$LCACHE\""
	mkuser dave
	printf 'dave ALL=(ALL:ALL) ALL\n' >/etc/sudoers.d/vmldap
	chmod 440 /etc/sudoers.d/vmldap
	pam_service sudo "#%PAM-1.0" \
	    "@include common-auth" \
	    "auth required $OURMOD conf=$LCONF timeout=15 debug debug_file=$LDBG" \
	    "@include common-account" \
	    "@include common-session-noninteractive"
	printf '%s\n' '#!/bin/sh' \
	    "printf '%s\\n' '$PASSWORD' '$PIN' | runuser -u dave -- sudo -k -S id -u" \
	    >"$T/sudo_ldap"
	chmod 755 "$T/sudo_ldap"
}

# ldap_conf [LINE]: the module's and the helper's file (root's, 0644).
ldap_conf() {
	{
		echo "origin = \"$ORIGIN\""
		echo "authcmd = \"$LHELPER -c $LCONF %u\""
		echo "authcmd_user = \"nobody\""
		[ $# -eq 0 ] || echo "$1"
		echo "ldap {"
		echo "	uri = {\"ldaps://127.0.0.1:$P\"}"
		echo "	base = \"ou=people,$SUFFIX\""
		echo "	filter = \"(&(objectClass=passkeyUser)(uid=%s))\""
		echo "	ca_file = \"$LCA\""
		echo "	network_timeout = 3"
		echo "	search_timeout = 3"
		echo "}"
	} >"$LCONF"
	chmod 644 "$LCONF"
}

# enroll_ldif: a new credential on token ld, into dave's entry.
enroll_ldif() {
	printf '%s\n' "$PIN" >"$WORK/pin"
	"$OURCFG" -u dave -o "$ORIGIN" --pin-stdin --format=ldif --dn "$DN" \
	    <"$WORK/pin" >"$WORK/enroll.ldif" 2>"$WORK/enroll.err" &&
	    ldap_admin "$DS" <"$WORK/enroll.ldif"
}

if ldap_setup && tok_start ld --ctap2 2.1 --pin "$PIN"; then
	name="pamu2fcfg --format=ldif | ldapmodify stores dave's credential"
	if enroll_ldif; then
		pass "$name"
	else
		fail "$name" "$(cat "$WORK/enroll.err" "$DS/modify.log")"
	fi
	before=$(grep -c ' SRCH base=' "$DS/log")
	ldap_sudo "sudo as dave: password, PIN and touch, credential from slapd" ok
	name="... the helper searched the directory for dave"
	if [ "$(grep -c ' SRCH base=' "$DS/log")" -gt "$before" ] &&
	    grep -q 'filter="(&(objectClass=passkeyUser)(uid=dave))"' "$DS/log"; then
		pass "$name"
	else
		fail "$name"
		diag_file "$DS/log" 10
	fi
	logged "... the module took 1 credential from authcmd" \
	    "1 credential(s) for dave from authcmd$"
	name="... and the answer is cached (root's, 0600)"
	E=$LCACHE/u-$(printf dave | od -An -tx1 | tr -d ' \n')
	if [ "$(stat -c '%U %a' "$E" 2>/dev/null)" = "root 600" ]; then
		pass "$name"
	else
		fail "$name" "$(ls -la "$LCACHE")"
	fi

	# Revocation: the value deleted in the directory.
	v=$(sed -n 's/^passkey: //p' "$WORK/enroll.ldif")
	printf '%s\n' "dn: $DN" "changetype: modify" "delete: passkey" \
	    "passkey: $v" | ldap_admin "$DS"
	ldap_sudo "revoked in the directory: the next sudo is refused" fail
	logged "... as no credentials (and the cache entry deleted)" \
	    "authcmd_cache: deleted the entry of dave"

	# Enrolled again, then the directory goes down.
	enroll_ldif
	ldap_sudo "enrolled again: sudo works" ok
	slapd_stop "$DS"
	ldap_sudo "the directory down, a fresh cache: sudo works" ok
	logged "... from the cache" "1 credential(s) for dave from authcmd_cache"
	ldap_conf
	ldap_sudo "the directory down, no cache: sudo is refused" fail
	logged "... with PAM_AUTHINFO_UNAVAIL" "result ERR_UNAVAIL:"
	tok_stop ld
fi
slapd_stop "$DS" >/dev/null 2>&1
rm -f /etc/sudoers.d/vmldap "$LCONF"
