#!/bin/bash
# bench/vm-ctap2.sh: the CTAP2-with-PIN part of the benchmark, run as root
# inside the test VM (tests/vm/boot.sh) by bench/ctap2.sh. The software
# token in CTAP2 mode with a PIN on /dev/uhid (a real hidraw node), one
# credential enrolled with our pamu2fcfg -N (+pin), both modules through
# bench/pamdrive with the PIN answered by the conversation.
# Env: VM_BUILD, VM_SRC, BENCH_WORK (pamdrive), BENCH_CTAP2_VERSIONS
# (softtoken --ctap2 versions, default "2.1 2.0"). Results as lines in
# /vmtest/ctap2.txt:
#   result NAME PAM_RESULT        (NAME = ours-V or old-V, V the version)
#   pinprompts NAME N             echo-off PIN prompts in one transaction
#   instrC NAME IR                callgrind Ir of COUNT=C transactions
#   rtC NAME TOTAL                CTAPHID requests written by the module
#                                 process in COUNT=C transactions
#   cmdC NAME COMMAND COUNT       the same by command
# diagnostics in /vmtest/diag-ctap2.
set -u
export VM_TAP=/vmtest/tap
# shellcheck source=/dev/null
. "$VM_SRC/tests/vm/guest/lib.sh"
W=$BENCH_WORK
R=/vmtest/ctap2.txt
D=/vmtest/diag-ctap2
ORIGIN=pam://bench
TARGET=nobody
OLD=/lib/x86_64-linux-gnu/security/pam_u2f.so
PIN=1234
conf=$T/conf2
mkdir -p "$conf"
: >"$R"
exec 2>>"$D"

put() { echo "$*" >>"$R"; }

# requests < STRACE: one line per CTAPHID request (an initialisation frame
# written to a hidraw node, however many continuation frames follow),
# named by its command; for CBOR the CTAP2 command, for ClientPIN its
# subcommand. Reads strace -y -xx -s 16 output of write(2).
requests() {
	awk '
	function hex(s,   i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	# -xx writes the path in hex too: "/dev/hidraw" either way
	/write\([0-9]+<(\/dev\/hidraw|\\x2f\\x64\\x65\\x76\\x2f\\x68\\x69\\x64\\x72\\x61\\x77)/ {
		if (!match($0, /"(\\x[0-9a-f][0-9a-f])+"/))
			next
		n = split(substr($0, RSTART + 1, RLENGTH - 2), a, /\\x/)
		for (i = 2; i <= n; i++)
			b[i - 2] = hex(a[i])
		# b[0] report ID, b[1..4] channel, b[5] command (bit 7 set
		# on an initialisation frame), b[6..7] length, b[8] data
		if (n < 7 || b[5] < 128)
			next
		c = b[5]
		if (c == 134) name = "INIT"
		else if (c == 129) name = "PING"
		else if (c == 131) name = "MSG(U2F)"
		else if (c == 136) name = "WINK"
		else if (c == 145) name = "CANCEL(no reply)"
		else if (c == 144) {
			k = b[8]
			if (k == 1) name = "CBOR MakeCredential"
			else if (k == 2) name = "CBOR GetAssertion"
			else if (k == 4) name = "CBOR GetInfo"
			else if (k == 8) name = "CBOR GetNextAssertion"
			else if (k == 6) {
				s = b[13]
				if (s == 1) name = "ClientPIN getPINRetries"
				else if (s == 2) name = "ClientPIN getKeyAgreement"
				else if (s == 5) name = "ClientPIN getPinToken"
				else if (s == 9) name = "ClientPIN getPinUvAuthTokenUsingPinWithPermissions"
				else name = "ClientPIN sub " s
			} else name = "CBOR cmd " k
		} else name = "HID cmd " c
		print name
	}'
}

# rounds NAME COUNT: strace the module process over COUNT transactions.
rounds() {
	local f=/vmtest/st2-$1-$2

	PAMDRIVE_PIN=$PIN strace -f -y -xx -s 16 -e trace=write -o "$f" \
	    "$W/pamdrive" "$conf" "$1" "$TARGET" "$2" >/dev/null 2>&1
	requests <"$f" >"$f.req"
	put "rt$2 $1 $(wc -l <"$f.req")"
	sort "$f.req" | uniq -c | while read -r cnt cmd; do
		put "cmd$2 $1 $cmd|$cnt"
	done
}

for v in ${BENCH_CTAP2_VERSIONS:-2.1 2.0}; do
	tn=c${v%.*}${v#*.}
	if ! tok_start "$tn" --ctap2 "$v" --pin "$PIN" --presence now; then
		put "error token $v"
		continue
	fi
	chmod 600 "$(tok_dev "$tn")"
	if ! echo "$PIN" | "$OURCFG" -N --pin-stdin -u "$TARGET" \
	    -o "$ORIGIN" -i "$ORIGIN" >"$T/map-$v" 2>>"$D"; then
		put "error enroll $v"
		tok_stop "$tn"
		continue
	fi
	chmod 644 "$T/map-$v"
	put "line $v $(cut -d, -f3- "$T/map-$v")"
	for m in ours old; do
		mod=$OURMOD
		[ $m = old ] && mod=$OLD
		n=$m-$v
		printf 'auth required %s authfile=%s origin=%s appid=%s %s\n' \
		    "$mod" "$T/map-$v" "$ORIGIN" "$ORIGIN" max_devices=128 \
		    >"$conf/$n"
		put "result $n $(PAMDRIVE_PIN=$PIN PAMDRIVE_VERBOSE=1 \
		    "$W/pamdrive" "$conf" "$n" "$TARGET" 2>"$T/conv-$n" |
		    awk '{print $1}')"
		cat "$T/conv-$n" >&2
		# PIN prompts through the conversation with echo off (style 1)
		put "pinprompts $n $(grep -c 'conv style 1: .*PIN' "$T/conv-$n")"
		for c in 1 2; do
			rounds "$n" $c
			PAMDRIVE_PIN=$PIN valgrind --tool=callgrind \
			    --callgrind-out-file="/vmtest/cg2-$n-$c.out" \
			    "$W/pamdrive" "$conf" "$n" "$TARGET" $c \
			    >"/vmtest/cg2-$n-$c.log" 2>&1
			put "instr$c $n $(sed -n 's/^summary: *//p' \
			    "/vmtest/cg2-$n-$c.out")"
		done
	done
	tok_stop "$tn"
done
put "done"
