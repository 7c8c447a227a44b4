#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# authcmd=: credentials from a command, through the real module (libpam
# under pam_wrapper, pamtester) and the software token. The command must
# sit in a root-owned directory chain that neither group nor others may
# write, as sshd's AuthorizedKeysCommand: /tmp (1777) is refused, so the
# test runs in a private mount namespace (unshare -m) with a tmpfs of
# mode 0755 on /mnt, which vanishes with it; nothing outside changes.
# Needs root (the namespace; the command runs as nobody).
. "${top_srcdir:-.}/tests/tool/nsexec.lib"
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the command runs as another user"
mnt_tmpfs pu-authcmd
NOBODY=$(id -u nobody) || { echo "1..0 # SKIP no user nobody"; exit 0; }

token t --ctap2 2.0 --pin 1111 --presence now ||
    { echo "Bail out! softtoken did not start"; exit 1; }
ME=$(id -un)
mkdir "$WORK/svc" /mnt/bin /mnt/data /mnt/spy
chown nobody /mnt/spy

# The credential, as a mapping line and as an SSSD passkey: value (its
# P-256 key wrapped in a SubjectPublicKeyInfo).
printf '1111\n' | "$PAMU2FCFG" --device "unix:$WORK/t.sock" -u "$ME" \
    -o pam://ac --pin-stdin >/mnt/data/line 2>"$WORK/err"
ok $? "enrolled the token"
LINE=$(cat /mnt/data/line)
KH=$(printf '%s' "$LINE" | cut -d: -f2 | cut -d, -f1)
SPKI=$({
	printf '\060\131\060\023\006\007\052\206\110\316\075\002\001\006\010'
	printf '\052\206\110\316\075\003\001\007\003\102\000\004'
	printf '%s' "$LINE" | cut -d, -f2 | base64 -d
} | base64 -w0)
printf 'passkey:%s,%s\n' "$KH" "$SPKI" >/mnt/data/passkey
# An EdDSA and an RS256 credential as passkey: values too: the SPKI of
# an Ed25519 key around its 32 bytes, of an RSA key around the mapping
# line's n (256 bytes) || e (3 bytes, 65537 from the token).
for t in EDDSA RS256; do
	printf '1111\n' | "$PAMU2FCFG" --device "unix:$WORK/t.sock" -u "$ME" \
	    -o pam://ac -t $t --pin-stdin >"$WORK/line.$t" 2>"$WORK/err"
	ok $? "enrolled an $t credential"
done
pk() { cut -d, -f2 "$WORK/line.$1" | base64 -d; }
SPKI_ED=$({
	printf '\060\052\060\005\006\003\053\145\160\003\041\000'
	pk EDDSA
} | base64 -w0)
SPKI_RS=$({
	printf '\060\202\001\042\060\015\006\011\052\206\110\206\367\015'
	printf '\001\001\001\005\000\003\202\001\017\000\060\202\001\012'
	printf '\002\202\001\001\000'
	pk RS256 | head -c 256
	printf '\002\003'
	pk RS256 | tail -c 3
} | base64 -w0)
printf 'passkey:%s,%s\n' "$(cut -d: -f2 "$WORK/line.EDDSA" | cut -d, -f1)" \
    "$SPKI_ED" >/mnt/data/passkey.EDDSA
printf 'passkey:%s,%s\n' "$(cut -d: -f2 "$WORK/line.RS256" | cut -d, -f1)" \
    "$SPKI_RS" >/mnt/data/passkey.RS256
# And as pamu2fcfg prints them itself (--format=passkey), each type.
for t in ES256 EDDSA RS256; do
	printf '1111\n' | "$PAMU2FCFG" --device "unix:$WORK/t.sock" -u "$ME" \
	    -o pam://ac -t $t --pin-stdin --format=passkey \
	    >"/mnt/data/fmt.$t" 2>"$WORK/err" &&
	    grep -Eqx 'passkey:[A-Za-z0-9+/]+=*,[A-Za-z0-9+/]+=*' \
	    "/mnt/data/fmt.$t"
	ok $? "pamu2fcfg --format=passkey -t $t prints a passkey: value"
