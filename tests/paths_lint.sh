#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/paths.sh itself, on small trees of its own under a temporary
# folder: a comment naming a path that does not exist fails it; the path
# created, a build product, a placeholder or an allow-list entry pass it;
# an allow-list entry that is no longer stale fails it.
here=$(cd "$(dirname "$0")" && pwd)
lint=${top_srcdir:+$top_srcdir/tests/paths.sh}
[ -n "$lint" ] && [ -f "$lint" ] || lint=$here/paths.sh
n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
t=$(mktemp -d "${TMPDIR:-/tmp}/paths_lint.XXXXXX") || exit 1
trap 'rm -rf "$t" "$t.out"' EXIT
run() { sh "$lint" "$t" >"$t.out" 2>&1; }
# The fixtures name paths through $c, $p, $o and $q, so that this file names
# none itself (tests/paths.sh reads it too).
c=common
p=pam_u2f
o=tools

mkdir -p "$t/common/base" "$t/tests" "$t/pam_u2f"
echo "/* Reads $c/base/a.c and $c/base/gone.c. */" >"$t/$c/base/a.c"
! run && grep -q "^not ok .* $c/base/a.c names $c/base/gone.c" "$t.out" &&
    ! grep -q "names $c/base/a.c" "$t.out"
ok $? "a comment naming a missing file fails, one naming a present file does not"

: >"$t/common/base/gone.c"
run
ok $? "the same tree passes once the file exists"
rm "$t/common/base/gone.c"

{
	echo "Built: \`$p/pam_u2f.la\`, in $p/.libs/pam_u2f.so."
	echo "See $c/X/ and tests/vm/GROUP.sh; \$B/$o/nope is not ours."
} >"$t/README"
printf 'noinst_LTLIBRARIES += %s/pam_u2f.la\n# %s/old.sh\n' "$p" "$o" \
    >"$t/$p/local.mk"
echo "$c/base/a.c $c/base/gone.c" >"$t/tests/paths.allow"
! run && grep -q "# SKIP known stale" "$t.out" &&
    grep -q "$p/local.mk names $o/old.sh" "$t.out" &&
    [ "$(grep -c '^not ok' "$t.out")" -eq 2 ]
ok $? "products, .libs/*.so, placeholders and allowed lines pass; a makefile comment is read"

printf 'noinst_LTLIBRARIES += %s/pam_u2f.la\n' "$p" >"$t/$p/local.mk"
run
ok $? "with the comment gone the tree passes"

echo "README $c/base/b.c" >>"$t/tests/paths.allow"
! run && grep -q "paths.allow: \"README $c/base/b.c\" is no longer stale" \
    "$t.out"
ok $? "an allow-list line that is not stale fails"

q=proto
mkdir -p "$t/common/$q/u2f"
: >"$t/common/$q/u2f/wire.c"
rm -f "$t/tests/paths.allow"
echo "/* Sends through u2f/wire.c; $q/u2f/wire.c and $q/u2f_op.c. */" \
    >"$t/$c/base/a.c"
! run && grep -q "^not ok .* names $c/$q/u2f_op.c" "$t.out" &&
    [ "$(grep -c '^not ok' "$t.out")" -eq 2 ]
ok $? "a C file named from inside common/ is read as common/...: a missing one fails"

echo "1..$n"
