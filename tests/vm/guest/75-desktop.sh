# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 75-desktop: Debian's desktop programs with our module in their
# PAM services, on a real hidraw node (issue 29, sections 1, 5 and 4):
#  - polkit 122: a real pkexec through pkttyagent, with the system D-Bus
#    and polkitd started here and our module alone in polkit-1: succeeds
#    with a touch, fails without one (the module's log: timed out);
#  - vlock on a pseudo-terminal, our module (a PIN, then the touch) in
#    its service: unlocks with the touch; stays locked without one; a
#    wrong PIN, then the right one at vlock's next prompt, unlocks;
#  - lxpolkit, a graphical polkit agent, under Xvfb (see desk_gui).
# The programs the host lacks come from tools/desktop-debs.sh, unpacked
# (never installed) on the host; run.sh passes the directory as
# VM_DESKTOP, and desk_mount lays its usr/ over the guest's /usr (an
# overlay in the throwaway root). Terminal programs are driven by
# guest/ptychat.py.

DESK=${VM_DESKTOP:-/nonexistent/desktop}
CHAT="/usr/bin/python3 $VM_SRC/tests/vm/guest/ptychat.py"
du=dana
PIN=1234
CUE="Touch the security key now"
mkuser "$du"
dhome=/home/$du

# desk_mount: the fetched packages as if installed: their usr/ over /usr
# (a read-only layer under a tmpfs), their etc/ and var/ copied; pkexec
# setuid root as Debian's postinst makes it; the system users that the
# packages' maintainer scripts would add.
desk_mount() {
	need "$1" "$DESK/root/usr" || return 1
	ur=$T/usr.rw
	mkdir -p "$ur"
	mount -t tmpfs -o mode=755 tmpfs "$ur"
	mkdir -p "$ur/upper" "$ur/work"
	if ! mount -t overlay -o \
	    "lowerdir=$DESK/root/usr:/usr,upperdir=$ur/upper,workdir=$ur/work" \
	    overlay /usr; then
		fail "$1" "overlay on /usr failed"
		return 1
	fi
	for d in etc var; do
		[ ! -d "$DESK/root/$d" ] || cp -R "$DESK/root/$d/." "/$d/"
	done
	for u in polkitd messagebus; do
		getent passwd "$u" >/dev/null ||
		    useradd -r -M -d /nonexistent -s /usr/sbin/nologin "$u"
	done
	chown root:root /usr/bin/pkexec && chmod 4755 /usr/bin/pkexec &&
	    chown root:root /usr/lib/polkit-1/polkit-agent-helper-1 &&
	    chmod 4755 /usr/lib/polkit-1/polkit-agent-helper-1 &&
	    chown -R polkitd /etc/polkit-1/rules.d /usr/share/polkit-1/rules.d &&
	    pass "$1"
}

# desk_bus NAME: the system bus, then polkitd on it; waits (gdbus wait:
# no polling) until polkitd owns org.freedesktop.PolicyKit1.
desk_bus() {
	mkdir -p /run/dbus
	expect_ok "$1: dbus-daemon --system" dbus-daemon --system --fork ||
	    return 1
	/usr/lib/polkit-1/polkitd --no-debug >"$T/polkitd.log" 2>&1 &
	echo $! >"$T/polkitd.pid"
	expect_ok "$1: polkitd owns org.freedesktop.PolicyKit1" \
	    gdbus wait --system --timeout "$TMO" org.freedesktop.PolicyKit1 ||
	    { diag_file "$T/polkitd.log"; return 1; }
}

# enroll NAME TOKEN [pamu2fcfg options]: dana's credential on TOKEN's
# node, into $T/TOKEN.map (root's, for the setuid polkit helper) and her
# ~/.config/Yubico/u2f_keys (for vlock, which runs as her).
enroll() {
	en=$1 et=$2
	shift 2
	printf '%s\n' "$PIN" >"$T/pin"
	# shellcheck disable=SC2016 # for sh -c
	expect_ok "$en" sh -c 'exec "$@" <"$0"' "$T/pin" "$OURCFG" -u "$du" \
	    -o "$ORIGIN" -i "$ORIGIN" --pin-stdin "$@" || return 1
	{ cat "$OUT.stdout"; echo; } >"$T/$et.map"
	chmod 644 "$T/$et.map"
	mkdir -p "$dhome/.config/Yubico"
	cp "$T/$et.map" "$dhome/.config/Yubico/u2f_keys"
	chown -R "$du:$du" "$dhome/.config"
}

