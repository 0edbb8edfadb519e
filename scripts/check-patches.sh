#!/bin/sh
# Usage: check-patches.sh RESULTS -- scripts/checkpatch.pl --strict on every
# patch of patches/series: zero errors, warnings and checks.  Exceptions: one
# "TYPE reason" a line in tests/checkpatch-exceptions.txt.
#
# One checkpatch run takes every patch (it prints each file's report under
# a header with its name): perl's start, the spelling and API tables and
# get_maintainer.pl's answer for each file are then paid once, not once a
# patch (65 patches: 57 s of CPU, against 125 s one run a patch).  Each
# file's report is the same as in a run of its own, except that a CamelCase
# word is reported at its first patch only.
#
# A patch that passed is remembered (build/cache/checkpatch, by the hash of
# the patch and of everything else checkpatch reads for it: the exception
# list, the base, and the tree's checkpatch, its tables, MAINTAINERS,
# LICENSES and include/), so a change to one patch checks that patch
# again, not all of them.  A patch that failed is checked every time.
set -u
res=$1
LINUX=${LINUX:-build/linux}
top=$(pwd)
ignore=$(grep -v '^#' tests/checkpatch-exceptions.txt | awk 'NF {print $1}' | paste -sd, -)
# the SPDX check must work: a known identifier passes without a word
if ! o=$(cd "$LINUX" && echo GPL-2.0 | PATH=/usr/bin:$PATH scripts/spdxcheck.py - 2>&1) || [ -n "$o" ]; then
	echo "FAIL checkpatch/spdxcheck (scripts/spdxcheck.py does not run: $(echo "$o" | tail -n 1))" >> "$res"
fi
list=$(grep -v -e '^#' -e '^$' patches/series)
if [ -z "$list" ]; then
	echo "SKIP checkpatch (patches/series is empty)" >> "$res"
	exit 0
fi
C=build/cache/checkpatch
mkdir -p "$C"
ctx=$( (cat tests/checkpatch-exceptions.txt
	git -C "$LINUX" rev-parse base HEAD:scripts/checkpatch.pl HEAD:scripts/spelling.txt \
		HEAD:scripts/const_structs.checkpatch HEAD:MAINTAINERS HEAD:LICENSES HEAD:include
	) | sha1sum | cut -c1-40)
# key P: the name patch P's pass is remembered under
key() { cat "patches/$1" | (cat; echo "$ctx") | sha1sum | cut -c1-40; }
todo=
for p in $list; do
	[ -e "$C/$(key "$p")" ] || todo="$todo $p"
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# checkpatch misreads patch context unless it runs from the tree's top.
# Its SPDX check runs python3 with ply (python3-ply): Debian's python3, not
# one earlier in PATH without it (a traceback there is no pass).
# shellcheck disable=SC2046
[ -z "$todo" ] || (cd "$LINUX" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
	${ignore:+--ignore "$ignore"} $(printf "$top/patches/%s\n" $todo)) > "$out" 2>&1
n=$(echo $todo | wc -w)
# report P: patch P's part of the output (all of it when there is one patch)
report() {
	if [ "$n" = 1 ]; then
		cat "$out"
	else
		awk -v d="$top/patches/" -v f="$top/patches/$1" '
			prev ~ /^-+$/ && index($0, d) == 1 { on = $0 == f }
			on { print }
			{ prev = $0 }' "$out"
	fi
}
for p in $list; do
	case " $todo " in
	*" $p "*) ;;
	*) echo "PASS checkpatch/$p" >> "$res"; continue ;;
	esac
	r=$(report "$p")
	if echo "$r" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "PASS checkpatch/$p" >> "$res"
		: > "$C/$(key "$p")"
	else
		echo "FAIL checkpatch/$p $(echo "$r" | grep '^total:' || echo 'no report')" >> "$res"
		echo "$r" | grep -E '^(ERROR|WARNING|CHECK|#)' | head -n 20
	fi
done
# a traceback (stderr: its place among the reports is not known) fails it all
if grep -q '^Traceback' "$out"; then
	echo "FAIL checkpatch/spdxcheck (a traceback while checkpatch ran: $(grep -m1 -A3 '^Traceback' "$out" | tail -n 1))" >> "$res"
fi
