# SPDX-License-Identifier: BSD-2-Clause
# The VM stage: tests/vm/run.sh, run by tests/run.sh after the host tests
# (not by make check: it boots a kernel under qemu). Shipped for distcheck.
EXTRA_DIST += tests/vm/README tests/vm/run.sh tests/vm/boot.sh \
	tests/vm/kernel.sh tests/vm/mkinitramfs.sh tests/vm/init.sh \
	tests/vm/guest/lib.sh tests/vm/guest/main.sh \
	tests/vm/guest/10-token.sh tests/vm/guest/20-pam.sh \
	tests/vm/guest/30-multi.sh tests/vm/guest/40-peers.sh \
	tests/vm/guest/45-fido2.sh tests/vm/guest/ptyrun.py \
	tests/vm/guest/50-interop.sh tests/vm/guest/60-timing.sh \
	tests/vm/guest/70-libu2fhost.sh tests/vm/guest/80-faults.sh \
	tests/vm/guest/90-manual.sh tests/vm/guest/35-multikey.sh \
	tests/vm/guest/55-interop2.sh tests/vm/guest/57-ldap.sh \
	tests/vm/guest/deb.sh tests/vm/guest/byhand.sh \
	tests/vm/guest/25-trysudo.sh tests/vm/guest/65-sshsudo.sh \
	tests/vm/guest/75-desktop.sh tests/vm/guest/ptychat.py \
	tests/vm/guest/xwdshot.py
