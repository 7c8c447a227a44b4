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
#  - lxpolkit, a graphical polkit agent, under Xvfb: its dialog and the
#    cue's window, screenshots read back by tesseract (desk_section4).
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
	# dana authenticates as herself (auth_self) for pkexec, whatever
	# polkit's default admin rule says.
	printf '%s\n' 'polkit.addRule(function(action, subject) {' \
	    "  if (action.id == \"org.freedesktop.policykit.exec\" && subject.user == \"$du\")" \
	    '    return polkit.Result.AUTH_SELF;' '});' \
	    >/etc/polkit-1/rules.d/10-vmtest.rules
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

# module LOG MAP [TIMEOUT]: our module's arguments, with a debug log LOG
# that the user may write (vlock runs as her); the touch is waited for 4 s
# unless TIMEOUT says otherwise.
module() {
	: >"$1"
	chmod 666 "$1"
	echo "$OURMOD authfile=$2 origin=$ORIGIN appid=$ORIGIN timeout=${3:-4} cue [cue_prompt=$CUE] debug debug_file=$1"
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

# ---- 4. lxpolkit, a graphical agent, under Xvfb -------------------------
# Xvfb (its framebuffer an XWD file in $T/fb: guest/xwdshot.py makes the
# screenshots), a logind session of dana's as polkit reads it (lxpolkit
# registers for its session: libsystemd finds it in the process's cgroup
# path, .../session-c1.scope, and its record in /run/systemd/sessions),
# lxpolkit in it; pkexec from the same session opens its dialog. The
# screenshots at the PIN prompt and at the touch cue are kept in the
# results folder (build/vm/75-desktop/), and tesseract reads the text
# back from them.
XSHOT="/usr/bin/python3 $VM_SRC/tests/vm/guest/xwdshot.py"
disp=""
desk_xvfb() {
	mkdir -p "$T/fb"
	mkfifo "$T/xready"
	# No key repeat: under TCG on a loaded host a key typed by xdotool
	# may stay down past the usual 660 ms, and the PIN would be longer.
	Xvfb -screen 0 1024x768x24 -fbdir "$T/fb" -nolisten tcp \
	    -ardelay 60000 -arinterval 60000 -displayfd 3 \
	    3>"$T/xready" >"$T/xvfb.log" 2>&1 &
	echo $! >"$T/xvfb.pid"
	read -r disp <"$T/xready"
	if [ -n "$disp" ] && [ -s "$T/fb/Xvfb_screen0" ]; then
		disp=:$disp
		pass "Xvfb on display $disp"
	else
		fail "Xvfb comes up" "no display number"
		diag_file "$T/xvfb.log"
		return 1
	fi
}

# desk_session: cgroup v2 and logind's files for session c1 of dana's.
cg=""
desk_session() {
	uid=$(id -u "$du")
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
	cg=/sys/fs/cgroup/user.slice/user-$uid.slice/session-c1.scope
	mkdir -p "$cg" /run/systemd/sessions /run/systemd/users \
	    /run/systemd/seats /run/systemd/machines
	printf '%s\n' "UID=$uid" "USER=$du" ACTIVE=1 IS_DISPLAY=1 STATE=active \
	    REMOTE=0 TYPE=x11 CLASS=user SCOPE=session-c1.scope SEAT=seat0 \
	    "DISPLAY=$disp" >/run/systemd/sessions/c1
	printf '%s\n' "NAME=$du" STATE=active DISPLAY=c1 SESSIONS=c1 \
	    ONLINE_SESSIONS=c1 ACTIVE_SESSIONS=c1 >"/run/systemd/users/$uid"
	[ -d "$cg" ]
}

# in_session CMD...: CMD as dana in session c1, with the display.
in_session() {
	# shellcheck disable=SC2016 # for sh -c
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" \
	    runuser -u "$du" -- env DISPLAY="$disp" HOME="$dhome" "$@"
}

# shot NAME WINDOW-ID: the screen now as NAME.png in the results folder,
# and the window's rectangle at twice its size as $T/NAME-ocr.png, read
# by tesseract into $T/NAME.txt.
shot() {
	sn=$1 sw=$2
	eval "$(DISPLAY=$disp xdotool getwindowgeometry --shell "$sw")"
	# shellcheck disable=SC2086 # XSHOT is "python3 xwdshot.py"
	$XSHOT "$T/fb/Xvfb_screen0" "/vmtest/$sn.png" &&
	    $XSHOT "$T/fb/Xvfb_screen0" "$T/$sn-ocr.png" "$X" "$Y" "$WIDTH" \
	    "$HEIGHT" 2 &&
	    OMP_THREAD_LIMIT=1 timeout -k 5 "$TMO" tesseract "$T/$sn-ocr.png" \
	    "$T/$sn" >/dev/null 2>&1
}

# ocr_until NAME WINDOW-ID REGEX: screenshots until tesseract reads REGEX
# in the window (the agent draws what it gets when it gets it); at most
# $TMO seconds.
ocr_until() {
	uptime_s
	od=$((up + TMO))
	while :; do
		if shot "$1" "$2" && grep -Eqi "$3" "$T/$1.txt"; then
			pass "$1.png: the window reads /$3/"
			return 0
		fi
		uptime_s
		if [ "$up" -ge "$od" ]; then
			fail "$1.png: the window reads /$3/" "tesseract read:"
			diag_file "$T/$1.txt"
			return 1
		fi
	done
}

# xwin NAME TITLE: the id of the first window named TITLE (xdotool's
# --sync waits until it is mapped), in $wid.
xwin() {
	wid=""
	expect_ok "$1" env DISPLAY="$disp" xdotool search --sync --onlyvisible \
	    --name "^$2\$" || return 1
	wid=$(head -n 1 "$OUT.stdout")
}

desk_section4() {
	desk_xvfb || return 0
	desk_session || { fail "a logind session for $du" "no cgroup $cg"; return 0; }
	# A +pin credential, touched 3 s after the key asks. The module's
	# timeout runs from the start, and reading the dialog back takes
	# tens of seconds under TCG before the PIN is typed: 120 s.
	tok_start gui --ctap2 2.1 --pin "$PIN" --presence after:3000 ||
	    return 0
	enroll "lxpolkit: enroll $du with a PIN (-N)" gui -N || return 0
	: >"$T/gui.log"
	pam_service polkit-1 \
	    "auth required $(module "$T/gui.debug" "$T/gui.map" 120)" \
	    "account required pam_permit.so" "session required pam_permit.so"
	# lxpolkit registers with polkitd: seen on the bus by dbus-monitor,
	# which is attached once it has lost its own name (NameLost).
	mkfifo "$T/mon"
	timeout -k 5 "$TMO" dbus-monitor --system \
	    "type='method_call',member='RegisterAuthenticationAgent'" \
	    >"$T/mon" 2>"$T/mon.err" &
	mp=$!
	exec 4<"$T/mon"
	while read -r line <&4; do
		case $line in *member=NameLost*) break ;; esac
	done
	in_session lxpolkit >"$T/lxpolkit.log" 2>&1 &
	echo $! >"$T/lxpolkit.pid"
	name="lxpolkit registered as dana's session agent"
	reg=""
	while read -r line <&4; do
		case $line in *RegisterAuthenticationAgent*) reg=1; break ;; esac
	done
	exec 4<&-
	kill "$mp" 2>/dev/null
	if [ -n "$reg" ]; then pass "$name"; else
		fail "$name"
		diag_file "$T/lxpolkit.log"
		return 0
	fi
	mkdir -p "$T/gui"
	chown "$du" "$T/gui"
	# shellcheck disable=SC2016 # for sh -c
	in_session sh -c 'pkexec /usr/bin/id -u >"$0/out" 2>"$0/err"; echo $? >"$0/rc"' \
	    "$T/gui" &
	pkp=$!
	xwin "pkexec opens lxpolkit's dialog" Authentication || return 0
	dlg=$wid
	# The PIN prompt is drawn when the module asks (the agent passes it
	# on as it comes): shot until it is read.
	ocr_until desk-pin "$dlg" 'PIN for' || return 0
	name="... and the dialog's message"
	if grep -q 'Authentication is needed' "$T/desk-pin.txt"; then
		pass "$name"
	else
		fail "$name" "tesseract read:"
		diag_file "$T/desk-pin.txt"
	fi
	# Three calls: chained after windowfocus, xdotool would send the
	# keys to that window with XSendEvent, which GTK takes differently
	# (a 4-digit PIN became 14 characters); alone, it types through
	# XTEST, as a keyboard would, into the focused entry.
	expect_ok "xdotool focuses the dialog" env DISPLAY="$disp" \
	    xdotool windowfocus --sync "$dlg" &&
	    expect_ok "xdotool types the PIN" env DISPLAY="$disp" \
	    xdotool type "$PIN" &&
	    expect_ok "xdotool presses Enter" env DISPLAY="$disp" \
	    xdotool key Return || return 0
	xwin "the cue opens lxpolkit's message window" Information || {
		# shellcheck disable=SC2086 # XSHOT is "python3 xwdshot.py"
		$XSHOT "$T/fb/Xvfb_screen0" /vmtest/desk-fail.png
		diag "the screen: desk-fail.png; the module's log:"
		diag_file "$T/gui.debug"
		diag_file "$T/gui.log" 8
		return 0
	}
	info=$wid
	ocr_until desk-cue "$info" "$CUE"
	# lxpolkit's message window stays until it is answered (OK).
	DISPLAY=$disp xdotool windowfocus --sync "$info" &&
	    DISPLAY=$disp xdotool key Return
	uptime_s
	od=$((up + TMO))
	while [ ! -s "$T/gui/rc" ] && [ "$up" -lt "$od" ]; do
		sleep 0.2	# pkexec's end: a file, looked for until a deadline
		uptime_s
	done
	name="pkexec ran id -u as root after the PIN and the touch"
	if [ "$(cat "$T/gui/rc" 2>&1)" = 0 ] && [ "$(cat "$T/gui/out")" = 0 ] &&
	    grep -q '^pin ok' "$T/gui.log" && grep -q '^touch' "$T/gui.log"; then
		pass "$name"
	else
		fail "$name" "pkexec: $(cat "$T/gui/rc" "$T/gui/out" "$T/gui/err" 2>&1)"
		diag_file "$T/gui.debug"
		kill "$pkp" 2>/dev/null
	fi
	read -r lp <"$T/lxpolkit.pid"
	kill "$lp" 2>/dev/null
	read -r xp <"$T/xvfb.pid"
	kill "$xp" 2>/dev/null
	tok_stop gui
}

# VM_DESK_PARTS (default "1 5 4"): the sections to run, for a test by hand.
if desk_mount "desktop packages mounted over /usr (tools/desktop-debs.sh)" &&
    desk_bus "polkit"; then
	for part in ${VM_DESK_PARTS:-1 5 4}; do
		"desk_section$part"
	done
fi
