#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pam_u2f_ldap, the LDAP helper, against a real slapd that this test
# starts (tests/tool/slapd.lib: loopback ports chosen at run time,
# certificates made now, a private mdb directory), through the real module
# (libpam under pam_wrapper, pamtester) with authcmd= pointing at the
# helper and the software token holding the credentials, and run alone
# for what it prints. As authcmd.sh: a private mount namespace with a
# 0755 tmpfs on /mnt, where the helper, its configuration and the files
# it reads live (root's path, readable by nobody, who runs it). The
# directory holds:
#   ou=people      root: a passkey: value; daemon: a mapping line
#                  (pamU2fLine); bob: another credential; bin: none
#   ou=restricted  root again, readable only by a bound reader (the
#                  simple bind's DN, the client certificate's DN)
#   ou=big, ou=huge, ou=twice   root with 65 values, with 70 000 bytes,
#                  twice
# A second slapd without TLS holds ou=people too: the helper must never
# read it. Needs root (the namespace; the helper runs as nobody).
. "${top_srcdir:-.}/tests/tool/nsexec.lib"
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the helper runs as another user"
HELPER="$(cd "$top_builddir" && pwd)/ldap/pam_u2f_ldap"
if [ ! -x "$HELPER" ]; then
	echo "1..0 # SKIP pam_u2f_ldap not built (no libldap, or --without-ldap)"
	exit 0
fi
for p in slapd slapadd ldapmodify ldapsearch openssl python3 setpriv; do
	if ! command -v $p >/dev/null 2>&1 && [ ! -x /usr/sbin/$p ]; then
		echo "1..0 # SKIP $p not installed (slapd, ldap-utils)"
		exit 0
	fi
done
[ -f /usr/lib/ldap/back_mdb.so ] ||
    { echo "1..0 # SKIP slapd's back_mdb module not found"; exit 0; }
mnt_tmpfs pu-ldap
NOBODY=$(id -u nobody) || { echo "1..0 # SKIP no user nobody"; exit 0; }
NOGROUP=$(id -gn nobody)
PATH=$PATH:/usr/sbin
. "${top_srcdir:-.}/tests/tool/slapd.lib"

token t --ctap2 2.0 --pin 1111 --presence now ||
    { echo "Bail out! softtoken did not start"; exit 1; }
ME=$(id -un)
DS=$WORK/ds	# the slapd with TLS
PL=$WORK/plain	# the slapd without
mkdir "$WORK/svc" "$DS" "$PL" /mnt/bin /mnt/etc
cp "$HELPER" /mnt/bin/pam_u2f_ldap
chmod 755 /mnt/bin/pam_u2f_ldap

# Credentials: root's and bob's as passkey: values, daemon's as a line.
enroll() {
	printf '1111\n' | "$PAMU2FCFG" --device "unix:$WORK/t.sock" \
	    -o pam://ac --pin-stdin "$@" 2>>"$WORK/err"
}
PK_ME=$(enroll -u "$ME" --format=passkey)
PK_BOB=$(enroll -u bob --format=passkey)
LINE_DAEMON=$(enroll -u daemon)
[ -n "$PK_ME" ] && [ -n "$PK_BOB" ] && [ -n "$LINE_DAEMON" ]
ok $? "enrolled three credentials (pamu2fcfg --format=passkey and a line)"

certs "$DS" || { echo "Bail out! openssl failed"; exit 1; }
cp "$DS/ca.pem" "$DS/other-ca.pem" "$DS/client.pem" /mnt/etc/
install -m 640 -g "$NOGROUP" "$DS/client.key" /mnt/etc/client.key
printf '%s\n' "$READER_PW" >/mnt/etc/reader.pw
chmod 640 /mnt/etc/reader.pw
chgrp "$NOGROUP" /mnt/etc/reader.pw

