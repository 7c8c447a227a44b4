# The configuration file (issue 5): unit tests of common/conf/conf.c, and the
# commented example installed as $(PAM_U2F_CONF) (--with-pam-conf,
# default /etc/security/pam_u2f.conf) unless a file is already there.
check_PROGRAMS += tests/test_conf
TESTS += tests/test_conf
tests_test_conf_SOURCES = tests/test_conf.c tests/conffix.h tests/test.h
tests_test_conf_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# conf_load's file safety rules and the shipped example.
check_PROGRAMS += tests/test_conffile
TESTS += tests/test_conffile
tests_test_conffile_SOURCES = tests/test_conffile.c tests/conffix.h \
	tests/test.h
tests_test_conffile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The text scanner under it (common/conf/confscan.c).
check_PROGRAMS += tests/test_confscan
TESTS += tests/test_confscan
tests_test_confscan_SOURCES = tests/test_confscan.c tests/conffix.h \
	tests/test.h
tests_test_confscan_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The options table's setter, merge and defaults (common/conf/opts.c).
check_PROGRAMS += tests/test_confopts
TESTS += tests/test_confopts
tests_test_confopts_SOURCES = tests/test_confopts.c tests/test.h
tests_test_confopts_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

EXTRA_DIST += etc/pam_u2f.conf.example

install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(PAM_U2F_CONFDIR)'
	@if test -e '$(DESTDIR)$(PAM_U2F_CONF)' || \
	    test -h '$(DESTDIR)$(PAM_U2F_CONF)'; then \
		echo "$(DESTDIR)$(PAM_U2F_CONF) exists: not replaced"; \
	else \
		echo " $(INSTALL_DATA) etc/pam_u2f.conf.example '$(DESTDIR)$(PAM_U2F_CONF)'"; \
		$(INSTALL_DATA) '$(srcdir)/etc/pam_u2f.conf.example' \
		    '$(DESTDIR)$(PAM_U2F_CONF)' || exit 1; \
	fi
# distcheck wants an uninstall that leaves nothing behind: remove the file
# only if it is still the unmodified example.
uninstall-local:
	@if cmp -s '$(srcdir)/etc/pam_u2f.conf.example' \
	    '$(DESTDIR)$(PAM_U2F_CONF)'; then \
		echo " rm -f '$(DESTDIR)$(PAM_U2F_CONF)'"; \
		rm -f '$(DESTDIR)$(PAM_U2F_CONF)'; \
	fi

TESTS += tests/conf_manlint.sh
dist_check_SCRIPTS += tests/conf_manlint.sh
EXTRA_DIST += tests/manlint.lib

# Phase 2: the module's arguments over the file (unit level, through
# pam_u2f/libmodule.la).
check_PROGRAMS += tests/module/test_confargs
TESTS += tests/module/test_confargs
tests_module_test_confargs_SOURCES = tests/module/test_confargs.c \
	tests/module/argsfix.h tests/test.h
tests_module_test_confargs_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests -I$(top_srcdir)/pam_u2f
tests_module_test_confargs_LDADD = pam_u2f/libmodule.la common/libcommon.la \
	$(PAM_LIBS) $(LIBCRYPTO_LIBS)

# Phase 2: the file through the real pam_u2f.so and libpam (the harness of
# tests/module/test_module).
check_PROGRAMS += tests/module/test_confmod
TESTS += tests/module/test_confmod
tests_module_test_confmod_SOURCES = tests/module/test_confmod.c \
	tests/module/modtest.c tests/module/modtest.h tests/module/mtmain.h \
	tests/module/mtpam.c \
	tests/module/enroll.c tests/module/mtsign.c tests/module/mtsign.h \
	tests/test.h
tests_module_test_confmod_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	$(LIBCRYPTO_CFLAGS) -I$(top_srcdir)/tests
tests_module_test_confmod_LDADD = tests/libtokenctl.la common/libcommon.la \
	$(PAM_LIBS) $(LIBCRYPTO_LIBS) -lpthread -ldl

# Phase 2: pamu2fcfg and pam_u2f.so agree through the file.
TESTS += tests/conf_agree.sh
dist_check_SCRIPTS += tests/conf_agree.sh

# The options table reaches every source it names: module arguments, the
# file and pamu2fcfg (common/conf/opts.h, row by row).
check_PROGRAMS += tests/module/test_opttable
TESTS += tests/module/test_opttable
tests_module_test_opttable_SOURCES = tests/module/test_opttable.c \
	tests/module/argsfix.h tests/test.h \
	pamu2fcfg/opts.c pamu2fcfg/config.c pamu2fcfg/msg.c pamu2fcfg/passkeyfmt.c \
	pamu2fcfg/tool.h
tests_module_test_opttable_CFLAGS = $(AM_CFLAGS) $(PAM_CFLAGS) \
	-I$(top_srcdir)/tests -I$(top_srcdir)/pam_u2f -I$(top_srcdir)/pamu2fcfg
tests_module_test_opttable_LDADD = pam_u2f/libmodule.la \
	common/libcommon.la $(PAM_LIBS) $(LIBCRYPTO_LIBS)

# The ldap section (common/conf/confldap.c): read by every reader, used by
# pam_u2f_ldap.
check_PROGRAMS += tests/test_confldap
TESTS += tests/test_confldap
tests_test_confldap_SOURCES = tests/test_confldap.c tests/test.h
tests_test_confldap_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread
