#!/bin/sh
# Usage: perftest2results.sh FILE -- turn 'perf test' output into
# "PASS|FAIL|SKIP perftest/<description>" lines.
set -eu
awk '
	/: (Ok|FAILED!|Skip)/ {
		line=$0; sub(/^ *[0-9.]+: /, "", line)
		st=line; sub(/.*: /, "", st)
		name=line; sub(/ *:[^:]*$/, "", name); gsub(/[ \/]+/, "_", name)
		if (st ~ /^Ok/) print "PASS perftest/" name
		else if (st ~ /^Skip/) { r=st; sub(/^Skip ?/, "", r); print "SKIP perftest/" name " " r }
		else print "FAIL perftest/" name
		n++
	}
	END { if (!n) print "FAIL perftest/(no result in " FILENAME ")" }' "$1"