# entry DN ATTR=VALUE...: one LDIF entry.
entry() {
	echo "dn: $1"
	shift
	echo "objectClass: puTestObject"
	echo "objectClass: passkeyUser"
	echo "objectClass: pamU2fUser"
	for av; do echo "${av%%=*}: ${av#*=}"; done
	echo
}
people() {
	entry "$SUFFIX" dc=example
	entry "ou=people,$SUFFIX" ou=people
	entry "uid=$ME,ou=people,$SUFFIX" "uid=$ME" "passkey=$PK_ME"
	entry "uid=daemon,ou=people,$SUFFIX" uid=daemon \
	    "pamU2fLine=$LINE_DAEMON"
	entry "uid=bob,ou=people,$SUFFIX" uid=bob "passkey=$PK_BOB"
	entry "uid=bin,ou=people,$SUFFIX" uid=bin
}
{
	people
	entry "$READER_DN" cn=reader "userPassword=$READER_PW"
	entry "ou=restricted,$SUFFIX" ou=restricted
	entry "uid=$ME,ou=restricted,$SUFFIX" "uid=$ME" "passkey=$PK_ME"
	entry "ou=big,$SUFFIX" ou=big
	entry "uid=$ME,ou=big,$SUFFIX" "uid=$ME" | sed '$d'
	i=0
	while [ $i -lt 65 ]; do
		echo "passkey: passkey:$i,AAAA"
		i=$((i + 1))
	done
	echo
	entry "ou=huge,$SUFFIX" ou=huge
	entry "uid=$ME,ou=huge,$SUFFIX" "uid=$ME" \
	    "passkey=passkey:$(head -c 70000 /dev/zero | tr '\0' A),AAAA"
	entry "ou=twice,$SUFFIX" ou=twice
	entry "ou=a,ou=twice,$SUFFIX" ou=a
	entry "ou=b,ou=twice,$SUFFIX" ou=b
	entry "uid=$ME,ou=a,ou=twice,$SUFFIX" "uid=$ME" "passkey=$PK_ME"
	entry "uid=$ME,ou=b,ou=twice,$SUFFIX" "uid=$ME" "passkey=$PK_BOB"
} >"$DS/init.ldif"
schema "$DS/schema"
slapd_conf "$DS" yes
schema "$PL/schema"
slapd_conf "$PL" no
people >"$PL/init.ldif"
slapd_load "$DS" "$DS/init.ldif" && slapd_load "$PL" "$PL/init.ldif"
ok $? "slapadd loaded both directories"

P=$(free_port)
P2=$(free_port)
P3=$(free_port)
DEAD=$(free_port)
TLS_URLS="ldaps://127.0.0.1:$P/ ldaps://127.0.0.2:$P/ ldap://127.0.0.1:$P2/"
slapd_start "$DS" $TLS_URLS && slapd_start "$PL" "ldap://127.0.0.1:$P3/"
ok $? "two slapd started (ldaps $P, ldap+StartTLS $P2, no TLS $P3)"

# The README's cn=config form of the schema, loaded the README's way: a
# third slapd configured in cn=config (slaptest from a slapd.conf
# without SSSD's schema, root over ldapi managing cn=config, as Debian's
# slapd has it), then ldapadd -Y EXTERNAL of the README's LDIF.
CF=$WORK/cf
mkdir "$CF"
cp "$DS/ca.pem" "$DS/server.pem" "$DS/server.key" "$CF/"
schema "$CF/schema" nopasskey
slapd_conf "$CF" yes config
P4=$(free_port)
slapd_cn_config "$CF" && slapd_start "$CF" "ldaps://127.0.0.1:$P4/"
okshow $? "a slapd on cn=config, without the passkey schema (ldaps $P4)" \
    "$CF/slaptest.log" "$CF/log"
# cf_user: the user's entry, with SSSD's class and a passkey: value.
cf_user() {
	printf '%s\n' "dn: uid=$ME,ou=people,$SUFFIX" "changetype: add" \
	    "objectClass: puTestObject" "objectClass: passkeyUser" \
	    "uid: $ME" "passkey: $PK_ME"
}
printf '%s\n' "dn: $SUFFIX" "changetype: add" "objectClass: puTestObject" \
    "dc: example" "" "dn: ou=people,$SUFFIX" "changetype: add" \
    "objectClass: puTestObject" "ou: people" | ldap_admin "$CF" &&
    ! cf_user | ldap_admin "$CF"
