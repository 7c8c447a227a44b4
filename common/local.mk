# SPDX-License-Identifier: BSD-2-Clause
# common/: one folder per layer, each a convenience library. Dependencies
# point one way (tests/layers.sh checks every #include in make check):
#
#   policy     the attestation policy applied to stored evidence (over
#              proto, crypto, conf)
#   auth       one touch across devices; manual mode
#   device     a device = transport + protocol; opening many in threads
#   proto      authenticator protocols behind one interface: U2F (u2f/)
#              and CTAP2 (ctap2/)
#   transport  moving messages: CTAPHID, hidraw, unix:, libu2f-host,
#              PC/SC (ISO 7816 APDUs)
#   ssh        OpenSSH FIDO keys through the ssh-agent: key lines,
#              SSHSIG challenges, the agent client (over crypto, base)
#   crypto     the only OpenSSL user          (a leaf over base)
#   mapping    credential sources: mapping files, OpenSSH keys (leaf)
#   conf       every option, the config file  (leaf)
#   base       errors, util, log, bytereader, b64, credential, safe files
#
# A layer may include only the layers listed below it in tests/layers.sh.
#
# Two guests that a reader may not expect:
# - conf/ holds the "ldap { }" section of pam_u2f.conf (confldap.c: its
#   keys and checks; confldap_schema.c: its libconfuse schema), although
#   only the LDAP helper (ldap/) uses it: every reader (the module,
#   pamu2fcfg, the helper) parses the whole file and must refuse a bad
#   key in the section the same way, and ldap/ sits above conf/, so the
#   schema cannot live there. conf.c -> confldap_schema.c -> conf_ctx.c,
#   one way.
# - mapping/ holds authcmd= (authcmd*.c: the checked command and its
#   spawn; authcmd_output.c: its output as credentials; authcache.c: the
#   cache of that output): a command is one more source of a user's
#   mapping lines, read with the same parsers as a mapping file.
# common/libcommon.la is the union that programs link.
COMMON_LAYERS = common/base/libbase.la common/crypto/libcrypto.la \
	common/ssh/libssh.la common/mapping/libmapping.la common/conf/libconf.la \
	common/transport/libtransport.la common/proto/libproto.la \
	common/device/libdevice.la common/auth/libauth.la \
	common/policy/libpolicy.la
noinst_LTLIBRARIES += $(COMMON_LAYERS) common/libcommon.la
common_libcommon_la_SOURCES =
common_libcommon_la_LIBADD = common/policy/libpolicy.la \
	common/auth/libauth.la \
	common/device/libdevice.la common/proto/libproto.la \
	common/transport/libtransport.la common/conf/libconf.la \
	common/mapping/libmapping.la common/ssh/libssh.la \
	common/crypto/libcrypto.la common/base/libbase.la \
	$(LIBCRYPTO_LIBS) $(LIBCONFUSE_LIBS) $(LIBU2FHOST_LIBS) \
	$(PCSCLITE_LIBS) -lpthread

common_base_libbase_la_SOURCES = \
	common/base/err.c common/base/err.h \
	common/base/util.c common/base/util.h \
	common/base/logesc.c common/base/logesc.h \
	common/base/bytereader.c common/base/bytereader.h \
	common/base/b64.c common/base/b64.h \
	common/base/cbor.c common/base/cbor.h \
	common/base/cred.c common/base/cred.h \
	common/base/edpoint.c common/base/edpoint.h \
	common/base/safefile.c common/base/safefile.h \
	common/base/usergroup.c common/base/usergroup.h \
	common/base/printable.c common/base/printable.h

common_crypto_libcrypto_la_SOURCES = \
	common/crypto/crypto.c common/crypto/crypto.h \
	common/crypto/crypto_int.h common/crypto/crypto_direct.c \
	common/crypto/crypto_select.c common/crypto/crypto_fips.c \
	common/crypto/verify.c common/crypto/crypto_ossl.h \
	common/crypto/cosesig.c common/crypto/cosesig.h \
	common/crypto/pinproto.c common/crypto/pinproto.h \
	common/crypto/p256key.c \
	common/crypto/attcert.c common/crypto/attcert.h \
	common/crypto/seal.c common/crypto/seal.h \
	common/crypto/pinproto_int.h
common_crypto_libcrypto_la_CFLAGS = $(AM_CFLAGS) $(LIBCRYPTO_CFLAGS)

# ssh/: ssh.h is the layer's interface (key lines, the agent exchange).
common_ssh_libssh_la_SOURCES = \
	common/ssh/ssh.h common/ssh/wire.c common/ssh/wire.h \
	common/ssh/sshpub.c common/ssh/sshpub_int.h \
	common/ssh/sshsig.c common/ssh/sshsig.h \
	common/ssh/agent.c common/ssh/agent.h common/ssh/agentsock.c \
	common/ssh/sshauth.c

common_mapping_libmapping_la_SOURCES = \
	common/mapping/authfile.c common/mapping/authfile.h \
	common/mapping/authfile_int.h common/mapping/authscan.c \
	common/mapping/sshkey.c common/mapping/sshkey.h \
	common/mapping/mappath.c common/mapping/mappath.h \
	common/mapping/passkey.c common/mapping/passkey.h \
	common/mapping/authcmd_output.c common/mapping/authcmd_output.h \
	common/mapping/authcmd.c common/mapping/authcmd_child.c \
	common/mapping/authcmd_int.h common/mapping/authcmd_path.c \
	common/mapping/authcmd.h common/mapping/authcache.c \
	common/mapping/authcache.h common/mapping/authcmd_user.c \
	common/mapping/authcmd_user.h common/mapping/sshline.c \
	common/mapping/sshline.h

