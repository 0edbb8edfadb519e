#!/bin/sh
# make demo: boot the patched kernel and tell the product's story; then its
# second chapter: records kept across a machine-check panic (two boots on one
# RAM file, as a warm reboot keeps RAM).
set -u
echo "[$(date +%H:%M:%S)] booting the guest (QEMU $(cat build/vm/accel 2>/dev/null || echo auto), 2 CPUs, host / read-only over 9p)"
t0=$(date +%s)
rc=0
sh scripts/vm.sh --timeout 300 --out build/vm/demo -- sh scripts/demo-guest.sh || rc=$?
echo "[$(date +%H:%M:%S)] guest finished in $(( $(date +%s) - t0 ))s, exit status $rc"

A="reserve_mem=1M:4096:mce mce=persistent_mem=mce mce=persistent=64K panic=1"
MARK='== 8. a fatal machine check'
D=build/vm/demo-reboot
rm -rf "$D"; mkdir -p "$D"
RAM=$D/ram.img
trap 'rm -f "$RAM"' EXIT
echo
echo "[$(date +%H:%M:%S)] booting the guest again, with: $A"
t0=$(date +%s)
rc1=0
sh scripts/vm.sh --timeout 300 --mem 512 --ram-file "$RAM" --append "$A" --out "$D/panic" \
	--mce-on "$MARK" '1 4 0xb600000000000151 0x5 0xf00d000 0' -- sh scripts/demo-panic-guest.sh \
	2> "$D/panic.err" || rc1=$?
echo "   the guest's console:"
grep -E 'Machine Check Exception|Processor Context Corrupt|Kernel panic' "$D/panic/console.log" |
	sed 's/^\[[^]]*\] */     /'
if [ "$rc1" = 255 ] && grep -q 'Kernel panic - not syncing: Fatal .*machine check' "$D/panic/console.log"; then
	echo "[$(date +%H:%M:%S)] the guest died in the machine-check panic $(( $(date +%s) - t0 ))s after the boot started (vm.sh exit 255, as expected)"
else
	echo "[$(date +%H:%M:%S)] the guest did not die in a machine-check panic (vm.sh exit $rc1):"
	cat "$D/panic.err"
	rc=1
fi
id=$(sed -n 's/^ *boot_id \([0-9a-f-]*\).*/\1/p' "$D/panic/output.log" | head -n 1)
echo "[$(date +%H:%M:%S)] booting the guest on the same RAM, same command line"
t0=$(date +%s)
rc2=0
sh scripts/vm.sh --timeout 300 --mem 512 --ram-file "$RAM" --append "$A" --out "$D/previous" \
	-- sh scripts/demo-previous-guest.sh "$id" || rc2=$?
echo "[$(date +%H:%M:%S)] guest finished in $(( $(date +%s) - t0 ))s, exit status $rc2"
[ "$rc2" = 0 ] || rc=1
exit $rc
