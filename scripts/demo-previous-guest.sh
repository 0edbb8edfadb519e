#!/bin/sh
# Guest side of 'make demo', second chapter, the boot after the panic: the
# previous boot's mce_record buffers, kept in the reserve_mem= region, are
# persistent/mce_record_previous/; perf reads both errors of that boot, the
# fatal one last; root then releases them (info/mce_record_previous.released).  Usage:
# demo-previous-guest.sh PREVIOUS_BOOT_ID
set -u
PERF=$(pwd)/build/perf/perf
P=/sys/bus/event_source/devices/persistent
say() { printf '\n== %s\n' "$*"; }

say "9. the guest booted again (boot_id $(cat /proc/sys/kernel/random/boot_id)); the previous boot was ${1:-?}"
if [ ! -e $P/events/mce_record_previous ]; then
	echo "   no $P/events/mce_record_previous: this kernel keeps no records across a reboot"
	exit 1
fi
for f in events/mce_record_previous info/mce_record_previous.boot_id \
	info/mce_record_previous.release info/mce_record_previous.kaslr_offset; do
	printf '  %-60s %s\n' "$P/$f" "$(cat "$P/$f" 2>/dev/null)"
done
say "10. perf record -a -e persistent/mce_record_previous/; perf script: the corrected error, then the fatal one"
$PERF record -a -e persistent/mce_record_previous/ -o /tmp/prev.data -- sleep 1 2>&1 | sed 's/^/  /'
$PERF script -i /tmp/prev.data 2>/dev/null | sed 's/^ */  /' | cut -c1-200 > /tmp/prev.txt
cat /tmp/prev.txt
grep -q 'MC4: 8c00000000000151.*000000000cafe000' /tmp/prev.txt &&
	tail -n 1 /tmp/prev.txt | grep -q 'MC4: b600000000000151.*000000000f00d000' || exit 1
R=$P/info/mce_record_previous.released
say "11. the region keeps that boot's records for the boots that follow until root releases them (a boot that crashes again erases nothing)"
printf '  %-60s %s\n' "$R" "$(cat $R)"
echo "  # echo 1 > $R   (saved elsewhere: gone from the next boot on)"
echo 1 > $R || exit 1
printf '  %-60s %s\n' "$R" "$(cat $R)"
[ "$(cat $R)" = 1 ]