done
# One line, ended by a newline like LDIF (the pam-u2f line has none).
[ "$(wc -l < /mnt/data/fmt.ES256)" -eq 1 ] &&
    [ "$(tail -c 1 /mnt/data/fmt.ES256 | od -An -tx1 | tr -d ' ')" = 0a ]
ok $? "pamu2fcfg --format=passkey ends its value with a newline"
printf '# nobody else here\nbob:\n' >/mnt/data/none
chmod 644 /mnt/data/*

# The command: records who and how it runs, then answers by its mode
# (the second argument).
cat >/mnt/bin/cmd <<'CMD'
#!/bin/sh
echo $$ >/mnt/spy/pid
id -u >/mnt/spy/uid
id -G >/mnt/spy/groups
env >/mnt/spy/env
printf '%s\n' "$#" "$@" >/mnt/spy/args
# (from a subshell, which redirects its own output: a pipeline, or a
# redirection of the command itself, has this shell hold more descriptors
# while ls lists them: the pipe's read end, or its saved stdout)
(ls -l /proc/$$/fd >/mnt/spy/fds.ls)
awk 'NF > 9 { print $9, $11 }' /mnt/spy/fds.ls >/mnt/spy/fds
case $2 in
line) cat /mnt/data/line ;;
passkey) cat /mnt/data/passkey ;;
eddsa) cat /mnt/data/passkey.EDDSA ;;
rs256) cat /mnt/data/passkey.RS256 ;;
fmt.ES256 | fmt.EDDSA | fmt.RS256) cat "/mnt/data/$2"; echo ;;
both) cat /mnt/data/none /mnt/data/passkey /mnt/data/line ;;
nocolon) printf '%s\nno colon here\n\nnor here\n' "$(cat /mnt/data/line)" ;;
empty) ;;
fail) cat /mnt/data/line; exit 1 ;;
exit3) cat /mnt/data/line; exit 3 ;;
killed) cat /mnt/data/line; kill -KILL $$ ;;
# The directory has revoked the key (no line: exit 0). Under the limits
# of the caller (a setuid host's user) it would fail and say
# "unreachable" (exit 1), as a helper that cannot connect does.
revoked)
	[ "$(ulimit -n)" -ge 64 ] && [ "$(ulimit -v)" = unlimited ] &&
	    [ "$(ulimit -u)" != 0 ] || exit 1 ;;
slow) cat /mnt/data/line; sleep 60 & echo $! >/mnt/spy/child; wait ;;
big) cat /mnt/data/line; head -c 70000 /dev/zero | tr '\0' '#' ;;
bad) echo 'passkey:AAAA,AAAA' ;;
esac
CMD
chmod 755 /mnt/bin/cmd

# login ARGS...: one authentication (PIN 1111 on standard input) with
# these module arguments; status in $ST, debug log in $WORK/debug.log.
# Descriptor 7 is open in pamtester: the command must not get it.
login() {
	rm -f /mnt/spy/*
	printf '1111\n' | pam_auth "${LOGIN_USER:-$ME}" \
	    "auth required $MODULE $MOD_CONF origin=pam://ac devices=unix:$WORK/t.sock timeout=5 debug debug_file=$WORK/debug.log $*" \
	    7</dev/null
	ST=$?
}
AC="authcmd_user=nobody"

login "[authcmd=/mnt/bin/cmd %u line]" $AC
[ $ST -eq 0 ] && result ERR_OK
okshow $? "a mapping line from the command logs in"
[ "$(cat /mnt/spy/uid)" = "$NOBODY" ] &&
    [ "$(cat /mnt/spy/groups)" = "$(id -G nobody)" ]
ok $? "the command ran as authcmd_user (uid $NOBODY, its groups only)"
printf '2\n%s\nline\n' "$ME" >"$WORK/want"
cmp -s "$WORK/want" /mnt/spy/args
ok $? "argv: the user's name (%u) and the fixed word, no shell"
[ "$(grep -cv '^PWD=' /mnt/spy/env)" = 1 ] &&
    grep -qx 'PATH=/usr/bin:/bin' /mnt/spy/env
ok $? "the environment is PATH only (and the shell's own PWD)"
grep -q '^0 /dev/null$' /mnt/spy/fds && grep -q '^1 pipe:' /mnt/spy/fds &&
    grep -q '^2 /dev/null$' /mnt/spy/fds &&
    [ "$(grep -v '^[012] ' /mnt/spy/fds | grep -cv ' /mnt/bin/cmd$')" = 0 ]
okshow $? "descriptors: stdin/stderr /dev/null, stdout the pipe, else only the shell's own script" \
    /mnt/spy/fds

login "[authcmd=/mnt/bin/cmd %u passkey]" $AC
[ $ST -eq 0 ] && result ERR_OK && grep -q "Please enter the PIN" "$WORK/pam.out"
okshow $? "a passkey: value logs in (with the PIN: +pin)"
for t in eddsa rs256; do
	login "[authcmd=/mnt/bin/cmd %u $t]" $AC
	[ $ST -eq 0 ] && result ERR_OK
	okshow $? "an $t passkey: value (SPKI from the token's key) logs in"
done
for t in ES256 EDDSA RS256; do
	login "[authcmd=/mnt/bin/cmd %u fmt.$t]" $AC
	[ $ST -eq 0 ] && result ERR_OK
	okshow $? "the $t value of pamu2fcfg --format=passkey logs in"
done
login "[authcmd=/mnt/bin/cmd %u both]" $AC
[ $ST -eq 0 ] && grep -q "2 credential(s) for $ME from authcmd" "$WORK/debug.log"
okshow $? "a mapping line and a passkey: value together"

# A valid line, then lines without a colon (not the user's): the line's
# credentials, and the skipped lines logged with their numbers.
login "[authcmd=/mnt/bin/cmd %u nocolon]" $AC
[ $ST -eq 0 ] && result ERR_OK &&
    grep -q "authcmd output: 2 line(s) without a colon skipped (lines 2, 4)" \
    "$WORK/debug.log"
okshow $? "lines without a colon after a good line: skipped, logged by number"

login "[authcmd=/mnt/bin/cmd %u empty]" $AC
[ $ST -ne 0 ] && result ERR_NOT_FOUND &&
    grep -q "User not known" "$WORK/pam.out"
okshow $? "exit 0 without output: no credentials (PAM_USER_UNKNOWN)"
login "[authcmd=/mnt/bin/cmd %u empty]" $AC nouserok
grep -q "result ERR_NOT_FOUND: The return value should be ignored" \
    "$WORK/debug.log"
okshow $? "and with nouserok: PAM_IGNORE"

# unavail WHAT PATTERN: the last login was PAM_AUTHINFO_UNAVAIL and the
# debug log says PATTERN.
unavail() {
	[ $ST -ne 0 ] && result ERR_UNAVAIL && grep -q "$2" "$WORK/debug.log"
	okshow $? "$1: PAM_AUTHINFO_UNAVAIL"
}
login "[authcmd=/mnt/bin/cmd %u fail]" $AC
unavail "exit 1, even after a good line" "exited with a status other than 0 (1: its source is unreachable)"
login "[authcmd=/mnt/bin/cmd %u exit3]" $AC
unavail "exit 3" "exited with a status other than 0 or 1 (3)"
login "[authcmd=/mnt/bin/cmd %u slow]" $AC authcmd_timeout=1
unavail "a command past authcmd_timeout" \
    "did not finish before the deadline (killed)"
# gone PID: no such process, or a zombie, within 50 looks 0.1 s apart (a
# SIGKILLed process that is not our child dies when the kernel gets to
# it; the module reaps only its own child).
gone() {
	i=0
	while [ $i -lt 50 ]; do
		kill -0 "$1" 2>/dev/null || return 0
		grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null &&
		    return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
p=$(cat /mnt/spy/pid) && c=$(cat /mnt/spy/child) && gone "$p" && gone "$c"
okshow $? "the command and its child are gone (SIGKILL to the group)" \
    /mnt/spy/pid /mnt/spy/child
login "[authcmd=/mnt/bin/cmd %u big]" $AC
unavail "output over 64 KiB" "wrote more than the output limit"
login "[authcmd=/mnt/bin/cmd %u bad]" $AC
[ $ST -ne 0 ] && result ERR_PARSE &&
    grep -q "output line 1 is malformed" "$WORK/debug.log"
okshow $? "a malformed passkey: value: PAM_AUTHINFO_UNAVAIL, line named"

# refused MODE-CHANGE WHY: the command is refused and does not run.
refused() {
	[ $ST -ne 0 ] && result ERR_FILE_UNSAFE && grep -q "$2" "$WORK/debug.log" &&
	    [ ! -e /mnt/spy/pid ]
	okshow $? "$1: refused before it runs"
}
chmod 775 /mnt/bin/cmd
login "[authcmd=/mnt/bin/cmd %u line]" $AC
refused "a group-writable command" "/mnt/bin/cmd is writable by group"
chmod 755 /mnt/bin/cmd
chmod 775 /mnt/bin
login "[authcmd=/mnt/bin/cmd %u line]" $AC
refused "a group-writable directory" "/mnt/bin is writable by group"
chmod 755 /mnt/bin
chown nobody /mnt/bin/cmd
login "[authcmd=/mnt/bin/cmd %u line]" $AC
refused "a command not owned by root" "is not owned by root"
chown root /mnt/bin/cmd
ln -s /mnt/bin/cmd /mnt/bin/link
login "[authcmd=/mnt/bin/link %u line]" $AC
refused "a symbolic link" "/mnt/bin/link is a symbolic link"
cp /mnt/bin/cmd "$WORK/cmd"
login "[authcmd=$WORK/cmd %u line]" $AC
refused "a command under /tmp (1777)" "/tmp is writable by group or others"

# config ARGS... WHAT: a configuration error (PAM_SERVICE_ERR), the
# command not run.
config() {
	what=$1
	shift
	login "$@"
	[ $ST -ne 0 ] && grep -q "service module" "$WORK/pam.out" &&
	    [ ! -e /mnt/spy/pid ]
	okshow $? "$what: a configuration error"
}
config "authcmd without authcmd_user" "[authcmd=/mnt/bin/cmd %u line]"
config "an authcmd_user without an account" "[authcmd=/mnt/bin/cmd %u line]" \
    authcmd_user=pu-no-such-user
grep -q "authcmd_user=pu-no-such-user: no such user; create the account, e.g. adduser --system" \
    "$WORK/debug.log" &&
    grep -q "its account pu-no-such-user (authcmd_user) does not exist" \
    "$WORK/pam.out"
okshow $? "the missing account is named in the log and to the user"
config "authcmd_user=root" "[authcmd=/mnt/bin/cmd %u line]" authcmd_user=root
config "authcmd and authfile" "[authcmd=/mnt/bin/cmd %u line]" $AC \
    authfile=/mnt/data/line
config "a relative authcmd" "[authcmd=bin/cmd %u line]" $AC
config "an unknown %-token" "[authcmd=/mnt/bin/cmd %h line]" $AC

# A hostile user name (from nss_wrapper's passwd) is one argument, and
# authcmd_user's supplementary groups are set.
HOSTILE="h x;\$(id)'q\"*"
if LD_PRELOAD=libnss_wrapper.so true 2>/dev/null &&
    ldconfig -p 2>/dev/null | grep -q libnss_wrapper.so; then
	chmod 755 "$WORK"
	mkdir "$WORK/home"
	printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	    "$HOSTILE:x:4711:4711::$WORK/home:/bin/sh" \
	    "nobody:x:$NOBODY:$NOBODY::/nonexistent:/bin/sh" >"$WORK/passwd"
	printf '%s\n' "root:x:0:" "nogroup:x:$NOBODY:" "pu-a:x:4720:nobody" \
	    "pu-b:x:4721:nobody" >"$WORK/group"
	export NSS_WRAPPER_PASSWD="$WORK/passwd" NSS_WRAPPER_GROUP="$WORK/group"
	PRELOAD=" libnss_wrapper.so" LOGIN_USER=$HOSTILE \
	    login "[authcmd=/mnt/bin/cmd %u empty]" $AC
	printf '2\n%s\nempty\n' "$HOSTILE" >"$WORK/want"
	result ERR_NOT_FOUND && cmp -s "$WORK/want" /mnt/spy/args
	okshow $? "a hostile user name reaches the command as one argument" \
	    /mnt/spy/args
	[ "$(cat /mnt/spy/groups)" = "$NOBODY 4720 4721" ]
	okshow $? "authcmd_user's groups from the group database" \
	    /mnt/spy/groups
	unset NSS_WRAPPER_PASSWD NSS_WRAPPER_GROUP
else
	skip "a hostile user name" "libnss_wrapper.so not installed"
	skip "authcmd_user's groups" "libnss_wrapper.so not installed"
fi

# authcmd_cache=: the last authoritative answer per user, used while the
# command cannot answer. C is the cache, E the user's entry in it.
mkdir -m 700 /mnt/cache
C="authcmd_cache=/mnt/cache"
E=/mnt/cache/u-$(printf '%s' "$ME" | od -An -tx1 | tr -d ' \n')
login "[authcmd=/mnt/bin/cmd %u line]" $AC $C
[ $ST -eq 0 ] && result ERR_OK && cmp -s /mnt/data/line "$E" &&
    [ "$(stat -c '%a %u %g %F' "$E")" = "600 0 0 regular file" ] &&
    [ "$(ls -A /mnt/cache | wc -l)" = 1 ] &&
    grep -q "authcmd_cache: stored the entry of $ME" "$WORK/debug.log"
okshow $? "a good answer fills the cache: the output, root's, 0600, alone"
# cached WHAT: the last login worked from the cache.
cached() {
	[ $ST -eq 0 ] && result ERR_OK &&
	    grep -q "authcmd_cache: using the entry of $ME, [0-9]* s old" \
	    "$WORK/debug.log" &&
	    grep -q "1 credential(s) for $ME from authcmd_cache" "$WORK/debug.log"
	okshow $? "$1: login from the cache"
}
login "[authcmd=/mnt/bin/cmd %u fail]" $AC $C
cached "exit 1"
# notcached WHAT PATTERN: the last login failed without the cache (only
# the command's own "unreachable", exit 1, is answered from it: anything
# else a caller may cause on purpose), and the log says PATTERN.
notcached() {
	[ $ST -ne 0 ] && ! result ERR_OK && grep -q "$2" "$WORK/debug.log" &&
	    grep -q "authcmd_cache: not used for $ME: only exit status 1" \
	    "$WORK/debug.log" &&
	    ! grep -q "from authcmd_cache" "$WORK/debug.log"
	okshow $? "$1: fails, not answered from the cache"
}
login "[authcmd=/mnt/bin/cmd %u bad]" $AC $C
notcached "a malformed line" "output line 1 is malformed"
login "[authcmd=/mnt/bin/cmd %u big]" $AC $C
notcached "too much output" "wrote more than the output limit"
login "[authcmd=/mnt/bin/cmd %u slow]" $AC $C authcmd_timeout=1
notcached "the deadline" "did not finish before the deadline"
login "[authcmd=/mnt/bin/cmd %u exit3]" $AC $C
notcached "exit 3" "exited with a status other than 0 or 1 (3)"
login "[authcmd=/mnt/bin/cmd %u killed]" $AC $C
notcached "a command killed by a signal" "was killed by a signal (9, Killed)"
cmp -s /mnt/data/line "$E"
ok $? "answers that are not authoritative leave the entry as it was"

# A cached credential since revoked in the directory: a caller who can
# make the live lookup fail (a user running a setuid host such as su
# chooses its SIGCHLD disposition and resource limits) must not get the
# cache's answer. Each run: the revoked credential never logs in; the
# command answers live (its limits reset, its status kept: "no
# credentials", the entry deleted) or the log names the failure.
# forced WHAT PAM_RUN-WORDS...: one such run.
forced() {
	what=$1
	shift
	cp /mnt/data/line "$E"
	chmod 600 "$E"
	PAM_RUN="$*" login "[authcmd=/mnt/bin/cmd %u revoked]" $AC $C
	if [ $ST -ne 0 ] && ! grep -q "from authcmd_cache" "$WORK/debug.log" &&
	    result ERR_NOT_FOUND && [ ! -e "$E" ] &&
	    grep -q "authcmd_cache: deleted the entry of $ME" "$WORK/debug.log"
	then
		okshow 0 "$what: the revoked credential is refused (live answer)"
	else
		[ $ST -ne 0 ] && ! grep -q "from authcmd_cache" "$WORK/debug.log" &&
		    grep -q "authcmd /mnt/bin/cmd (pid [0-9]*) .*not answered from a cache" \
		    "$WORK/debug.log"
		okshow $? "$what: the revoked credential is refused (the failure named)"
		grep "not answered from a cache" "$WORK/debug.log" | sed 's/^/# /'
	fi
}
forced "SIGCHLD ignored" env --ignore-signal=CHLD
forced "RLIMIT_NOFILE 10" prlimit --nofile=10:
forced "RLIMIT_NPROC 0" prlimit --nproc=0:
forced "RLIMIT_NPROC 0 (hard too)" prlimit --nproc=0
forced "RLIMIT_AS 1 GiB" prlimit --as=1073741824:
forced "RLIMIT_AS 1 GiB (hard too)" prlimit --as=1073741824
cp /mnt/data/line "$E"
chmod 600 "$E"

# stale WHAT PATTERN ARGS...: with the entry as set up, exit 1 is
# PAM_AUTHINFO_UNAVAIL and the log says PATTERN.
stale() {
	what=$1
	pat=$2
	shift 2
	login "[authcmd=/mnt/bin/cmd %u fail]" $AC $C "$@"
	[ $ST -ne 0 ] && result ERR_UNAVAIL && grep -q "$pat" "$WORK/debug.log"
	okshow $? "$what: PAM_AUTHINFO_UNAVAIL"
}
touch -d '-8 days' "$E"
stale "an entry 8 days old (default maxage 7 days)" "is too old"
touch -d '-2 minutes' "$E"
stale "an entry 2 minutes old, authcmd_cache_maxage=60" "is too old" \
    authcmd_cache_maxage=60
login "[authcmd=/mnt/bin/cmd %u fail]" $AC $C authcmd_cache_maxage=600
cached "an entry 2 minutes old, authcmd_cache_maxage=600"
touch -d '+1 day' "$E"
stale "an entry from the future (the clock went back)" "from the future"
touch "$E"
chmod 644 "$E"
stale "an entry readable by others" "is open to group or others"
chmod 600 "$E"
printf '%s:not-a-key,at-all\n' "$ME" >"$E"
stale "a corrupt entry" "line 1 is malformed"
: >"$E"
stale "an emptied entry (not 'no credentials', even with nouserok)" \
    "authcmd_cache: the entry of $ME:" nouserok
cp /mnt/data/line "$E"
login "[authcmd=/mnt/bin/cmd %u fail]" $AC $C
cached "the entry restored"

# Revocation: exit 0 without credentials deletes the entry.
login "[authcmd=/mnt/bin/cmd %u empty]" $AC $C
[ $ST -ne 0 ] && result ERR_NOT_FOUND && [ ! -e "$E" ] &&
    grep -q "authcmd_cache: deleted the entry of $ME" "$WORK/debug.log"
okshow $? "an answer without credentials: PAM_USER_UNKNOWN, entry deleted"
stale "then exit 1 with nothing cached" "authcmd_cache: no entry for $ME"
[ "$(ls -A /mnt/cache | wc -l)" = 0 ]
ok $? "the cache is empty (no temporary file left)"

# A failure to store (a directory where the entry goes) is logged and
# the answer stands.
mkdir "$E"
login "[authcmd=/mnt/bin/cmd %u line]" $AC $C
[ $ST -eq 0 ] && result ERR_OK && [ -d "$E" ] &&
    grep -q "authcmd_cache: the entry of $ME not stored" "$WORK/debug.log" &&
    [ "$(ls -A /mnt/cache | wc -l)" = 1 ]
okshow $? "a failed store: logged, the login works, no temporary file"
rmdir "$E"

# A store that fails (a full file system) deletes the older entry: an
# answer older than the last one must not answer a later outage.
mkdir -m 700 /mnt/small
mount -t tmpfs -o size=8k,mode=700 pu-small /mnt/small
S="authcmd_cache=/mnt/small"
ES=/mnt/small/${E##*/}
login "[authcmd=/mnt/bin/cmd %u line]" $AC $S
cat /dev/zero >/mnt/small/fill 2>/dev/null
[ $ST -eq 0 ] && cmp -s /mnt/data/line "$ES"
ok $? "a full cache directory holds an entry"
login "[authcmd=/mnt/bin/cmd %u both]" $AC $S
[ $ST -eq 0 ] && result ERR_OK && [ ! -e "$ES" ] &&
    grep -q "authcmd_cache: the entry of $ME not stored" "$WORK/debug.log" &&
    grep -q "authcmd_cache: deleted the older entry of $ME" "$WORK/debug.log"
