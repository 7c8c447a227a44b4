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

chmod 664 "$CONF"
run --conf "$CONF" --device "$DEV"
[ "$RC" -ne 0 ] && grep -q "group- or world-writable" "$WORK/err"
ok $? "pamu2fcfg: a group-writable file is refused"
login "conf=$CONF devices=$DEV timeout=2"
[ $? -ne 0 ]
ok $? "pam_u2f: a group-writable file is refused"

done_testing