okshow $? "without the schema, an entry with passkeyUser is refused" \
    "$CF/modify.log"
readme_block "$PASSKEY_LDIF" >"$CF/passkey.ldif"
LDAPNOINIT=1 ldapadd -Y EXTERNAL -H "$(ldapi "$CF")" -f "$CF/passkey.ldif" \
    >>"$CF/modify.log" 2>&1 &&
    grep -q "^olcObjectClasses: .*'passkeyUser'" "$CF/passkey.ldif"
okshow $? "ldapadd -Y EXTERNAL added the README's cn=config schema" \
    "$CF/modify.log" "$CF/passkey.ldif"
cf_user | ldap_admin "$CF"
okshow $? "and then the entry with its passkey: value is accepted" \
    "$CF/modify.log"

# hconf NAME URI BASE [LINE...]: /mnt/etc/NAME.conf, a pam_u2f.conf with
# an ldap section (the module reads it too: it must accept the section).
hconf() {
	f=/mnt/etc/$1.conf
	{
		echo "# $1"
		echo "ldap {"
		echo "	uri = {$2}"
		echo "	base = \"$3,$SUFFIX\""
		echo "	ca_file = \"/mnt/etc/ca.pem\""
		echo "	network_timeout = 2"
		echo "	search_timeout = 2"
		shift 3
		for l; do echo "	$l"; done
		echo "}"
	} >"$f"
	chmod 644 "$f"
}
U_TLS="\"ldaps://127.0.0.1:$P\""
hconf people "$U_TLS" ou=people
hconf starttls "\"ldap://127.0.0.1:$P2\"" ou=people
hconf lines "$U_TLS" ou=people 'lines_attribute = "pamU2fLine"'
hconf failover "\"ldaps://127.0.0.1:$DEAD\", $U_TLS" ou=people
hconf wrongca "$U_TLS" ou=people
sed -i 's|/mnt/etc/ca.pem|/mnt/etc/other-ca.pem|' /mnt/etc/wrongca.conf
hconf wronghost "\"ldaps://127.0.0.2:$P\"" ou=people
hconf plain "\"ldap://127.0.0.1:$P3\"" ou=people
hconf dead "\"ldaps://127.0.0.1:$DEAD\"" ou=people
hconf anon "$U_TLS" ou=restricted
hconf simple "$U_TLS" ou=restricted 'bind = "simple"' \
    "bind_dn = \"$READER_DN\"" 'password_file = "/mnt/etc/reader.pw"'
hconf badpw "$U_TLS" ou=restricted 'bind = "simple"' \
    "bind_dn = \"$READER_DN\"" 'password_file = "/mnt/etc/bad.pw"'
hconf external "$U_TLS" ou=restricted 'bind = "external"' \
    'cert_file = "/mnt/etc/client.pem"' 'key_file = "/mnt/etc/client.key"'
hconf big "$U_TLS" ou=big
hconf huge "$U_TLS" ou=huge
hconf twice "$U_TLS" ou=twice
hconf cnconfig "\"ldaps://127.0.0.1:$P4\"" ou=people
hconf slow "$U_TLS" ou=people
sed -i 's/= 2$/= 1/' /mnt/etc/slow.conf
hconf slower "$U_TLS" ou=people
sed -i 's/= 2$/= 30/' /mnt/etc/slower.conf

# helper CONF [ARGS...] USER: the helper alone, as nobody; stdout in
# $WORK/hout, stderr in $WORK/herr, status in $HST.
helper() {
	c=$1
	shift
	setpriv --reuid="$NOBODY" --regid="$(id -g nobody)" --init-groups \
	    env -i PATH=/usr/bin:/bin /mnt/bin/pam_u2f_ldap \
	    -c "/mnt/etc/$c.conf" "$@" >"$WORK/hout" 2>"$WORK/herr"
	HST=$?
}

