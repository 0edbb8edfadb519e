#!/bin/sh
# Guest side of boot 1 of the mce-reboot cases (scripts/check-reboot.sh):
# three corrected errors on CPU 1 through debugfs mce-inject (addrs 0x1111000,
# 0x2222000, 0x3333000), checked in perf record -a -e persistent/mce_record/;
# prints this boot's boot_id and release for boot 2 to compare.  Then:
#   panic   prints the marker "mce-before-reboot: ready for the fatal error"
#           and waits for the host's fatal machine check (vm.sh --mce-on),
#           which panics the guest: reaching the end is a failure;
#   reboot  reboots with "reboot -f", the reboot(2) system call (the
#           kernel's restart path, device shutdown and reboot notifiers
#           included): reaching the end is a failure.
# Prints "mce-before-reboot: ok" when the corrected errors were read back,
# else "mce-before-reboot: FAIL: ..." lines; in the panic case it goes on to
# the marker even then, so that boot 2 still runs on what this boot left.
set -u
INJ=/sys/kernel/debug/mce-inject
PERF=${PERF:-$(pwd)/build/perf/perf}
failed=0
fail() { echo "mce-before-reboot: FAIL: $*"; failed=1; }
case ${1:-} in panic | reboot) ;; *) fail "usage: mce-before-reboot.sh panic|reboot"; exit 1 ;; esac
echo "mce-before-reboot: boot_id $(cat /proc/sys/kernel/random/boot_id)"
echo "mce-before-reboot: release $(uname -r)"
[ -d "$INJ" ] || fail "$INJ missing (CONFIG_X86_MCE_INJECT, debugfs)"
for a in 0x1111000 0x2222000 0x3333000; do
	echo sw > $INJ/flags && echo 0x9c00000000000042 > $INJ/status &&
		echo $a > $INJ/addr && echo 0 > $INJ/misc && echo 1 > $INJ/cpu &&
		echo 4 > $INJ/bank || fail "injection of addr $a failed"
	# each logged (by the work item, on whichever CPU injected it) before
	# the next: their timestamps differ, so perf script's time order is
	# the injection order even across CPU buffers
	sleep 0.2
done
sleep 1
cd /tmp || exit 1
: > boot1.txt
if ! "$PERF" record -a -e persistent/mce_record/ -o boot1.data -- sleep 1 > boot1.err 2>&1; then
	cat boot1.err
	fail "perf record -e persistent/mce_record/ failed"
elif ! "$PERF" script -i boot1.data > boot1.txt 2>&1; then
	cat boot1.txt
	fail "perf script failed"
fi
for a in 1111000 2222000 3333000; do
	grep -q "ADDR: 0*$a," boot1.txt || fail "addr 0x$a not in perf script output ($(wc -l < boot1.txt) lines)"
done
dmesg | grep -iE 'persistent|reserve_mem' | grep -v 'ommand line' | sed 's/^/  dmesg: /'
if [ $failed = 0 ]; then
	echo "mce-before-reboot: ok, perf record read the 3 corrected errors:"
	grep -o 'MC4: [0-9a-f]*, .*ADDR: [0-9a-f]*,' boot1.txt | sed 's/, IPID: [0-9a-f]*//; s/^/  /'
else
	cut -c1-240 boot1.txt
fi
sync
if [ "$1" = reboot ]; then
	echo "mce-before-reboot: rebooting with reboot -f"
	reboot -f
	fail "reboot -f returned"
	exit 1
fi
echo "mce-before-reboot: ready for the fatal error"
sleep 120
fail "no fatal machine check came within 120 s of the marker"
exit 1
