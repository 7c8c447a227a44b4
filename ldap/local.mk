# SPDX-License-Identifier: BSD-2-Clause
# pam_u2f_ldap (issue 17): the LDAP helper for the module's authcmd=,
# installed in $(pkglibexecdir) ($(libexecdir)/pam_u2f); built only with
# libldap (configure --with-ldap, default when found). The files not
# touching libldap (the escaper, the password file) are a convenience
# library its unit tests (tests/ldap/) link too.
EXTRA_DIST += man/pam_u2f_ldap.8
noinst_LTLIBRARIES += ldap/libldhelp.la
ldap_libldhelp_la_SOURCES = ldap/ldescape.c ldap/ldescape.h \
	ldap/ldpass.c ldap/ldpass.h

# Its unit tests and man page lint: tests/ldap/local.mk.

if WITH_LDAP

pkglibexec_PROGRAMS = ldap/pam_u2f_ldap
ldap_pam_u2f_ldap_SOURCES = ldap/pam_u2f_ldap.c \
	ldap/ldconn.c ldap/ldconn.h ldap/ldreach.c ldap/ldreach.h \
	ldap/ldsearch.c ldap/ldsearch.h
ldap_pam_u2f_ldap_CFLAGS = $(AM_CFLAGS) $(LIBLDAP_CFLAGS)
ldap_pam_u2f_ldap_LDADD = ldap/libldhelp.la common/libcommon.la \
	$(LIBLDAP_LIBS)
man_MANS = man/pam_u2f_ldap.8
endif
