# SPDX-License-Identifier: BSD-2-Clause
# Tests of common/ssh/ (tests/ssh/README): unit tests, and scripts that
# drive the layer through sshdrv against the hostile agent (hostile.sh)
# and against real OpenSSH from tools/openssh-private.sh (openssh.sh).
check_PROGRAMS += tests/ssh/sshdrv
tests_ssh_sshdrv_SOURCES = tests/ssh/sshdrv.c
tests_ssh_sshdrv_CPPFLAGS = $(TEST_CPPFLAGS)
tests_ssh_sshdrv_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)

# Real OpenSSH (tools/openssh-private.sh): keys, agent, ssh-keygen -Y,
# sshd reached with ssh -A. About 3 s; skipped without the unpacked
# OpenSSH (failed under CI=true).
TESTS += tests/ssh/openssh.sh
dist_check_SCRIPTS += tests/ssh/openssh.sh
EXTRA_DIST += tests/ssh/sshd.lib
SLOW_TESTS += tests/ssh/openssh.sh

# A hostile agent of our own (python3-cryptography) and the socket checks.
TESTS += tests/ssh/hostile.sh
dist_check_SCRIPTS += tests/ssh/hostile.sh
EXTRA_DIST += tests/ssh/hostile_agent.py

# Unit tests: key lines, SSHSIG (ssh-keygen's signatures: sshsig_kat.h).
check_PROGRAMS += tests/ssh/test_sshpub
TESTS += tests/ssh/test_sshpub
tests_ssh_test_sshpub_SOURCES = tests/ssh/test_sshpub.c \
	tests/ssh/sshsig_kat.h tests/lib/test.h
tests_ssh_test_sshpub_CPPFLAGS = $(TEST_CPPFLAGS)
tests_ssh_test_sshpub_LDADD = common/libcommon.la $(LIBCRYPTO_LIBS)
EXTRA_DIST += tests/ssh/README
