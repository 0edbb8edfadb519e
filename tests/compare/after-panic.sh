#!/bin/sh
# Guest side of the boot after the fatal machine check of make
# compare-ftrace (scripts/compare-ftrace.sh), on the RAM the first boot
# left (vm.sh --ram-file).
# Usage: after-panic.sh ftrace:DIR | perf:EVENT [damage]
#   row4  a reader of what the first boot left (ftrace: the instance's
#         trace file; perf: EVENT, mce_record_previous): the fatal error
#         (bank 4, status b600000000000151, addr 0x4444000), is it there,
#         and last?  And how many of the first boot's records are there?
#   damage  then three errors (addrs 0x1111000, 0x2222000, 0x3333000) on
#         CPU 0 for the host to damage in the RAM file (row 5), and
#         reboot -f.
set -u
READER=$1
. "$(dirname "$0")/lib.sh"
taskset -p -c 0 $$ > /dev/null || say "error: taskset failed"
P=/sys/bus/event_source/devices/persistent
if [ "$KIND" = perf ] && [ ! -e "$P/events/$SRC" ]; then
	say "row4 no-event $SRC ($(ls $P/events | tr '\n' ' '))"
else
	snapshot row4
	fatal=$(grep -c '^b600000000000151 4444000$' $W/row4)
	last=no
	[ "$(tail -n 1 $W/row4)" = 'b600000000000151 4444000' ] && last=yes
	first=$(($(count $W/row4 0x5e001 400) + $(count $W/row4 0x3d001 20) + $(count $W/row4 0x3e001 20) + $(grep -c '^9000000000000000 0$' $W/row4)))
	say "row4 fatal $fatal last $last first-boot $first of $(wc -l < $W/row4)"
fi
dmesg | grep -iE 'ring buffer|boot instance|persistent|previous boot' | grep -v 'ommand line' | sed 's/^/  dmesg: /'
[ "${2:-}" = damage ] || exit 0
for a in 0x1111000 0x2222000 0x3333000; do
	inject $a
	sleep 0.2
done
sleep 1
if [ "$KIND" = ftrace ]; then
	snapshot damage
	say "damage records written $(count $W/damage 0x1111000 1) $(count $W/damage 0x2222000 1) $(count $W/damage 0x3333000 1)"
fi
sync
say "rebooting"
reboot -f
