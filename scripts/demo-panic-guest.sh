#!/bin/sh
# Guest side of 'make demo', second chapter, first boot (booted with the
# mce_record buffers in a reserve_mem= region): a corrected error before any
# tool runs, perf reads it, then the marker on which the host injects a
# fatal machine check (vm.sh --mce-on) that panics this guest.
set -u
PERF=$(pwd)/build/perf/perf
INJ=/sys/kernel/debug/mce-inject
say() { printf '\n== %s\n' "$*"; }

say "6. a new boot, the mce_record buffers in reserved memory ($(grep -o 'reserve_mem=[^ ]*' /proc/cmdline) $(grep -o 'mce=persistent_mem=[^ ]*' /proc/cmdline))"
echo "   boot_id $(cat /proc/sys/kernel/random/boot_id), $(uname -r)"
say "7. before any tool runs: a corrected MCE (bank 4, status 0x8c00000000000151, addr 0xcafe000, CPU 1); perf reads it"
printf 'sw\n' > $INJ/flags
echo 0x8c00000000000151 > $INJ/status
echo 0xcafe000 > $INJ/addr
echo 1 > $INJ/cpu
echo 4 > $INJ/bank
sleep 1
$PERF record -a -e persistent/mce_record/ -o /tmp/perf.data -- sleep 1 2>&1 | sed 's/^/  /'
$PERF script -i /tmp/perf.data 2>/dev/null | sed 's/^ */  /' | cut -c1-200
sync
say "8. a fatal machine check: the host injects it now (QEMU monitor: mce 1 4 0xb600000000000151 0x5 0xf00d000 0)"
sleep 120
echo "   no machine check came"
exit 1
