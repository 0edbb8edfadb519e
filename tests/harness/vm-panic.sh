#!/bin/sh
# vm.sh: a guest that panics fails fast with the panic text, exit 255.
set -eu
rc=0
out=$(sh scripts/vm.sh --accel tcg --timeout 120 -- 'echo c > /proc/sysrq-trigger; sleep 100' 2>&1) || rc=$?
echo "$out"
[ $rc = 255 ]
echo "$out" | grep -q 'guest died without an exit status'
echo "$out" | grep -q 'Kernel panic'
