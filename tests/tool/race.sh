#!/bin/sh
# pamu2fcfg --add under stress: 50 concurrent runs lose nothing; runs
# killed at random points leave the old file or the new one, nothing else.
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
