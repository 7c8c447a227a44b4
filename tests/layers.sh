#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The layers of common/ point one way. Reads every #include "..." of the
# code under common/, pam_u2f/, pamu2fcfg/ and ldap/ and fails (TAP "not ok") on
#   - an include of a folder that the including folder may not use
#     (the table below: each layer names the layers under it);
#   - a cycle between modules (x.c/x.h/x_int.h are module x), found by
#     tsort over "includer -> included" pairs.
# Usage: tests/layers.sh [SRCDIR]  (default: $top_srcdir or .)
top=${1:-${top_srcdir:-.}}
cd "$top" || exit 1

# The helpers set a variable rather than print (a $(...) per include
# forked a shell each: 13 s of CPU for the tree).
allowed() {	# allowed FOLDER: ok = the folders FOLDER may include
	case $1 in
	base) ok="base" ;;
	crypto | conf | transport) ok="base $1" ;;
	ssh) ok="base crypto ssh" ;;
	mapping) ok="base ssh mapping" ;;
	proto) ok="base crypto transport proto" ;;
	device) ok="base crypto transport proto device" ;;
	auth) ok="base crypto ssh transport proto device auth" ;;
	policy) ok="base crypto conf transport proto policy" ;;
	pam_u2f | pamu2fcfg) ok="base crypto ssh mapping conf transport proto device auth policy $1" ;;
	ldap) ok="base conf ldap" ;;
	*) ok="" ;;
	esac
}

files=$(find common pam_u2f pamu2fcfg ldap -name '*.[ch]' | LC_ALL=C sort)
n=0
bad=0
edges=$(mktemp) || exit 1
trap 'rm -f "$edges"' EXIT

# folder_of FILE: fo = its folder: common/X/... -> X, pam_u2f/... -> pam_u2f
folder_of() {
	case $1 in
	common/*/*) fo=${1#common/}; fo=${fo%%/*} ;;
	*) fo=${1%%/*} ;;
	esac
}
# module_of PATH: mo = the name less folder, extension and _int suffix
module_of() {
	mo=${1##*/}
	mo=${mo%.[ch]}
	mo=${mo%_int}
}

for f in $files; do
	folder_of "$f"
	from=$fo
	allowed "$from"
	if [ -z "$ok" ]; then
		echo "not ok - $f: folder '$from' has no place in the layer table"
		bad=$((bad + 1))
		continue
	fi
	dir=${f%/*}
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		[ "$inc" = config.h ] && continue
		if [ -f "$dir/$inc" ]; then
			target="$dir/$inc"
		elif [ -f "common/$inc" ]; then
			target="common/$inc"
		else
			echo "not ok - $f: includes \"$inc\", found in neither $dir nor common/"
			bad=$((bad + 1))
			continue
		fi
		folder_of "$target"
		to=$fo
		case " $ok " in
		*" $to "*) ;;
		*)
			echo "not ok - $f: upward include of $target ('$from' may use only: $ok)"
			bad=$((bad + 1))
			;;
		esac
		module_of "$f"
		fm="$from/$mo"
		module_of "$target"
		tm="$to/$mo"
		[ "$fm" = "$tm" ] || echo "$tm $fm" >>"$edges"
	done
	n=$((n + 1))
done
if [ "$bad" -eq 0 ]; then
	echo "ok 1 - every include of $n files points down the layer table"
else
	echo "not ok 1 - $bad include(s) break the layer table"
fi
if cyc=$(tsort "$edges" 2>&1 >/dev/null) && [ -z "$cyc" ]; then
	echo "ok 2 - no cycle between modules"
else
	echo "not ok 2 - a cycle between modules:"
	echo "$cyc" | sed 's/^/#   /'
	bad=$((bad + 1))
fi
echo "1..2"
[ "$bad" -eq 0 ]
