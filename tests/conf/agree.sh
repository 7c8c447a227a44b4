#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg and pam_u2f.so read the same pam_u2f.conf: enroll with the
# tool when only the file names the origin and the mapping file, then log
# in through the real module (libpam under pam_wrapper, pamtester) when
# only the file names them. Command-line options and module arguments win
# over the file. Needs root: the file must be owned by root.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "pam_u2f.conf must be owned by root"

token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
ME=$(id -un)
CONF="$WORK/pam_u2f.conf"
mkdir "$WORK/svc"
cat > "$CONF" <<CONF
# written by conf_agree.sh
origin = "pam://agree"
authfile = "$WORK/map"
CONF
chmod 644 "$CONF"

# login ARGS...: one authentication through libpam with these arguments.
login() {
	echo "auth required $MODULE $*" > "$WORK/svc/u2ftest"
	LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
	    pamtester u2ftest "$ME" authenticate >"$WORK/pam.out" 2>&1
	st=$?
	[ $st -eq 0 ] || sed "s/^/# /" "$WORK/pam.out"
	return $st
}

DEV="unix:$WORK/t.sock"

run --conf "$CONF" --device "$DEV" --add
expect 0 "--add with only the file naming origin and mapping file"
[ -s "$WORK/map" ] && grep -q "^$ME:" "$WORK/map"
ok $? "the line went to the file's authfile"

login "conf=$CONF devices=$DEV timeout=5"
ok $? "the module accepts it with only the file naming origin and authfile"

login "$MOD_CONF authfile=$WORK/map devices=$DEV timeout=2"
[ $? -ne 0 ]
ok $? "without the file (origin pam://HOSTNAME) the module refuses it"

login "$MOD_CONF authfile=$WORK/map origin=pam://agree devices=$DEV timeout=5"
ok $? "the same origin as an argument is accepted"

run --conf "$CONF" --device "$DEV" -o pam://cmdline --add "$WORK/map2"
expect 0 "-o and FILE on the command line win over the file"
login "conf=$CONF authfile=$WORK/map2 devices=$DEV timeout=2"
[ $? -ne 0 ]
ok $? "the file's origin does not match a key enrolled under -o"
login "conf=$CONF authfile=$WORK/map2 origin=pam://cmdline devices=$DEV timeout=5"
ok $? "origin= on the module's line wins over the file"

run --conf "$CONF" --list
expect 0 "--list reads the file's authfile"
grep -q "^1: " "$WORK/out"
ok $? "--list shows the credential enrolled there"

run --conf "$WORK/missing.conf" --device "$DEV"
[ "$RC" -ne 0 ] && grep -q "missing.conf: No such file" "$WORK/err"
ok $? "pamu2fcfg: a missing --conf file is an error"
login "conf=$WORK/missing.conf devices=$DEV timeout=2"
[ $? -ne 0 ] && grep -q "Error in service module" "$WORK/pam.out"
ok $? "pam_u2f: a missing conf= file is PAM_SERVICE_ERR"

printf 'origin = "pam://agree"\ntimeout = 0\n' > "$WORK/bad.conf"
run --conf "$WORK/bad.conf" --device "$DEV"
[ "$RC" -ne 0 ] && grep -q "bad.conf:2: timeout: 0 is out of range" \
    "$WORK/err"
ok $? "pamu2fcfg: a bad value is an error naming the file and line"
login "conf=$WORK/bad.conf devices=$DEV timeout=2"
[ $? -ne 0 ] && grep -q "Error in service module" "$WORK/pam.out"
ok $? "pam_u2f: a bad value is PAM_SERVICE_ERR"

