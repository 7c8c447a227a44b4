#!/bin/sh
# The project's licence is BSD-2-Clause (README "Licence"), and it says so
# everywhere a distribution looks:
#   - LICENSE at the top is the BSD 2-Clause text (licensecheck reads it);
#   - every source file (C, headers, shell, python, makefile fragments,
#     m4, awk, man pages, debian/rules and the maintainer scripts) carries
#     "SPDX-License-Identifier: BSD-2-Clause" in its first lines;
#   - debian/copyright is machine-readable (DEP-5, parsed strictly by
#     python3-debian), names BSD-2-Clause for "*" with its full text, and
#     each of its Files patterns matches a file of the tree (third-party
#     data named by a pattern that matches nothing would be a lie).
# The file list is git's when the tree is a checkout, else (make
# distcheck) every file of the same kinds under the source tree, less
# what autogen.sh generates.
top=${top_srcdir:-.}
n=0
check() {	# check NAME STATUS [DIAG...]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		shift 2
		for l in "$@"; do echo "# $l"; done
	fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

kinds='\.(c|h|sh|py|mk|lib|m4|awk|[158]|ac|am)$|^\.ci/run$|^debian/rules$|^debian/[^/]*\.(postinst|postrm|prerm)$'
generated='^(build-aux/|autom4te\.cache/|_inst/|m4/(libtool|lt[^/]*)\.m4$|aclocal\.m4$|configure$|config\.h\.in$|build[^/]*/|_build/)|Makefile\.in$'
sources() {
	# git's list only when $top is the checkout's top: make distcheck
	# unpacks the tarball inside a build folder of the checkout, where
	# git would answer for the checkout (and list nothing).
	if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = \
	    "$(cd "$top" && pwd -P)" ]; then
		git -C "$top" ls-files
	else
		(cd "$top" && find . -type f | sed 's|^\./||')
	fi | grep -E "$kinds" | grep -Ev "$generated"
}

if command -v licensecheck >/dev/null 2>&1; then
	got=$(licensecheck "$top/LICENSE" | sed 's/^[^:]*: *//')
	[ "$got" = "BSD 2-Clause License" ]
	check "LICENSE is the BSD 2-Clause licence" $? "licensecheck: '$got'"
else
	skip "licensecheck not installed (tools/deps.sh test)"
fi

list=$(sources)
# one awk over every file (a head and a grep per file cost 13 s of CPU)
# names those whose first 15 lines hold the line; the others are missing
have=$(printf '%s\n' "$list" | grep . | sed "s|^|$top/|" | tr '\n' '\0' |
    xargs -0 awk 'FNR <= 15 && /SPDX-License-Identifier: BSD-2-Clause/ {
	print FILENAME; nextfile }' | sed "s|^$top/||")
missing=$(printf '%s\n' "$list" | grep . | grep -v -x -F "$have")
total=$(printf '%s\n' "$list" | grep -c .)
[ "$total" -gt 100 ] && [ -z "$missing" ]
# shellcheck disable=SC2086 # one diagnostic per file
check "all $total source files carry SPDX-License-Identifier: BSD-2-Clause" \
    $? "files read: $total (fewer than 100: the list is wrong)" $missing

# Debian's python3 (where python3-debian lives), not whatever PATH finds.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if "$py" -c 'import debian.copyright' 2>/dev/null; then
	out=$("$py" - "$top" <<'PY' 2>&1
import glob, os, sys
from debian import copyright as dc
top = sys.argv[1]
with open(os.path.join(top, 'debian/copyright')) as f:
    c = dc.Copyright(f, strict=True)
star = c.find_files_paragraph('pam_u2f/pam_u2f.c')
assert star is not None and star.license.synopsis == 'BSD-2-Clause', \
    'the paragraph for "*" is not BSD-2-Clause'
texts = {p.license.synopsis for p in c.all_license_paragraphs()}
for p in c.all_files_paragraphs():
    name = p.license.synopsis
    assert p.license.text or name in texts, name + ': no licence text'
    for pat in p.files:
        if pat != '*' and not glob.glob(os.path.join(top, pat)):
            raise SystemExit('Files: ' + pat + ' matches no file')
PY
)
	check "debian/copyright is DEP-5 and names what the tree holds" $? "$out"
else
	skip "python3-debian not installed (tools/deps.sh test)"
fi
echo "1..$n"