# login CONF [ARGS...]: one authentication (PIN 1111 on standard input)
# with authcmd= running the helper on CONF, also the module's conf=;
# status in $ST, debug log in $WORK/debug.log.
login() {
	c=$1
	shift
	printf '1111\n' | pam_auth "${LOGIN_USER:-$ME}" \
	    "auth required $MODULE conf=/mnt/etc/$c.conf origin=pam://ac devices=unix:$WORK/t.sock timeout=5 debug debug_file=$WORK/debug.log authcmd_user=nobody [authcmd=/mnt/bin/pam_u2f_ldap -c /mnt/etc/$c.conf -- %u] $*"
	ST=$?
}
# searches DIR: the searches slapd DIR has logged so far.
searches() { grep -c ' SRCH base=' "$1/log"; }
# loggedin NAME: the last login worked, with the directory's credential.
loggedin() {
	[ $ST -eq 0 ] && result ERR_OK &&
	    grep -q "1 credential(s) for ${LOGIN_USER:-$ME} from authcmd$" \
	    "$WORK/debug.log"
	okshow $? "$1"
}
# unavail NAME [PATTERN]: PAM_AUTHINFO_UNAVAIL, the debug log says PATTERN
# (default: the helper exited with a status other than 0).
unavail() {
	[ $ST -ne 0 ] && result ERR_UNAVAIL &&
	    grep -q "${2:-exited with a status other than 0}" "$WORK/debug.log"
	okshow $? "$1: PAM_AUTHINFO_UNAVAIL"
}
# hfail NAME PATTERN: the helper alone: status 1 (the directory could not
# be reached; $HWANT for another), nothing printed, one line on stderr
# ending with PATTERN's line. hrefused: status 3, the directory answered
# but gave no usable answer (never answered from the module's cache).
hfail() {
	[ $HST -eq "${HWANT:-1}" ] && [ ! -s "$WORK/hout" ] &&
	    tail -n 1 "$WORK/herr" | grep -q "^pam_u2f_ldap: .*$2"
	st=$?
	ok $st "$1"
	[ $st -eq 0 ] || { echo "# status $HST"; sed 's/^/# /' "$WORK/hout" "$WORK/herr"; }
}
hrefused() { HWANT=3 hfail "$@"; }

# The configuration: the file's rules hold for the helper too, and the
# module checks the section it does not use.
cp /mnt/etc/people.conf /mnt/etc/loose.conf
chmod 664 /mnt/etc/loose.conf
helper loose "$ME"
[ $HST -eq 2 ] && [ ! -s "$WORK/hout" ] &&
    grep -q "^pam_u2f_ldap: /mnt/etc/loose.conf: refused: the file is group- or world-writable" \
    "$WORK/herr"
ok $? "a group-writable configuration file: exit 2, named"
sed 's/^}$/	bogus = 1\n}/' /mnt/etc/people.conf >/mnt/etc/bogus.conf
chmod 644 /mnt/etc/bogus.conf
helper bogus "$ME"
[ $HST -eq 2 ] && grep -q "^pam_u2f_ldap: /mnt/etc/bogus.conf:8: no such option 'bogus'" \
    "$WORK/herr"
ok $? "an unknown key in the ldap section: exit 2, line named"
printf 'debug = false\n' >/mnt/etc/nosection.conf
chmod 644 /mnt/etc/nosection.conf
helper nosection "$ME"
[ $HST -eq 2 ] &&
    grep -qx "pam_u2f_ldap: /mnt/etc/nosection.conf: no ldap section" "$WORK/herr"
ok $? "a file without the ldap section: exit 2, named"
/mnt/bin/pam_u2f_ldap -c /mnt/etc/people.conf >"$WORK/hout" 2>"$WORK/herr"
[ $? -eq 2 ] && [ ! -s "$WORK/hout" ] && grep -q "^usage: " "$WORK/herr"
ok $? "no user: usage, exit 2"
enroll -u "$ME" --format=passkey --conf /mnt/etc/people.conf >"$WORK/hout"
grep -q '^passkey:' "$WORK/hout"
ok $? "pamu2fcfg reads a file with the ldap section"
: >"$WORK/err"
enroll -u "$ME" --format=passkey --conf /mnt/etc/bogus.conf >"$WORK/hout"
[ $? -ne 0 ] && [ ! -s "$WORK/hout" ] &&
    grep -q "/mnt/etc/bogus.conf:8: no such option 'bogus'" "$WORK/err"