# module LOG MAP: our module's arguments, with a debug log LOG that the
# user may write (vlock runs as her).
module() {
	: >"$1"
	chmod 666 "$1"
	echo "$OURMOD authfile=$2 origin=$ORIGIN appid=$ORIGIN timeout=4 cue [cue_prompt=$CUE] debug debug_file=$1"
}

# logged NAME FILE REGEX: FILE (a debug log or a token log) has REGEX.
logged() {
	if grep -Eq "$3" "$2"; then pass "$1"; else
		fail "$1" "no /$3/ in $2:"
		diag_file "$2"
	fi
}

# ---- 1. pkexec through pkttyagent (polkit 122) --------------------------
# dana runs pkttyagent for her shell (it says it registered by closing
# --notify-fd), then pkexec id -u in that shell; polkitd asks her agent,
# whose setuid helper runs the polkit-1 service: our module alone.
# pkexec's status goes to $T/pk/rc, its output to $T/pk/out.
desk_pkexec() {	# desk_pkexec NAME WANT(ok|fail)
	pn=$1 pw=$2
	mkdir -p "$T/pk"
	chown "$du" "$T/pk"
	rm -f "$T/pk/ready" "$T/pk/rc" "$T/pk/out"
	# shellcheck disable=SC2016 # for the script
	printf '%s\n' 'd=/run/vmt/pk' 'mkfifo "$d/ready" || exit 90' \
	    'pkttyagent --process $$ --notify-fd 3 3>"$d/ready" &' 'a=$!' \
	    'read -r _ <"$d/ready"' \
	    'kill -0 "$a" || { echo "pkttyagent did not register"; exit 91; }' \
	    'pkexec /usr/bin/id -u >"$d/out"' 'echo $? >"$d/rc"' 'kill "$a"' \
	    >"$T/pk/run.sh"
	chmod 755 "$T/pk/run.sh"
	# shellcheck disable=SC2086 # CHAT is "python3 ptychat.py"
	expect_ok "$pn" \
	    $CHAT -- runuser -u "$du" -- /bin/sh "$T/pk/run.sh" || return 1
	read -r prc <"$T/pk/rc"
	if [ "$pw" = ok ] && [ "$prc" = 0 ] && [ "$(cat "$T/pk/out")" = 0 ]; then
		pass "... pkexec ran id -u as root"
	elif [ "$pw" = fail ] && [ "$prc" = 127 ] &&
	    grep -q 'Not authorized' "$OUT" && [ ! -s "$T/pk/out" ]; then
		pass "... pkexec refused (127, Not authorized), ran nothing"
	else
		fail "... pkexec: wanted $pw" "pkexec exit status $prc; output: $(cat "$T/pk/out")"
		diag_file "$OUT"
		return 1
	fi
}

desk_section1() {
	desk_bus "pkexec" || return 0
	# dana authenticates as herself (auth_self) for pkexec, whatever
	# polkit's default admin rule says.
	printf '%s\n' 'polkit.addRule(function(action, subject) {' \
	    "  if (action.id == \"org.freedesktop.policykit.exec\" && subject.user == \"$du\")" \
	    '    return polkit.Result.AUTH_SELF;' '});' \
	    >/etc/polkit-1/rules.d/10-vmtest.rules
	tok_start pk || return 0
	enroll "pkexec: enroll $du" pk || return 0
	pam_service polkit-1 "auth required $(module "$T/pk.debug" "$T/pk.map")" \
	    "account required pam_permit.so" "session required pam_permit.so"
	if desk_pkexec "pkexec id -u through pkttyagent, the token touched" ok; then
		logged "... pkttyagent showed the cue, then AUTHENTICATION COMPLETE" \
		    "$OUT" "Info: $CUE"
		logged "... the token was touched" "$T/pk.log" '^touch'
	fi
	tok_stop pk
	tok_start pk --presence never || return 0
	: >"$T/pk.log"	# this run's requests only
	: >"$T/pk.debug"
	if desk_pkexec "pkexec id -u through pkttyagent, the token never touched" fail; then
		logged "... pkttyagent: the cue, then AUTHENTICATION FAILED" \
		    "$OUT" 'AUTHENTICATION FAILED'
		logged "... the module waited for the touch until it timed out" \
		    "$T/pk.debug" '[Tt]imed out'
		name="... and the token was never touched"
		if grep -q '^touch' "$T/pk.log"; then fail "$name"; else
			pass "$name"
		fi
	fi
	tok_stop pk
}

