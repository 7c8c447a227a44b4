# SPDX-License-Identifier: BSD-2-Clause
# Shared by the pamu2fcfg tests: TAP helpers, the binaries, token daemons.
# Sourced, never run. Uses our build's pamu2fcfg/pamu2fcfg, never the system's.

: "${top_builddir:=.}"
PAMU2FCFG="$(cd "$top_builddir" && pwd)/pamu2fcfg/pamu2fcfg"
SOFTTOKEN="$(cd "$top_builddir" && pwd)/tests/softtoken/softtoken"
TAP_N=0
TAP_FAILED=0

if [ ! -x "$PAMU2FCFG" ] || [ ! -x "$SOFTTOKEN" ]; then
	echo "1..0 # SKIP pamu2fcfg or softtoken not built"
	exit 0
fi

WORK=$(mktemp -d /tmp/pu-tool.XXXXXX) || exit 1
PIDFILES=""

# Hermetic: pamu2fcfg must never read the system's configuration file (the
# build's default path, PU_CONF_DEFAULT from the Makefile). As root,
# $PAMU2FCFG becomes a wrapper that adds --conf with an empty root-owned
# file of ours unless the test names one; another user cannot make a file
# pamu2fcfg accepts (it must be root's), so then the default must not
# exist. $EMPTY_CONF is that file (for the module's conf= too).
EMPTY_CONF=$WORK/empty.conf
MOD_CONF=""
if [ "$(id -u)" = 0 ]; then
	: >"$EMPTY_CONF"
	chmod 644 "$EMPTY_CONF"
	cat >"$WORK/pamu2fcfg" <<EOT
#!/bin/sh
for a; do case \$a in --conf|--conf=*) exec "$PAMU2FCFG" "\$@" ;; esac; done
exec "$PAMU2FCFG" --conf "$EMPTY_CONF" "\$@"
EOT
	chmod 755 "$WORK/pamu2fcfg"
	PAMU2FCFG=$WORK/pamu2fcfg
	MOD_CONF="conf=$EMPTY_CONF"	# for module lines without conf=
elif [ -n "${PU_CONF_DEFAULT:-}" ] && [ -e "$PU_CONF_DEFAULT" ]; then
	echo "Bail out! $PU_CONF_DEFAULT exists: as a user other than root" \
	    "these tests would read it"
	rm -rf "$WORK"
	exit 1
fi

cleanup() {
	for f in $PIDFILES; do
		# (a pid file may go as its daemon exits: no noise)
		p=$(cat "$f" 2>/dev/null) && kill "$p" 2>/dev/null
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

# need_module WHY: $MODULE is our pam_u2f.so, driven through libpam by
# pamtester as root; the test is skipped without pamtester or the module,
# or when not root (WHY: what needs root).
need_module() {
	MODULE="$(cd "$top_builddir" && pwd)/pam_u2f/.libs/pam_u2f.so"
	if ! command -v pamtester >/dev/null 2>&1 || [ ! -f "$MODULE" ]; then
		echo "1..0 # SKIP pamtester or pam_u2f.so missing"
		exit 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root ($1)"
		exit 0
	fi
	# pamtester is not instrumented: it cannot load a module built with
	# ASan (tests/run.sh leaves these scripts out of that stage).
	if nm -D "$MODULE" 2>/dev/null | grep -q ' U __asan_'; then
		echo "1..0 # SKIP pam_u2f.so is built with ASan; pamtester" \
		    "cannot load it"
		exit 0
	fi
}

# mnt_tmpfs NAME: a tmpfs of mode 0755 named NAME on /mnt, in the private
# mount namespace of nsexec.lib; the whole test is skipped without one.
mnt_tmpfs() {
	if [ -z "${PU_NS:-}" ] || ! mount -t tmpfs -o mode=755 "$1" /mnt; then
		echo "1..0 # SKIP no private mount namespace with a tmpfs on /mnt"
		exit 0
	fi
}

# pam_auth USER LINE: one authentication as USER through libpam
# (pam_wrapper + pamtester, standard input passed on: the PIN) with LINE
# as the whole service $WORK/svc/u2ftest; the debug log $WORK/debug.log
# emptied first; output in $WORK/pam.out, pamtester's status returned.
# LD_PRELOAD gets $PRELOAD too (" libnss_wrapper.so"); $PAM_RUN, when
# set, are words run in front of pamtester ("prlimit --nofile=10").
pam_auth() {
	echo "$2" >"$WORK/svc/u2ftest"
	: >"$WORK/debug.log"
	# shellcheck disable=SC2086 # PAM_RUN is words
	LD_PRELOAD="libpam_wrapper.so${PRELOAD:-}" PAM_WRAPPER=1 \
	    PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
	    ${PAM_RUN:-} pamtester u2ftest "$1" authenticate \
	    >"$WORK/pam.out" 2>&1
}

# For the module's tests (debug_file=$WORK/debug.log, pamtester's output
# in $WORK/pam.out). result ERR: the module's result, from its debug log.
result() { grep -q "result $1:" "$WORK/debug.log"; }
show() { sed 's/^/# /' "$WORK/debug.log" "$WORK/pam.out" "$@"; }
# okshow STATUS NAME [FILE...]: ok, and the logs (and FILEs) on failure.
okshow() {
	st=$1
	name=$2
	shift 2
	ok "$st" "$name"
	[ "$st" -eq 0 ] || show "$@"
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}