# remote=: the argument and the file's "remote =" agree, in a remote
# session (PAM_RHOST another host), for every value: the same outcome and
# the same debug lines about it. The mapping file has an @ssh-sk line
# (ssh-keygen's key of tests/ssh/sshsig_kat.h) for remote=agent, which
# finds no agent (SSH_AUTH_SOCK empty).
FAR=192.0.2.7
{
	cat "$WORK/map"
	echo "@ssh-sk $ME sk-ecdsa-sha2-nistp256@openssh.com AAAAInNrLWVjZHNhLXNoYTItbmlzdHAyNTZAb3BlbnNzaC5jb20AAAAIbmlzdHAyNTYAAABBBNm3QIe01cQKBCoUfOy7FQm/eqIxa8FyiKx4oqORDEQSX/q2jD2ykPNvWhOWIGmtTbIaAi+xtNopO3MoScjzJkEAAAAEc3NoOg== ka"
} >"$WORK/rmap"
chmod 644 "$WORK/rmap"
# far_login ARGS...: one authentication with these arguments, PAM_RHOST
# $FAR, no agent; prints pamtester's exit status and the debug log's
# lines about remote=, the agent and the result.
far_login() {
	echo "auth required $MODULE $* debug debug_file=$WORK/debug.log" \
	    >"$WORK/svc/u2ftest"
	: >"$WORK/debug.log"
	LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" SSH_AUTH_SOCK='' \
	    pamtester -I rhost=$FAR u2ftest "$ME" authenticate \
	    >"$WORK/pam.out" 2>&1
	echo "exit $?"
	sed -n -e 's/.*\(remote=[a-z]*: .*\)/\1/p' \
	    -e 's/.*\(no ssh-agent was forwarded\).*/\1/p' \
	    -e 's/.*\(result [A-Z_]*\):.*/\1/p' "$WORK/debug.log"
}
# want VALUE: $WORK/a is what remote=VALUE does in a remote session.
want() {
	case $1 in
	wait) grep -qx "exit 0" "$WORK/a" && ! grep -q "remote=" "$WORK/a" ;;
	fail) grep -qx "exit 1" "$WORK/a" &&
	    grep -q "remote=fail: $ME is in a remote session" "$WORK/a" ;;
	agent) grep -qx "exit 1" "$WORK/a" &&
	    grep -q "no ssh-agent was forwarded" "$WORK/a" ;;
	ignore) grep -qx "exit 1" "$WORK/a" &&
	    grep -q "remote=ignore: session remote" "$WORK/a" &&
	    grep -q "remote=ignore: PAM_IGNORE for $ME" "$WORK/a" ;;
	esac
}
for v in wait fail agent ignore; do
	printf 'origin = "pam://agree"\nauthfile = "%s"\nremote = %s\n' \
	    "$WORK/rmap" "$v" >"$WORK/remote.conf"
	chmod 644 "$WORK/remote.conf"
	far_login "$MOD_CONF authfile=$WORK/rmap origin=pam://agree" \
	    "devices=$DEV timeout=5 remote=$v" >"$WORK/a"
	far_login "conf=$WORK/remote.conf devices=$DEV timeout=5" >"$WORK/f"
	want "$v" && cmp -s "$WORK/a" "$WORK/f"
	okshow $? "remote=$v: the argument and the file agree" "$WORK/a" \
	    "$WORK/f"
done

# A bad value: PAM_SERVICE_ERR either way, with the same message.
BADV='remote: "maybe" is not one of wait, fail, agent, ignore'
far_login "$MOD_CONF authfile=$WORK/rmap origin=pam://agree" \
    "devices=$DEV timeout=2 remote=maybe" >"$WORK/a"
grep -q "Error in service module" "$WORK/pam.out" &&
    grep -q "invalid module argument \"remote=maybe\": $BADV" \
	"$WORK/debug.log"
okshow $? "pam_u2f: remote=maybe as an argument is PAM_SERVICE_ERR" "$WORK/a"
printf 'origin = "pam://agree"\nremote = maybe\n' >"$WORK/bad.conf"
far_login "conf=$WORK/bad.conf devices=$DEV timeout=2" >"$WORK/f"
grep -q "Error in service module" "$WORK/pam.out" &&
    grep -q "bad.conf:2: $BADV" "$WORK/debug.log" &&
    grep -qx "result ERR_CONFIG" "$WORK/a" && cmp -s "$WORK/a" "$WORK/f"
okshow $? "pam_u2f: remote = maybe in the file is PAM_SERVICE_ERR too" \
    "$WORK/f"
run --conf "$WORK/bad.conf" --device "$DEV"
[ "$RC" -ne 0 ] && grep -q "bad.conf:2: $BADV" "$WORK/err"
okshow $? "pamu2fcfg: remote = maybe in the file is an error" "$WORK/err"

chmod 664 "$CONF"
run --conf "$CONF" --device "$DEV"
[ "$RC" -ne 0 ] && grep -q "group- or world-writable" "$WORK/err"
ok $? "pamu2fcfg: a group-writable file is refused"
login "conf=$CONF devices=$DEV timeout=2"
[ $? -ne 0 ]
ok $? "pam_u2f: a group-writable file is refused"

done_testing
