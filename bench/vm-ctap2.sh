#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
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
# shellcheck source=bench/vm-lib.sh
. "$VM_SRC/bench/vm-lib.sh" ctap2
# shellcheck source=bench/vm-cg.lib
. "$VM_SRC/bench/vm-cg.lib"
conf=$T/conf2
mkdir -p "$conf"

# requests < STRACE: one line per CTAPHID request, named by its command
# (bench/ctaphid-req.awk, without the node).
requests() {
	awk -f "$VM_SRC/bench/ctaphid-req.awk" | cut -d' ' -f2-
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
		res=$(PAMDRIVE_PIN=$PIN PAMDRIVE_VERBOSE=1 \
		    "$W/pamdrive" "$conf" "$n" "$TARGET" 2>"$T/conv-$n" |
		    awk '{print $1}')
		put "result $n $res"
		cat "$T/conv-$n" >&2
		# PIN prompts through the conversation with echo off (style 1)
		put "pinprompts $n $(grep -c 'conv style 1: .*PIN' "$T/conv-$n")"
		for c in 1 2; do
			rounds "$n" $c
			put "instr$c $n $(PAMDRIVE_PIN=$PIN cg_run \
			    "/vmtest/cg2-$n-$c" "$res" $c \
			    "$W/pamdrive" "$conf" "$n" "$TARGET" $c)"
		done
	done
	tok_stop "$tn"
done
put "done"
