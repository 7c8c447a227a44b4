#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/distlist.sh TARBALL: the release tarball holds every file git
# tracks, but the few tests/dist.exclude names (with the reason beside
# each). What `make distcheck` proved by running make check from the
# tarball, checked by name: a test's data file left out of EXTRA_DIST is
# named here. Exit 0 when complete, 1 naming each missing file, 77 when
# this is not a git checkout (nothing to compare with).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=$1
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || {
	echo "distlist: $top is not a git checkout: nothing to compare" >&2
	exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the tarball's files, without the top folder pam_u2f-VERSION/
tar -tf "$tarball" | sed -n 's|^[^/]*/||p' | grep -v '/$' | sort >"$tmp/tar"
[ -s "$tmp/tar" ] || { echo "distlist: $tarball lists no file" >&2; exit 1; }
git -C "$top" ls-files | sort >"$tmp/git"
sed -e 's/[[:space:]]*#.*//' -e '/^$/d' "$top/tests/dist.exclude" |
    sort >"$tmp/excl"
comm -23 "$tmp/git" "$tmp/tar" | comm -23 - "$tmp/excl" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	echo "distlist: tracked but not in $(basename "$tarball")" \
	    "(add them to EXTRA_DIST, or to tests/dist.exclude with a reason):" >&2
	sed 's/^/  /' "$tmp/missing" >&2
	exit 1
fi
# an exclusion that names a shipped or an unknown file is stale
comm -12 "$tmp/excl" "$tmp/tar" >"$tmp/stale"
comm -23 "$tmp/excl" "$tmp/git" >>"$tmp/stale"
if [ -s "$tmp/stale" ]; then
	echo "distlist: tests/dist.exclude names files that are shipped or" \
	    "not tracked:" >&2
	sed 's/^/  /' "$tmp/stale" >&2
	exit 1
fi
echo "distlist: $(wc -l <"$tmp/git") tracked files, all shipped but" \
    "$(wc -l <"$tmp/excl") excluded"
