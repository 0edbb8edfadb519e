#!/bin/sh
# vm.sh: the guest command's output and exit status come back; 2 CPUs; the
# root is read-only and /tmp writable.
set -eu
rc=0
out=$(sh scripts/vm.sh --accel tcg --timeout 120 -- 'echo guest-says-hi; nproc; touch /tmp/x; touch /etc/x 2>/dev/null && echo root-writable; exit 7') || rc=$?
echo "$out"
[ $rc = 7 ]
echo "$out" | grep -qx guest-says-hi
echo "$out" | grep -qx 2
! echo "$out" | grep -q root-writable