ok $? "and refuses one with an unknown key in it, line named"
login bogus
[ $ST -ne 0 ] && grep -q "/mnt/etc/bogus.conf:8: no such option 'bogus'" \
    "$WORK/pam.out" "$WORK/debug.log" && ! grep -q "authcmd " "$WORK/debug.log"
okshow $? "and the module refuses that file before running the helper"

# Found, over ldaps and over ldap + StartTLS; the connections were TLS.
n=$(grep -c 'TLS established' "$DS/log")
login people
loggedin "a passkey: value in the directory logs in (ldaps)"
login starttls
loggedin "and over ldap:// with StartTLS"
[ "$(grep -c 'TLS established' "$DS/log")" -ge $((n + 2)) ]
okshow $? "slapd logged a TLS connection for each" "$DS/log"
helper people "$ME"
[ $HST -eq 0 ] && [ "$(cat "$WORK/hout")" = "$PK_ME" ] && [ ! -s "$WORK/herr" ]
ok $? "the helper alone prints the value and nothing else, exit 0"
login cnconfig
loggedin "the slapd with the README's cn=config schema: logs in"

# pamu2fcfg --check with no FILE takes the configuration's authcmd, as
# the module does (run as authcmd_user, never the cache): the LDAP route
# checked before a sudo relies on it.
{
	echo 'origin = "pam://ac"'
	echo 'authcmd = "/mnt/bin/pam_u2f_ldap -c /mnt/etc/people.conf -- %u"'
	echo 'authcmd_user = "nobody"'
	echo 'authcmd_cache = "/mnt/cache"'
	cat /mnt/etc/people.conf
} >/mnt/etc/check.conf
chmod 644 /mnt/etc/check.conf
# check USER: pamu2fcfg --check through check.conf; status in $CST.
check() {
	printf '1111\n' | "$PAMU2FCFG" --conf /mnt/etc/check.conf -u "$1" \
	    --device "unix:$WORK/t.sock" --pin-stdin --check \
	    >"$WORK/cout" 2>"$WORK/cerr"
	CST=$?
}
check "$ME"
[ $CST -eq 0 ] && grep -q "^ok: credential 1 on unix:" "$WORK/cout" &&
    grep -q "authcmd /mnt/bin/pam_u2f_ldap for $ME as nobody" "$WORK/cerr" &&
    grep -q "authcmd: 1 credential(s) for $ME" "$WORK/cerr"
okshow $? "pamu2fcfg --check runs the configuration's authcmd: ok" \
    "$WORK/cout" "$WORK/cerr"
check bin
[ $CST -ne 0 ] && [ ! -s "$WORK/cout" ] &&
    grep -q "authcmd answered: no credentials for bin" "$WORK/cerr"
okshow $? "--check: an entry without credentials, said so" "$WORK/cerr"
grep -q "filter=\"(uid=$ME)\"" "$DS/log"
ok $? "the filter slapd saw is (uid=$ME)"
LOGIN_USER=daemon login lines
LOGIN_USER=daemon loggedin "a mapping line in lines_attribute logs in"

# Absent: exit 0, nothing; the module says user unknown.
helper people nosuchuser
[ $HST -eq 0 ] && [ ! -s "$WORK/hout" ] && [ ! -s "$WORK/herr" ]
ok $? "an absent user: exit 0, empty output"
LOGIN_USER=bin login people
[ $ST -ne 0 ] && result ERR_NOT_FOUND && grep -q "User not known" "$WORK/pam.out"
okshow $? "an entry without credentials: PAM_USER_UNKNOWN"

# Failover: a dead first URI, then the live one.
login failover
loggedin "failover: the first URI refuses, the second answers"
helper failover "$ME"
[ $HST -eq 0 ] && [ "$(cat "$WORK/hout")" = "$PK_ME" ] &&
    grep -q "ldaps://127.0.0.1:$DEAD: .*(trying the next)" "$WORK/herr"
