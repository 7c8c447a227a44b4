bin_PROGRAMS += tools/pamu2fcfg
tools_pamu2fcfg_SOURCES = tools/pamu2fcfg.c tools/tool.h \
	tools/opts.c tools/msg.c tools/enroll.c tools/add.c \
	tools/manage.c tools/check.c tools/mapfile.c tools/lines.c \
	tools/config.c tools/asuser.c tools/devwhy.c tools/pin.c \
	tools/passkeyfmt.c tools/audit.c tools/passkeyreq.c tools/checkcmd.c
tools_pamu2fcfg_LDADD = common/libcommon.la
EXTRA_DIST += tools/demo.sh tools/copy-src.sh tools/deps.sh \
	tools/debian-pam-u2f.sh

# make install refuses to overwrite files that a Debian package owns
# (tools/dpkg-guard.sh): checked before the module and pamu2fcfg go in.
EXTRA_DIST += tools/dpkg-guard.sh
install-binPROGRAMS install-pamLTLIBRARIES: pu-dpkg-guard
pu-dpkg-guard:
	@$(SHELL) '$(srcdir)/tools/dpkg-guard.sh' '$(DESTDIR)' \
	    '$(pamdir)/pam_u2f.so' '$(bindir)/pamu2fcfg'
