#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg takes origin, appid, authfile, timeout and devices from the
# module's pam_u2f.conf (--conf), and its own options win.
. "${top_srcdir:-.}/tests/tool/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (pam_u2f.conf must be owned by root)"
	exit 0
fi
token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
token other --presence now || exit 1
c="$WORK/pam_u2f.conf"
cat > "$c" <<CONF
origin = "pam://confhost"
authfile = "$WORK/central"
devices = { "unix:$WORK/t.sock" }
timeout = 7
CONF
chmod 644 "$c"

run --conf "$c" -u alice --add
expect 0 "--add uses the configured authfile and device"
grep -Eqx "alice:$CRED_RE" "$WORK/central"
ok $? "the credential is in the configured authfile"
run --conf "$c" -u alice --check
expect 0 "--check with the configured origin"
run --conf "$c" -u alice -o pam://other --check
[ "$RC" -eq 1 ]
ok $? "-o overrides the configured origin (and then the check fails)"
run --conf "$c" --device "unix:$WORK/other.sock" -u bob --add
expect 0 "--device overrides the configured devices"
run --conf "$c" -u bob --check
[ "$RC" -eq 1 ]
ok $? "bob's credential is on the other key, not the configured one"
run --conf "$c" -u alice --list "$WORK/elsewhere"
[ "$RC" -eq 4 ]
ok $? "FILE overrides the configured authfile"

printf 'bogus = 1\n' > "$WORK/bad.conf"
chmod 644 "$WORK/bad.conf"
run --conf "$WORK/bad.conf" -u alice
[ "$RC" -eq 2 ] && [ ! -s "$WORK/out" ] && grep -q 'bad.conf:1' "$WORK/err"
ok $? "a broken configuration file is a usage error naming the line"
run --conf "$WORK/missing.conf" -u alice
[ "$RC" -eq 4 ]
ok $? "a missing --conf file is a file error"
chmod 666 "$c"
run --conf "$c" -u alice --list
[ "$RC" -eq 4 ]
ok $? "a world-writable configuration file is refused"

done_testing
