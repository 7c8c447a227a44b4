# SPDX-License-Identifier: BSD-2-Clause
# Scripts for developers, CI and packaging (README "Layout"); pamu2fcfg's
# source is in pamu2fcfg/.
EXTRA_DIST += tools/demo.sh tools/copy-src.sh tools/deps.sh \
	tools/debian-pam-u2f.sh tools/openssh-private.sh tools/desktop-debs.sh \
	tools/cachedir.lib tools/keyring-private.sh tools/privdebs.lib

# make install refuses to overwrite files that a Debian package owns
# (tools/dpkg-guard.sh): checked before the module and pamu2fcfg go in.
EXTRA_DIST += tools/dpkg-guard.sh
install-binPROGRAMS install-pamLTLIBRARIES: pu-dpkg-guard
pu-dpkg-guard:
	@$(SHELL) '$(srcdir)/tools/dpkg-guard.sh' '$(DESTDIR)' \
	    '$(pamdir)/pam_u2f.so' '$(bindir)/pamu2fcfg'
