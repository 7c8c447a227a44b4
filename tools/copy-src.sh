#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools/copy-src.sh DEST: copy the source tree as it is now (tracked and
# new files, not ignored ones, not build/) to DEST, times kept, so that it
# can be configured or packaged there without touching this tree (which
# may itself be configured in place). Used by tools/demo.sh and
# tests/run.sh's stage deb.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
mkdir -p "$dest"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z --cached --others --exclude-standard |
	    grep -zv '^build/' | tar -C "$top" --null -T - -cf - |
	    tar -C "$dest" -xf -
elif [ -f "$top/config.status" ]; then
	echo "copy-src.sh: not a git checkout, and configured in the tree:" \
	    "run 'make distclean' in $top first" >&2
	exit 1
else
	tar -C "$top" --exclude=./build -cf - . | tar -C "$dest" -xf -
fi
