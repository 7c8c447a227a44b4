#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The real GNOME Keyring unlocked by a key-only login (issue 30): Debian's
# gnome-keyring, pam_gnome_keyring.so and secret-tool, unpacked by
# tools/keyring-private.sh (never installed), run in a private mount and
# PID namespace (unshare) where they sit at their fixed paths (overlays
# on /usr/bin and the library folder; root's home is a folder of ours),
# each session under its own dbus-run-session. The stack: pam_u2f.so
# sufficient with a +pin credential and a sealed password, then
# pam_gnome_keyring in auth and session. A first login creates the login
# keyring with the unsealed password and secret-tool stores a secret; a
# second login (PIN and touch, no password) unlocks it and secret-tool
# reads the secret back with no prompt. With a changed record nothing is
# unsealed: the login still works and the keyring stays locked.
. "${top_srcdir:-.}/tests/tool/lib.sh"

need_module "the module wants a root-owned authfile"
KR=$("$top_srcdir/tools/keyring-private.sh" --path)
KR=$(cd "$KR" 2>/dev/null && pwd) || KR=""
PGK=$(find "$KR/root" -name pam_gnome_keyring.so 2>/dev/null | head -n 1)
missing=""
[ -n "$KR" ] && [ -x "$KR/root/usr/bin/gnome-keyring-daemon" ] &&
    [ -n "$PGK" ] || missing="no GNOME Keyring unpacked (tools/keyring-private.sh)"
for p in unshare dbus-run-session; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing no $p"
done
if [ -n "$missing" ]; then
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - $missing"
		exit 1
	fi
	echo "1..0 # SKIP $missing"
	exit 0
