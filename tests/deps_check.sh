#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/deps.sh against debian/control and against its own rules, without
# apt, root or network (apt-get and dpkg-query are stand-ins on PATH):
#   - `deps.sh build deb` holds every Build-Depends and build-essential
#     (a fresh Debian 12 can run dpkg-buildpackage after it);
#   - its list of conflicting packages is debian/control's Conflicts, and
#     no set names one of them;
#   - the demo set is the build set plus what tools/demo.sh runs, and
#     demo.sh installs that set, not the test set;
#   - --dry-run: policy-rc.d (exit 101) is written before apt-get install
#     and put back after it; slapd and pcscd are disabled at boot;
#   - apt's plan removing a package, or bringing in a conflicting one as
#     a dependency: deps.sh stops, names it, and installs nothing.
top=${top_srcdir:-.}
deps=$top/tools/deps.sh
control=$top/debian/control
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() {	# check NAME COND-STATUS [DIAG...]
	name=$1 st=$2
	shift 2
	if [ "$st" -eq 0 ]; then ok "$name"; else notok "$name" "$@"; fi
}

w=$(mktemp -d) || exit 1
trap 'rm -rf "$w"' EXIT

# field NAME: a field of debian/control's paragraphs, continuation lines
# joined, one package name a line (versions, arch qualifiers dropped).
field() {
	awk -v f="$1:" '
	    $1 == f { on = 1; sub(/^[^:]*:/, ""); printf "%s,", $0; next }
	    on && /^[ \t]/ { printf "%s,", $0; next }
	    { on = 0 }' "$control" | tr ',' '\n' |
	    sed 's/[[(<].*//; s/:[a-z]*//; s/[[:space:]]//g' | grep -v '^$' |
	    LC_ALL=C sort -u
}

# 1. Build-Depends (debhelper-compat comes with debhelper) + build-essential
"$deps" --list build deb >"$w/builddeb" 2>"$w/err"
{ field Build-Depends | sed 's/^debhelper-compat$/debhelper/'
	echo build-essential; } | LC_ALL=C sort -u >"$w/need"
miss=$(LC_ALL=C sort -u "$w/builddeb" | LC_ALL=C comm -23 "$w/need" -)
[ "$(wc -l <"$w/need")" -ge 8 ] && [ -z "$miss" ]
check "deps.sh build deb installs every Build-Depends and build-essential" $? \
    "missing from deps.sh's build/deb sets: $(echo "$miss" | tr '\n' ' ')" "$(cat "$w/err")"

# 2. its conflicting list is debian/control's Conflicts; no set names one
theirs=$(field Conflicts | tr '\n' ' ')
mine=$(sed -n 's/^conflicting="\(.*\)"$/\1/p' "$deps" | tr ' ' '\n' |
    LC_ALL=C sort -u | tr '\n' ' ')
[ -n "$theirs" ] && [ "$theirs" = "$mine" ]
check "deps.sh's conflicting packages are debian/control's Conflicts" $? \
    "debian/control: $theirs" "deps.sh: $mine"
bad=""
for s in build demo test vm bench deb; do
	for p in $theirs; do
		"$deps" --list "$s" | grep -qx "$p" && bad="$bad $s:$p"
	done
done
[ -z "$bad" ]
check "no set names a package that conflicts with ours" $? "found:$bad"

# 3. the demo set, and demo.sh uses it
"$deps" --list build >"$w/build"
{ cat "$w/build"; echo pamtester; } | LC_ALL=C sort -u >"$w/demo-max"
extra=$("$deps" --list demo | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$w/demo-max")
"$deps" --list demo | grep -qx pamtester && [ -z "$extra" ]
check "the demo set is the build set plus pamtester" $? "extra: $(echo "$extra" | tr '\n' ' ')"
grep -q '^step .*tools/deps.sh demo$' "$top/tools/demo.sh" &&
    ! grep -q 'deps.sh[^|]*test' "$top/tools/demo.sh"
check "tools/demo.sh installs the demo set, not the test set" $?

# Stand-ins: dpkg-query knows the packages in $STUB_INSTALLED; apt-get's
# simulation installs every package asked for, plus $STUB_INST, and
# removes $STUB_REMV; anything else it is asked is a failure, logged.
mkdir "$w/bin"
cat >"$w/bin/dpkg-query" <<'EOF'
#!/bin/sh
for a; do p=$a; done
case " ${STUB_INSTALLED:-} " in
*" $p "*) echo "install ok installed" ;;
*) echo "dpkg-query: no packages found matching $p" >&2; exit 1 ;;
esac
EOF
cat >"$w/bin/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
[ "$1 $2" = "install -s" ] || exit 99
shift 2
for p; do
	case $p in -*) ;; *) echo "Inst $p (1.0 Debian:12.0/stable [amd64])" ;; esac
