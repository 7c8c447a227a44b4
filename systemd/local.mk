# SPDX-License-Identifier: BSD-2-Clause
# The drop-in for polkit's sandboxed agent helper (pam_u2f(8),
# "Desktops"): systemd/polkit-agent-helper.conf.in with its @PCSC@ lines
# kept in a build --with-pcsclite and dropped otherwise, installed as
# $(systemdsystemunitdir)/polkit-agent-helper@.service.d/pam_u2f.conf
# (configure --with-systemdsystemunitdir). Checked against polkit's unit
# by tests/systemd/dropin.sh.
EXTRA_DIST += systemd/polkit-agent-helper.conf.in
CLEANFILES += systemd/pam_u2f.conf
if WITH_PCSCLITE
PU_PCSC_SED = s/^@PCSC@//
else
PU_PCSC_SED = /^@PCSC@/d
endif
systemd/pam_u2f.conf: systemd/polkit-agent-helper.conf.in Makefile
	@$(MKDIR_P) systemd
	$(AM_V_GEN)sed -e '$(PU_PCSC_SED)' \
	    '$(srcdir)/systemd/polkit-agent-helper.conf.in' >$@.tmp && \
	    mv $@.tmp $@
if WITH_SYSTEMDUNITDIR
polkitdropindir = $(systemdsystemunitdir)/polkit-agent-helper@.service.d
polkitdropin_DATA = systemd/pam_u2f.conf
else
# Built all the same, for tests/systemd/dropin.sh.
noinst_DATA = systemd/pam_u2f.conf
endif
