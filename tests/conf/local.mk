# SPDX-License-Identifier: BSD-2-Clause
# Unit tests of common/conf/ (issue 5): the configuration file, and the
# commented example installed as $(PAM_U2F_CONF) (--with-pam-conf,
# default /etc/security/pam_u2f.conf) unless a file is already there.
check_PROGRAMS += tests/conf/test_conf
TESTS += tests/conf/test_conf
tests_conf_test_conf_SOURCES = tests/conf/test_conf.c tests/conf/conffix.h \
	tests/lib/test.h
tests_conf_test_conf_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_conf_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The usual file read without libconfuse (common/conf/conffast.c, issue
# 27): the same results as libconfuse alone.
check_PROGRAMS += tests/conf/test_conffast
TESTS += tests/conf/test_conffast
tests_conf_test_conffast_SOURCES = tests/conf/test_conffast.c \
	tests/conf/conffix.h tests/lib/test.h
tests_conf_test_conffast_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_conffast_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# conf_load's file safety rules and the shipped example.
check_PROGRAMS += tests/conf/test_conffile
TESTS += tests/conf/test_conffile
tests_conf_test_conffile_SOURCES = tests/conf/test_conffile.c \
	tests/conf/conffix.h tests/lib/test.h
tests_conf_test_conffile_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_conffile_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The text scanner under it (common/conf/confscan.c).
check_PROGRAMS += tests/conf/test_confscan
TESTS += tests/conf/test_confscan
tests_conf_test_confscan_SOURCES = tests/conf/test_confscan.c \
	tests/conf/conffix.h tests/lib/test.h
tests_conf_test_confscan_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_confscan_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The options table's setter, merge and defaults (common/conf/opts.c).
check_PROGRAMS += tests/conf/test_confopts
TESTS += tests/conf/test_confopts
tests_conf_test_confopts_SOURCES = tests/conf/test_confopts.c \
	tests/lib/test.h
tests_conf_test_confopts_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_confopts_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The ldap section (common/conf/confldap.c): read by every reader, used by
# pam_u2f_ldap.
check_PROGRAMS += tests/conf/test_confldap
TESTS += tests/conf/test_confldap
tests_conf_test_confldap_SOURCES = tests/conf/test_confldap.c \
	tests/lib/test.h
tests_conf_test_confldap_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_confldap_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

# The policy section (common/conf/confpolicy.c): read by the module and
# pamu2fcfg, applied by common/policy/.
check_PROGRAMS += tests/conf/test_confpolicy
TESTS += tests/conf/test_confpolicy
tests_conf_test_confpolicy_SOURCES = tests/conf/test_confpolicy.c \
	tests/lib/test.h
tests_conf_test_confpolicy_CPPFLAGS = $(TEST_CPPFLAGS)
tests_conf_test_confpolicy_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
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

# The options table against pam_u2f(8) and pam_u2f.conf(5).
TESTS += tests/conf/manlint.sh
ASAN_SKIP += tests/conf/manlint.sh # text only: mandoc on the page
dist_check_SCRIPTS += tests/conf/manlint.sh

# Phase 2: pamu2fcfg and pam_u2f.so agree through the file (pamtester).
# Not under ASan: pamtester (not instrumented) cannot load the
# instrumented module ("undefined symbol:
# __asan_option_detect_stack_use_after_return", "Module is unknown"). The
# module still runs under ASan in the C tests that load it through libpam
# (tests/module, tests/hostile), and under valgrind (tests/analyze.sh).
TESTS += tests/conf/agree.sh
dist_check_SCRIPTS += tests/conf/agree.sh
ASAN_SKIP += tests/conf/agree.sh
