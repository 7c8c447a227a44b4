#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The project's version and contact, as README "Versions" and
# debian/libpam-u2f-native.README.Debian ("Reporting problems") say:
#   - configure.ac's AC_INIT version is MAJOR.MINOR.PATCH;
#   - debian/changelog's newest entry has that version (a native package:
#     no Debian revision);
#   - debian/control's Maintainer is the newest entry's, is no example
#     address, and README.Debian names it in its last section, "Reporting
#     problems", which says how to report.
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

ver=$(sed -n 's/^AC_INIT(\[pam_u2f\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
echo "$ver" | grep -Eqx '(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)'
check "configure.ac's version is MAJOR.MINOR.PATCH" $? "AC_INIT version: '$ver'"

dver=$(sed -n '1s/^pam-u2f-native (\([^)]*\)) .*/\1/p' "$top/debian/changelog")
[ -n "$ver" ] && [ "$dver" = "$ver" ]
check "debian/changelog's newest entry is version $ver" $? "changelog: '$dver'"

maint=$(sed -n 's/^Maintainer: *//p' "$top/debian/control")
signed=$(sed -n '/^ -- /{s/^ -- \(.*>\)  .*/\1/p;q;}' "$top/debian/changelog")
[ -n "$maint" ] && [ "$maint" = "$signed" ] &&
    ! echo "$maint" | grep -qi 'example' &&
    echo "$maint" | grep -Eq '^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$'
check "debian/control's Maintainer is the changelog's, not an example" $? \
    "control: '$maint'" "changelog: '$signed'"

addr=$(echo "$maint" | sed 's/.*<\(.*\)>/\1/')
rd=$top/debian/libpam-u2f-native.README.Debian
awk '/^Reporting problems$/ { on = 1 } on' "$rd" | grep -qF "$addr"
check "README.Debian's \"Reporting problems\" explains $addr" $?
echo "1..$n"
