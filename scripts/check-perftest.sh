#!/bin/sh
# Usage: check-perftest.sh RESULTS -- run the perf test suites named in
# tests/perf-tests.txt (user-space tests: on the host) with build/perf/perf
# and append one result line per test case.
set -u
res=$1
PERF=build/perf/perf
mkdir -p build/check
grep -v -e '^#' -e '^$' tests/perf-tests.txt | while IFS= read -r t; do
	out=$("$PERF" test "$t" 2>&1)
	echo "$out" > "build/check/perftest-$(echo "$t" | tr ' /' '__').log"
	echo "$out" | awk '
		/: (Ok|FAILED!|Skip)/ {
			line=$0; sub(/^ *[0-9.]+: /, "", line)
			st=line; sub(/.*: /, "", st)
			name=line; sub(/ *:[^:]*$/, "", name); gsub(/[ \/]+/, "_", name)
			if (st ~ /^Ok/) print "PASS perftest/" name
			else if (st ~ /^Skip/) { r=st; sub(/^Skip ?/, "", r); print "SKIP perftest/" name " " r }
			else print "FAIL perftest/" name
			n++
		}
		END { if (!n) print "FAIL perftest/(no result for test)" }' >> "$res"
done
