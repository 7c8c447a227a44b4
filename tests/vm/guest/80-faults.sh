# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # sourced by main.sh after lib.sh
# Group 80-faults: alice's token again, now misbehaving (softtoken
# --fault, see tests/softtoken/README), over the real hidraw path: the
# module must refuse every broken reply, and never hang.

mkuser alice
map=$T/map
name="faults: enroll alice with a well-behaved token"
if ! need "$name" "$OURCFG" "$OURMOD" || ! tok_start f; then
	return 0
fi
if ! expect_ok "$name" "$OURCFG" -u alice -o "$ORIGIN"; then
	tok_stop f
	return 0
fi
{ cat "$OUT.stdout"; echo; } >"$map"
tok_stop f
pam_service vmtest-faults \
    "auth required $OURMOD authfile=$map origin=$ORIGIN timeout=5" \
    "account required pam_permit.so"

# refused FAULT: the same token with a fault: a failure, not a hang (the
# error each fault ends in is checked on the host, tests/hostile).
refused() {
	name="fault $1: refused"
	tok_start f --fault "$1" || return 0
	expect_fail "$name" pamtester vmtest-faults alice authenticate
	tok_stop f
}
for f in wrong-cid short-init bcnt-too-large seq-out-of-order \
    missing-continuation error-frames garbage-reply bad-signature \
    wrong-signature presence-flag-clear endless-keepalive; do
	refused "$f"
done

# A key whose check-only probe signs (some real keys do): still usable.
if tok_start f --probe-sign; then
	expect_ok "probe-sign token (non-conforming probe): accepted" \
	    pamtester vmtest-faults alice authenticate
	tok_stop f
fi

# 100 unpaced keepalives before each reply overflow hidraw's 64-report
# queue: whatever gets lost, the module must finish (not hang).
if tok_start f --fault burst; then
	name="fault burst (> 63 reports at once): no hang"
	run_cmd pamtester vmtest-faults alice authenticate
	if [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
		pass "$name (exit $rc)"
	else
		fail "$name" "exit $rc: killed after ${TMO}s"
		diag_file "$OUT"
	fi
	tok_stop f
fi

if tok_start f; then
	expect_ok "faults: the well-behaved token works again" \
	    pamtester vmtest-faults alice authenticate
	tok_stop f
fi