okshow $? "a failed store deletes the older entry, the login works"
login "[authcmd=/mnt/bin/cmd %u fail]" $AC $S
[ $ST -ne 0 ] && result ERR_UNAVAIL &&
    grep -q "authcmd_cache: no entry for $ME" "$WORK/debug.log"
okshow $? "and a later exit 1 finds no entry"
umount /mnt/small

# An unsafe or missing cache directory: PAM_SERVICE_ERR, before the
# command runs.
chmod 770 /mnt/cache
config "a group-writable authcmd_cache" "[authcmd=/mnt/bin/cmd %u line]" \
    $AC $C
grep -q "authcmd_cache=/mnt/cache refused: /mnt/cache is writable by group" \
    "$WORK/debug.log"
okshow $? "and the log says why"
chmod 700 /mnt/cache
chown nobody /mnt/cache
config "an authcmd_cache not root's" "[authcmd=/mnt/bin/cmd %u line]" $AC $C
chown root /mnt/cache
ln -s /mnt/cache /mnt/cachelink
config "an authcmd_cache through a symbolic link" \
    "[authcmd=/mnt/bin/cmd %u line]" $AC authcmd_cache=/mnt/cachelink
config "a missing authcmd_cache" "[authcmd=/mnt/bin/cmd %u line]" $AC \
    authcmd_cache=/mnt/nocache
grep -q "authcmd_cache=/mnt/nocache: /mnt/nocache does not exist; create it: install -d -o root -g root -m 700 /mnt/nocache" \
    "$WORK/debug.log" &&
    grep -q "its cache directory /mnt/nocache (authcmd_cache) does not exist" \
    "$WORK/pam.out"
okshow $? "the missing directory is named in the log and to the user"
config "authcmd_cache under /tmp" "[authcmd=/mnt/bin/cmd %u line]" $AC \
    "authcmd_cache=$WORK"
config "authcmd_cache without authcmd" "authcmd_cache=/mnt/cache"

# The command works again after all that.
login "[authcmd=/mnt/bin/cmd %u line]" $AC
[ $ST -eq 0 ]
okshow $? "and logs in again"

done_testing
