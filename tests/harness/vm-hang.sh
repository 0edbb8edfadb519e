#!/bin/sh
# vm.sh: a guest command that never returns is killed at --timeout, exit 124.
set -eu
rc=0
t0=$(date +%s)
out=$(sh scripts/vm.sh --timeout 20 -- 'echo hanging; sleep 1000' 2>&1) || rc=$?
echo "$out"
[ $rc = 124 ]
[ $(( $(date +%s) - t0 )) -lt 40 ]
echo "$out" | grep -q 'guest hang: no exit after 20s'
