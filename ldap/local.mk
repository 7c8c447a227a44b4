# pam_u2f_ldap (issue 17): the LDAP helper for the module's authcmd=,
# installed in $(pkglibexecdir) ($(libexecdir)/pam_u2f); built only with
# libldap (configure --with-ldap, default when found). The files not
# touching libldap (the escaper, the password file) are a convenience
# library its unit tests link too.
EXTRA_DIST += man/pam_u2f_ldap.8
noinst_LTLIBRARIES += ldap/libldhelp.la
ldap_libldhelp_la_SOURCES = ldap/ldescape.c ldap/ldescape.h \
	ldap/ldpass.c ldap/ldpass.h

# The escaper's table (RFC 4515), built with or without libldap.
check_PROGRAMS += tests/test_ldescape
TESTS += tests/test_ldescape
tests_test_ldescape_SOURCES = tests/test_ldescape.c tests/test.h
tests_test_ldescape_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/ldap
tests_test_ldescape_LDADD = ldap/libldhelp.la common/libcommon.la

# Its man page: mandoc -T lint and the sections.
TESTS += tests/ldap_manlint.sh
dist_check_SCRIPTS += tests/ldap_manlint.sh

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
