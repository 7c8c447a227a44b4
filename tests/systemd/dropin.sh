#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The drop-in for polkit's sandboxed agent helper (the build's
# systemd/pam_u2f.conf, from systemd/polkit-agent-helper.conf.in) against
# polkit's own unit, kept as test data beside this script
# (polkit-agent-helper@.service.in and .socket, polkit 127):
#   - a parser of our own (awk; always runs): every line is a section, a
#     comment or Key=Value; only the keys the drop-in means to change
#     appear; and the unit merged with it (later wins, list keys add up,
#     an empty value resets) lets the helper open hidraw and nothing else
#     more, reads the homes read-only, reaches pcscd in a PC/SC build,
#     and sends stderr to the journal;
#   - the same parser rejects broken copies of the drop-in (so that the
#     checks above can fail);
#   - systemd-analyze verify on the unit with the drop-in, in a unit
#     directory of the test's own (SYSTEMD_UNIT_PATH, stub targets; the
#     host's units are never read): no warning, exit 0. Skipped when
#     systemd-analyze is absent (fails instead under CI=true).
# Usage: tests/systemd/dropin.sh [DROPIN]  (default: the build's)
top=${top_srcdir:-.}
build=${top_builddir:-.}
dropin=${1:-$build/systemd/pam_u2f.conf}
here=$top/tests/systemd
n=0
fails=0
check() {	# check NAME STATUS [DIAG...]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		fails=$((fails + 1))
		shift 2
		for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
	fi
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ ! -r "$dropin" ]; then
	echo "1..1"
	echo "not ok 1 - $dropin is not there (make builds it)"
	exit 1
fi
pcsc=no
grep -q '^#define HAVE_PCSCLITE 1' "$build/config.h" 2>/dev/null && pcsc=yes

