#!/bin/sh
# Lint man/pam_u2f.conf.5 with mandoc (skipped when mandoc is missing) and
# check that it documents every key of the file in the options table,
# common/conf/opts.h (the rows whose "where" has CONF_IN_FILE: CONF_FM or
# CONF_FMT).
. "${top_srcdir:-.}/tests/manlint.lib"
src="${top_srcdir:-.}/common/conf/opts.h"
manlint_start "${top_srcdir:-.}/man/pam_u2f.conf.5" 2
manlint_lint 1 pam_u2f.conf.5
keys=$(awk '/^#define CONF_OPTIONS/ { on = 1; next }
    on && /clang-format on/ { on = 0 }
    on { sub(/\\$/, ""); printf "%s ", $0 }' "$src" | sed 's/X(/\n/g' |
    awk -F', *' '{ for (i = 3; i <= NF; i++) if ($i ~ /^CONF_(FMT?|MT)$/) {
	if ($i ~ /^CONF_FMT?$/) { gsub(/"/, "", $2); print $2 }
	break } }')
missing=""
n=0
for k in $keys; do
	n=$((n + 1))
	grep -q "^\.It Cm $k No = " "$page" || missing="$missing $k"
done
if [ "$n" -ge 23 ] && [ -z "$missing" ]; then
	echo "ok 2 - pam_u2f.conf.5 documents all $n keys"
else
	echo "# keys found in opts.h: $n; undocumented:$missing"
	echo "not ok 2 - pam_u2f.conf.5 documents every key"
fi