# ---- 5. vlock on a pseudo-terminal ------------------------------------
# dana locks her terminal; vlock (as her) asks for Enter, then runs the
# vlock service: our module alone, a +pin credential (PIN, then touch).
# Her node is opened to her, as logind's uaccess ACL would.
ENTER='=press \[ENTER\]'
ASKPIN='=PIN[^\n]*: '
vlock_chat() {	# vlock_chat NAME WANT(ok|fail) STEP...: ptychat with vlock
	vn=$1 vw=$2
	shift 2
	: >"$T/vl.debug"
	# shellcheck disable=SC2086 # CHAT is "python3 ptychat.py"
	if [ "$vw" = ok ]; then
		expect_ok "$vn" $CHAT "$@" -- runuser -u "$du" -- vlock -c
	else
		expect_fail "$vn" $CHAT "$@" -- runuser -u "$du" -- vlock -c
	fi
}

desk_section5() {
	# The module shows the cue when the key says it waits for a touch:
	# the token is touched 1.5 s after it asks.
	tok_start vl --ctap2 2.1 --pin "$PIN" --presence after:1500 || return 0
	chmod 666 "$(tok_dev vl)"
	enroll "vlock: enroll $du with a PIN (-N)" vl -N || return 0
	pam_service vlock "auth required $(module "$T/vl.debug" "$T/vl.map")" \
	    "account required pam_permit.so"
	if vlock_chat "vlock -c: the PIN and a touch unlock it" ok \
	    "$ENTER" ">" "$ASKPIN" ">$PIN"; then
		logged "... the cue shown on the terminal" "$OUT" "$CUE"
		logged "... the token was touched" "$T/vl.log" '^touch'
	fi
	tok_stop vl
	tok_start vl --ctap2 2.1 --presence never || return 0
	chmod 666 "$(tok_dev vl)"
	: >"$T/vl.log"
	# Still locked: after the failure vlock asks for Enter again; then
	# ptychat kills it (status 0 only if it was still running).
	if vlock_chat "vlock -c without a touch: stays locked" ok \
	    "$ENTER" ">" "$ASKPIN" ">$PIN" "$ENTER" "^"; then
		logged "... the module waited for the touch until it timed out" \
		    "$T/vl.debug" '[Tt]imed out'
		name="... and never told vlock it succeeded"
		if grep -Eq 'auth_run: success|result ERR_OK' "$T/vl.debug"; then
			fail "$name"
			diag_file "$T/vl.debug"
		else
			pass "$name"
		fi
	fi
	tok_stop vl
	tok_start vl --ctap2 2.1 || return 0
	chmod 666 "$(tok_dev vl)"
	: >"$T/vl.log"
	if vlock_chat "vlock -c: a wrong PIN, then the right one at the next prompt, unlocks" \
	    ok "$ENTER" ">" "$ASKPIN" ">9999" "$ENTER" ">" "$ASKPIN" ">$PIN"; then
		name="... the token refused the wrong PIN (PIN_INVALID), then signed"
		if grep -q 'status=31' "$T/vl.log" && grep -q '^touch' "$T/vl.log"
		then
			pass "$name"
		else
			fail "$name"
			diag_file "$T/vl.log"
		fi
	fi
	tok_stop vl
}

if desk_mount "desktop packages mounted over /usr (tools/desktop-debs.sh)"
then
	desk_section1
	desk_section5
fi
