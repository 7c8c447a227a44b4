# Shared by the pamu2fcfg tests: TAP helpers, the binaries, token daemons.
# Sourced, never run. Uses our build's tools/pamu2fcfg, never the system's.

: "${top_builddir:=.}"
PAMU2FCFG="$(cd "$top_builddir" && pwd)/tools/pamu2fcfg"
SOFTTOKEN="$(cd "$top_builddir" && pwd)/tests/softtoken/softtoken"
TAP_N=0
TAP_FAILED=0

if [ ! -x "$PAMU2FCFG" ] || [ ! -x "$SOFTTOKEN" ]; then
	echo "1..0 # SKIP pamu2fcfg or softtoken not built"
	exit 0
fi

WORK=$(mktemp -d /tmp/pu-tool.XXXXXX) || exit 1
PIDFILES=""

cleanup() {
	for f in $PIDFILES; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

# ok COND-STATUS NAME: one TAP line for the status of the last command.
ok() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

diag() {
	echo "# $*"
}

# token NAME [softtoken options...]: start a daemon on $WORK/NAME.sock;
# prints nothing; the device option is unix:$WORK/NAME.sock.
token() {
	name=$1
	shift
	PIDFILES="$PIDFILES $WORK/$name.pid"
	# The daemon must not hold our stdout (a pipe to the TAP driver).
	"$SOFTTOKEN" --socket "$WORK/$name.sock" --daemon \
	    --pidfile "$WORK/$name.pid" --state "$WORK/$name.state" \
	    --log "$WORK/$name.log" "$@" \
	    </dev/null >/dev/null 2>"$WORK/$name.err" || return 1
	i=0
	while [ ! -S "$WORK/$name.sock" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -S "$WORK/$name.sock" ]
}

# run ARGS...: pamu2fcfg with stdout in $WORK/out, stderr in $WORK/err,
# the exit status in $RC.
run() {
	"$PAMU2FCFG" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

# expect STATUS NAME: the last run exited with STATUS.
expect() {
	[ "$RC" -eq "$1" ]
	st=$?
	[ $st -eq 0 ] || { diag "exit $RC, wanted $1"; sed 's/^/# /' "$WORK/err"; }
	ok $st "$2"
}

# A current-format line for one credential: KH,PK(64 bytes),es256,opts
CRED_RE='[A-Za-z0-9+/]+=*,[A-Za-z0-9+/]+=*,es256,(\+presence)?'

# pk_len LINE: bytes in the public key of the last credential of LINE.
pk_len() {
	printf '%s' "$1" | sed 's/.*:[^,]*,\([^,]*\),.*/\1/' | base64 -d |
	    wc -c | tr -d ' '
}

# ncreds FILE USER: credentials on USER's last line.
ncreds() {
	grep "^$2:" "$1" | tail -n 1 | tr ':' '\n' | grep -c ','
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}
