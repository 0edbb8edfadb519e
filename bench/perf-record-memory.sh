#!/bin/sh
# Usage (in the guest): perf-record-memory.sh PERF_BEFORE PERF_AFTER
# The memory of perf record -a -e persistent/mce_record/ reading full
# buffers, for two perf binaries side by side in one boot: N corrected
# errors (default 7200, enough to fill two 512 KiB buffers) are injected
# with mce-inject first, then each perf records for 7 s, three times, and
# its VmRSS and VmHWM (peak) are read from /proc after 6 s, once it has
# read the buffers.  Prints a table, KiB.
set -u
[ $# = 2 ] || { echo "usage: $0 PERF_BEFORE PERF_AFTER" >&2; exit 2; }
INJ=/sys/kernel/debug/mce-inject
D=/sys/bus/event_source/devices/persistent/info/mce_record
size=$(cat $D.buffer_size) || { echo "no mce_record persistent event" >&2; exit 1; }
i=1
while [ $i -le "${N:-7200}" ]; do
	echo sw > $INJ/flags && echo 0x9c00000000000042 > $INJ/status &&
		printf '0x%x\n' $((0x5e000 + i)) > $INJ/addr && echo 0 > $INJ/misc &&
		echo $((i % 2)) > $INJ/cpu && echo 1 > $INJ/bank ||
		{ echo "injection $i failed" >&2; exit 1; }
	i=$((i + 1))
done
sleep 2
cd /tmp || exit 1
# mem PERF OUT: "VmRSS VmHWM" of PERF recording for 7 s, read after 6 s
mem() {
	"$1" record -q -a -e persistent/mce_record/ -o "$2" -- sleep 7 > /dev/null 2>&1 &
	pid=$!
	sleep 6
	r=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$pid/status)
	h=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$pid/status)
	wait $pid || echo "$1 record failed" >&2
	echo "$r $h"
}
echo "perf record -a -e persistent/mce_record/, buffer_size $size, 2 CPUs; KiB"
printf '%-4s %-12s %-12s %-12s %-12s\n' run before-RSS before-peak after-RSS after-peak
for r in 1 2 3; do
	b=$(mem "$1" before.data)
	a=$(mem "$2" after.data)
	printf '%-4s %-12s %-12s %-12s %-12s\n' $r $b $a
done
echo "records: before $("$2" script -i before.data 2>/dev/null | wc -l), after $("$2" script -i after.data 2>/dev/null | wc -l)"
