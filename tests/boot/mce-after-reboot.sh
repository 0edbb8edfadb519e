#!/bin/sh
# Guest side of boot 2 of the mce-reboot cases (scripts/check-reboot.sh),
# booted on the RAM boot 1 left: the previous boot's mce_record buffers are
# offered as persistent/mce_record_previous/.  Checks
#   - info/mce_record_previous.* has boot_id (= BOOT_ID, boot 1's), release
#     (= RELEASE), kaslr_offset (mode 0400) and released (0644), and
#     buffer_size 4096 (the few records of
#     boot 1 take a page per CPU, not the 64K of mce_record);
#   - perf record -a -e persistent/mce_record_previous/ + perf script show
#     boot 1's corrected errors (addrs 0x1111000, 0x2222000, 0x3333000) in
#     that order, and, when FATAL_ADDR is given (panic case), the fatal error
#     last; without it, no 0x4444000;
#   - perf script --header-only of that perf.data names the event and
#     boot 1 (boot_id, release, kaslr_offset);
#   - perf record -a -e persistent/mce_record/ (this boot) shows none of them,
#     and perf report --header-only says its records are of the boot perf
#     recorded in.
# Usage: mce-after-reboot.sh BOOT_ID RELEASE [FATAL_ADDR]
# Environment: EVENT, the event that holds boot 1's records (default
# mce_record_previous; mce_record_previous_2 for the boot before it).
# Prints "mce-after-reboot: ok" on success, else "mce-after-reboot: FAIL: ..."
set -u
PERF=${PERF:-$(pwd)/build/perf/perf}
P=/sys/bus/event_source/devices/persistent
EV=${EVENT:-mce_record_previous}
I=$P/info/$EV
fail() { echo "mce-after-reboot: FAIL: $*"; exit 1; }
[ $# -ge 2 ] || fail "usage: mce-after-reboot.sh BOOT_ID RELEASE [FATAL_ADDR]"
boot_id=$1 release=$2 fatal=${3:-}
echo "mce-after-reboot: this boot_id $(cat /proc/sys/kernel/random/boot_id), previous $boot_id"
echo "mce-after-reboot: $P/events: $(ls $P/events 2>&1 | tr '\n' ' ')"
dmesg | grep -iE 'persistent|reserve_mem|previous boot|mce:|not online' | grep -v 'ommand line' | sed 's/^/  dmesg: /'
[ -e $P/events/mce_record ] || fail "no persistent mce_record event"
[ -e $P/events/$EV ] ||
	fail "no $P/events/$EV: the previous boot's records are not offered"
for f in boot_id release kaslr_offset; do
	[ -r $I.$f ] || fail "no $I.$f"
	echo "mce-after-reboot: $I.$f: $(cat $I.$f)"
done
# modes: the KASLR offset is root's, root releases the boot, the rest 0444
for fm in boot_id:444 release:444 kaslr_offset:400 released:644 buffer_size:444; do
	m=$(stat -c %a "$I.${fm%:*}" 2>&1)
	[ "$m" = "${fm#*:}" ] || fail "$I.${fm%:*}: mode $m, expected ${fm#*:}"
done
[ "$(cat $I.boot_id)" = "$boot_id" ] ||
	fail "$I.boot_id is $(cat $I.boot_id), boot 1 printed $boot_id"
[ "$(cat $I.release)" = "$release" ] ||
	fail "$I.release is $(cat $I.release), boot 1 ran $release"
grep -qE '^(0x)?[0-9a-fA-F]+$' $I.kaslr_offset || fail "$I.kaslr_offset is not a number: $(cat $I.kaslr_offset)"
# a few records: the copy is sized to what it holds, one page, not a buffer
size=$(cat $I.buffer_size)
echo "mce-after-reboot: $I.buffer_size: $size (mce_record: $(cat $P/info/mce_record.buffer_size))"
[ "$size" = 4096 ] || fail "$I.buffer_size is $size, expected 4096 for a few records"

cd /tmp || exit 1
# addrs FILE: the ADDR field of each record, in perf script's (time) order
addrs() { sed -n 's/.*ADDR: 0*\([0-9a-f]*\),.*/\1/p' "$1"; }
"$PERF" record -a -e persistent/$EV/ -o prev.data -- sleep 1 > prev.err 2>&1 ||
	{ cat prev.err; fail "perf record -e persistent/$EV/ failed"; }
"$PERF" script -i prev.data > prev.txt 2>&1 || { cat prev.txt; fail "perf script -i prev.data failed"; }
echo "mce-after-reboot: perf script of $EV:"
cut -c1-240 prev.txt | sed 's/^/  /'
want="1111000 2222000 3333000${fatal:+ ${fatal#0x}}"
got=$(addrs prev.txt | grep -E '^(1111000|2222000|3333000|4444000)$' | tr '\n' ' ')
[ "${got% }" = "$want" ] || fail "previous boot's records by time: addrs '${got% }', expected '$want'"
if [ -n "$fatal" ]; then
	[ "$(addrs prev.txt | tail -n 1)" = "${fatal#0x}" ] ||
		fail "the fatal error (addr $fatal) is not the last record"
	grep "ADDR: 0*${fatal#0x}," prev.txt | grep -q 'MC4: b600000000000151' ||
		fail "the fatal error's record does not show bank 4 status b600000000000151"
fi
# perf.data says which boot the records come from (HEADER_PERSISTENT)
"$PERF" script --header-only -i prev.data > prev.hdr 2>&1 ||
	{ cat prev.hdr; fail "perf script --header-only -i prev.data failed"; }
grep '^# persistent event' prev.hdr | sed 's/^/  /'
hdr="# persistent event : name = $EV, records of an earlier boot: boot_id = $boot_id, release = $release, kaslr_offset = $(cat $I.kaslr_offset)"
grep -qxF "$hdr" prev.hdr || fail "perf script --header-only of $EV: no line '$hdr'"
"$PERF" record -a -e persistent/mce_record/ -o cur.data -- sleep 1 > cur.err 2>&1 ||
	{ cat cur.err; fail "perf record -e persistent/mce_record/ failed"; }
"$PERF" script -i cur.data > cur.txt 2>&1 || { cat cur.txt; fail "perf script -i cur.data failed"; }
"$PERF" report --header-only -i cur.data > cur.hdr 2>&1 ||
	{ cat cur.hdr; fail "perf report --header-only -i cur.data failed"; }
grep -qxF "# persistent event : name = mce_record, records of the boot perf recorded in" cur.hdr ||
	{ grep '^# persistent' cur.hdr; fail "perf report --header-only of mce_record: no persistent event line for this boot"; }
if addrs cur.txt | grep -qE '^(1111000|2222000|3333000|4444000)$'; then
	cut -c1-240 cur.txt
	fail "this boot's mce_record shows the previous boot's errors"
fi
echo "mce-after-reboot: ok, $(wc -l < prev.txt) previous records, $(wc -l < cur.txt) in this boot's mce_record"
