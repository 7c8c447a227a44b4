# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash disable=SC2034 # variables for the caller
# bench/vm-lib.sh NAME: sourced by the guest sides (bench/vm-ctap2.sh,
# bench/vm-multikey.sh) inside the test VM: tests/vm/guest/lib.sh (the
# software tokens, $OURMOD, $OURCFG, $T), results as lines in
# /vmtest/NAME.txt (put), diagnostics (stderr) in /vmtest/diag-NAME.
set -u
export VM_TAP=/vmtest/tap
# shellcheck source=/dev/null
. "$VM_SRC/tests/vm/guest/lib.sh"
W=$BENCH_WORK
R=/vmtest/$1.txt
D=/vmtest/diag-$1
ORIGIN=pam://bench
TARGET=nobody
OLD=$OLDMOD	# Debian's, unpacked (VM_DEBIAN_PAM_U2F, guest/lib.sh)
PIN=1234
: >"$R"
exec 2>>"$D"
# The host's /etc/security/pam_u2f.conf, seen through the guest's
# overlay, would change our module's and pamu2fcfg's defaults (the test
# suite's hermetic checks even put a hostile one there for a while): the
# benchmark runs without one (the overlay is gone at power-off).
rm -f /etc/security/pam_u2f.conf

put() { echo "$*" >>"$R"; }