done
[ -z "${STUB_INST:-}" ] || echo "Inst $STUB_INST (1.0 Debian:12.0/stable [amd64])"
[ -z "${STUB_REMV:-}" ] || echo "Remv $STUB_REMV [0.9.0]"
exit 0
EOF
chmod 755 "$w/bin/dpkg-query" "$w/bin/apt-get"
STUB_LOG=$w/apt.log
export STUB_LOG
dry() {	# dry SET...: deps.sh --dry-run with the stand-ins, output in $w/out
	: >"$STUB_LOG"
	PATH=$w/bin:$PATH "$deps" --dry-run "$@" >"$w/out" 2>&1
}
line() { grep -n "$1" "$w/out" | head -n 1 | cut -d: -f1; }

# 4. the test set, nothing installed: the order of the steps
dry test
st=$?
pon=$(line "would write /usr/sbin/policy-rc.d (exit 101")
ins=$(line "would run: apt-get install -y -qq --no-install-recommends .*slapd.*pcscd")
poff=$(line "would put /usr/sbin/policy-rc.d back")
[ "$st" -eq 0 ] && [ -n "$pon" ] && [ -n "$ins" ] && [ -n "$poff" ] &&
    [ "$pon" -lt "$ins" ] && [ "$ins" -lt "$poff" ]
check "--dry-run test: policy-rc.d (exit 101) before apt-get install, put back after" $? \
    "exit $st; lines: policy-rc.d $pon, install $ins, back $poff" "$(cat "$w/out")"
us=$(line 'would run: update-rc.d slapd disable')
up=$(line 'would run: update-rc.d pcscd disable')
[ -n "$us" ] && [ -n "$up" ] && [ "$us" -gt "$poff" ] && [ "$up" -gt "$poff" ] &&
    grep -q 'would run: systemctl --quiet disable pcscd.socket' "$w/out"
check "--dry-run test: slapd and pcscd disabled at boot after the install" $? \
    "$(cat "$w/out")"
[ "$(cat "$STUB_LOG")" = "install -s --no-install-recommends $(PATH=$w/bin:$PATH \
    "$deps" --list test | tr '\n' ' ' | sed 's/ $//')" ]
check "--dry-run asks apt only for a simulation" $? "apt-get calls: $(cat "$STUB_LOG")"

# 5. the build set installs no service
dry build && ! grep -q 'update-rc.d' "$w/out" &&
    grep -q 'would run: apt-get install .* libpcsclite-dev$' "$w/out"
check "--dry-run build: installs the build set, disables nothing" $? "$(cat "$w/out")"

# 6. apt's plan would remove our package: stop, name it, no install
STUB_REMV=libpam-u2f-native dry vm
st=$?
[ "$st" -ne 0 ] && grep -q 'apt would remove: libpam-u2f-native' "$w/out" &&
    ! grep -q 'apt-get install -y' "$w/out" && ! grep -q 'policy-rc.d' "$w/out"
check "a plan that removes libpam-u2f-native: deps.sh stops and names it" $? \
    "exit $st" "$(cat "$w/out")"

# 7. a conflicting package brought in as a dependency: stop
STUB_INST=libpam-u2f dry bench
st=$?
[ "$st" -ne 0 ] && grep -q 'apt would install libpam-u2f, which conflicts' "$w/out" &&
    ! grep -q 'apt-get install -y' "$w/out"
check "a plan that installs libpam-u2f as a dependency: deps.sh stops" $? \
    "exit $st" "$(cat "$w/out")"

# 8. everything installed: nothing to do, apt not asked
STUB_INSTALLED=$("$deps" --list deb | tr '\n' ' ') dry deb
st=$?
[ "$st" -eq 0 ] && grep -q 'nothing to install' "$w/out" && [ ! -s "$STUB_LOG" ]
check "--dry-run with every package installed: nothing to do" $? "$(cat "$w/out")"

echo "1..$n"
