#!/bin/sh
# vm.sh: a guest command that never returns is killed at --timeout, exit 124.
# --accel tcg: with VM_ACCEL=auto, the first vm.sh call of a clean checkout
# would spend up to 20 s on the KVM probe, which would count against the
# bound below.
set -eu
rc=0
t0=$(date +%s)
out=$(sh scripts/vm.sh --accel tcg --timeout 10 -- 'echo hanging; sleep 1000' 2>&1) || rc=$?
echo "$out"
[ $rc = 124 ]
[ $(( $(date +%s) - t0 )) -lt 25 ]
echo "$out" | grep -q 'guest hang: no exit after 10s'
