#!/bin/sh
# Usage: kunit2results.sh KUNIT_LOG -- parse a kernel log holding KUnit
# KTAP output with the kernel's own kunit.py and print "PASS|FAIL|SKIP
# kunit/<suite>.<test>" lines (kunit.json and kunit.txt next to the log).
set -u
log=$(realpath "$1")
dir=$(dirname "$log")
if [ ! -s "$log" ]; then
	echo "FAIL kunit (no KUnit log: $log)"
	exit 0
fi
python3 build/linux/tools/testing/kunit/kunit.py parse --json="$dir/kunit.json" "$log" \
	> "$dir/kunit.txt" 2>&1
out=$(jq -r '.. | objects | select(has("test_cases")) | .name as $s | .test_cases[] |
	(if .status == "PASS" or .status == "SKIP" then .status else "FAIL" end) + " kunit/" + $s + "." + .name' \
	"$dir/kunit.json" 2>/dev/null) || { echo "FAIL kunit (kunit.py parse failed: $dir/kunit.txt)"; exit 0; }
[ -n "$out" ] || { echo "FAIL kunit (no KUnit results in $log)"; exit 0; }
echo "$out"
