#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Lint man/pam_u2f.conf.5 with mandoc (skipped when mandoc is missing),
# and check against the options table, common/conf/opts.h, that it
# documents every key of the file (rows whose "where" is CONF_FM or
# CONF_FMT) and that pam_u2f.8 documents every module argument (CONF_FM,
# CONF_FMT or CONF_MT).
. "${top_srcdir:-.}/tests/manlint.lib"
src="${top_srcdir:-.}/common/conf/opts.h"
manlint_start "${top_srcdir:-.}/man/pam_u2f.conf.5" 3
manlint_lint 1 pam_u2f.conf.5
# rows PATTERN: the names of the rows whose "where" matches PATTERN.
rows() {
	awk '/^#define CONF_OPTIONS/ { on = 1; next }
	    on && /clang-format on/ { on = 0 }
	    on { sub(/\\$/, ""); printf "%s ", $0 }' "$src" | sed 's/X(/\n/g' |
	    awk -F', *' -v want="$1" '{
		for (i = 3; i <= NF; i++) if ($i ~ /^CONF_(FMT?|MT)$/) {
			if ($i ~ want) { gsub(/"/, "", $2); print $2 }
			break
		} }'
}
# check NUM PAGE MIN PATTERN FORMAT: every row matching PATTERN has an
# item matching FORMAT (%s: the name) in PAGE; at least MIN rows.
check() {
	missing=""
	n=0
	for k in $(rows "$4"); do
		n=$((n + 1))
		# shellcheck disable=SC2059
		grep -q "$(printf "$5" "$k")" "$2" || missing="$missing $k"
	done
	if [ "$n" -ge "$3" ] && [ -z "$missing" ]; then
		echo "ok $1 - $(basename "$2") documents all $n options"
	else
		echo "# options found in opts.h: $n; undocumented:$missing"
		echo "not ok $1 - $(basename "$2") documents every option"
	fi
}
check 2 "$page" 23 '^CONF_FMT?$' '^\.It Cm %s No = '
check 3 "${top_srcdir:-.}/man/pam_u2f.8" 25 '^CONF_(FMT?|MT)$' \
    '^\.It Cm %s\( \|$\|= \)'
