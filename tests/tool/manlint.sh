#!/bin/sh
# Lint man/pamu2fcfg.1 with mandoc (skipped when mandoc is missing) and
# check that it has every section the tool's page promises.
page="${top_srcdir:-.}/man/pamu2fcfg.1"
if ! command -v mandoc >/dev/null 2>&1; then
	echo "1..0 # SKIP mandoc not installed"
	exit 0
fi
echo "1..2"
out=$(mandoc -T lint -W warning "$page" 2>&1)
if [ -z "$out" ]; then
	echo "ok 1 - mandoc -T lint pamu2fcfg.1"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - mandoc -T lint pamu2fcfg.1"
fi
missing=""
for s in NAME SYNOPSIS DESCRIPTION OPTIONS "OUTPUT FORMAT" FILES \
    "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	grep -q "^\.Sh $s\$" "$page" || missing="$missing $s"
done
if [ -z "$missing" ]; then
	echo "ok 2 - pamu2fcfg.1 has every section"
else
	echo "# missing:$missing"
	echo "not ok 2 - pamu2fcfg.1 has every section"
fi
