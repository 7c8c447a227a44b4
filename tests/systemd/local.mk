# SPDX-License-Identifier: BSD-2-Clause
# The systemd drop-in for polkit's agent helper (systemd/) against
# polkit's unit, kept here as test data (polkit 127; its source is named
# in its header and in debian/copyright).
dist_check_SCRIPTS += tests/systemd/dropin.sh
TESTS += tests/systemd/dropin.sh
EXTRA_DIST += tests/systemd/polkit-agent-helper@.service.in \
	tests/systemd/polkit-agent-helper.socket
# Not under ASan: it reads text and runs systemd-analyze, no program of ours.
ASAN_SKIP += tests/systemd/dropin.sh