fi
LIBS=$(dirname "$(find "$KR/root" -name 'libsecret-1.so.0' | head -n 1)")
HOSTLIBS=/${LIBS#"$KR/root/"}
PAM_ENV=pam_env.so PAM_DENY=pam_deny.so
for d in /lib/*/security /usr/lib/*/security; do
	[ -f "$d/pam_env.so" ] && PAM_ENV=$d/pam_env.so &&
	    PAM_DENY=$d/pam_deny.so && break
done
ME=$(id -un)
SECRET='keyring pass:1'
mkdir -m 700 "$WORK/svc" "$WORK/home" "$WORK/run"
: >"$WORK/all.log"
cat >"$WORK/bus.conf" <<EOT
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$WORK/run</listen>
  <servicedir>$KR/root/usr/share/dbus-1/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOT

# The session, inside the namespaces and the bus: PAM login (PIN from
# our stdin), then secret-tool ARGS; its output in $WORK/st.out.
cat >"$WORK/inner.sh" <<EOT
#!/bin/sh
printf 'DBUS_SESSION_BUS_ADDRESS=%s\nXDG_RUNTIME_DIR=%s\n' \
    "\$DBUS_SESSION_BUS_ADDRESS" "$WORK/run" >"$WORK/pam.env"
LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR="$WORK/svc" \
    pamtester u2ftest "$ME" authenticate open_session >"$WORK/pam.out" 2>&1
echo "pamtester \$?" >>"$WORK/pam.out"
# What a desktop session does next: the daemon's components started
# (it unlocks, or creates, the login keyring then).
gnome-keyring-daemon --start --components=secrets >/dev/null 2>>"$WORK/st.err"
shift
if [ "\$1" = store ]; then
	printf 'the stored secret' | timeout 20 secret-tool "\$@" >"$WORK/st.out" 2>"$WORK/st.err"
else
	timeout 20 secret-tool "\$@" </dev/null >"$WORK/st.out" 2>"$WORK/st.err"
fi
echo "secret-tool \$?" >>"$WORK/st.err"
EOT
# The namespaces: the keyring's files at their fixed paths, our home.
cat >"$WORK/ns.sh" <<EOT
#!/bin/sh
set -e
mount --make-rprivate /
mount -t overlay overlay -o "lowerdir=$KR/root/usr/bin:/usr/bin" /usr/bin
mount -t overlay overlay -o "lowerdir=$LIBS:$HOSTLIBS" "$HOSTLIBS"
mount --bind "$WORK/home" "$(getent passwd "$ME" | cut -d: -f6)"
export XDG_RUNTIME_DIR="$WORK/run" HOME="$(getent passwd "$ME" | cut -d: -f6)"
exec dbus-run-session --config-file="$WORK/bus.conf" -- sh "$WORK/inner.sh" "\$@"
EOT

# session MAP PIN SECRET-TOOL-ARGS...: one login and one secret-tool run.
session() {
	map=$1 pin=$2
	shift 2
	cat >"$WORK/svc/u2ftest" <<EOT
auth optional $PAM_ENV readenv=0 user_readenv=0 envfile=$WORK/pam.env
auth [success=1 default=ignore] $MODULE $MOD_CONF authfile=$map origin=pam://c2 devices=unix:$WORK/k.sock timeout=5 debug debug_file=$WORK/debug.log
auth requisite $PAM_DENY
auth optional $PGK
session optional $PAM_ENV readenv=0 user_readenv=0 envfile=$WORK/pam.env
session optional $PGK auto_start
EOT
	: >"$WORK/debug.log"
	printf '%s\n' "$pin" | unshare -m -p -f --mount-proc \
	    sh "$WORK/ns.sh" x "$@" 2>"$WORK/ns.err"
	cat "$WORK/debug.log" >>"$WORK/all.log"
}
showall() {
	sed 's/^/# /' "$WORK/debug.log" "$WORK/pam.out" "$WORK/st.err" \
	    "$WORK/ns.err"
}

token k --ctap2 2.1 --pin 1234 --presence now ||
    { echo "Bail out! softtoken did not start"; exit 1; }
echo 1234 | "$PAMU2FCFG" --device "unix:$WORK/k.sock" -u "$ME" -o pam://c2 \
    --pin-stdin -N --hmac-secret >"$WORK/map" 2>"$WORK/err"
# shellcheck disable=SC2034 # RC: read by expect (lib.sh)
RC=$?
chmod 600 "$WORK/map"
expect 0 "a +pin credential with hmac-secret"
printf '%s\n1234\n' "$SECRET" | "$PAMU2FCFG" --device "unix:$WORK/k.sock" \
    -u "$ME" -o pam://c2 --secret-stdin --pin-stdin --wrap-secret "$WORK/map" \
    >"$WORK/out" 2>"$WORK/err"
# shellcheck disable=SC2034 # RC: read by expect (lib.sh)
RC=$?
expect 0 "the password sealed under it"

session "$WORK/map" 1234 store --label=pam_u2f pam_u2f test
grep -q "pamtester 0" "$WORK/pam.out" && grep -q "secret-tool 0" "$WORK/st.err" &&
    grep -q "PAM_AUTHTOK set" "$WORK/debug.log" &&
    [ -n "$(find "$WORK/home" -name 'login.keyring')" ]
st=$?
ok $st "first key login: the login keyring made with the unsealed password, a secret stored"
[ $st -eq 0 ] || showall

session "$WORK/map" 1234 lookup pam_u2f test
grep -q "pamtester 0" "$WORK/pam.out" && grep -q "PAM_AUTHTOK set" "$WORK/debug.log" &&
    [ "$(cat "$WORK/st.out")" = "the stored secret" ]
st=$?
ok $st "second key login (PIN and touch, no password): the keyring unlocked, the secret read back with no prompt"
[ $st -eq 0 ] || showall

# A changed record: nothing unsealed, the login stands, the keyring
# stays locked (secret-tool cannot read; there is no prompter).
cp "$WORK/map.secrets" "$WORK/good.secrets"
awk '{ c = substr($6, 1, 1); $6 = (c == "A" ? "B" : "A") substr($6, 2); print }' \
    "$WORK/good.secrets" >"$WORK/map.secrets"
session "$WORK/map" 1234 lookup pam_u2f test
grep -q "pamtester 0" "$WORK/pam.out" && grep -q "does not unseal" "$WORK/debug.log" &&
    [ "$(cat "$WORK/st.out")" != "the stored secret" ]
st=$?
ok $st "a changed record: the login works, the keyring stays locked"
[ $st -eq 0 ] || showall
cp "$WORK/good.secrets" "$WORK/map.secrets"

# A wrong PIN: no login, and the keyring stays locked.
session "$WORK/map" 9999 lookup pam_u2f test
! grep -q "pamtester 0" "$WORK/pam.out" &&
    [ "$(cat "$WORK/st.out")" != "the stored secret" ]
st=$?
ok $st "a wrong PIN: refused, the keyring stays locked"
[ $st -eq 0 ] || showall

! grep -q "keyring pass" "$WORK/all.log" "$WORK/pam.out" "$WORK/st.err" &&
    ! grep -rq "keyring pass" "$WORK/home"
ok $? "the password is in no log and not in the keyring's files"

done_testing
