#!/bin/sh
# Guest side of the boot after the host flipped a byte of the record of
# addr 0x2222000 in the reserved region (make compare-ftrace, row 5;
# scripts/compare-ftrace.sh makes it addr 0x2dd2000).
# Usage: after-damage.sh ftrace:DIR | perf:EVENT
# Prints which of the three records of the boot before are shown (0x1111000,
# 0x2222000, 0x3333000), whether the damaged one is shown with its wrong
# addr, the records reported lost (perf: PERF_RECORD_LOST) and what the
# kernel log says about the buffer.
set -u
READER=$1
. "$(dirname "$0")/lib.sh"
P=/sys/bus/event_source/devices/persistent
if [ "$KIND" = perf ] && [ ! -e "$P/events/$SRC" ]; then
	say "row5 no-event $SRC"
else
	snapshot row5
	lost=$(sed -n 's/.*PERF_RECORD_LOST lost \([0-9]*\).*/\1/p' $W/row5.raw | awk '{ s += $1 } END { print s + 0 }')
	say "row5 shown $(count $W/row5 0x1111000 1) $(count $W/row5 0x2222000 1) $(count $W/row5 0x3333000 1) wrong $(count $W/row5 0x2dd2000 1) lost $lost"
	grep -E '2222000|2dd2000|LOST' $W/row5.raw | cut -c1-200 | sed 's/^/  /'
fi
dmesg | grep -iE 'ring buffer|boot instance|perf/persistent' | grep -v 'ommand line' |
	sed 's/^\[[^]]*\] //' > $W/log
sed 's/^/  dmesg: /' $W/log
# what the kernel said about the damage: a line that is not about setting up
say "row5 log $(grep -viE 'mapped boot instance|is from previous boot|mismatch of magic|ordinary memory|holds [0-9]+ boots' $W/log | head -n 1)"
