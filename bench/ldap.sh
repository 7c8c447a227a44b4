#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/ldap.sh: a login whose credential comes from an LDAP directory
# (authcmd= running pam_u2f_ldap against a private slapd over ldaps on
# loopback) against the same login from a local mapping file, and from a
# warm cache with the directory down. Host only (no VM): the software
# token on a unix socket (CTAP 2.1, PIN, presence at once), our module
# through the real libpam (bench/pamdrive, PIN answered), slapd started by
# tests/tool/slapd.lib. Replaces the marked "ldap" section of RESULTS.md.
# Run alone: BENCH_ONLY=ldap bench/run.sh, or bench/ldap.sh (about 1
# minute; env BENCH_WORK, BENCH_BUILD, BENCH_OUT, BENCH_RUNS).
# Runs in a private mount namespace (unshare -m): the helper and its
# configuration live on a tmpfs at /mnt, a root-owned path as authcmd
# requires, gone when the benchmark ends.
set -u
if [ -z "${PU_NS:-}" ]; then
	PU_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh" ldap
runs=${BENCH_RUNS:-15}
PIN=1111
ORIGIN=pam://bench-ldap

bench_need hyperfine valgrind openssl slapd ldapmodify python3
mount -t tmpfs -o mode=755 tmpfs /mnt || die "cannot mount a tmpfs on /mnt"
mkdir -p "$work"
bench_build ldap
make -C "$build" -s -j2 ldap/pam_u2f_ldap >>"$work/make-ldap.log" 2>&1 ||
    die "pam_u2f_ldap not built (libldap-dev; see $work/make-ldap.log)"

WORK=$work/ldap
rm -rf "$WORK"
mkdir -p "$WORK/raw" /mnt/bin /mnt/etc /mnt/cache
chmod 700 /mnt/cache
PIDFILES=""
SOFTTOKEN=$build/tests/softtoken/softtoken
# shellcheck source=tests/tool/slapd.lib
. "$top/tests/tool/slapd.lib"
cleanup() {
	for f in $PIDFILES; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
}
trap cleanup EXIT

# ---- the token, the credential, the directory ---------------------------
"$SOFTTOKEN" --socket "$WORK/t.sock" --daemon --pidfile "$WORK/t.pid" \
    --state "$WORK/t.state" --log /dev/null --ctap2 2.1 --pin "$PIN" \
    --presence now </dev/null >/dev/null 2>"$WORK/t.err" ||
    die "softtoken did not start"
PIDFILES="$WORK/t.pid"
for _ in $(seq 50); do [ -S "$WORK/t.sock" ] && break; sleep 0.1; done
cfg() {
	printf '%s\n' "$PIN" | "$build/pamu2fcfg/pamu2fcfg" \
	    --device "unix:$WORK/t.sock" -o "$ORIGIN" --pin-stdin "$@"
}
# The same kind of credential both ways: ES256, presence and PIN.
PK=$(cfg -u root --format=passkey) || die "pamu2fcfg --format=passkey"
LINE=$(cfg -u root -N) || die "pamu2fcfg -N"
printf '%s\n' "$LINE" >/mnt/etc/u2f_keys
chmod 644 /mnt/etc/u2f_keys

DS=$WORK/ds
mkdir -p "$DS"
certs "$DS" || die "openssl failed"
cp "$DS/ca.pem" /mnt/etc/ca.pem
schema "$DS/schema"
slapd_conf "$DS" yes
{
	printf '%s\n' "dn: $SUFFIX" "objectClass: puTestObject" "dc: example" ""
	printf '%s\n' "dn: ou=people,$SUFFIX" "objectClass: puTestObject" \
	    "ou: people" ""
	# Some other users, so that the search has something to pass over.
	for i in $(seq 1000); do
		printf '%s\n' "dn: uid=u$i,ou=people,$SUFFIX" \
		    "objectClass: puTestObject" "objectClass: passkeyUser" \
		    "uid: u$i" "passkey: $PK" ""
	done
	printf '%s\n' "dn: uid=root,ou=people,$SUFFIX" \
	    "objectClass: puTestObject" "objectClass: passkeyUser" \
	    "uid: root" "passkey: $PK" ""
} >"$DS/init.ldif"
slapd_load "$DS" "$DS/init.ldif" || die "slapadd failed ($DS/slapadd.log)"
PORT=$(free_port)
slapd_start "$DS" "ldaps://127.0.0.1:$PORT/" || die "slapd did not start"
cp "$build/ldap/pam_u2f_ldap" /mnt/bin/pam_u2f_ldap
chmod 755 /mnt/bin/pam_u2f_ldap
cat >/mnt/etc/ldap.conf <<EOF
ldap {
	uri = {"ldaps://127.0.0.1:$PORT"}
	base = "ou=people,$SUFFIX"
	filter = "(&(objectClass=passkeyUser)(uid=%s))"
	ca_file = "/mnt/etc/ca.pem"
}
EOF
chmod 644 /mnt/etc/ldap.conf

