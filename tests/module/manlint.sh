#!/bin/sh
# Lint man/pam_u2f.8 with mandoc (skipped when mandoc is missing).
page="${top_srcdir:-.}/man/pam_u2f.8"
if ! command -v mandoc >/dev/null 2>&1; then
	echo "1..0 # SKIP mandoc not installed"
	exit 0
fi
echo "1..2"
# RETURN VALUES is required for a PAM module's page (the PAM code table)
# although mandoc expects it in sections 2, 3 and 9 only.
out=$(mandoc -T lint -W warning "$page" 2>&1 |
	grep -v 'unexpected section: Sh RETURN VALUES')
if [ -z "$out" ]; then
	echo "ok 1 - mandoc -T lint pam_u2f.8"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - mandoc -T lint pam_u2f.8"
fi
missing=""
for s in NAME SYNOPSIS DESCRIPTION OPTIONS FILES "RETURN VALUES" EXAMPLES \
    "SECURITY CONSIDERATIONS" "SEE ALSO"; do
	grep -q "^\.Sh $s\$" "$page" || missing="$missing $s"
done
if [ -z "$missing" ]; then
	echo "ok 2 - pam_u2f.8 has every section"
else
	echo "# missing:$missing"
	echo "not ok 2 - pam_u2f.8 has every section"
fi
