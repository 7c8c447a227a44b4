#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Generate configure and the build-aux helpers (including the TAP driver).
set -e
cd "$(dirname "$0")"
autoreconf -fi
for d in /usr/share/automake-*; do
	if [ -f "$d/tap-driver.sh" ]; then
		cp -f "$d/tap-driver.sh" build-aux/tap-driver.sh
		break
	fi
done
test -f build-aux/tap-driver.sh
