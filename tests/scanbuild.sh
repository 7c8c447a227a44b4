#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/scanbuild.sh DIR [CONFIGURE-ARGS...]: configure DIR and build
# every program of the tree there through scan-build (the clang static
# analyzer over common/ pam_u2f/ pamu2fcfg/ ldap/, with gcc as the
# compiler: SCANBUILD_CC, default gcc), so that one build gives both the
# objects and the analysis. Exit status 0 only if the build succeeded
# and the analyzer found nothing; the findings are in DIR/scan-build.bugs,
# the reports in DIR/scan-build/. Used by tests/analyze.sh (in a folder
# of its own).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
jobs=$(nproc 2>/dev/null || echo 2)
cc=${SCANBUILD_CC:-gcc}
# the checkers beyond clang's defaults
checkers="-enable-checker security.insecureAPI.strcpy"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bugs=$dir/scan-build.bugs
rm -rf "$dir/scan-build"
: >"$bugs"
# configure with the compiler itself (through scan-build, configure's
# own test programs were analyzed too: 55 s of CPU, not 16), then make
# through scan-build with CC set to its wrapper on make's command line
# (scan-build puts the wrapper in CC; the Makefile's CC=gcc would win
# over the environment)
if ! (cd "$dir" && CC=$cc "$top/configure" -q "$@" \
    >"$dir/scan-build.configure.log" 2>&1); then
	cp "$dir/scan-build.configure.log" "$bugs"
	exit 1
fi
# shellcheck disable=SC2086,SC2016 # the checker options are words; $CC
# is scan-build's, for sh -c
scan-build --use-cc="$cc" -o "$dir/scan-build" --status-bugs $checkers \
    sh -c 'exec make -C "$0" -j"$1" -s CC="$CC"' "$dir" "$jobs" \
    >"$dir/scan-build.make.log" 2>&1
rc=$?
grep -A4 'warning:' "$dir/scan-build.make.log" >>"$bugs"
grep 'bugs found\|error' "$dir/scan-build.make.log" >>"$bugs"
exit $rc
