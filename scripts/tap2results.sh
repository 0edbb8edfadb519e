#!/bin/sh
# Usage: tap2results.sh PREFIX FILE.tap -- turn kselftest_harness TAP into
# "PASS|FAIL|SKIP name [detail]" lines.  6.1's skip lines carry no test name:
# it is taken from the preceding "#  OK|FAIL name" line.  6.12's do
# ("ok 2 f.b # SKIP reason"); an XFAIL is reported as a skip, never a pass.
set -eu
awk -v p="$1" '
	/^#[ \t]+(OK|FAIL)[ \t]+[^ \t]+$/ { last=$NF }
	/^ok [0-9]+ # SKIP/ { r=$0; sub(/^ok [0-9]+ # SKIP ?/, "", r); print "SKIP " p last " " r; n++; next }
	/^ok [0-9]+ [^#]* # (SKIP|XFAIL)/ {
		name=$0; sub(/^ok [0-9]+ /, "", name); sub(/ # .*/, "", name)
		r=$0; sub(/^[^#]* # /, "", r); print "SKIP " p name " " r; n++; next }
	/^ok [0-9]+ / { name=$0; sub(/^ok [0-9]+ /, "", name); print "PASS " p name; n++; next }
	/^not ok [0-9]+ / { name=$0; sub(/^not ok [0-9]+ /, "", name); sub(/ #.*/, "", name); print "FAIL " p name; n++; next }
	/^# exit=/ { rc=substr($0, 8) }
	END { if (n == 0) print "FAIL " p "(no TAP results, exit " rc ")"
	      else if (rc == 124) print "FAIL " p "(timed out)" }
' "$2"
