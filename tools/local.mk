bin_PROGRAMS += tools/pamu2fcfg
tools_pamu2fcfg_SOURCES = tools/pamu2fcfg.c tools/tool.h \
	tools/opts.c tools/msg.c tools/enroll.c tools/add.c \
	tools/manage.c tools/check.c tools/mapfile.c tools/lines.c \
	tools/config.c tools/asuser.c tools/devwhy.c
tools_pamu2fcfg_LDADD = common/libcommon.la
EXTRA_DIST += tools/demo.sh
