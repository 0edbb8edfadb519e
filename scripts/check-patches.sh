#!/bin/sh
# Usage: check-patches.sh RESULTS -- scripts/checkpatch.pl --strict on every
# patch of patches/series: zero errors, warnings and checks.  Exceptions: one
# "TYPE reason" a line in tests/checkpatch-exceptions.txt.
#
# One checkpatch run a patch: in a run over several files checkpatch keeps
# state from one file to the next (CamelCase words seen, the corrupt-patch
# error), so a patch could pass there and fail alone.  A patch that passed
# is remembered (build/cache/checkpatch) by the hash of the patch and of
# everything else its result depends on: this script, the exceptions, the
# base, the tree's checkpatch and its tables, MAINTAINERS, LICENSES,
# include/ and the files the patch touches (CamelCase names are read from
# them), and the tree's uncommitted changes; so a change to one patch
# checks that patch again, not all of them.  A patch that failed is checked
# every time, and nothing is remembered in a run where the SPDX check does
# not work.
set -u
res=$1
LINUX=${LINUX:-build/linux}
top=$(pwd)
ignore=$(grep -v '^#' tests/checkpatch-exceptions.txt | awk 'NF {print $1}' | paste -sd, -)
C=build/cache/checkpatch
mkdir -p "$C"
keep=1
# the SPDX check must work: a known identifier passes without a word
if ! o=$(cd "$LINUX" && echo GPL-2.0 | PATH=/usr/bin:$PATH scripts/spdxcheck.py - 2>&1) || [ -n "$o" ]; then
	echo "FAIL checkpatch/spdxcheck (scripts/spdxcheck.py does not run: $(echo "$o" | tail -n 1))" >> "$res"
	keep=0
fi
# what every patch's result depends on besides the patch and its files
ids=$(git -C "$LINUX" rev-parse "base^{tree}" HEAD:scripts/checkpatch.pl HEAD:scripts/spelling.txt \
	HEAD:scripts/const_structs.checkpatch HEAD:MAINTAINERS HEAD:LICENSES HEAD:include) &&
	dirty=$(git -C "$LINUX" status --porcelain --untracked-files=no) || keep=0
ctx=$( (cat "$0"; echo "$ignore"; echo "${ids:-}"; echo "${dirty:-}") | sha1sum)
# key P: the name patch P's pass is remembered under
key() {
	(cat "patches/$1"; echo "$ctx"
	sed -n 's|^+++ b/||p' "patches/$1" | sort -u |
		while read -r f; do git -C "$LINUX" rev-parse -q --verify "HEAD:$f" || echo "no $f"; done) |
		sha1sum | cut -c1-40
}
n=0
for p in $(grep -v -e '^#' -e '^$' patches/series); do
	n=$((n + 1))
	k=$(key "$p")
	if [ -e "$C/$k" ]; then
		echo "PASS checkpatch/$p" >> "$res"
		continue
	fi
	# checkpatch misreads patch context unless it runs from the tree's top.
	# Its SPDX check runs python3 with ply (python3-ply): Debian's python3,
	# not one earlier in PATH without it (a traceback there is no pass).
	out=$(cd "$LINUX" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		${ignore:+--ignore "$ignore"} "$top/patches/$p" 2>&1)
	if echo "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks' &&
		! echo "$out" | grep -q '^Traceback'; then
		echo "PASS checkpatch/$p" >> "$res"
		[ $keep = 0 ] || : > "$C/$k"
	else
		echo "FAIL checkpatch/$p $(echo "$out" | grep '^total:')$(echo "$out" | grep -q '^Traceback' && echo ', spdxcheck traceback')" >> "$res"
		echo "$out" | grep -E '^(ERROR|WARNING|CHECK|#)' | head -n 20
	fi
done
[ $n -gt 0 ] || echo "SKIP checkpatch (patches/series is empty)" >> "$res"