# ---- the PAM services ---------------------------------------------------
MOD=$build/pam_u2f/.libs/pam_u2f.so
COMMON="origin=$ORIGIN devices=unix:$WORK/t.sock timeout=10"
AUTHCMD="conf=/mnt/etc/ldap.conf authcmd_user=nobody [authcmd=/mnt/bin/pam_u2f_ldap -c /mnt/etc/ldap.conf %u]"
mkdir -p "$WORK/pam"
echo "auth required $MOD $COMMON authfile=/mnt/etc/u2f_keys" >"$WORK/pam/file"
echo "auth required $MOD $COMMON $AUTHCMD" >"$WORK/pam/ldap"
echo "auth required $MOD $COMMON $AUTHCMD authcmd_cache=/mnt/cache" \
    >"$WORK/pam/cache"
drive() { PAMDRIVE_PIN=$PIN "$work/pamdrive" "$WORK/pam" "$1" root "${2:-1}"; }

# A case works (or, for down-nocache, fails) before it is measured.
drive file >/dev/null || die "the file login failed"
drive ldap >/dev/null || die "the directory login failed"
drive cache >/dev/null || die "the login that fills the cache failed"

# slapd's CPU time (utime + stime, clock ticks) so far.
slapd_ticks() { awk '{ print $14 + $15 }' "/proc/$(cat "$DS/pid")/stat"; }
hz=$(getconf CLK_TCK)

# ---- latency (hyperfine, one process per login) --------------------------
log "latency: $runs runs each"
t0=$(slapd_ticks)
hyperfine -N -w 2 -r "$runs" --export-json "$WORK/raw/hf-up.json" \
    -n file "env PAMDRIVE_PIN=$PIN $work/pamdrive $WORK/pam file root" \
    -n ldap "env PAMDRIVE_PIN=$PIN $work/pamdrive $WORK/pam ldap root" \
    >"$WORK/raw/hf-up.txt" 2>&1 || die "hyperfine failed ($WORK/raw/hf-up.txt)"
t1=$(slapd_ticks)

# ---- instructions (callgrind) --------------------------------------------
# Ir of the PAM process of one login (pamdrive, COUNT=1); COUNT=2 - COUNT=1
# is one more login in a process that already ran one. The helper is
# measured on its own (callgrind cannot follow it: authcmd gives it a
# clean environment, without valgrind's), run as the module runs it.
sumir() { awk '/^summary:/ { s += $2 } END { print s + 0 }' "$@"; }
# Under valgrind the module starts the helper by fork (valgrind has no
# clone3), and the forked set-up child, which drops to nobody and relays
# the helper's exit, is still valgrind's: it writes its own output file
# (cg.PID.out, as nobody, so the directory is nobody's), or callgrind
# ends it with status 1 and the login fails. Only the PAM process's file
# (pamdrive's pid, the first line of its stderr) is counted.
ir() {	# ir NAME COUNT: sets IR
	local d=$WORK/raw/cg-$1-$2 pid
	rm -rf "$d"
	mkdir -p "$d"
	chown nobody "$d"
	PAMDRIVE_PIN=$PIN valgrind --tool=callgrind \
	    --callgrind-out-file="$d/cg.%p.out" "$work/pamdrive" "$WORK/pam" \
	    "$1" root "$2" >"$d/out" 2>"$d/err" || die "callgrind $1 $2 failed ($d)"
	pid=$(sed -n '1s/^==\([0-9]*\)==.*/\1/p' "$d/err")
	[ -n "$pid" ] && [ -f "$d/cg.$pid.out" ] ||
	    die "callgrind $1 $2: no output of the PAM process ($d)"
	IR=$(sumir "$d/cg.$pid.out")
}
log "instructions (callgrind)"
ir file 1; ir_file_1=$IR
ir file 2; ir_file_2=$IR
ir ldap 1; ir_ldap_1=$IR
ir ldap 2; ir_ldap_2=$IR
d=$WORK/raw/cg-helper
mkdir -p "$d"
chown nobody "$d"	# callgrind writes its file as nobody
setpriv --reuid=nobody --regid="$(id -g nobody)" --init-groups \
    valgrind --tool=callgrind --callgrind-out-file="$d/cg.out" \
    /mnt/bin/pam_u2f_ldap -c /mnt/etc/ldap.conf root >"$d/out" 2>"$d/err" &&
    [ "$(cat "$d/out")" = "$PK" ] || die "callgrind of the helper failed ($d)"
