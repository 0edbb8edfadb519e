#!/bin/sh
# vm.sh: a guest command that never returns is killed at --timeout, exit 124.
# --accel tcg: the first vm.sh call of a clean checkout otherwise spends up to
# 20 s on the KVM probe, which would count against the bound below.
set -eu
rc=0
t0=$(date +%s)
out=$(sh scripts/vm.sh --accel tcg --timeout 20 -- 'echo hanging; sleep 1000' 2>&1) || rc=$?
echo "$out"
[ $rc = 124 ]
[ $(( $(date +%s) - t0 )) -lt 40 ]
echo "$out" | grep -q 'guest hang: no exit after 20s'