ok $? "and the helper says which URI it skipped"

# TLS: wrong CA, wrong host, no StartTLS: refused, nothing searched.
s=$(searches "$DS")
login wrongca
unavail "a server certificate from another CA"
helper wrongca "$ME"
hfail "the helper: the wrong CA is a TLS failure" "TLS connection: .*"
login wronghost
unavail "a certificate not for 127.0.0.2 (the host name check)"
helper wronghost "$ME"
hfail "the helper: the host name mismatch is a TLS failure" \
    "ldaps://127.0.0.2:$P: TLS connection: .*"
[ "$(searches "$DS")" = "$s" ]
okshow $? "slapd saw no search on those connections" "$DS/log"
s=$(searches "$PL")
login plain
unavail "plain ldap:// without StartTLS: never plaintext"
helper plain "$ME"
hfail "the helper: StartTLS refused by the server" "StartTLS: .*"
[ "$(searches "$PL")" = "$s" ]
okshow $? "the plaintext slapd (holding the user) saw no search" "$PL/log"

# Injection: the name is escaped (RFC 4515); nothing else matches.
for name in '*' 'r*' "$ME)(uid=*" "*)(|(uid=*" "$ME\\" 'bo?' "$(printf 'b\303\266b')"; do
	helper people "$name"
	[ $HST -eq 0 ] && [ ! -s "$WORK/hout" ]
	ok $? "user name '$name': exit 0, nothing found"
done
grep -q 'filter="(uid=r\\2A)"' "$DS/log" &&
    grep -q "filter=\"(uid=$ME\\\\29\\\\28uid=\\\\2A)\"" "$DS/log" &&
    grep -q 'filter="(uid=b\\C3\\B6b)"' "$DS/log"
okshow $? "slapd saw the escaped filters ((uid=r\\2A), ...)" "$DS/log"
helper people "$(head -c 300 /dev/zero | tr '\0' a)"
hrefused "a 300-byte user name is refused" "the user name is refused: .*"
# A name beginning with '-' is never an option: after "--" (authcmd's
# documented line) it is refused by name, and never searched for; without
# "--", it was taken for an option: usage, saying to add "--".
s=$(searches "$DS")
helper people -- "-$ME"
hrefused "a user name beginning with '-' after --: refused, exit 3" \
    "the user name '-$ME' is refused: it begins with '-'"
helper people -- -c/mnt/etc/plain.conf
hrefused "and '-c/mnt/etc/plain.conf' after --: refused, not an option" \
    "the user name '-c/mnt/etc/plain.conf' is refused: it begins with '-'"
[ "$(searches "$DS")" = "$s" ]
okshow $? "slapd saw no search for them" "$DS/log"
for name in -c/mnt/etc/plain.conf -x; do
	helper people "$name"
	[ $HST -eq 2 ] && [ ! -s "$WORK/hout" ] &&
	    grep -qx "pam_u2f_ldap: '$name' was read as an option: write \"--\" before %u in authcmd (user names beginning with '-' are refused)" \
	    "$WORK/herr"
	okshow $? "without --, '$name' is an option: usage (2), says to add --" \
	    "$WORK/herr"
done
if LD_PRELOAD=libnss_wrapper.so true 2>/dev/null &&
    ldconfig -p 2>/dev/null | grep -q libnss_wrapper.so; then
	chmod 755 "$WORK"
	printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	    "r*:x:4711:4711::/nonexistent:/bin/sh" \
	    "nobody:x:$NOBODY:$(id -g nobody)::/nonexistent:/bin/sh" \
	    >"$WORK/passwd"
	printf '%s\n' "root:x:0:" "$NOGROUP:x:$(id -g nobody):" >"$WORK/group"
	NSS_WRAPPER_PASSWD="$WORK/passwd" NSS_WRAPPER_GROUP="$WORK/group" \
	    PRELOAD=" libnss_wrapper.so" LOGIN_USER='r*' login people
	[ $ST -ne 0 ] && result ERR_NOT_FOUND
	okshow $? "the user 'r*' does not log in with root's credential"