# lint FILE: the problems of one drop-in, one a line (none: it is good).
# Reads polkit's unit first, then the drop-in, as systemd merges them.
lint() {
	awk -v pcsc="$pcsc" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	# keys that name a list: they add up, an empty value resets
	function islist(k) { return k ~ /^(DeviceAllow|BindPaths|BindReadOnlyPaths|SystemCallFilter|CapabilityBoundingSet|Wants|After|ReadWritePaths)$/ }
	BEGIN {
		allowed["Unit", "Wants"] = 1; allowed["Unit", "After"] = 1
		split("PrivateDevices DeviceAllow CapabilityBoundingSet " \
		    "SystemCallFilter BindReadOnlyPaths ProtectHome " \
		    "StandardError", k, " ")
		for (i in k) allowed["Service", k[i]] = 1
	}
	FNR == 1 { file++ }
	/^[ \t]*([#;].*)?$/ { next }
	/^\[[A-Za-z]+\]$/ { sect = substr($0, 2, length($0) - 2); next }
	{
		eq = index($0, "=")
		key = trim(substr($0, 1, eq - 1)); val = trim(substr($0, eq + 1))
		if (file == 2) {
			if (eq == 0 || key !~ /^[A-Za-z]+$/)
				{ print "line " FNR ": not Key=Value: " $0; next }
			if (sect == "")
				{ print "line " FNR ": " key " before any section"; next }
			if (!((sect, key) in allowed))
				print "line " FNR ": [" sect "] " key \
				    " is not what the drop-in is for"
		}
		if (!islist(key)) { v[key] = val; next }
		if (val == "") { l[key] = ""; next }
		l[key] = l[key] " " val " "
	}
	END {
		if (v["PrivateDevices"] != "no")
			print "PrivateDevices is " v["PrivateDevices"] \
			    ": the helper sees no /dev/hidraw*"
		if (l["DeviceAllow"] !~ / char-hidraw rw /)
			print "DeviceAllow has no char-hidraw rw:" l["DeviceAllow"]
		d = l["DeviceAllow"]
		gsub(/ (char-hidraw rw|\/dev\/null rw|\/dev\/urandom r) /, " ", d)
		if (d !~ /^ *$/)
			print "DeviceAllow opens more than hidraw:" d
		if (v["DevicePolicy"] != "strict" && v["DevicePolicy"] != "closed")
			print "DevicePolicy is " v["DevicePolicy"] \
			    ": with PrivateDevices=no every device opens"
		c = l["CapabilityBoundingSet"]
		if (c !~ /~/ || c !~ /CAP_MKNOD/ || c !~ /CAP_SYS_RAWIO/)
			print "CAP_MKNOD, CAP_SYS_RAWIO are not taken away:" c
		if (l["SystemCallFilter"] !~ / ~@raw-io /)
			print "SystemCallFilter lets @raw-io through"
		h = v["ProtectHome"]; b = l["BindReadOnlyPaths"]
		if (h == "tmpfs") {
			if (b !~ / -?\/home[ ]/ || b !~ / -?\/root[ ]/)
				print "ProtectHome=tmpfs without /home and /root bound back:" b
		} else if (h != "read-only")
			print "ProtectHome is " h ": no read-only view of the homes"
		if (l["BindPaths"] != "" || l["ReadWritePaths"] != "")
			print "something is bound writable:" l["BindPaths"] l["ReadWritePaths"]
		if (v["StandardError"] != "journal")
			print "StandardError is " v["StandardError"] ", not journal"
		p = (b ~ / -?\/run\/pcscd /) + (l["Wants"] ~ / pcscd\.socket /) + \
		    (l["After"] ~ / pcscd\.socket /)
		if (pcsc == "yes" && p != 3)
			print "a PC/SC build without /run/pcscd and pcscd.socket"
		if (pcsc == "no" && p != 0)
			print "pcscd named in a build without PC/SC"
	}' "$here/polkit-agent-helper@.service.in" "$1"
}

out=$(lint "$dropin")
check "$dropin merged with polkit 127's unit: hidraw, homes read-only, pcscd ($pcsc), journal, nothing more" \
    "$([ -z "$out" ]; echo $?)" "$out"

# Broken copies must fail the same checks.
broken() {	# broken NAME SED
	sed -e "$2" "$dropin" >"$tmp/broken.conf"
	if cmp -s "$dropin" "$tmp/broken.conf"; then
		check "broken copy ($1): the edit changed nothing" 1
		return
	fi
	out=$(lint "$tmp/broken.conf")
	check "broken copy rejected: $1" "$([ -n "$out" ]; echo $?)"
}
broken "a misspelt key" 's/^PrivateDevices=/PrivateDevice=/'
broken "PrivateDevices=yes" 's/^PrivateDevices=no/PrivateDevices=yes/'
broken "no hidraw" '/^DeviceAllow=/d'
# shellcheck disable=SC2016 # $ is sed's last line
broken "every device" '$a DevicePolicy=auto'
broken "homes hidden" '/^BindReadOnlyPaths=-\/home/d'
broken "homes writable" 's/^ProtectHome=.*/ProtectHome=no/'
broken "stderr to the socket" '/^StandardError=/d'
# shellcheck disable=SC2016 # $ is sed's last line
broken "a key it has no business with" '$a NoNewPrivileges=no'
broken "no section" '/^\[Service\]/d'

# systemd's own parser, on a unit directory of the test's own.
if ! command -v systemd-analyze >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		check "systemd-analyze is installed (CI)" 1
	else
		n=$((n + 1))
		echo "ok $n # SKIP systemd-analyze not installed (package systemd)"
	fi
else
	u=$tmp/units
	mkdir -p "$u/polkit-agent-helper@.service.d" "$tmp/libexec"
	printf '#!/bin/sh\nexit 0\n' >"$tmp/libexec/polkit-agent-helper-1"
	chmod 755 "$tmp/libexec/polkit-agent-helper-1"
	sed "s|@libprivdir@|$tmp/libexec|" \
	    "$here/polkit-agent-helper@.service.in" \
	    >"$u/polkit-agent-helper@.service"
	cp "$here/polkit-agent-helper.socket" "$u/"
	# what the units' default dependencies name
	for t in sysinit.target sockets.target shutdown.target basic.target; do
		printf '[Unit]\nDescription=stub for %s\n' "$t" >"$u/$t"
	done
	verify() {
		cp "$1" "$u/polkit-agent-helper@.service.d/pam_u2f.conf"
		SYSTEMD_UNIT_PATH=$u systemd-analyze verify --man=no \
		    polkit-agent-helper.socket polkit-agent-helper@1.service \
		    >"$tmp/verify.out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && [ ! -s "$tmp/verify.out" ]
	}
	verify "$dropin"
	check "systemd-analyze verify: polkit's unit with the drop-in, no warning" \
	    $? "$(cat "$tmp/verify.out")"
	sed -e 's/^ProtectHome=.*/ProtectHome=tmps/' "$dropin" >"$tmp/broken.conf"
	! verify "$tmp/broken.conf"
	check "systemd-analyze verify rejects a bad value (ProtectHome=tmps)" $?
fi
echo "1..$n"
[ $fails -eq 0 ]
