#!/bin/sh
# Guest side of 'make demo': a corrected machine-check error logged before
# any tool runs is kept by the persistent mce_record event and read back
# with perf record + perf script.
set -u
PERF=$(pwd)/build/perf/perf
T=/sys/kernel/tracing
INJ=/sys/kernel/debug/mce-inject
P=/sys/bus/event_source/devices/persistent
say() { printf '\n== %s\n' "$*"; }
inject() { # STATUS ADDR BANK, on CPU 1
	printf 'sw\n' > $INJ/flags
	echo "$1" > $INJ/status
	echo "$2" > $INJ/addr
	echo 1 > $INJ/cpu
	echo "$3" > $INJ/bank
}

say "1. right after boot, before any tool runs: a corrected MCE (bank 4, status 0x8c00000000000151, addr 0xdead000, CPU 1)"
inject 0x8c00000000000151 0xdead000 4
sleep 1
echo "   nobody is listening: no perf, no tracing ($T/events/mce/mce_record/enable = $(cat $T/events/mce/mce_record/enable))"

say "2. guest kernel"
uname -r
echo "$(nproc) CPUs online; up $(cut -d' ' -f1 /proc/uptime)s"
dmesg | grep -m1 'Performance Events' | sed 's/^\[[^]]*\] */  /'
dmesg | grep -m1 -i 'persistent' | sed 's/^\[[^]]*\] */  /'

say "3. the sysfs files that make it possible"
for f in type format/persistent events/mce_record info/mce_record.id info/mce_record.buffer_size \
	info/mce_record.type info/mce_record.config info/mce_record.sample_type; do
	printf '  %-60s %s\n' "$P/$f" "$(cat "$P/$f" 2>/dev/null)"
done
echo "  perf list:"
$PERF list pmu 2>/dev/null | grep persistent | sed 's/^ */    /'

say "4. perf record -a -e persistent/mce_record/, with a second MCE (bank 5) while it runs"
(sleep 2; inject 0x8c00000000000152 0xbeef000 5) &
$PERF record -a -e persistent/mce_record/ -o /tmp/perf.data -- sleep 4 2>&1 | sed 's/^/  /'
wait

say "5. perf script: both errors, the one from before perf started first"
$PERF script -i /tmp/perf.data 2>/dev/null | sed 's/^ */  /' | cut -c1-200 > /tmp/script.txt
cat /tmp/script.txt
grep -q 'MC4: 8c00000000000151.*000000000dead000' /tmp/script.txt &&
	grep -q 'MC5: 8c00000000000152.*000000000beef000' /tmp/script.txt
