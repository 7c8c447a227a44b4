noinst_LTLIBRARIES += common/libcommon.la
common_libcommon_la_SOURCES = \
	common/err.c common/err.h \
	common/util.c common/util.h \
	common/rbuf.c common/rbuf.h \
	common/b64.c common/b64.h \
	common/hid.c common/hid.h \
	common/ctaphid.c common/ctaphid.h \
	common/hidraw.c common/hidraw_rdesc.c common/hidraw.h \
	common/unixdev.c common/unixdev.h \
	common/u2f.c common/u2f.h \
	common/crypto.c common/crypto.h common/crypto_int.h \
	common/crypto_direct.c \
	common/cred.c common/cred.h \
	common/dev.c common/dev.h \
	common/dev_u2f.c common/dev_int.h \
	common/auth.c common/auth.h common/devset.c \
	common/authfile.c common/authfile.h common/authfile_int.h \
	common/authscan.c \
	common/safefile.c common/safefile.h \
	common/sshkey.c common/sshkey.h \
	common/conf.c common/conf.h common/confscan.c common/confscan.h
common_libcommon_la_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS) \
	$(LIBCONFUSE_CFLAGS) $(LIBU2FHOST_CFLAGS)
common_libcommon_la_LIBADD = $(LIBCRYPTO_LIBS) $(LIBCONFUSE_LIBS) \
	$(LIBU2FHOST_LIBS) -lpthread
# The optional libu2f-host transport backend (--with-libu2f-host).
if WITH_LIBU2F_HOST
common_libcommon_la_SOURCES += common/dev_u2fh.c common/dev_u2fh.h
else
common_libcommon_la_SOURCES += common/dev_u2fh_none.c
endif
# The configuration file's default path: --with-pam-conf (conf.c).
common_libcommon_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPAM_U2F_CONF_DEFAULT='"$(PAM_U2F_CONF)"'
