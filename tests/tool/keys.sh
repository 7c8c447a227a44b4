# SPDX-License-Identifier: BSD-2-Clause
# Shared by the tests that log in with several software tokens plugged in
# (multikey.sh, resident.sh). Sourced after lib.sh and need_module; uses
# $MAP (the mapping file), $ME and $WORK/svc (the PAM service directory).

# login PIN TOKEN... [-- ARGS...]: one authentication with these tokens
# plugged in, PIN on standard input ("" for none); output in
# $WORK/pam.out, the module's debug log in $WORK/debug.log.
login() {
	pin=$1
	shift
	devs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		devs="$devs${devs:+,}unix:$WORK/$1.sock"
		shift
	done
	[ "${1:-}" = "--" ] && shift
	printf '%s\n' "$pin" | pam_auth "$ME" \
	    "auth required $MODULE $MOD_CONF authfile=$MAP origin=pam://mk devices=$devs timeout=5 debug debug_file=$WORK/debug.log $*"
}

# add TOKEN [pamu2fcfg options]: enroll TOKEN into $MAP (PIN on stdin).
add() {
	tok=$1
	shift
	printf '%s\n' "$(cat "$WORK/$tok.pinval" 2>/dev/null)" |
	    "$PAMU2FCFG" --device "unix:$WORK/$tok.sock" -u "$ME" \
	    -o pam://mk --pin-stdin "$@" --add "$MAP" >"$WORK/out" 2>"$WORK/err"
}

# restart TOKEN [softtoken options...]: same state, new options.
restart() {
	rn=$1
	shift
	rp=$(cat "$WORK/$rn.pid") ||
	    { echo "Bail out! no pid file for token $rn"; exit 1; }
	kill "$rp" 2>/dev/null
	i=0
	while kill -0 "$rp" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	token "$rn" "$@" ||
	    { echo "Bail out! softtoken $rn did not restart"; exit 1; }
}

prompts() { grep -c "Please enter the PIN" "$WORK/pam.out"; }
# mark TOKEN, then seen TOKEN PATTERN: lines of TOKEN's log since the mark
# matching PATTERN.
mark() { wc -l <"$WORK/$1.log" >"$WORK/$1.mark"; }
seen() {
	tail -n +"$(($(cat "$WORK/$1.mark") + 1))" "$WORK/$1.log" |
	    grep -c "$2"
}

# stopped TOKEN: its log since the mark ends with an answer (no wait
# left open), and a wait for the touch (keepalive) ended cancelled.
stopped() {
	tail -n +"$(($(cat "$WORK/$1.mark") + 1))" "$WORK/$1.log" >"$WORK/tail"
	tail -n 1 "$WORK/tail" | grep -q 'status=' || return 1
	! grep -q keepalive "$WORK/tail" || grep -q 'status=2d' "$WORK/tail"
}
