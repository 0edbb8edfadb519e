#!/bin/sh
# Usage: check-patches.sh RESULTS -- scripts/checkpatch.pl --strict on every
# patch of patches/series: zero errors, warnings and checks.  Exceptions: one
# "TYPE reason" a line in tests/checkpatch-exceptions.txt.
set -u
res=$1
LINUX=${LINUX:-build/linux}
top=$(pwd)
ignore=$(grep -v '^#' tests/checkpatch-exceptions.txt | awk 'NF {print $1}' | paste -sd, -)
# the SPDX check must work: a known identifier passes without a word
if ! o=$(cd "$LINUX" && echo GPL-2.0 | PATH=/usr/bin:$PATH scripts/spdxcheck.py - 2>&1) || [ -n "$o" ]; then
	echo "FAIL checkpatch/spdxcheck (scripts/spdxcheck.py does not run: $(echo "$o" | tail -n 1))" >> "$res"
fi
n=0
for p in $(grep -v -e '^#' -e '^$' patches/series); do
	n=$((n + 1))
	# checkpatch misreads patch context unless it runs from the tree's top.
	# Its SPDX check runs python3 with ply (python3-ply): Debian's python3,
	# not one earlier in PATH without it (a traceback there is no pass).
	out=$(cd "$LINUX" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		${ignore:+--ignore "$ignore"} "$top/patches/$p" 2>&1)
	if echo "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks' &&
		! echo "$out" | grep -q '^Traceback'; then
		echo "PASS checkpatch/$p" >> "$res"
	else
		echo "FAIL checkpatch/$p $(echo "$out" | grep '^total:')$(echo "$out" | grep -q '^Traceback' && echo ', spdxcheck traceback')" >> "$res"
		echo "$out" | grep -E '^(ERROR|WARNING|CHECK|#)' | head -n 20
	fi
done
[ $n -gt 0 ] || echo "SKIP checkpatch (patches/series is empty)" >> "$res"
