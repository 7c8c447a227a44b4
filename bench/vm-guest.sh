#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/vm-guest.sh: the complete-authentication part of bench/run.sh, run
# as root inside the test VM (tests/vm/boot.sh) where the software token is
# a real hidraw node (/dev/uhid) that both modules can use.
# Env: VM_BUILD (build tree), VM_SRC (source tree), BENCH_WORK (pamdrive,
# genmap, host's scratch; read-only here), BENCH_RUNS; results as
# "KEY VALUE" lines in /vmtest/bench.txt, diagnostics in /vmtest/diag.
set -u
export VM_TAP=/vmtest/tap
# shellcheck source=/dev/null
. "$VM_SRC/tests/vm/guest/lib.sh"
W=$BENCH_WORK
R=/vmtest/bench.txt
D=/vmtest/diag
ORIGIN=pam://bench
TARGET=nobody
OLD=$OLDMOD	# Debian's, unpacked (VM_DEBIAN_PAM_U2F, guest/lib.sh)
runs=${BENCH_RUNS:-15}
conf=$T/conf
mkdir -p "$conf"
: >"$R"
exec 2>>"$D"

put() { echo "$*" >>"$R"; }
# shellcheck source=bench/vm-cg.lib
. "$VM_SRC/bench/vm-cg.lib"
drive() { "$W/pamdrive" "$conf" "$1" "$TARGET"; }
vmres() { awk -v n="$1" '$1 == "result" && $2 == n { print $3 }' "$R"; }

# result_instr NAME: the PAM result of service NAME, and callgrind's
# instructions of 1 and of 2 transactions in one process.
result_instr() {
	local c res

	res=$(drive "$1" 2>>"$D" | awk '{print $1}')
	put "result $1 $res"
	for c in 1 2; do
		put "instr$c $1 $(cg_run "/vmtest/cg-$1-$c" "$res" $c \
		    "$W/pamdrive" "$conf" "$1" "$TARGET" $c)"
	done
}

tok_start a --presence now || { put "error token"; exit 0; }
chmod 600 "$(tok_dev a)"
if ! "$OURCFG" -u "$TARGET" -o "$ORIGIN" -i "$ORIGIN" >"$T/real" 2>>"$D"; then
	put "error enroll"
	exit 0
fi
real=$(cut -d: -f2- "$T/real")
pk=$(printf '%s\n' "$real" | cut -d, -f2)

# Maps with K credentials: K-1 the token does not hold, the real one last.
for k in 1 10 100; do
	if [ "$k" -gt 1 ]; then
		line="$("$W/genmap" user "$TARGET" $((k - 1)) "$pk"):$real"
	else
		line="$TARGET:$real"
	fi
	printf '%s\n' "$line" >"$T/map$k"
	chmod 644 "$T/map$k"
	for m in ours old; do
		mod=$OURMOD
		[ $m = old ] && mod=$OLD
		printf 'auth required %s authfile=%s origin=%s appid=%s %s\n' \
		    "$mod" "$T/map$k" "$ORIGIN" "$ORIGIN" "max_devices=128" \
		    >"$conf/$m-$k"
	done
done

for k in 1 10 100; do
	for m in ours old; do
		n=$m-$k
		res=$(drive "$n" 2>>"$D" | awk '{print $1}')
		put "result $n $res"
		strace -f -e trace=openat,open -o "/vmtest/st-$n" \
		    "$W/pamdrive" "$conf" "$n" "$TARGET" >/dev/null 2>&1
		put "enum $n $(grep -cE '"/sys/class/hidraw/?", [^)]*O_DIRECTORY' "/vmtest/st-$n")"
		put "devopen $n $(grep -cE '"/dev/hidraw[0-9]+"' "/vmtest/st-$n")"
	done
done
for k in 1 10; do
	hyperfine -N -i -w 2 -r "$runs" --export-csv "$T/hf$k.csv" \
	    --style none "$W/pamdrive $conf ours-$k $TARGET" \
	    "$W/pamdrive $conf old-$k $TARGET" >/dev/null 2>>"$D"
	put "wall ours-$k $(awk -F, 'NR == 2 {print $4}' "$T/hf$k.csv")"
	put "wall old-$k $(awk -F, 'NR == 3 {print $4}' "$T/hf$k.csv")"
	for m in ours old; do
		n=$m-$k
		/usr/bin/time -f %M -o "$T/rss" "$W/pamdrive" "$conf" "$n" \
		    "$TARGET" >/dev/null 2>&1
		put "rss $n $(cat "$T/rss")"
		# Whole process (1 transaction), then 2 transactions: the
		# difference is one more authentication, libraries warm.
		res=$(vmres "$n")
		for c in 1 2; do
			put "instr$c $n $(cg_run "/vmtest/cg-$n-$c" "$res" $c \
			    "$W/pamdrive" "$conf" "$n" "$TARGET" $c)"
		done
	done
done
# The floor (bench/floor.c): what any module that verifies through
# OpenSSL 3's EVP API pays, without a device; same driver, same counts.
for f in load verify lowlevel; do
	printf 'auth required %s %s\n' "$W/floor.so" "$f" >"$conf/floor-$f"
	result_instr "floor-$f"
done
# Ours built with --enable-direct-verify (bench/run.sh builds it), 1
# credential: what the direct ES256 check saves.
printf 'auth required %s authfile=%s origin=%s appid=%s max_devices=128\n' \
    "$W/pam_u2f_direct.so" "$T/map1" "$ORIGIN" "$ORIGIN" >"$conf/oursdirect-1"
result_instr oursdirect-1
# Ours with a configuration file (conf=, four usual lines), 1
# credential: issue 27's target is one more authentication with a file.
printf 'cue\ncue_prompt = "Touch the key"\nmax_devices = 128\ntimeout = 30\n' \
    >"$T/pam_u2f.conf"
chmod 644 "$T/pam_u2f.conf"
printf 'auth required %s authfile=%s origin=%s appid=%s max_devices=128 conf=%s\n' \
    "$OURMOD" "$T/map1" "$ORIGIN" "$ORIGIN" "$T/pam_u2f.conf" >"$conf/ourscfg-1"
result_instr ourscfg-1
put "signed $(tok_signed a)"
tok_stop a
put "done"
