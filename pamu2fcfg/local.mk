# SPDX-License-Identifier: BSD-2-Clause
# pamu2fcfg: the enrollment and mapping-file tool (man/pamu2fcfg.1).
bin_PROGRAMS += pamu2fcfg/pamu2fcfg
pamu2fcfg_pamu2fcfg_SOURCES = pamu2fcfg/pamu2fcfg.c pamu2fcfg/tool.h \
	pamu2fcfg/opts.c pamu2fcfg/optcheck.c pamu2fcfg/msg.c \
	pamu2fcfg/enroll.c pamu2fcfg/add.c \
	pamu2fcfg/manage.c pamu2fcfg/check.c pamu2fcfg/mapfile.c \
	pamu2fcfg/lines.c pamu2fcfg/config.c pamu2fcfg/asuser.c \
	pamu2fcfg/devwhy.c pamu2fcfg/pin.c pamu2fcfg/passkeyfmt.c \
	pamu2fcfg/audit.c pamu2fcfg/passkeyreq.c pamu2fcfg/checkcmd.c \
	pamu2fcfg/sshagent.c pamu2fcfg/attpolicy.c pamu2fcfg/wrap.c
pamu2fcfg_pamu2fcfg_LDADD = common/libcommon.la
