#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make install's guard: refuse to overwrite a file that a Debian package
# owns (dpkg -V would flag it, the package's next upgrade would put its own
# back, and libpam would load whichever came last).
# Usage: dpkg-guard.sh DESTDIR FILE...  (does nothing when DESTDIR is set:
# a staged install, e.g. for a package, overwrites nothing; nor without
# dpkg). PU_OVERWRITE_DPKG=1 lets it through with a warning.
destdir=$1
shift
[ -z "$destdir" ] || exit 0
command -v dpkg-query >/dev/null 2>&1 || exit 0
owned=""
for f in "$@"; do
	# merged /usr: dpkg may know the file under the other name
	case $f in
	/usr/lib/*) alias=${f#/usr} ;;
	/lib/*) alias=/usr$f ;;
	*) alias=$f ;;
	esac
	pkg=$(dpkg-query -S "$f" "$alias" 2>/dev/null | sed 's/:.*//' | head -n 1)
	[ -z "$pkg" ] || owned="$owned
  $f belongs to Debian's package $pkg"
done
[ -n "$owned" ] || exit 0
echo "make install: would overwrite files of Debian packages:$owned" >&2
if [ "${PU_OVERWRITE_DPKG:-0}" = 1 ]; then
	echo "make install: PU_OVERWRITE_DPKG=1: overwriting them" >&2
	exit 0
fi
cat >&2 <<'EOT'
Refused. Either remove those packages first (apt remove libpam-u2f
pamu2fcfg), or build and install our Debian package, which replaces them
the dpkg way (README, "Debian package"), or install elsewhere: pamu2fcfg
with --prefix=/usr/local, the module with --with-pam-dir=DIR (then name it
by its full path in /etc/pam.d). PU_OVERWRITE_DPKG=1 overrides.
EOT
exit 1