hir=$(sumir "$d/cg.out")

# ---- the directory down, a warm cache ------------------------------------
slapd_stop "$DS" || die "slapd did not stop"
drive cache >/dev/null || die "the cached login failed with slapd down"
drive ldap >/dev/null && die "the login without a cache worked with slapd down"
log "directory down: $runs runs each"
hyperfine -N -w 2 -r "$runs" -i --export-json "$WORK/raw/hf-down.json" \
    -n cache "env PAMDRIVE_PIN=$PIN $work/pamdrive $WORK/pam cache root" \
    -n nocache "env PAMDRIVE_PIN=$PIN $work/pamdrive $WORK/pam ldap root" \
    >"$WORK/raw/hf-down.txt" 2>&1 || die "hyperfine failed ($WORK/raw/hf-down.txt)"
ir cache 1
ir_cache_1=$IR

# ---- RESULTS.md ----------------------------------------------------------
# hf FILE NAME: "median / min / max" ms of a hyperfine JSON result.
hf() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["command"] == sys.argv[2]][0]
print("%.1f / %.1f / %.1f" % (r["median"] * 1e3, r["min"] * 1e3, r["max"] * 1e3))
PY
}
M() { awk -v a="$1" 'BEGIN { printf "%.2f", a / 1e6 }'; }
logins=$((runs + 2))
sec=$WORK/section.md
{
	echo "$BEGIN_MARK"
	echo "## Credentials from a directory (bench/ldap.sh)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); one login = pam_authenticate in a new process (bench/pamdrive, COUNT=1) with the software token on a unix socket (CTAP 2.1, PIN answered, presence at once), the same ES256 +presence+pin credential from a mapping file or from slapd (ldaps on 127.0.0.1, anonymous bind, 1001 entries, helper run as nobody)."
	echo
	echo "| login | wall ms, median / min / max of $runs | Minstr, whole login | Minstr, one more login in the same process |"
	echo "|---|---|---|---|"
	echo "| mapping file | $(hf "$WORK/raw/hf-up.json" file) | $(M "$ir_file_1") | $(M $((ir_file_2 - ir_file_1))) |"
	echo "| directory (authcmd + pam_u2f_ldap + slapd) | $(hf "$WORK/raw/hf-up.json" ldap) | $(M $((ir_ldap_1 + hir))) (PAM process $(M "$ir_ldap_1"), helper $(M "$hir")) | $(M $((ir_ldap_2 - ir_ldap_1 + hir))) |"
	echo "| directory down, warm cache | $(hf "$WORK/raw/hf-down.json" cache) | $(M "$ir_cache_1") | |"
	echo "| directory down, no cache (PAM_AUTHINFO_UNAVAIL) | $(hf "$WORK/raw/hf-down.json" nocache) | | |"
	echo
	echo "- slapd's CPU over the $logins directory logins of the latency run: $(( (t1 - t0) * 1000 / hz )) ms ($(awk -v t=$((t1 - t0)) -v h="$hz" -v n="$logins" 'BEGIN { printf "%.2f", t * 1000 / h / n }') ms per login; clock ticks of $((1000 / hz)) ms)."
	echo "- Instructions: callgrind Ir of the PAM process (not its forked set-up child, which under valgrind writes a file of its own), plus, for the directory, the helper's own run (as nobody, same configuration): callgrind cannot follow the helper from the module, whose clean environment drops valgrind's. The software token and slapd are not counted; slapd's share is its CPU time above."
	echo "- command: \`BENCH_ONLY=ldap bench/run.sh\`; raw data in $WORK/raw."
	bench_end
} >"$sec"
splice "$out" "$sec" "$BEGIN_MARK" "$END_MARK"
log "done: $out (section ldap), $(($(date +%s) - t_start)) s"
