# SPDX-License-Identifier: BSD-2-Clause
# The module: pam_u2f.c holds the two entry points; everything else is in
# a convenience library that the unit tests link too (nothing is compiled
# twice). Only pam_sm_authenticate and pam_sm_setcred are exported.
noinst_LTLIBRARIES += pam_u2f/libmodule.la
pam_u2f_libmodule_la_SOURCES = \
	pam_u2f/agentflow.c pam_u2f/agentflow.h \
	pam_u2f/args.c pam_u2f/args.h \
	pam_u2f/authflow.c pam_u2f/authflow.h pam_u2f/callctx.h \
	pam_u2f/authpending.c pam_u2f/authpending.h \
	pam_u2f/cmdcache.c pam_u2f/cmdcache.h \
	pam_u2f/cmdsource.c pam_u2f/cmdsource.h \
	pam_u2f/converse.c pam_u2f/converse.h \
	pam_u2f/debug.c pam_u2f/debug.h \
	pam_u2f/manualconv.c pam_u2f/manualconv.h \
	pam_u2f/pinask.c pam_u2f/pinask.h \
	pam_u2f/policyflow.c pam_u2f/policyflow.h \
	pam_u2f/privdrop.c pam_u2f/privdrop.h \
	pam_u2f/unseal.c pam_u2f/unseal.h \
	pam_u2f/remote.c pam_u2f/remote.h \
	pam_u2f/remoteflow.c pam_u2f/remoteflow.h \
	pam_u2f/remsess.c pam_u2f/remsess.h \
	pam_u2f/retval.c pam_u2f/retval.h \
	pam_u2f/touchwait.c pam_u2f/touchwait.h \
	pam_u2f/userfile.c pam_u2f/userfile.h \
	pam_u2f/usermsg.c pam_u2f/usermsg.h pam_u2f/usermsg_text.h
pam_u2f_libmodule_la_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS)

pamdir = $(PAMDIR)
pam_LTLIBRARIES = pam_u2f/pam_u2f.la
pam_u2f_pam_u2f_la_SOURCES = pam_u2f/pam_u2f.c
pam_u2f_pam_u2f_la_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS)
pam_u2f_pam_u2f_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-no-undefined -Wl,--no-undefined \
	-export-symbols $(srcdir)/pam_u2f/export.sym $(MODULE_LDFLAGS)
pam_u2f_pam_u2f_la_LIBADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS)
EXTRA_DIST += pam_u2f/export.sym

# Leave no .la behind in the PAM directory.
install-data-hook:
	rm -f $(DESTDIR)$(pamdir)/pam_u2f.la
uninstall-hook:
	rm -f $(DESTDIR)$(pamdir)/pam_u2f.so
