#!/bin/sh
# vm.sh --ram-file keeps the guest's RAM in a file between two QEMU runs, as
# a warm reboot keeps it: what the first boot writes into a reserve_mem=
# region (here through ftrace's persistent boot instance) the second boot
# finds there.  The ground for keeping persistent buffers across a reboot.
set -eu
F=$(pwd)/build/check/harness/vm-ram-kept.img
rm -f "$F"
trap 'rm -f "$F"' EXIT
A="reserve_mem=2M:4096:trace trace_instance=boot_map@trace"
T=/sys/kernel/tracing/instances/boot_map
mark=kept-$$
sh scripts/vm.sh --ram-file "$F" --mem 512 --timeout 120 --append "$A" -- \
	"echo $mark > $T/trace_marker && grep -c $mark $T/trace"
out=$(sh scripts/vm.sh --ram-file "$F" --mem 512 --timeout 120 --append "$A" -- \
	"grep $mark $T/trace || true")
echo "$out"
echo "$out" | grep -q "tracing_mark_write: $mark"
# and a run without the file starts from zeroed RAM
out=$(sh scripts/vm.sh --mem 512 --timeout 120 --append "$A" -- "grep -c $mark $T/trace || true")
echo "$out"
[ "$out" = 0 ]