common_conf_libconf_la_SOURCES = \
	common/conf/conf.c common/conf/conf.h \
	common/conf/confscan.c common/conf/confscan.h \
	common/conf/opts.c common/conf/opts.h \
	common/conf/confldap.c common/conf/confldap.h \
	common/conf/confldap_schema.c common/conf/confldap_schema.h \
	common/conf/confpolicy.c common/conf/confpolicy.h \
	common/conf/confpolicy_schema.c common/conf/confpolicy_schema.h \
	common/conf/conf_ctx.c common/conf/conf_ctx.h \
	common/conf/conffast.c common/conf/conffast.h
common_conf_libconf_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)
# The configuration file's default path: --with-pam-conf (conf.c).
common_conf_libconf_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPAM_U2F_CONF_DEFAULT='"$(PAM_U2F_CONF)"'

common_transport_libtransport_la_SOURCES = \
	common/transport/xport.c common/transport/xport.h \
	common/transport/xport_int.h common/transport/hid.h \
	common/transport/devinfo.c common/transport/devinfo.h \
	common/transport/ctaphid.c common/transport/ctaphid.h \
	common/transport/hidraw.c common/transport/hidraw_rdesc.c \
	common/transport/hidraw.h \
	common/transport/hidraw_node.c common/transport/hidraw_node.h \
	common/transport/hidraw_why.c common/transport/hidraw_why.h \
	common/transport/unixdev.c common/transport/unixdev.h \
	common/transport/unixpath.c common/transport/unixpath.h \
	common/transport/apdu.c common/transport/apdu.h \
	common/transport/pcsc.h
common_transport_libtransport_la_CFLAGS = $(AM_CFLAGS) $(LIBU2FHOST_CFLAGS) \
	$(PCSCLITE_CFLAGS)
# The optional libu2f-host transport backend (--with-libu2f-host).
if WITH_LIBU2F_HOST
common_transport_libtransport_la_SOURCES += common/transport/u2fh.c \
	common/transport/u2fh.h common/transport/u2fh_job.c \
	common/transport/u2fh_int.h
else
common_transport_libtransport_la_SOURCES += common/transport/u2fh_none.c
endif
# The optional PC/SC transport (--with-pcsclite).
if WITH_PCSCLITE
common_transport_libtransport_la_SOURCES += common/transport/pcsc.c \
	common/transport/pcsc_wait.c \
	common/transport/pcsc_job.c common/transport/pcsc_job.h
else
common_transport_libtransport_la_SOURCES += common/transport/pcsc_none.c
endif

# proto/: the interface and the one assertion check (proto.c) with the
# WebAuthn data formats both protocols, manual mode and the tools read
# (cose, authdata, attest); u2f/ and ctap2/ are the two protocols.
common_proto_libproto_la_SOURCES = \
	common/proto/proto.c common/proto/proto.h \
	common/proto/cose.c common/proto/cose.h \
	common/proto/authdata.c common/proto/authdata.h \
	common/proto/attest.c common/proto/attest.h \
	common/proto/evidence.c common/proto/evidence.h \
	common/proto/u2f/u2f.h common/proto/u2f/msg.c \
	common/proto/u2f/protocol.c common/proto/u2f/wire.h \
	common/proto/u2f/wire.c \
	common/proto/ctap2/ctap2.h common/proto/ctap2/client.h \
	common/proto/ctap2/info.c common/proto/ctap2/msg.c \
	common/proto/ctap2/driver.c common/proto/ctap2/exchange.c \
	common/proto/ctap2/pin.c common/proto/ctap2/select.c \
	common/proto/ctap2/hmac.c \
	common/proto/ctap2/candidates.c common/proto/ctap2/resident.c \
	common/proto/ctap2/register.c common/proto/ctap2/assert.c

common_device_libdevice_la_SOURCES = \
	common/device/dev.c common/device/dev.h \
	common/device/devset.c common/device/devset_u2fh.c

common_auth_libauth_la_SOURCES = \
	common/auth/auth.c common/auth/auth.h \
	common/auth/wait.c common/auth/wait.h \
	common/auth/manual.c common/auth/manual.h \
	common/auth/secret.c common/auth/secret.h

# Every source of every layer, for builds that compile them again with
# other flags (fuzz/local.mk).
COMMON_SOURCES = $(common_base_libbase_la_SOURCES) \
	$(common_crypto_libcrypto_la_SOURCES) \
	$(common_ssh_libssh_la_SOURCES) \
	$(common_mapping_libmapping_la_SOURCES) \
	$(common_conf_libconf_la_SOURCES) \
	$(common_transport_libtransport_la_SOURCES) \
	$(common_proto_libproto_la_SOURCES) \
	$(common_device_libdevice_la_SOURCES) \
	$(common_auth_libauth_la_SOURCES) \
	$(common_policy_libpolicy_la_SOURCES)

# policy/: the attestation policy (pam_u2f.conf's policy section) applied
# to a credential's evidence, at enrollment and at every login.
common_policy_libpolicy_la_SOURCES = \
	common/policy/policy.c common/policy/policy.h \
	common/policy/policy_mds.c common/policy/policy_mds.h \
	common/policy/mds_payload.c common/policy/mds_payload.h \
	common/policy/json.c common/policy/json.h
