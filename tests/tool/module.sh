#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Enroll with pamu2fcfg, then log in through the real pam_u2f.so (libpam
# under pam_wrapper, driven by pamtester): enrollment and module agree.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"

token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
token other --presence now || exit 1
ME=$(id -un)
mkdir "$WORK/svc"

# login ORIGIN AUTHFILE DEVICE: one authentication through libpam.
login() {
	echo "auth required $MODULE $MOD_CONF authfile=$2 origin=$1 devices=unix:$3" \
	    > "$WORK/svc/u2ftest"
	LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
	    pamtester u2ftest "$ME" authenticate >"$WORK/pam.out" 2>&1
	st=$?
	[ $st -eq 0 ] || sed "s/^/# /" "$WORK/pam.out"
	return $st
}

run --device "unix:$WORK/t.sock" -o pam://e2e --add "$WORK/map"
expect 0 "--add enrolls the first key"
login pam://e2e "$WORK/map" "$WORK/t.sock"
ok $? "the module accepts the key enrolled with --add"
login pam://elsewhere "$WORK/map" "$WORK/t.sock"
[ $? -ne 0 ]
ok $? "the module refuses it under another origin"
login pam://e2e "$WORK/map" "$WORK/other.sock"
[ $? -ne 0 ]
ok $? "the module refuses a key that was not enrolled"

# The older workflow: print a line, append a second key with -n.
run --device "unix:$WORK/t.sock" -o pam://e2e
expect 0 "plain enrollment"
cp "$WORK/out" "$WORK/plain"
run --device "unix:$WORK/other.sock" -o pam://e2e -n
expect 0 "-n enrollment of a second key"
cat "$WORK/out" >> "$WORK/plain"
chmod 600 "$WORK/plain"
login pam://e2e "$WORK/plain" "$WORK/other.sock"
ok $? "the module accepts the key appended with -n"
login pam://e2e "$WORK/plain" "$WORK/t.sock"
ok $? "and still the first key"

done_testing
