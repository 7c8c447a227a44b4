#!/bin/sh
# Lint man/pam_u2f.conf.5 with mandoc (skipped when mandoc is missing) and
# check that it documents every key of the schema in common/conf.c.
. "${top_srcdir:-.}/tests/manlint.lib"
src="${top_srcdir:-.}/common/conf/conf.c"
manlint_start "${top_srcdir:-.}/man/pam_u2f.conf.5" 2
manlint_lint 1 pam_u2f.conf.5
keys=$(sed -n 's/^[[:space:]]*\[CONF_[A-Z_]*\] = {[[:space:]]*"\([a-z_]*\)".*/\1/p' \
    "$src")
missing=""
n=0
for k in $keys; do
	n=$((n + 1))
	grep -q "^\.It Cm $k No = " "$page" || missing="$missing $k"
done
if [ "$n" -ge 23 ] && [ -z "$missing" ]; then
	echo "ok 2 - pam_u2f.conf.5 documents all $n keys"
else
	echo "# keys found in conf.c: $n; undocumented:$missing"
	echo "not ok 2 - pam_u2f.conf.5 documents every key"
fi
