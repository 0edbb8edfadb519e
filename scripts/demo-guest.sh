#!/bin/sh
# Guest side of 'make demo'.
set -u
say() { printf '\n== %s\n' "$*"; }
say "guest kernel"
uname -r
echo "$(nproc) CPUs online; up $(cut -d' ' -f1 /proc/uptime)s"
dmesg | grep -m1 'Performance Events' | sed 's/^\[[^]]*\] */  /'

say "perf PMUs in /sys/bus/event_source/devices"
for d in /sys/bus/event_source/devices/*; do
	printf '  %-12s type %s\n' "${d##*/}" "$(cat "$d/type")"
done

say "a corrected machine-check error, injected through /sys/kernel/debug/mce-inject"
T=/sys/kernel/tracing
INJ=/sys/kernel/debug/mce-inject
echo 1 > $T/events/mce/mce_record/enable
printf 'sw\n' > $INJ/flags
echo 0x8c00000000000151 > $INJ/status
echo 0xdead000 > $INJ/addr
echo 1 > $INJ/cpu
echo "  bank 4, status 0x8c00000000000151, addr 0xdead000, on CPU 1"
echo 4 > $INJ/bank
sleep 1
say "what the mce:mce_record tracepoint saw"
grep mce_record $T/trace | sed 's/^ */  /'
grep -q 'MC4: 8c00000000000151' $T/trace
