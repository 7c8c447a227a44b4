#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Text that names a path names one that exists. Reads the comments and
# docs of the tree (C sources and headers, shell, python, awk, makefile
# fragments, configure.ac, man pages, README, SECURITY.md, the READMEs
# under tests/, bench's docs, debian/, etc/) for every path under
# common/, pam_u2f/, pamu2fcfg/, tools/ or tests/, and every C file
# named as from inside common/ (proto/u2f/wire.c, read as
# common/proto/u2f/wire.c), and fails (TAP "not ok") on one that is
# neither in the tree nor a build product (a name a
# makefile fragment gives, such as tests/base/test_b64 or pam_u2f/pam_u2f.la;
# X/.libs/Y.so counts as X/Y.la). A name with '*' must match a file; a
# component in capitals (common/X/, tests/vm/guest/GROUP.sh) is a
# placeholder and is not checked. A path written after another '/' (say
# $B/pam_u2f/pam_u2f.so) is relative to something else and is not read.
#
# tests/paths.allow lists known stale references, "FILE PATH" per line
# ('#' comments): each is reported as ok (skipped) while it is still
# there, and an entry that no longer matches a stale reference fails, so
# the list only shrinks.
# Usage: tests/paths.sh [SRCDIR]  (default: $top_srcdir or .)
top=${1:-${top_srcdir:-.}}
cd "$top" || exit 1

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The files read: what a reader reads as prose, and code whose comments
# name files. Build trees and packaging scratch are left out.
find . \( -path ./build -o -path './build*' -o -path ./autom4te.cache \
    -o -path ./debian/build -o -path ./debian/tmp -o -path ./.git \
    -o -path ./debian/.debhelper -o -path './debian/*-native' \
    -o -path ./_build -o -path ./_inst -o -path ./tests/data \) -prune -o -type f \( \
    -name '*.[ch]' -o -name '*.sh' -o -name '*.lib' -o -name '*.py' \
    -o -name '*.awk' -o -name '*.mk' -o -name Makefile.am \
    -o -name configure.ac -o -name '*.[1-8]' -o -name '*.md' \
    -o -name 'README*' -o -name '*.example' -o -path './debian/*' \) \
    -print | sed 's|^\./||' | LC_ALL=C sort >"$tmp/files"

# FILE<TAB>PATH for every path named, once per file. A path starts after
# a character that cannot be part of a path (or at the start of a line);
# a trailing "." or "-" is punctuation. extract code: only the lines of
# makefile fragments that are not comments (where products are named).
extract() { # extract all|code FILE...
	mode=$1
	shift
	awk -v mode="$mode" '
	BEGIN {
		re = "(^|[^A-Za-z0-9_.$/-])(common|pam_u2f|pamu2fcfg|tools|tests)/[A-Za-z0-9_.*+/-]*"
		# a C file named from inside common/ (proto/u2f/wire.c)
		rel = "(^|[^A-Za-z0-9_.$/-])(base|conf|crypto|device|mapping|proto|transport)/[A-Za-z0-9_/-]*[A-Za-z0-9_][.][ch]([^A-Za-z0-9_]|$)"
	}
	{
		s = $0
		mk = FILENAME ~ /(^|\/)(Makefile\.am|[^\/]*\.mk)$/
		if (mode == "code") {
			if (!mk)
				next
			sub(/#.*/, "", s)
		}
		while (match(s, re)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/^[^a-z]/, "", t)
			sub(/[.-]+$/, "", t)
			sub(/\/$/, "", t)
			if (t ~ /\//)
				print FILENAME "\t" t
		}
		s = $0
		if (mode == "code")
			next
		while (match(s, rel)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH - 1)
			sub(/^[^a-z]/, "", t)
			sub(/[^a-z]$/, "", t)
			print FILENAME "\tcommon/" t
		}
	}' "$@"
}
# shellcheck disable=SC2046 # file names have no blanks
extract all $(cat "$tmp/files") | LC_ALL=C sort -u >"$tmp/refs"
# Build products: every such name on a makefile line that is not a
# comment.
# shellcheck disable=SC2046
extract code $(cat "$tmp/files") | cut -f2 | LC_ALL=C sort -u \
    >"$tmp/products"

# The paths that are not in the tree, once each.
cut -f2 "$tmp/refs" | LC_ALL=C sort -u | while IFS= read -r p; do
	case $p in
	*'*'*)
		# shellcheck disable=SC2086 # the glob is the point
		for g in $p; do [ -e "$g" ] && continue 2; done
		;;
	*) [ -e "$p" ] && continue ;;
	esac
	echo "$p"
done >"$tmp/absent"

# Of those: not a product (X/.libs/Y.so: X/Y.la), not a placeholder
# (a component in capitals).
awk -F'\t' -v products="$tmp/products" -v absent="$tmp/absent" '
BEGIN {
	while ((getline l < products) > 0)
		prod[l] = 1
	while ((getline l < absent) > 0)
		gone[l] = 1
}
function placeholder(p,   n, i, c) {
	n = split(p, c, "/")
	for (i = 1; i <= n; i++) {
		sub(/\.[a-z]*$/, "", c[i])
		if (c[i] ~ /^[A-Z][A-Z0-9_]*$/)
			return 1
	}
	return 0
}
function product(p,   q) {
	if (p in prod)
		return 1
	q = p
	if (sub(/\/\.libs\//, "/", q) && sub(/\.so$/, ".la", q))
		return q in prod
	return 0
}
($2 in gone) && !product($2) && !placeholder($2) { print $1 "\t" $2 }
' "$tmp/refs" | LC_ALL=C sort -u >"$tmp/stale"

allow=tests/paths.allow
[ -f "$allow" ] || allow=/dev/null
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$allow" |
    awk '{print $1 "\t" $2}' | LC_ALL=C sort -u >"$tmp/allow"

n=0
bad=0
while IFS='	' read -r f p; do
	n=$((n + 1))
	if grep -qxF "$f	$p" "$tmp/allow"; then
		echo "ok $n - $f names $p # SKIP known stale (tests/paths.allow)"
	else
		echo "not ok $n - $f names $p, which does not exist"
		bad=$((bad + 1))
	fi
done <"$tmp/stale"
while IFS='	' read -r f p; do
	grep -qxF "$f	$p" "$tmp/stale" && continue
	n=$((n + 1))
	echo "not ok $n - tests/paths.allow: \"$f $p\" is no longer stale: remove the line"
	bad=$((bad + 1))
done <"$tmp/allow"
n=$((n + 1))
nref=$(wc -l <"$tmp/refs")
nfile=$(wc -l <"$tmp/files")
if [ "$bad" -eq 0 ]; then
	echo "ok $n - $nref paths named in $nfile files exist"
else
	echo "not ok $n - $bad of $nref paths named in $nfile files are stale"
fi
echo "1..$n"
[ "$bad" -eq 0 ]
