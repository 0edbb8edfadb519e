#!/bin/sh
# Usage: check-harness.sh RESULTS -- run tests/harness/*.sh (exit 0 = pass)
# and append one result line each.
set -u
res=$1
mkdir -p build/check/harness
for t in tests/harness/*.sh; do
	n=$(basename "$t" .sh)
	if sh "$t" > "build/check/harness/$n.log" 2>&1; then
		echo "PASS harness/$n" >> "$res"
	else
		echo "FAIL harness/$n (log: build/check/harness/$n.log)" >> "$res"
		tail -n 5 "build/check/harness/$n.log" | sed 's/^/  | /'
	fi
done