else
	skip "the user 'r*' through the module" "libnss_wrapper.so not installed"
fi

# Binds: ou=restricted is for bound readers only.
login anon
[ $ST -ne 0 ] && result ERR_NOT_FOUND
okshow $? "anonymous: the restricted entry is not seen (PAM_USER_UNKNOWN)"
login simple
loggedin "simple bind with the password file (0640 root:$NOGROUP) logs in"
grep -q "BIND dn=\"$READER_DN\" method=128" "$DS/log"
okshow $? "slapd saw the reader's simple bind" "$DS/log"
printf 'wrong\n' >/mnt/etc/bad.pw
chmod 640 /mnt/etc/bad.pw
chgrp "$NOGROUP" /mnt/etc/bad.pw
login badpw
unavail "a wrong password"
helper badpw "$ME"
hrefused "the helper: the bind failed" "simple bind: Invalid credentials.*"
for m in "644 root:readable by others" "660 root:writable by group or others" \
    "640 nobody:not owned by root"; do
	mode=${m%% *}
	rest=${m#* }
	cp /mnt/etc/reader.pw /mnt/etc/bad.pw
	chown "${rest%%:*}:$NOGROUP" /mnt/etc/bad.pw
	chmod "$mode" /mnt/etc/bad.pw
	login badpw
	unavail "a password file $mode ${rest%%:*}"
	helper badpw "$ME"
	hrefused "the helper names it: ${rest#*:}" \
	    "password_file /mnt/etc/bad.pw is ${rest#*:}"
done
login external
loggedin "SASL EXTERNAL with a client certificate logs in"
helper external "$ME"
[ $HST -eq 0 ] && [ "$(cat "$WORK/hout")" = "$PK_ME" ]
okshow $? "the helper alone prints the value" "$WORK/herr"
grep -q "BIND dn=\"$CLIENT_DN\" mech=EXTERNAL" "$DS/log"
okshow $? "slapd saw the EXTERNAL bind as $CLIENT_DN" "$DS/log"

# Too much: more than one entry, too many values, too many bytes.
login twice
unavail "two entries match"
helper twice "$ME"
hrefused "the helper: more than one entry" "more than one entry matches"
login big
unavail "65 values"
helper big "$ME"
hrefused "the helper: too many values" "more than 64 values"
login huge
unavail "a value of 70 000 bytes"
helper huge "$ME"
hrefused "the helper: too many bytes" "more than 65536 bytes"

# The offline cache, the directory down, revocation.
mkdir -m 700 /mnt/cache
C="authcmd_cache=/mnt/cache"
E=/mnt/cache/u-$(printf '%s' "$ME" | od -An -tx1 | tr -d ' \n')
login people $C
loggedin "with authcmd_cache: logs in" && [ "$(cat "$E")" = "$PK_ME" ]
okshow $? "and the cache holds the directory's answer" "$E"
slapd_stop "$DS"
ok $? "slapd stopped"
login people
unavail "the directory down, no cache"
helper people "$ME"
hfail "the helper: the server could not be reached (ldaps), URI named" \
    "ldaps://127.0.0.1:$P: the server could not be reached: connection refused"
# ldap:// with StartTLS wrote to a refused connection: SIGPIPE killed the
# helper (status 141, not a word) until it ignored the signal.
helper starttls "$ME"
hfail "and over ldap:// + StartTLS: exit 1 and one line, no SIGPIPE" \
    "ldap://127.0.0.1:$P2: the server could not be reached: connection refused"
[ "$(wc -l <"$WORK/herr")" -eq 1 ]
ok $? "just that one line"
login starttls
unavail "the directory down over StartTLS: the helper exited (no signal)"
check "$ME"
[ $CST -ne 0 ] && [ ! -s "$WORK/cout" ] &&
    grep -q "authcmd /mnt/bin/pam_u2f_ldap .*: no answer" "$WORK/cerr"
okshow $? "--check with the directory down: no answer, not the cache" \
    "$WORK/cerr"
login people $C
[ $ST -eq 0 ] && result ERR_OK &&
    grep -q "authcmd_cache: using the entry of $ME" "$WORK/debug.log" &&
    grep -q "1 credential(s) for $ME from authcmd_cache" "$WORK/debug.log"
okshow $? "the directory down, a fresh cache: logs in from the cache"
slapd_start "$DS" $TLS_URLS
ok $? "slapd started again"
printf '%s\n' "dn: uid=$ME,ou=people,$SUFFIX" "changetype: modify" \
    "delete: passkey" "passkey: $PK_ME" | ldap_admin "$DS"
okshow $? "ldapmodify deleted the credential" "$DS/modify.log"
login people $C
[ $ST -ne 0 ] && result ERR_NOT_FOUND && [ ! -e "$E" ] &&
    grep -q "authcmd_cache: deleted the entry of $ME" "$WORK/debug.log"
okshow $? "revoked in the directory: refused, and the cache entry is gone"
login people $C
[ $ST -ne 0 ] && result ERR_NOT_FOUND
okshow $? "and refused again"
# Enrolled again, as README says: pamu2fcfg --format=ldif | ldapmodify
# (a new credential; the old one stays revoked).
enroll -u "$ME" --format=ldif --dn "uid=$ME,ou=people,$SUFFIX" \
    >"$WORK/enroll.ldif" && ldap_admin "$DS" <"$WORK/enroll.ldif" &&
    PK_NEW=$(sed -n 's/^passkey: //p' "$WORK/enroll.ldif") &&
    [ -n "$PK_NEW" ] && [ "$PK_NEW" != "$PK_ME" ] &&
    helper people "$ME" && [ "$(cat "$WORK/hout")" = "$PK_NEW" ]
okshow $? "pamu2fcfg --format=ldif | ldapmodify: the directory holds the new credential" \
    "$DS/modify.log"
login people $C
loggedin "enrolled again with pamu2fcfg --format=ldif: logs in"

# A slow server: slapd stopped (SIGSTOP). The kernel still accepts the
# connection; the TLS handshake or StartTLS never ends.
hconf slowtls "\"ldap://127.0.0.1:$P2\"" ou=people
sed -i 's/= 2$/= 1/' /mnt/etc/slowtls.conf
kill -STOP "$(cat "$DS/pid")"
login slow
unavail "a stopped server, the helper's network_timeout (1 s)"
helper slow "$ME"
hfail "the helper gives up by itself (not killed)" "TLS connection: .*"
helper slowtls "$ME"
hfail "and for StartTLS" "StartTLS: Timed out"
login slower authcmd_timeout=1
unavail "helper timeouts of 30 s, authcmd_timeout=1" \
    "did not finish before the deadline (killed)"
# The deadline is not the helper's own "unreachable" (exit 1): a caller
# may cause it (pam_u2f(8)), so the cache does not answer it.
login slower authcmd_timeout=1 $C
[ $ST -ne 0 ] && result ERR_UNAVAIL &&
    grep -q "did not finish before the deadline (killed)" "$WORK/debug.log" &&
    grep -q "authcmd_cache: not used for $ME: only exit status 1" \
    "$WORK/debug.log"
okshow $? "and with a fresh cache: not answered from it (only exit 1 is)"
kill -CONT "$(cat "$DS/pid")"
login people
loggedin "slapd continued: logs in again"
# The directory answered but gave no usable answer (exit 3): never from
# the cache, though it holds a fresh entry for the user.
login twice $C
[ $ST -ne 0 ] && result ERR_UNAVAIL &&
    grep -q "authcmd_cache: not used for $ME: only exit status 1" \
    "$WORK/debug.log"
okshow $? "two entries (exit 3) with a fresh cache: not answered from it"
printf 'wrong\n' >/mnt/etc/bad.pw
chown "root:$NOGROUP" /mnt/etc/bad.pw
chmod 640 /mnt/etc/bad.pw
login badpw $C
[ $ST -ne 0 ] && result ERR_UNAVAIL &&
    grep -q "authcmd_cache: not used for $ME" "$WORK/debug.log"
okshow $? "a refused bind (exit 3) with a fresh cache: not answered from it"

done_testing
