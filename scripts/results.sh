#!/bin/sh
# Usage: results.sh RESULTS KNOWN_FAILURES
# RESULTS: lines "PASS|FAIL|SKIP name [detail]".  KNOWN_FAILURES: lines
# "name reason" (# comments).  A listed test that fails is reported as a known
# failure, never as passed; a listed test that passes is a failure (update
# the list).  Prints a summary, ends with "N passed, N failed", exits 1 on any
# failure.
set -eu
awk '
	FNR == NR { if ($0 !~ /^#/ && NF) { k=$1; $1=""; known[k]=substr($0, 2) } next }
	{ st=$1; name=$2; d=$0; sub(/^[A-Z]+ [^ ]+ ?/, "", d) }
	st == "PASS" && (name in known) { printf "FAIL %s (listed as a known failure but passed: update the list)\n", name; f++; next }
	st == "PASS" { p++; next }
	st == "SKIP" { printf "SKIP %s %s\n", name, d; s++; next }
	st == "FAIL" && (name in known) { printf "KNOWN-FAIL %s: %s\n", name, known[name]; kf++; next }
	st == "FAIL" { printf "FAIL %s %s\n", name, d; f++; next }
	END {
		printf "%d skipped, %d known failures (not counted as passed)\n", s, kf
		printf "%d passed, %d failed\n", p, f
		exit (f > 0 || p == 0)
	}' "$2" "$1"
