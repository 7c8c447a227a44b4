#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg --add under stress: 50 concurrent runs lose nothing; 10
# concurrent runs of one key enroll it once; runs killed at random points
# leave the old file or the new one, nothing else.
. "${top_srcdir:-.}/tests/tool/lib.sh"

token t --presence now || { echo "Bail out! softtoken did not start"; exit 1; }
DEV="--device unix:$WORK/t.sock"
m="$WORK/map"
printf '# keep me\nbob:x\n' > "$m"
chmod 600 "$m"

# Each run registers under its own origin, so the key does not hold the
# credentials the others added (it would be "already enrolled").
i=1
pids=""
while [ $i -le 50 ]; do
	( "$PAMU2FCFG" $DEV --timeout 60 -u alice -o "pam://race$i" \
	    --add "$m" >/dev/null 2>"$WORK/race$i.err" ||
	    mv "$WORK/race$i.err" "$WORK/failed$i.err" ) &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do
	wait "$p"
done
fails=$(find "$WORK" -maxdepth 1 -name 'failed*.err' | wc -l)
[ "$fails" -eq 0 ]
ok $? "50 concurrent --add runs all exit 0"
[ "$fails" -eq 0 ] || cat "$WORK"/failed*.err | sed 's/^/# /' | head -n 20
[ "$(ncreds "$m" alice)" = 50 ]
ok $? "alice's line holds 50 credentials"
[ "$(grep -c '^alice:' "$m")" = 1 ]
ok $? "alice has exactly one line"
[ "$(head -n 2 "$m")" = "$(printf '# keep me\nbob:x')" ]
ok $? "the other lines are untouched"
[ "$(grep '^alice:' "$m" | tr ':' '\n' | grep ',' | cut -d, -f1 |
    sort | uniq -d | wc -l)" = 0 ]
ok $? "no key handle appears twice"
"$PAMU2FCFG" -u alice --list "$m" > "$WORK/list" 2>/dev/null &&
    [ "$(wc -l < "$WORK/list")" = 50 ]
ok $? "--list reads all 50 back"

# One origin, one key, 10 concurrent runs: the key is enrolled once. The
# "already enrolled" check runs again under the file's lock, against the
# credentials the other runs added meanwhile. The token takes 0.5 s for
# each touch, so the runs start while the file is still empty and the
# check before the touch cannot see the others (a count, not a time
# bound: a slower machine only makes the overlap larger).
token t1 --presence after:500 ||
    { echo "Bail out! softtoken t1 did not start"; exit 1; }
m1="$WORK/map1"
i=1
pids=""
while [ $i -le 10 ]; do
	"$PAMU2FCFG" --device "unix:$WORK/t1.sock" --timeout 60 -u carol \
	    -o pam://one --add "$m1" \
	    >/dev/null 2>"$WORK/one$i.err" &
	pids="$pids $!"
	i=$((i + 1))
done
added=0
refused=0
for p in $pids; do
	wait "$p"
	case $? in
	0) added=$((added + 1)) ;;
	*) refused=$((refused + 1)) ;;
	esac
done
[ "$(ncreds "$m1" carol)" = 1 ]
ok $? "10 concurrent --add runs of one key and origin: one credential"
[ "$added" = 1 ] && [ "$refused" = 9 ]
ok $? "... one run added it, nine were refused ($added added, $refused refused)"
[ "$(cat "$WORK"/one*.err | grep -c 'key already enrolled for carol')" = 9 ]
ok $? "... each refusal says the key is already enrolled"
cat "$WORK"/one*.err | grep -v 'touch the security key' |
    sed 's/([^)]*meanwhile)/[under the lock]/; s/ ([^)]*)//' | sort | uniq -c |
    sed 's/^/# /' | head -n 5

# SIGKILL at random points: the file is always the old or the new one.
rand_ms() {
	echo $(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 51 ))
}
cp "$m" "$m.prev"
grep -v '^alice:' "$m" > "$WORK/others"
bad=0
new=0
i=1
while [ $i -le 30 ]; do
	"$PAMU2FCFG" $DEV -u alice -o "pam://kill$i" --add "$m" \
	    >/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%03d' "$(rand_ms)")"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	n_prev=$(ncreds "$m.prev" alice)
	if cmp -s "$m" "$m.prev"; then
		:
	elif [ "$(ncreds "$m" alice)" = $((n_prev + 1)) ] &&
	    "$PAMU2FCFG" -u alice --list "$m" >/dev/null 2>&1 &&
	    grep -v '^alice:' "$m" | cmp -s - "$WORK/others"; then
		cp "$m" "$m.prev"
		new=$((new + 1))
	else
		bad=$((bad + 1))
		diag "run $i left an unexpected file"
		cp "$m.prev" "$m"
	fi
	[ -s "$m" ] || bad=$((bad + 1))
	i=$((i + 1))
done
diag "$new of 30 killed runs got as far as the rename"
[ "$bad" -eq 0 ]
ok $? "30 killed runs: the file was always the old or the new one"
"$PAMU2FCFG" -u alice --list "$m" >/dev/null 2>&1
ok $? "the file still parses"
"$PAMU2FCFG" $DEV -u alice -o pam://after --add "$m" >/dev/null 2>&1
ok $? "a later --add works"
[ -z "$(find "$WORK" -maxdepth 1 -name '.map.tmp.*')" ]
ok $? "stale temporary files are cleaned up under the lock"

done_testing
