#!/bin/sh
# Lint man/pam_u2f.conf.5 with mandoc (skipped when mandoc is missing) and
# check that it documents every key of the schema in common/conf.c.
page="${top_srcdir:-.}/man/pam_u2f.conf.5"
src="${top_srcdir:-.}/common/conf.c"
if ! command -v mandoc >/dev/null 2>&1; then
	echo "1..0 # SKIP mandoc not installed"
	exit 0
fi
echo "1..2"
out=$(mandoc -T lint -W warning "$page" 2>&1)
if [ -z "$out" ]; then
	echo "ok 1 - mandoc -T lint pam_u2f.conf.5"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - mandoc -T lint pam_u2f.conf.5"
fi
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
