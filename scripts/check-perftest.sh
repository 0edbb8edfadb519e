#!/bin/sh
# Usage: check-perftest.sh RESULTS -- run the perf test cases named in
# tests/perf-tests.txt (user-space tests: on the host) with build/perf/perf
# and append one result line per test case.
set -u
res=$1
mkdir -p build/check/perftest
i=0
grep -v -e '^#' -e '^$' tests/perf-tests.txt | while IFS= read -r t; do
	i=$((i + 1))
	build/perf/perf test "$t" > "build/check/perftest/host-$i.txt" 2>&1
	sh scripts/perftest2results.sh "build/check/perftest/host-$i.txt" >> "$res"
done
