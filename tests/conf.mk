# The configuration file (issue 5): unit tests of common/conf.c, and the
# commented example installed as $(sysconfdir)/security/pam_u2f.conf
# unless a file is already there.
check_PROGRAMS += tests/test_conf
TESTS += tests/test_conf
tests_test_conf_SOURCES = tests/test_conf.c tests/test.h
tests_test_conf_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS) \
	$(LIBCONFUSE_LIBS) -lpthread

EXTRA_DIST += etc/pam_u2f.conf.example

pamconfdir = $(sysconfdir)/security
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(pamconfdir)'
	@if test -e '$(DESTDIR)$(pamconfdir)/pam_u2f.conf' || \
	    test -h '$(DESTDIR)$(pamconfdir)/pam_u2f.conf'; then \
		echo "$(DESTDIR)$(pamconfdir)/pam_u2f.conf exists: not replaced"; \
	else \
		echo " $(INSTALL_DATA) etc/pam_u2f.conf.example '$(DESTDIR)$(pamconfdir)/pam_u2f.conf'"; \
		$(INSTALL_DATA) '$(srcdir)/etc/pam_u2f.conf.example' \
		    '$(DESTDIR)$(pamconfdir)/pam_u2f.conf' || exit 1; \
	fi
# distcheck wants an uninstall that leaves nothing behind: remove the file
# only if it is still the unmodified example.
uninstall-local:
	@if cmp -s '$(srcdir)/etc/pam_u2f.conf.example' \
	    '$(DESTDIR)$(pamconfdir)/pam_u2f.conf'; then \
		echo " rm -f '$(DESTDIR)$(pamconfdir)/pam_u2f.conf'"; \
		rm -f '$(DESTDIR)$(pamconfdir)/pam_u2f.conf'; \
	fi

TESTS += tests/conf_manlint.sh
dist_check_SCRIPTS += tests/conf_manlint.sh
