#!/bin/sh
# make demo: boot the patched kernel and tell the product's story.
set -u
echo "[$(date +%H:%M:%S)] booting the guest (QEMU $(cat build/vm/accel 2>/dev/null || echo auto), 2 CPUs, host / read-only over 9p)"
t0=$(date +%s)
rc=0
sh scripts/vm.sh --timeout 300 --out build/vm/demo -- sh scripts/demo-guest.sh || rc=$?
echo "[$(date +%H:%M:%S)] guest finished in $(( $(date +%s) - t0 ))s, exit status $rc"
exit $rc
