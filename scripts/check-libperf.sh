#!/bin/sh
# Usage: check-libperf.sh RESULTS -- build and run libperf's own unit tests
# (tools/lib/perf/tests, 'make tests') on the host and append one result
# line per test file of the static run ("- running tests/test-X.c...OK").
# The series' test-mmap-persistent must pass; the upstream test-evlist needs
# counters this sandbox cannot read (also under the guest's TCG), so its
# failure is a reported SKIP, and the run stops at it (test-evsel never runs).
set -u
res=$1
out=build/check/libperf
mkdir -p "$out"
make -C build/linux/tools/lib/perf tests > "$out/tests.log" 2>&1
sed -n '/^running static:/,/^running dynamic:/p' "$out/tests.log" |
	sed -n 's/^- running tests\/\(test-[a-z0-9-]*\)\.c\.\.\.\(.*\)$/\1 \2/p' > "$out/results"
grep -q '^test-mmap-persistent ' "$out/results" ||
	echo "FAIL libperf/test-mmap-persistent (did not run, log: $out/tests.log)" >> "$res"
while read -r t rest; do
	case $t:$rest in
	*:OK) echo "PASS libperf/$t" ;;
	test-evlist:*) echo "SKIP libperf/$t (upstream test: cannot read counters here: $rest)" ;;
	*) echo "FAIL libperf/$t (log: $out/tests.log)" ;;
	esac
done < "$out/results" >> "$res"
